package gen

import (
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// The caching hints of the spec (server.caching, a resource's or
// template's cache:) become options of NewServer and Cache fields of the
// registrations, so the runtime sends them as ttlMs and cacheScope in the
// 2026-07-28 era.

// resolveHint picks ttl and scope field by field along chain, most
// specific first; set is false when nothing in the chain says anything.
func resolveHint(chain ...*spec.CacheHint) (ttl time.Duration, scope string, set bool) {
	var ttlText string
	for _, h := range chain {
		if h == nil {
			continue
		}
		if ttlText == "" {
			ttlText = h.TTL
		}
		if scope == "" {
			scope = h.Scope
		}
	}
	if ttlText == "" && scope == "" {
		return 0, "", false
	}
	ttl, _ = time.ParseDuration(ttlText) // validated; "" is 0
	if scope == "" {
		scope = "private"
	}
	return ttl, scope, true
}

// durationCode writes d in the largest unit that divides it: 10 *
// time.Minute, not 600000000000.
func durationCode(d time.Duration) jen.Code {
	if d == 0 {
		return jen.Lit(0)
	}
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}} {
		if d%u.unit == 0 {
			n := int64(d / u.unit)
			if n == 1 {
				return jen.Qual("time", u.name)
			}
			return jen.Lit(int(n)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

// cacheHintCode is a runtime.CacheHint literal.
func cacheHintCode(ttl time.Duration, scope string) jen.Code {
	return jen.Qual(runtimePkg, "CacheHint").Values(ordered(func(d *fields) {
		d.set("TTL", durationCode(ttl))
		d.set("Scope", jen.Lit(scope))
	}))
}

// cachingOptions are the NewServer options of server.caching: the
// default hint, then each list's (resources: its list and the reads of
// resources without a cache of their own).
func cachingOptions(c *spec.Caching) []jen.Code {
	if c == nil {
		return nil
	}
	var opts []jen.Code
	if ttl, scope, ok := resolveHint(&c.CacheHint); ok {
		opts = append(opts, jen.Qual(runtimePkg, "WithCaching").Call(durationCode(ttl), jen.Lit(scope)))
	}
	for _, m := range []struct {
		hint    *spec.CacheHint
		methods []string
	}{
		{c.Tools, []string{"tools/list"}},
		{c.Prompts, []string{"prompts/list"}},
		{c.Resources, []string{"resources/list", "resources/read"}},
		{c.ResourceTemplates, []string{"resources/templates/list"}},
	} {
		if m.hint == nil {
			continue
		}
		ttl, scope, _ := resolveHint(m.hint, &c.CacheHint)
		for _, method := range m.methods {
			opts = append(opts, jen.Qual(runtimePkg, "WithMethodCaching").Call(jen.Lit(method), cacheHintCode(ttl, scope)))
		}
	}
	return opts
}

// ownCache sets the Cache field of a resource or template registration
// that declares cache:, its missing fields taken from server.caching.
func (g *generator) ownCache(d *fields, h *spec.CacheHint) {
	if h == nil {
		return
	}
	var chain []*spec.CacheHint
	chain = append(chain, h)
	if c := g.spec.Server.Caching; c != nil {
		chain = append(chain, c.Resources, &c.CacheHint)
	}
	ttl, scope, _ := resolveHint(chain...)
	d.set("Cache", jen.Op("&").Add(cacheHintCode(ttl, scope)))
}
