package upstream

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestExcerptNeverShowsPartOfASecret: an error page that echoes a long
// token several times (each echo cleaned to a short [redacted], so the
// excerpt reaches far into the body) shows no piece of the token, also
// of the echo that the part of the body cleaned cuts in two.
func TestExcerptNeverShowsPartOfASecret(t *testing.T) {
	token := strings.Repeat("t0k3n-s3cr3t-", 70) // 910 bytes, as long JWTs are
	t.Setenv("TEST_TOKEN", token)
	for _, lead := range []int{0, 1, 100, 230, 240} {
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, strings.Repeat("x", lead)+" refused "+tok+" and "+tok+" and "+tok+" end")
		}))
		c := newClient(t, Config{BaseURL: api.URL, Auth: &Bearer{Env: "TEST_TOKEN"}})
		err := c.Call(context.Background(), NewRequest("GET", "/x"), nil)
		api.Close()
		var se *StatusError
		if !errors.As(err, &se) {
			t.Fatalf("lead %d: %v, want a *StatusError", lead, err)
		}
		if strings.Contains(se.Excerpt, token[:8]) || strings.Contains(err.Error(), token[:8]) {
			t.Errorf("lead %d: the excerpt shows part of the token: %q", lead, se.Excerpt)
		}
	}
}

// TestOnlyAddedValuesAreRedacted: what the request carried before Auth
// (its own query, its headers) stays in errors; what Auth added goes.
func TestOnlyAddedValuesAreRedacted(t *testing.T) {
	const key = "k-9f8e7d6c5b"
	t.Setenv("TEST_API_KEY", key)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "no "+r.URL.RawQuery)
	}))
	defer api.Close()
	c := newClient(t, Config{BaseURL: api.URL, Auth: &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}})
	r := NewRequest("GET", "/pets")
	r.Query("species", "capybara")
	err := c.Call(context.Background(), r, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if msg := err.Error(); strings.Contains(msg, key) || !strings.Contains(msg, "species=capybara") || !strings.Contains(msg, "api_key="+redactedText) {
		t.Errorf("the error %q: want the key redacted and the call's own query kept", msg)
	}
}

// TestRedactedErrorsStillUnwrap: a cancelled call whose error quotes the
// URL (its key redacted) is still context.Canceled to errors.Is.
func TestRedactedErrorsStillUnwrap(t *testing.T) {
	const key = "k-c4nc3l-s3cr3t"
	t.Setenv("TEST_API_KEY", key)
	block := make(chan struct{})
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer api.Close()
	defer close(block)
	c := newClient(t, Config{BaseURL: api.URL, Auth: &APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-ctx.Done()
	}()
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, NewRequest("GET", "/slow"), nil) }()
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v: not context.Canceled", err)
	}
	if err != nil && strings.Contains(err.Error(), key) {
		t.Errorf("the error carries the key: %v", err)
	}
	// redact itself: the text cleaned, the chain kept.
	s := secrets{key}
	wrapped := s.redact(errors.Join(errors.New("GET /x?api_key="+key), context.DeadlineExceeded))
	if !errors.Is(wrapped, context.DeadlineExceeded) || strings.Contains(wrapped.Error(), key) {
		t.Errorf("redact: %v", wrapped)
	}
	if plain := errors.New("nothing secret"); s.redact(plain) != plain {
		t.Error("redact wrapped an error that had nothing to clean")
	}
}
