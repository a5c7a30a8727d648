package jwtauth

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/authz"
)

// tokenCache remembers tokens a Verifier accepted, by their SHA-256, so
// that a client sending the same token on every request costs one hash
// instead of one signature check (10 to 50 times the cost of the rest of a
// tools/call). Entries end at the token's expiry at the latest.
type tokenCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]cachedToken
}

type cachedToken struct {
	info  *authz.Info
	until time.Time
}

// maxCachedTokens bounds the cache: past it, expired entries go, and if
// none had, all of them (tokens are then verified again, nothing worse).
const maxCachedTokens = 4096

func (c *tokenCache) get(token string, now time.Time) *authz.Info {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		return nil
	}
	if !now.Before(e.until) {
		delete(c.m, key)
		return nil
	}
	return e.info
}

func (c *tokenCache) put(token string, info *authz.Info, until, now time.Time) {
	if !now.Before(until) {
		return
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[[sha256.Size]byte]cachedToken)
	}
	if len(c.m) >= maxCachedTokens {
		for k, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= maxCachedTokens {
			clear(c.m)
		}
	}
	c.m[key] = cachedToken{info: info, until: until}
}
