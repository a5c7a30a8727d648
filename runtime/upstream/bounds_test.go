package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// An answer of exactly MaxResponseBytes is within the bound: only a larger
// one is refused.
func TestAnswerOfExactlyTheBoundIsAccepted(t *testing.T) {
	body := `{"name":"` + strings.Repeat("x", 990) + `"}`
	srv, _ := recorder(t, 200, body)
	c := newClient(t, Config{BaseURL: srv.URL, MaxResponseBytes: int64(len(body))})
	var p pet
	if err := c.Call(context.Background(), NewRequest("GET", "/pets"), &p); err != nil {
		t.Fatalf("an answer of exactly MaxResponseBytes: %v", err)
	}
	c = newClient(t, Config{BaseURL: srv.URL, MaxResponseBytes: int64(len(body)) - 1})
	if err := c.Call(context.Background(), NewRequest("GET", "/pets"), &p); err == nil {
		t.Error("an answer one byte over MaxResponseBytes was accepted")
	}
}

// A 401 from the API means the cached token was revoked: the next call gets
// a new one. A 403 (the token is fine, the permission is not) keeps it.
func TestUnauthorizedDropsTheCachedToken(t *testing.T) {
	var issued atomic.Int32
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := issued.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"access_token": "tok" + string(rune('0'+n)), "expires_in": 3600})
	}))
	defer tokens.Close()
	var status atomic.Int32
	var auth atomic.Value
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(int(status.Load()))
		w.Write([]byte(`{}`))
	}))
	defer api.Close()
	t.Setenv("TEST_CLIENT_ID", "cid")
	t.Setenv("TEST_CLIENT_SECRET", "csecret")
	cc := &ClientCredentials{TokenURL: tokens.URL, ClientIDEnv: "TEST_CLIENT_ID", ClientSecretEnv: "TEST_CLIENT_SECRET"}
	c := newClient(t, Config{BaseURL: api.URL, Auth: cc})
	call := func(code int) (string, error) {
		status.Store(int32(code))
		err := c.Call(context.Background(), NewRequest("GET", "/x"), nil)
		return auth.Load().(string), err
	}
	if a, err := call(403); a != "Bearer tok1" || err == nil {
		t.Fatalf("first call: %q, %v", a, err)
	}
	if a, _ := call(200); a != "Bearer tok1" {
		t.Errorf("after a 403: %q, want the token kept (tok1)", a)
	}
	if _, err := call(401); err == nil {
		t.Fatal("a 401 was not an error")
	}
	if a, _ := call(200); a != "Bearer tok2" {
		t.Errorf("after a 401: %q, want a new token (tok2)", a)
	}
}

// userinfoAuth puts a password in the request URL's userinfo, which the
// transport sends as Basic authorization.
type userinfoAuth struct{}

func (userinfoAuth) Authorize(_ context.Context, r *http.Request) error {
	r.URL.User = url.UserPassword("svc", "pw-in-the-url")
	return nil
}

// A password that Auth put in the URL's userinfo is a credential too: an
// error page echoing it shows it redacted.
func TestURLPasswordIsRedacted(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pw, _ := r.BasicAuth()
		http.Error(w, "bad password "+pw, 401)
	}))
	defer api.Close()
	c := newClient(t, Config{BaseURL: api.URL, Auth: userinfoAuth{}})
	err := c.Call(context.Background(), NewRequest("GET", "/x"), nil)
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *StatusError", err)
	}
	if strings.Contains(err.Error(), "pw-in-the-url") || strings.Contains(se.Excerpt, "pw-in-the-url") {
		t.Errorf("the URL's password reached the error: %v", err)
	}
	if !strings.Contains(se.Excerpt, redactedText) {
		t.Errorf("excerpt %q: want the password redacted", se.Excerpt)
	}
}
