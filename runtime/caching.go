package runtime

import "time"

// Caching hints of the 2026-07-28 era (CacheableResult): the results of
// server/discover, the lists and resources/read carry ttlMs, how long a
// client may reuse them, and cacheScope, whether a shared cache may serve
// them to other clients ("public") or only to the client that asked
// ("private"). WithCaching sets the server's default; WithMethodCaching one
// method's; a Resource or ResourceTemplate its own reads'. The legacy era
// has no such fields.

// CacheHint is how long (TTL, sent in whole milliseconds; < 0 counts as 0)
// and for whom (Scope: "public", or "private", which any other value counts
// as) a client may reuse a result.
type CacheHint struct {
	TTL   time.Duration
	Scope string
}

// normalized is h as it goes on the wire.
func (h CacheHint) normalized() *CacheHint {
	h.TTL = max(h.TTL, 0)
	if h.Scope != "public" {
		h.Scope = "private"
	}
	return &h
}

// WithMethodCaching sets the caching hints of one method's results, over
// WithCaching's: method is "server/discover", "tools/list", "prompts/list",
// "resources/list", "resources/templates/list" or "resources/read" (a
// Resource's or ResourceTemplate's own Cache wins for its reads). Other
// methods carry no hints, and are ignored.
func WithMethodCaching(method string, h CacheHint) Option {
	return func(c *config) {
		if !isCacheable(method) {
			return
		}
		if c.cacheByMethod == nil {
			c.cacheByMethod = make(map[string]*CacheHint)
		}
		c.cacheByMethod[method] = h.normalized()
	}
}

// cacheFor is the hint of a cacheable method's results.
func (s *Server) cacheFor(method string) *CacheHint {
	if h := s.cfg.cacheByMethod[method]; h != nil {
		return h
	}
	return s.cacheDefault
}

// readCache is the hint of a resources/read of uri, which m matched when a
// template serves it: the resource's or template's own, else the method's.
func (s *Server) readCache(uri string, m *templateMatch) *CacheHint {
	if m == nil {
		if re := s.resources.snapshot().byKey[uri]; re != nil && re.cache != nil {
			return re.cache
		}
	} else {
		for _, te := range s.templates.snapshot().list {
			if te.t == m.t && te.cache != nil {
				return te.cache
			}
		}
	}
	return s.cacheFor(methodResourcesRead)
}

// ownCache is the normalized copy of a Resource's or template's Cache.
func ownCache(h *CacheHint) *CacheHint {
	if h == nil {
		return nil
	}
	return h.normalized()
}
