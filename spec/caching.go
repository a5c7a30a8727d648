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

// cacheScopes are the values of a hint's scope.
var cacheScopes = []string{"public", "private"}

var cachingFields = fields[*Caching]{
	{key: "ttl", doc: "The default ttl of every cacheable result (server/discover, the lists, resources/read): a Go duration such as 90s or 5m.", schema: defRef("Duration"),
		decode: func(d *decoder, c *Caching, e entry) { d.cacheTTL(&c.CacheHint, e) }},
	{key: "scope", doc: "The default scope: public or private (the default).", schema: stringEnum(cacheScopes),
		decode: func(d *decoder, c *Caching, e entry) { d.cacheScope(&c.CacheHint, e) }},
	listHintField("tools", "The hint of tools/list.", func(c *Caching) **CacheHint { return &c.Tools }),
	listHintField("prompts", "The hint of prompts/list.", func(c *Caching) **CacheHint { return &c.Prompts }),
	listHintField("resources", "The hint of resources/list, and of the reads of resources without a cache of their own.",
		func(c *Caching) **CacheHint { return &c.Resources }),
	listHintField("resourceTemplates", "The hint of resources/templates/list.", func(c *Caching) **CacheHint { return &c.ResourceTemplates }),
}

// listHintField is the hint of one list in server.caching.
func listHintField(key, doc string, into func(*Caching) **CacheHint) field[*Caching] {
	return field[*Caching]{key: key, doc: doc, schema: defRef("CacheHint"),
		decode: func(d *decoder, c *Caching, e entry) { *into(c) = d.cacheHint(e.value, "caching."+key) }}
}

var cacheHintFields = fields[*CacheHint]{
	{key: "ttl", doc: "How long a client may reuse the result: a Go duration such as 90s, 5m or 1h (sent as ttlMs; default 0).", schema: defRef("Duration"),
		decode: (*decoder).cacheTTL},
	{key: "scope", doc: "Who may reuse it: public (shared caches too) or private (the client that asked; the default).", schema: stringEnum(cacheScopes),
		decode: (*decoder).cacheScope},
}

// caching decodes `server.caching`.
func (d *decoder) caching(n *yaml.Node) *Caching {
	m, ok := d.mapping(n, "caching")
	if !ok {
		return nil
	}
	c := &Caching{CacheHint: CacheHint{Pos: posOf(n)}}
	decodeMapping(d, m, c, cachingFields, func(e entry) { d.unknownKey(e, "in caching", cachingFields.keys()) })
	return c
}

// cacheHint decodes a {ttl, scope} mapping; what names it in messages.
func (d *decoder) cacheHint(n *yaml.Node, what string) *CacheHint {
	m, ok := d.mapping(n, what)
	if !ok {
		return nil
	}
	h := &CacheHint{Pos: posOf(n)}
	decodeMapping(d, m, h, cacheHintFields, func(e entry) { d.unknownKey(e, "in "+what, cacheHintFields.keys()) })
	return h
}

func (d *decoder) cacheTTL(h *CacheHint, e entry) {
	// 0 is a duration too, written bare.
	if v := deref(e.value); v.Kind == yaml.ScalarNode && v.Value == "0" {
		h.TTL, h.TTLPos = "0s", posOf(e.value)
		return
	}
	h.TTL, _ = d.str(e.value, "ttl")
	h.TTLPos = posOf(e.value)
}

func (d *decoder) cacheScope(h *CacheHint, e entry) {
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
