package upstream

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
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
