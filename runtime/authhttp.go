package runtime

import (
	"errors"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/oauth"
)

// The resource-server gate of the HTTP transport: it runs on every request
// after the Host and Origin checks, and refuses with the status and the
// WWW-Authenticate challenge of RFC 6750 §3 that the MCP authorization spec
// asks for.

// authGate is an httpHandler's authorization, built once from AuthConfig.
type authGate struct {
	cfg         *AuthConfig
	metadataURL string
}

func newAuthGate(cfg *AuthConfig) (*authGate, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &authGate{cfg: cfg, metadataURL: cfg.MetadataURL()}, nil
}

// authenticate verifies r's bearer token. On success it returns r with the
// identity in its context (handlers read it with AuthFromContext); else it
// has answered and returns nil.
func (g *authGate) authenticate(w http.ResponseWriter, r *http.Request, h *httpHandler) *http.Request {
	values := r.Header.Values("Authorization")
	if len(values) == 0 {
		g.challenge(w, http.StatusUnauthorized, "", "", g.cfg.Scopes, "unauthorized: this server needs an OAuth bearer token (Authorization: Bearer …)")
		return nil
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// Another scheme is no bearer token: ask for one (RFC 6750 §3.1).
		g.challenge(w, http.StatusUnauthorized, "", "", g.cfg.Scopes, "unauthorized: only the Bearer authorization scheme is accepted")
		return nil
	}
	token = strings.TrimLeft(token, " ")
	if len(values) > 1 || token == "" || strings.ContainsAny(token, " \t") || len(token) > oauth.MaxTokenBytes {
		g.challenge(w, http.StatusBadRequest, "invalid_request", "malformed Authorization header", nil,
			"bad request: send one Authorization header, \"Bearer\" followed by one token")
		return nil
	}
	info, err := g.cfg.Verifier.VerifyToken(r.Context(), token)
	if err == nil && info == nil {
		err = errors.New("the verifier returned no identity")
	}
	if err != nil {
		if errors.Is(err, ErrInvalidToken) {
			g.challenge(w, http.StatusUnauthorized, "invalid_token", err.Error(), g.cfg.Scopes, "unauthorized: "+sanitize(err.Error(), 400))
			return nil
		}
		h.srv.cfg.logger.Warn("runtime: token verification failed", "error", err)
		w.Header().Set("Retry-After", "5")
		httpError(w, http.StatusServiceUnavailable, "", errorf(CodeInternalError, "service unavailable: the token cannot be verified now"))
		return nil
	}
	if !info.hasIdentity() {
		// Requests of such tokens could not be told apart: they would share
		// sessions, idempotency records and request states.
		g.challenge(w, http.StatusUnauthorized, "invalid_token", "the token names neither a subject (sub) nor a client (client_id)", g.cfg.Scopes,
			"unauthorized: the token names neither a subject (sub) nor a client (client_id)")
		return nil
	}
	if !oauth.AudienceHas(info.Audience, g.cfg.Resource) {
		// RFC 8707 §2 / MCP: a token issued for another resource must not
		// be accepted, or a token could be replayed from server to server.
		g.challenge(w, http.StatusUnauthorized, "invalid_token", "the token is not for this resource", g.cfg.Scopes,
			"unauthorized: the token's audience does not include "+quote(g.cfg.Resource))
		return nil
	}
	if !info.hasAll(g.cfg.Scopes) {
		g.insufficientScope(w, "", g.cfg.Scopes)
		return nil
	}
	return r.WithContext(ContextWithAuth(r.Context(), info))
}

// checkToolScopes answers 403 insufficient_scope, and returns false, when
// r is a tools/call of a tool whose scopes its token lacks. With lists by
// scope such a tool is hidden: the dispatcher answers it as an unknown
// tool, so the answer does not tell that it exists (listsbyscope.go).
func (g *authGate) checkToolScopes(w http.ResponseWriter, r *http.Request, h *httpHandler, env *envelope, echo string) bool {
	if string(env.method) != methodToolsCall || h.srv.cfg.listsByScope {
		return true
	}
	name, _ := stringMember(h.srv.directCall(env.method, env.Params), "name") // call_tool: the tool it calls
	te := h.srv.tools.snapshot().byKey[name]
	if te == nil || len(te.tool.Scopes) == 0 {
		return true // an unknown tool is the dispatcher's to refuse
	}
	info, _ := AuthFromContext(r.Context())
	if info != nil && info.hasAll(te.tool.Scopes) {
		return true
	}
	// Name every scope the call needs, not only the missing ones nor the
	// ones the token has (2026-07-28: the client keeps what it was granted
	// and asks for the union).
	g.insufficientScope(w, echo, scopeUnion(g.cfg.Scopes, te.tool.Scopes))
	return false
}

// checkOwner answers 403, and returns false, when r's subject is not the
// one that created the session hs: a session id that leaks must not let
// someone else act in the session.
func (g *authGate) checkOwner(w http.ResponseWriter, r *http.Request, hs *httpSession, echo string) bool {
	info, _ := AuthFromContext(r.Context())
	if info != nil && info.owner() == hs.owner {
		return true
	}
	httpError(w, http.StatusForbidden, echo, errorf(CodeInvalidRequest, "forbidden: this session belongs to another user; initialize a session of your own"))
	return false
}

func (g *authGate) insufficientScope(w http.ResponseWriter, echo string, scopes []string) {
	g.challengeID(w, http.StatusForbidden, echo, "insufficient_scope", "additional scopes are required", scopes,
		"forbidden: insufficient scope; this request needs the scopes "+quote(strings.Join(scopes, " ")))
}

func (g *authGate) challenge(w http.ResponseWriter, status int, code, description string, scopes []string, message string) {
	g.challengeID(w, status, "", code, description, scopes, message)
}

// challengeID answers status with a WWW-Authenticate challenge (RFC 6750
// §3: error, error_description, scope; RFC 9728 §5.1: resource_metadata)
// and a JSON-RPC error carrying message.
func (g *authGate) challengeID(w http.ResponseWriter, status int, echo, code, description string, scopes []string, message string) {
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
	w.Header().Set("WWW-Authenticate", b.String())
	httpError(w, status, echo, errorf(CodeInvalidRequest, "%s", message))
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
