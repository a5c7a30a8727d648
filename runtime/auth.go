package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/streamhttp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Authorization (2025-11-25 basic/authorization.mdx; the same server rules
// in 2026-07-28): over HTTP a server may act as an OAuth 2.1 resource
// server. Every request then carries `Authorization: Bearer <token>`; the
// token is verified (TokenVerifier), must be issued for this server (its
// audience, RFC 8707) and must hold the scopes the request needs. Clients
// discover where to get a token from the protected resource metadata (RFC
// 9728) this server publishes. Over stdio authorization does not apply.

// AuthConfig configures resource-server mode (WithAuthorization).
type AuthConfig struct {
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

// WithAuthorization turns on OAuth 2.1 resource-server mode. Every request
// to the endpoint needs a valid bearer token for cfg.Resource; otherwise:
//   - 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`
//     when the token is missing, and with error="invalid_token" when it is
//     expired, badly signed, from another issuer or for another resource;
//   - 400 with error="invalid_request" for a malformed Authorization header;
//   - 403 with error="insufficient_scope" and the scopes needed (step-up)
//     when the token lacks cfg.Scopes, or a tools/call lacks the tool's
//     Scopes;
//   - 403 when a session is used by another subject than the one that
//     created it;
//   - 503 when the verifier cannot tell (e.g. its key set is unreachable).
//
// The verified identity reaches handlers through AuthFromContext.
// ListenAndServe (and Serve) also serve the metadata document at its
// well-known paths; with HTTPHandler in your own mux, mount
// Server.ProtectedResourceMetadataHandler at cfg.MetadataPaths(). The
// handler panics (ListenAndServe returns an error) when cfg is incomplete.
func WithAuthorization(cfg AuthConfig) HTTPOption {
	return streamhttp.WithAuthorizer(func(srv transport.FullServer) (streamhttp.Authorizer, error) {
		return newAuthGate(srv.(*Server), &cfg)
	})
}

// TokenVerifier verifies a bearer token and returns who it stands for. An
// error that wraps ErrInvalidToken means the token is refused (401); any
// other error means it could not be checked now (503). The runtime checks
// the audience itself (AuthInfo.Audience must contain AuthConfig.Resource),
// so a verifier must fill Audience.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*AuthInfo, error)
}

// ErrInvalidToken is wrapped by the errors of a TokenVerifier that refuses
// a token (expired, bad signature, wrong issuer…): the client gets 401.
var ErrInvalidToken = errors.New("invalid token")

// AuthInfo is the verified identity behind a request.
type AuthInfo struct {
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
func (a *AuthInfo) HasScope(scope string) bool { return slices.Contains(a.Scopes, scope) }

// hasAll reports whether the token grants every one of scopes.
func (a *AuthInfo) hasAll(scopes []string) bool {
	for _, s := range scopes {
		if !a.HasScope(s) {
			return false
		}
	}
	return true
}

// owner identifies whom a session, an idempotency record or a
// requestState belongs to: the subject as named by its issuer (a subject is
// unique per issuer only), or, for a token without sub (a client acting for
// itself), its client. Each part is quoted, and the kind of identity named,
// so that no two identities share a key: sub "client:x" is not client_id
// "x", and no issuer or subject can forge a separator.
func (a *AuthInfo) owner() string {
	if a.Subject != "" {
		return strconv.Quote(a.Issuer) + " sub " + strconv.Quote(a.Subject)
	}
	return strconv.Quote(a.Issuer) + " client " + strconv.Quote(a.ClientID)
}

// hasIdentity reports whether the token names whom it stands for: a
// subject or a client. Two tokens naming neither could not be told apart.
func (a *AuthInfo) hasIdentity() bool { return a.Subject != "" || a.ClientID != "" }

type authKey struct{}

// AuthFromContext returns the verified identity of the request a handler
// serves, when the server runs with WithAuthorization; ok is false on stdio
// and without authorization. Do not modify it.
func AuthFromContext(ctx context.Context) (info *AuthInfo, ok bool) {
	info, ok = ctx.Value(authKey{}).(*AuthInfo)
	return info, ok
}

// ContextWithAuth returns ctx carrying info, as AuthFromContext reads it:
// for tests of handlers, and for transports of your own.
func ContextWithAuth(ctx context.Context, info *AuthInfo) context.Context {
	return context.WithValue(ctx, authKey{}, info)
}

// check reports what is missing from cfg, or nil.
func (cfg *AuthConfig) check() error {
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

// scopeUnion returns a, then the members of b not in a.
func scopeUnion(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
