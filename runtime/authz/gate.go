package authz

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/oauth"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The resource-server gate of the HTTP transport: it runs on every request
// after the Host and Origin checks, and refuses with the status and the
// WWW-Authenticate challenge of RFC 6750 §3 that the MCP authorization spec
// asks for.

// JSON-RPC error codes of the refusals (JSON-RPC 2.0 §5.1).
const (
	codeInvalidRequest = -32600
	codeInternalError  = -32603
)

// Hooks is what the Gate asks of the server it guards.
type Hooks struct {
	// Metadata serves the metadata document (Mount mounts it at
	// Config.MetadataPaths).
	Metadata http.Handler
	// CallScopes returns the scopes a request needs beyond Config.Scopes
	// (a tools/call: its tool's), or nil.
	CallScopes func(m transport.Message) []string
	// Logger logs the verifier's failures to tell (503).
	Logger *slog.Logger
}

// Gate is a Streamable HTTP handler's authorization
// (streamhttp.Authorizer), built once from a Config.
type Gate struct {
	cfg         *Config
	hooks       Hooks
	metadataURL string
}

var _ streamhttp.Authorizer = (*Gate)(nil)

// NewGate returns the gate of cfg, or what cfg lacks (Config.Check).
func NewGate(cfg *Config, hooks Hooks) (*Gate, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if hooks.Logger == nil {
		hooks.Logger = slog.New(slog.DiscardHandler)
	}
	return &Gate{cfg: cfg, hooks: hooks, metadataURL: cfg.MetadataURL()}, nil
}

// Mount serves the metadata document at its well-known paths.
func (g *Gate) Mount(mux *http.ServeMux) {
	for _, p := range g.cfg.MetadataPaths() {
		mux.Handle(p, g.hooks.Metadata)
	}
}

// Authenticate verifies r's bearer token. On success it returns r with the
// identity in its context (FromContext reads it); else the refusal.
func (g *Gate) Authenticate(r *http.Request) (*http.Request, *streamhttp.Refusal) {
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		return nil, g.challenge(http.StatusUnauthorized, "", "", g.cfg.Scopes, "unauthorized: this server needs an OAuth bearer token (Authorization: Bearer …)")
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// Another scheme is no bearer token: ask for one (RFC 6750 §3.1).
		return nil, g.challenge(http.StatusUnauthorized, "", "", g.cfg.Scopes, "unauthorized: only the Bearer authorization scheme is accepted")
	}
	token = strings.TrimLeft(token, " ")
	if len(values) > 1 || token == "" || strings.ContainsAny(token, " \t") || len(token) > oauth.MaxTokenBytes {
		return nil, g.challenge(http.StatusBadRequest, "invalid_request", "malformed Authorization header", nil,
			"bad request: send one Authorization header, \"Bearer\" followed by one token")
	}
	info, err := g.cfg.Verifier.VerifyToken(r.Context(), token)
	if err == nil && info == nil {
		err = errors.New("the verifier returned no identity")
	}
	if err != nil {
		if errors.Is(err, ErrInvalidToken) {
			return nil, g.challenge(http.StatusUnauthorized, "invalid_token", err.Error(), g.cfg.Scopes, "unauthorized: "+safetext.Sanitize(err.Error(), 400))
		}
		g.hooks.Logger.Warn("runtime: token verification failed", "error", err)
		return nil, &streamhttp.Refusal{Status: http.StatusServiceUnavailable, RetryAfter: "5",
			Error: transport.Error{Code: codeInternalError, Message: "service unavailable: the token cannot be verified now"}}
	}
	if !info.HasIdentity() {
		// Requests of such tokens could not be told apart: they would share
		// sessions, idempotency records and request states.
		return nil, g.challenge(http.StatusUnauthorized, "invalid_token", "the token names neither a subject (sub) nor a client (client_id)", g.cfg.Scopes,
			"unauthorized: the token names neither a subject (sub) nor a client (client_id)")
	}
	if !oauth.AudienceHas(info.Audience, g.cfg.Resource) {
		// RFC 8707 §2 / MCP: a token issued for another resource must not
		// be accepted, or a token could be replayed from server to server.
		return nil, g.challenge(http.StatusUnauthorized, "invalid_token", "the token is not for this resource", g.cfg.Scopes,
			"unauthorized: the token's audience does not include "+safetext.Quote(g.cfg.Resource))
	}
	if !info.HasAll(g.cfg.Scopes) {
		return nil, g.insufficientScope(g.cfg.Scopes)
	}
	return r.WithContext(WithInfo(r.Context(), info)), nil
}

// CheckCall refuses with 403 insufficient_scope a request (a tools/call)
// that needs scopes (Hooks.CallScopes) r's token lacks.
func (g *Gate) CheckCall(r *http.Request, m transport.Message) *streamhttp.Refusal {
	if g.hooks.CallScopes == nil {
		return nil
	}
	scopes := g.hooks.CallScopes(m)
	if len(scopes) == 0 {
		return nil
	}
	info, _ := FromContext(r.Context())
	if info != nil && info.HasAll(scopes) {
		return nil
	}
	// Name every scope the call needs, not only the missing ones nor the
	// ones the token has (2026-07-28: the client keeps what it was granted
	// and asks for the union).
	return g.insufficientScope(ScopeUnion(g.cfg.Scopes, scopes))
}

func (g *Gate) insufficientScope(scopes []string) *streamhttp.Refusal {
	return g.challenge(http.StatusForbidden, "insufficient_scope", "additional scopes are required", scopes,
		"forbidden: insufficient scope; this request needs the scopes "+safetext.Quote(strings.Join(scopes, " ")))
}

// challenge refuses with status and a WWW-Authenticate challenge (RFC 6750
// §3: error, error_description, scope; RFC 9728 §5.1: resource_metadata)
// and a JSON-RPC error carrying message.
func (g *Gate) challenge(status int, code, description string, scopes []string, message string) *streamhttp.Refusal {
	var b strings.Builder
	b.WriteString("Bearer ")
	param := func(name, value string) {
		if b.Len() > len("Bearer ") {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString(`="`)
		b.WriteString(challengeValue(value))
		b.WriteByte('"')
	}
	if code != "" {
		param("error", code)
	}
	if description != "" {
		param("error_description", description)
	}
	param("resource_metadata", g.metadataURL)
	if len(scopes) > 0 {
		param("scope", strings.Join(scopes, " "))
	}
	return &streamhttp.Refusal{Status: status, Challenge: b.String(), Error: transport.Error{Code: codeInvalidRequest, Message: message}}
}

// challengeValue keeps what a quoted challenge parameter may hold (RFC 6750
// §3: printable ASCII without '"' and '\'), at most 200 bytes.
func challengeValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 200; i++ {
		if c := s[i]; c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' {
			b.WriteByte(c)
		}
	}
	return b.String()
}
