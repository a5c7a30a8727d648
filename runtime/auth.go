package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/authz"
)

// Authorization (2025-11-25 basic/authorization.mdx; the same server rules
// in 2026-07-28): over HTTP a server may act as an OAuth 2.1 resource
// server. Every request then carries `Authorization: Bearer <token>`; the
// token is verified (TokenVerifier), must be issued for this server (its
// audience, RFC 8707) and must hold the scopes the request needs. Clients
// discover where to get a token from the protected resource metadata (RFC
// 9728) this server publishes. Over stdio authorization does not apply.
// The gate, the identity and the metadata document are package
// runtime/authz; these are their names in this package.
type (
	// AuthConfig configures resource-server mode (WithAuthorization;
	// authz.Config).
	AuthConfig = authz.Config
	// TokenVerifier verifies a bearer token and returns who it stands for
	// (authz.TokenVerifier). An error that wraps ErrInvalidToken means the
	// token is refused (401); any other error means it could not be checked
	// now (503). The runtime checks the audience itself (AuthInfo.Audience
	// must contain AuthConfig.Resource), so a verifier must fill Audience.
	TokenVerifier = authz.TokenVerifier
	// AuthInfo is the verified identity behind a request (authz.Info).
	AuthInfo = authz.Info
)

// ErrInvalidToken is wrapped by the errors of a TokenVerifier that refuses
// a token (expired, bad signature, wrong issuer…): the client gets 401
// (authz.ErrInvalidToken).
var ErrInvalidToken = authz.ErrInvalidToken

// AuthFromContext returns the verified identity of the request a handler
// serves, when the server runs with WithAuthorization; ok is false on stdio
// and without authorization. Do not modify it.
func AuthFromContext(ctx context.Context) (info *AuthInfo, ok bool) { return authz.FromContext(ctx) }

// ContextWithAuth returns ctx carrying info, as AuthFromContext reads it:
// for tests of handlers, and for transports of your own.
func ContextWithAuth(ctx context.Context, info *AuthInfo) context.Context {
	return authz.WithInfo(ctx, info)
}
