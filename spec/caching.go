package spec

import (
	"time"

	"gopkg.in/yaml.v3"
)

// Caching hints of the 2026-07-28 era (ttlMs, cacheScope on the results of
// server/discover, the lists and resources/read), declared where a reviewer
// sees them: `server.caching` for the server's default and each list, and
// `cache:` on a resource or template for its reads.
//
//	server:
//	  caching:
//	    ttl: 1m            # default for every cacheable result
//	    scope: public      # public or private (the default)
//	    tools: {ttl: 10m}  # tools/list
//	    prompts: {…}       # prompts/list
//	    resources: {…}     # resources/list, and resources/read without a cache of its own
//	    resourceTemplates: {…} # resources/templates/list
//	resources:
//	  config:
//	    cache: {ttl: 1h, scope: public}
//
// A hint leaves out what it inherits: ttl and scope come from
// server.caching when a list or resource does not say; the runtime's
// default is ttl 0 and private (nothing is reused without asking again).

// CacheHint is a caching hint: ttl (a Go duration, such as 90s or 5m) and
// scope ("public" or "private"); "" for what is inherited.
type CacheHint struct {
	Pos      Pos
	TTL      string
	Scope    string
	TTLPos   Pos
	ScopePos Pos
}

// Caching is `server.caching`: the server's default hint and each list's.
type Caching struct {
	CacheHint
	Tools, Prompts, Resources, ResourceTemplates *CacheHint
}

var (
	cacheHintKeys = []string{"ttl", "scope"}
	cachingKeys   = []string{"ttl", "scope", "tools", "prompts", "resources", "resourceTemplates"}
	cacheScopes   = []string{"public", "private"}
)

// caching decodes `server.caching`.
func (d *decoder) caching(n *yaml.Node) *Caching {
	m, ok := d.mapping(n, "caching")
	if !ok {
		return nil
	}
	c := &Caching{CacheHint: CacheHint{Pos: posOf(n)}}
	for _, e := range d.entries(m, "key") {
		switch e.key {
		case "ttl", "scope":
			d.cacheField(&c.CacheHint, e)
		case "tools":
			c.Tools = d.cacheHint(e.value, "caching.tools")
		case "prompts":
			c.Prompts = d.cacheHint(e.value, "caching.prompts")
		case "resources":
			c.Resources = d.cacheHint(e.value, "caching.resources")
		case "resourceTemplates":
			c.ResourceTemplates = d.cacheHint(e.value, "caching.resourceTemplates")
		default:
			d.unknownKey(e, "in caching", cachingKeys)
		}
	}
	return c
}

// cacheHint decodes a {ttl, scope} mapping; what names it in messages.
func (d *decoder) cacheHint(n *yaml.Node, what string) *CacheHint {
	m, ok := d.mapping(n, what)
	if !ok {
		return nil
	}
	h := &CacheHint{Pos: posOf(n)}
	for _, e := range d.entries(m, "key") {
		if e.key == "ttl" || e.key == "scope" {
			d.cacheField(h, e)
			continue
		}
		d.unknownKey(e, "in "+what, cacheHintKeys)
	}
	return h
}

func (d *decoder) cacheField(h *CacheHint, e entry) {
	if e.key == "ttl" {
		// 0 is a duration too, written bare.
		if v := deref(e.value); v.Kind == yaml.ScalarNode && v.Value == "0" {
			h.TTL, h.TTLPos = "0s", posOf(e.value)
			return
		}
		h.TTL, _ = d.str(e.value, "ttl")
		h.TTLPos = posOf(e.value)
		return
	}
	h.Scope, _ = d.str(e.value, "scope")
	h.ScopePos = posOf(e.value)
}

// cacheHint checks a hint: a ttl that is a duration of whole milliseconds,
// not negative; a scope that is public or private.
func (v *validator) cacheHint(h *CacheHint) {
	if h == nil {
		return
	}
	if h.TTL != "" {
		d, err := time.ParseDuration(h.TTL)
		switch {
		case err != nil:
			v.errorf(h.TTLPos, "ttl %q is not a duration; write it as 90s, 5m or 1h", h.TTL)
		case d < 0:
			v.errorf(h.TTLPos, "ttl %q is negative; a result is reused for 0s or more", h.TTL)
		case d%time.Millisecond != 0:
			v.errorf(h.TTLPos, "ttl %q is not a whole number of milliseconds (ttlMs is an integer)", h.TTL)
		}
	}
	if h.Scope != "" && h.Scope != "public" && h.Scope != "private" {
		v.errorf(h.ScopePos, "scope %q must be public or private%s", h.Scope, didYouMean(h.Scope, cacheScopes))
	}
}

// cachingHints checks every hint of the spec.
func (v *validator) cachingHints() {
	if c := v.s.Server.Caching; c != nil {
		for _, h := range []*CacheHint{&c.CacheHint, c.Tools, c.Prompts, c.Resources, c.ResourceTemplates} {
			v.cacheHint(h)
		}
	}
	for _, r := range v.s.Resources {
		if r != nil {
			v.cacheHint(r.Cache)
		}
	}
	for _, t := range v.s.ResourceTemplates {
		if t != nil {
			v.cacheHint(t.Cache)
		}
	}
}
