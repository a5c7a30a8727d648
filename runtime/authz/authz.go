package authz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// Config configures resource-server mode (runtime.WithAuthorization).
type Config struct {
	// Resource is the canonical URI of this MCP server, as clients reach it
	// (e.g. https://mcp.example.com/mcp): tokens must name it in their
	// audience, and the metadata document names it as "resource". Required.
	Resource string
	// AuthorizationServers are the issuer URLs of the authorization servers
	// that clients get tokens from. At least one is required.
	AuthorizationServers []string
	// Verifier checks bearer tokens (signed access tokens checked against
	// the authorization server's keys, or your own, e.g. token
	// introspection). Required.
	Verifier TokenVerifier
	// Scopes are the scopes every request needs, named in the challenge of
	// a 401 so that a client asks for them first. A token without them gets
	// 403 insufficient_scope. Optional.
	Scopes []string
	// ScopesSupported is the metadata's scopes_supported; nil lists Scopes
	// and the scopes of every registered tool.
	ScopesSupported []string
	// ResourceName is the metadata's resource_name; "" uses the server's
	// title, or its name.
	ResourceName string
	// ResourceDocumentation is the metadata's resource_documentation, a URL
	// of human-readable documentation; optional.
	ResourceDocumentation string
}

// TokenVerifier verifies a bearer token and returns who it stands for. An
// error that wraps ErrInvalidToken means the token is refused (401); any
// other error means it could not be checked now (503). The Gate checks
// the audience itself (Info.Audience must contain Config.Resource), so a
// verifier must fill Audience.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*Info, error)
}

// ErrInvalidToken is wrapped by the errors of a TokenVerifier that refuses
// a token (expired, bad signature, wrong issuer…): the client gets 401.
var ErrInvalidToken = errors.New("invalid token")

// Info is the verified identity behind a request.
type Info struct {
	Subject  string    // the sub claim: the user (or client) the token stands for
	Issuer   string    // the iss claim
	Audience []string  // the aud claim: the resources the token is for
	Scopes   []string  // the scopes granted
	ClientID string    // the client_id (or azp) claim, if any
	Expiry   time.Time // when the token expires

	// Claims holds every claim of the token, raw, for what the fields above
	// do not cover (roles, tenant…); nil for verifiers without claims.
	Claims map[string]json.RawMessage
}

// HasScope reports whether the token grants scope.
func (a *Info) HasScope(scope string) bool { return slices.Contains(a.Scopes, scope) }

// HasAll reports whether the token grants every one of scopes.
func (a *Info) HasAll(scopes []string) bool {
	for _, s := range scopes {
		if !a.HasScope(s) {
			return false
		}
	}
	return true
}

// Owner identifies whom a session, an idempotency record or a request
// state belongs to: the subject as named by its issuer (a subject is
// unique per issuer only), or, for a token without sub (a client acting for
// itself), its client. Each part is quoted, and the kind of identity named,
// so that no two identities share a key: sub "client:x" is not client_id
// "x", and no issuer or subject can forge a separator.
func (a *Info) Owner() string {
	if a.Subject != "" {
		return strconv.Quote(a.Issuer) + " sub " + strconv.Quote(a.Subject)
	}
	return strconv.Quote(a.Issuer) + " client " + strconv.Quote(a.ClientID)
}

// HasIdentity reports whether the token names whom it stands for: a
// subject or a client. Two tokens naming neither could not be told apart.
func (a *Info) HasIdentity() bool { return a.Subject != "" || a.ClientID != "" }

type infoKey struct{}

// FromContext returns the verified identity of the request ctx serves;
// ok is false without one. Do not modify it.
func FromContext(ctx context.Context) (info *Info, ok bool) {
	info, ok = ctx.Value(infoKey{}).(*Info)
	return info, ok
}

// WithInfo returns ctx carrying info, as FromContext reads it.
func WithInfo(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// Check reports what is missing from cfg, or nil.
func (cfg *Config) Check() error {
	u, err := url.Parse(cfg.Resource)
	switch {
	case cfg.Resource == "":
		return errors.New("AuthConfig.Resource is required: the URI clients reach this server by, e.g. https://mcp.example.com/mcp")
	case err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return fmt.Errorf("AuthConfig.Resource %q must be an absolute http(s) URI", cfg.Resource)
	case u.Fragment != "" || u.RawQuery != "":
		return fmt.Errorf("AuthConfig.Resource %q must have no query or fragment (RFC 8707)", cfg.Resource)
	case len(cfg.AuthorizationServers) == 0:
		return errors.New("AuthConfig.AuthorizationServers needs at least one issuer URL")
	case cfg.Verifier == nil:
		return errors.New("AuthConfig.Verifier is required")
	}
	for _, as := range cfg.AuthorizationServers {
		if u, err := url.Parse(as); err != nil || !u.IsAbs() || u.Host == "" {
			return fmt.Errorf("AuthConfig.AuthorizationServers: %q is not an absolute URL", as)
		}
	}
	return nil
}

// ScopeUnion returns a, then the members of b not in a.
func ScopeUnion(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
