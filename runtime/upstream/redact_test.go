package upstream

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestErrorsNeverCarrySecrets: whatever goes wrong, the error a tool
// returns (to the client, the model and the logs) names no credential:
// not the API key of the query, however the upstream echoes it (its
// answer's body, a redirect's Location), nor a header's key or token.
func TestErrorsNeverCarrySecrets(t *testing.T) {
	const key, token = "s3cr3t-key-v41ue", "t0ken-s3cr3t"
	t.Setenv("TEST_API_KEY", key)
	t.Setenv("TEST_TOKEN", token)
	t.Setenv("TEST_CLIENT_ID", "client-1")
	t.Setenv("TEST_CLIENT_SECRET", token)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo": // an error page that names the request, as many do
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":"key `+r.URL.Query().Get("api_key")+r.Header.Get("X-Api-Key")+` refused for `+r.URL.String()+` (`+r.Header.Get("Authorization")+`)"}`)
		case "/bad-redirect": // a Location the client cannot parse, carrying the query
			w.Header().Set("Location", "http://[::1/next?"+r.URL.RawQuery)
			w.WriteHeader(http.StatusFound)
		case "/token": // a token endpoint that quotes the credentials it refused
			id, secret, _ := r.BasicAuth()
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"invalid_client","error_description":"no client `+id+` with secret `+secret+`"}`)
		case "/redirect-away": // to where nothing listens
			w.Header().Set("Location", "http://"+closedAddr(t)+"/x?"+r.URL.RawQuery)
			w.WriteHeader(http.StatusFound)
		}
	}))
	t.Cleanup(echo.Close)
	down := "http://" + closedAddr(t)
	for _, c := range []struct {
		name, base, path string
		auth             Auth
	}{
		{"echoed query key", echo.URL, "/echo", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
		{"echoed header key", echo.URL, "/echo", &APIKey{In: "header", Name: "X-Api-Key", Env: "TEST_API_KEY"}},
		{"echoed bearer", echo.URL, "/echo", &Bearer{Env: "TEST_TOKEN"}},
		{"bad redirect", echo.URL, "/bad-redirect", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
		{"redirect away", echo.URL, "/redirect-away", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
		{"token endpoint", echo.URL, "/x", &ClientCredentials{TokenURL: echo.URL + "/token", ClientIDEnv: "TEST_CLIENT_ID", ClientSecretEnv: "TEST_CLIENT_SECRET"}},
		{"upstream down", down, "/x", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
	} {
		cl := newClient(t, Config{BaseURL: c.base, Auth: c.auth})
		r := NewRequest("GET", c.path)
		r.Query("q", "pets")
		err := cl.Call(context.Background(), r, nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, key) || strings.Contains(msg, token) {
			t.Errorf("%s: the error carries the secret: %s", c.name, msg)
		} else if !strings.Contains(msg, "upstream GET "+c.path) {
			t.Errorf("%s: the error no longer says which call: %s", c.name, msg)
		}
	}
}

// closedAddr is an address where nothing listens (any more).
func closedAddr(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.Listener.Addr().String()
}

// TestErrorsNeverCarryEscapedOrBareSecrets: a key with characters that URL
// escaping changes is redacted in the escaped form an echoed URL shows, and
// a bearer token echoed without its "Bearer " scheme is redacted too.
func TestErrorsNeverCarryEscapedOrBareSecrets(t *testing.T) {
	const key, token = "k3y/with+plus&amp=eq ual", "t0ken-b4re-s3cret"
	t.Setenv("TEST_API_KEY", key)
	t.Setenv("TEST_TOKEN", token)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		switch r.URL.Path {
		case "/url": // the request URL as sent: its query escaped
			io.WriteString(w, "refused: "+r.URL.String())
		case "/path": // the key path-escaped, as a path segment would show it
			io.WriteString(w, "refused: /keys/"+url.PathEscape(r.URL.Query().Get("api_key")))
		case "/cookie": // the cookie's value alone
			if ck, err := r.Cookie("session"); err == nil {
				io.WriteString(w, "no session "+ck.Value)
			}
		case "/basic": // a Basic blob decoded: its user and password apart
			if u, pw, ok := r.BasicAuth(); ok {
				io.WriteString(w, "user "+u+" refused; password "+pw+" wrong")
			}
		case "/bare": // the token without its scheme
			_, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
			io.WriteString(w, "token "+tok+" expired")
		}
	}))
	t.Cleanup(echo.Close)
	const basicUser, basicPassword = "b4sic-us3r", "b4sic-p4ss"
	forms := []string{key, queryEscape(key), url.QueryEscape(key), url.PathEscape(key), token, basicUser, basicPassword}
	for _, c := range []struct {
		name, path string
		auth       Auth
	}{
		{"query-escaped key", "/url", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
		{"path-escaped key", "/path", &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}},
		{"bare bearer token", "/bare", &Bearer{Env: "TEST_TOKEN"}},
		{"cookie value", "/cookie", &APIKey{In: "cookie", Name: "session", Env: "TEST_TOKEN"}},
		{"basic user and password", "/basic", authFunc(func(_ context.Context, r *http.Request) error {
			r.SetBasicAuth(basicUser, basicPassword)
			return nil
		})},
	} {
		cl := newClient(t, Config{BaseURL: echo.URL, Auth: c.auth})
		err := cl.Call(context.Background(), NewRequest("GET", c.path), nil)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, redactedText) {
			t.Errorf("%s: nothing redacted in %s", c.name, msg)
		}
		for _, f := range forms {
			if strings.Contains(msg, f) {
				t.Errorf("%s: the error carries the secret as %q: %s", c.name, f, msg)
			}
		}
	}
}

// authFunc is an Auth of the caller's own, as a program may write one.
type authFunc func(ctx context.Context, r *http.Request) error

func (f authFunc) Authorize(ctx context.Context, r *http.Request) error { return f(ctx, r) }
