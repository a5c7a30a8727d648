// Package authz is the OAuth 2.1 resource server of the MCP authorization
// spec (2025-11-25 basic/authorization.mdx; the same server rules in
// 2026-07-28) for the Streamable HTTP transport. It promises:
//
//   - a request passes the Gate only with one well-formed
//     `Authorization: Bearer <token>` header whose token the
//     TokenVerifier accepts, that names a subject or a client, whose
//     audience names Config.Resource (RFC 8707) and that grants
//     Config.Scopes;
//   - every refusal carries the status and the WWW-Authenticate challenge
//     of RFC 6750 §3 with the resource_metadata of RFC 9728 §5.1: 401 for
//     a missing or refused token, 400 for a malformed header, 403
//     insufficient_scope (naming every scope the request needs) for
//     missing scopes, 503 when the verifier cannot tell;
//   - the protected resource metadata document (RFC 9728) is served at
//     Config.MetadataPaths, open to any origin;
//   - Info.Owner keys what belongs to an identity (sessions, idempotency
//     records, request states, quotas) so that no two identities share a
//     key.
//
// Package runtime names these types AuthConfig, AuthInfo, TokenVerifier
// and ErrInvalidToken and builds the Gate (runtime.WithAuthorization); a
// tool's scopes are runtime's, handed to the Gate as Hooks.CallScopes.
// Package runtime/jwtauth is a TokenVerifier for signed access tokens.
package authz
