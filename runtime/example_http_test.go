package runtime_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// staticTokens is a TokenVerifier for the example: it knows one token.
// A real server uses package runtime/jwtauth (signed access tokens checked
// against the authorization server's keys) or token introspection.
type staticTokens map[string]*runtime.AuthInfo

func (s staticTokens) VerifyToken(ctx context.Context, token string) (*runtime.AuthInfo, error) {
	if info, ok := s[token]; ok {
		return info, nil
	}
	return nil, runtime.ErrInvalidToken // 401 invalid_token
}

// postMessage sends one JSON-RPC message to the endpoint, with a bearer token
// unless it is "", and prints the status, the challenge of a refusal and
// the body.
func postMessage(url, token, session, body string) (sessionID string) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	if c := resp.Header.Get("WWW-Authenticate"); c != "" {
		fmt.Println("WWW-Authenticate:", c)
	}
	if resp.StatusCode == http.StatusOK {
		fmt.Println(strings.TrimSpace(string(b)))
	}
	return resp.Header.Get("Mcp-Session-Id")
}

// Serving Streamable HTTP as an OAuth 2.1 resource server: HTTPHandler
// with WithAuthorization refuses a request without a valid token for this
// server (401, with a challenge that names the protected resource
// metadata), and a handler reads who called with AuthFromContext. Mount
// the metadata document beside it (ListenAndServe does both).
func ExampleWithAuthorization() {
	srv := runtime.NewServer(runtime.Implementation{Name: "notes", Version: "1.0.0"})
	srv.AddTool(runtime.Tool{Name: "whoami", Description: "Says who is calling.",
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			who, _ := runtime.AuthFromContext(ctx)
			return runtime.TextResult("you are " + who.Subject), nil
		}})

	const resource = "https://mcp.example.com/mcp" // the audience tokens must name
	auth := runtime.AuthConfig{
		Resource:             resource,
		AuthorizationServers: []string{"https://auth.example.com"},
		Verifier: staticTokens{"ada-token": {
			Subject: "ada", Issuer: "https://auth.example.com", Audience: []string{resource},
		}},
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(runtime.WithAuthorization(auth)))
	for _, path := range auth.MetadataPaths() {
		mux.Handle(path, srv.ProtectedResourceMetadataHandler(auth))
	}
	ts := httptest.NewServer(mux)
	defer ts.Close()

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`
	postMessage(ts.URL+"/mcp", "", "", initialize)
	postMessage(ts.URL+"/mcp", "stolen-token", "", initialize)
	session := postMessage(ts.URL+"/mcp", "ada-token", "", initialize)
	postMessage(ts.URL+"/mcp", "ada-token", session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	postMessage(ts.URL+"/mcp", "ada-token", session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`)

	// What the challenge points to, for the client to find the authorization server.
	resp, err := http.Get(ts.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	doc, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, strings.TrimSpace(string(doc)))
	// Output:
	// 401 Unauthorized
	// WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 401 Unauthorized
	// WWW-Authenticate: Bearer error="invalid_token", error_description="invalid token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 200 OK
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"notes","version":"1.0.0"}}}
	// 202 Accepted
	// 200 OK
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"you are ada"}]}}
	// 200 OK {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com"],"bearer_methods_supported":["header"],"resource_name":"notes"}
}
