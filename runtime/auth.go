package runtime

import (
	"context"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/authz"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
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

// What of authorization needs the server: the gate's hooks (a tool's
// scopes, the metadata document naming the server and its tools' scopes).

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
	return streamhttp.WithAuthorizer(func(fs transport.FullServer) (streamhttp.Authorizer, error) {
		s := fs.(*Server)
		return authz.NewGate(&cfg, authz.Hooks{
			Metadata:   s.ProtectedResourceMetadataHandler(cfg),
			CallScopes: s.callScopes,
			Logger:     s.cfg.logger,
		})
	})
}

// callScopes returns the scopes of the tool a tools/call (or call_tool)
// calls, for the gate to refuse with 403 insufficient_scope. With lists by
// scope such a tool is hidden instead: the dispatcher answers it as an
// unknown tool, so the answer does not tell that it exists
// (WithListsByScope, below).
func (s *Server) callScopes(m transport.Message) []string {
	if string(m.Method) != methodToolsCall || s.cfg.listsByScope {
		return nil
	}
	name, _ := jsonwire.StringMember(s.directCall(m.Method, m.Params), "name") // call_tool: the tool it calls
	if te := s.tools.snapshot().byKey[name]; te != nil {
		return te.tool.Scopes // an unknown tool is the dispatcher's to refuse
	}
	return nil
}

// ProtectedResourceMetadataHandler serves the protected resource metadata
// of s under cfg (RFC 9728) to GET, with CORS open to any origin (the
// document is public, and browser-based clients fetch it). Mount it at
// each of cfg.MetadataPaths() when you mount HTTPHandler in your own mux;
// ListenAndServe does it itself.
func (s *Server) ProtectedResourceMetadataHandler(cfg AuthConfig) http.Handler {
	return authz.MetadataHandler(func() *authz.Metadata {
		// Built now: the tools, and so the scopes they need, may change
		// while serving.
		var scopes [][]string
		for _, te := range s.tools.snapshot().list {
			scopes = append(scopes, te.tool.Scopes)
		}
		name := s.info.Title
		if name == "" {
			name = s.info.Name
		}
		return cfg.Metadata(name, scopes...)
	})
}

// Lists by scope: with WithAuthorization, a tool whose Scopes the caller's
// token does not grant would be refused with 403 insufficient_scope. With
// WithListsByScope such a tool is not listed either, and a call of it is
// answered as a call of an unknown tool: each caller sees the tools it may
// call, and a model is not shown tools it cannot use. The lists then depend
// on the caller, so their modern cacheScope is "private". Over stdio, and
// without a verified token, scopes do not apply and nothing is hidden.

// WithListsByScope hides from each caller the tools its token's scopes do
// not allow (see above).
func WithListsByScope() Option { return func(c *config) { c.listsByScope = true } }
