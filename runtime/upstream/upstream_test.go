package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// seen is what the test API received.
type seen struct {
	method, rawPath, path, rawQuery string
	header                          http.Header
	body                            string
}

// recorder is an API that records each request and answers with status
// and body.
func recorder(t *testing.T, status int, body string) (*httptest.Server, *seen) {
	t.Helper()
	got := &seen{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = seen{r.Method, r.URL.EscapedPath(), r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(b)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type status string

// oneOrMany is a union as gen writes one: a string or a list of strings,
// encoding the one set.
type oneOrMany struct {
	One  *string
	Many []string
}

func (u oneOrMany) MarshalJSON() ([]byte, error) {
	if u.One != nil {
		return json.Marshal(*u.One)
	}
	return json.Marshal(u.Many)
}

func TestCallEncodesEveryPlace(t *testing.T) {
	srv, got := recorder(t, 200, `{"id":7,"name":"Rex"}`)
	c := newClient(t, Config{BaseURL: srv.URL + "/v1/", UserAgent: "test/1"})
	limit := int64(5)
	var none *string
	r := NewRequest("POST", "/owners/{owner}/pets/{petId}")
	r.Path("owner", "a/b c")
	r.Path("petId", int64(7))
	r.Query("tag", []string{"x", "y z"})
	r.Query("limit", &limit)
	r.Query("absent", none)
	r.QueryJoined("status", []status{"available", "sold"})
	r.Query("ratio", 0.5)
	one := "c1"
	r.Query("cwe", oneOrMany{One: &one})
	r.Query("affects", oneOrMany{Many: []string{"a", "b"}})
	r.Header("X-Request-Id", "req-1")
	r.Cookie("session", "s1")
	r.BodyField("name", "Rex")
	r.BodyField("nickname", none)
	r.BodyField("tags", []string{"good"})
	var out pet
	if err := c.Call(context.Background(), r, &out); err != nil {
		t.Fatal(err)
	}
	if out != (pet{7, "Rex"}) {
		t.Errorf("output = %+v", out)
	}
	if got.method != "POST" || got.rawPath != "/v1/owners/a%2Fb%20c/pets/7" {
		t.Errorf("request line = %s %s", got.method, got.rawPath)
	}
	// In the order added; a space is %20; form's comma is a delimiter.
	if want := "tag=x&tag=y%20z&limit=5&status=available,sold&ratio=0.5&cwe=c1&affects=a&affects=b"; got.rawQuery != want {
		t.Errorf("query = %s, want %s", got.rawQuery, want)
	}
	if got.header.Get("X-Request-Id") != "req-1" || got.header.Get("Cookie") != "session=s1" || got.header.Get("User-Agent") != "test/1" {
		t.Errorf("headers = %v", got.header)
	}
	if got.header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type = %q", got.header.Get("Content-Type"))
	}
	if want := `{"name":"Rex","tags":["good"]}`; got.body != want {
		t.Errorf("body = %s, want %s", got.body, want)
	}
}

func TestWholeBodyAndNoBody(t *testing.T) {
	srv, got := recorder(t, 204, "")
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("PUT", "/pets")
	r.Body(&pet{ID: 1, Name: "A"})
	var out pet
	if err := c.Call(context.Background(), r, &out); err != nil {
		t.Fatal(err)
	}
	if got.body != `{"id":1,"name":"A"}` {
		t.Errorf("body = %s", got.body)
	}
	r = NewRequest("DELETE", "/pets/{id}")
	r.Path("id", 1)
	r.Body((*pet)(nil))
	res, err := c.CallResult(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got.body != "" || got.header.Get("Content-Type") != "" {
		t.Errorf("a nil body sent %q (%s)", got.body, got.header.Get("Content-Type"))
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), "DELETE /pets/{id}: done") {
		t.Errorf("result = %s", b)
	}
}

func TestPathValuesStayInTheirSegment(t *testing.T) {
	srv, _ := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	for _, v := range []string{"..", ".", ""} {
		r := NewRequest("GET", "/pets/{id}")
		r.Path("id", v)
		if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "path parameter id") {
			t.Errorf("id %q: err = %v", v, err)
		}
	}
	r := NewRequest("GET", "/pets/{id}")
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "no value for path parameter id") {
		t.Errorf("missing path value: err = %v", err)
	}
	r = NewRequest("GET", "/pets")
	r.Query("filter", map[string]any{"a": map[string]int{"b": 1}})
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "query parameter filter: property a is an object") {
		t.Errorf("nested object in a form query: err = %v", err)
	}
	r = NewRequest("GET", "/pets")
	r.Path("id", map[string]string{"a": "b"})
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "path parameter id") {
		t.Errorf("object in a path: err = %v", err)
	}
}

func TestNon2xxIsAStatusErrorWithAnExcerpt(t *testing.T) {
	long := `{"message":"` + strings.Repeat("é", 600) + `"}`
	srv, _ := recorder(t, 404, long)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("GET", "/pets/{id}")
	r.Path("id", 9)
	err := c.Call(context.Background(), r, &pet{})
	se, ok := errors.AsType[*StatusError](err)
	if !ok {
		t.Fatalf("err = %v, want a *StatusError", err)
	}
	if se.StatusCode != 404 || !strings.HasPrefix(err.Error(), "upstream GET /pets/{id} answered 404 Not Found: {\"message\":\"éé") {
		t.Errorf("err = %.80s", err)
	}
	if len(se.Excerpt) > excerptBytes+len(" …") || !strings.HasSuffix(se.Excerpt, " …") || strings.ContainsRune(se.Excerpt, '\uFFFD') {
		t.Errorf("excerpt of %d bytes, ends %q", len(se.Excerpt), se.Excerpt[len(se.Excerpt)-8:])
	}
}

func TestAnswerSizeIsBounded(t *testing.T) {
	srv, _ := recorder(t, 200, `{"name":"`+strings.Repeat("x", 2000)+`"}`)
	c := newClient(t, Config{BaseURL: srv.URL, MaxResponseBytes: 1000})
	err := c.Call(context.Background(), NewRequest("GET", "/pets"), &pet{})
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("err = %v", err)
	}
}

func TestBadJSONSaysSo(t *testing.T) {
	srv, _ := recorder(t, 200, `[1,2]`)
	c := newClient(t, Config{BaseURL: srv.URL})
	err := c.Call(context.Background(), NewRequest("GET", "/pets/1"), &pet{})
	if err == nil || !strings.Contains(err.Error(), "does not match the tool's output schema:\n- (root): cannot be decoded (got array)") {
		t.Errorf("err = %v", err)
	}
	srv, _ = recorder(t, 200, `<html>oops</html>`)
	c = newClient(t, Config{BaseURL: srv.URL})
	err = c.Call(context.Background(), NewRequest("GET", "/pets/1"), &pet{})
	if err == nil || err.Error() != "upstream GET /pets/1: the answer is not JSON (17 bytes)" {
		t.Errorf("err = %v", err)
	}
}

func TestCancellationAndTimeoutStopTheCall(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)

	c := newClient(t, Config{BaseURL: srv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, NewRequest("GET", "/slow"), nil) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: err = %v, want context.Canceled", err)
	}

	c = newClient(t, Config{BaseURL: srv.URL, Timeout: 50 * time.Millisecond})
	if err := c.Call(context.Background(), NewRequest("GET", "/slow"), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timed-out call: err = %v, want context.DeadlineExceeded", err)
	}
}

func TestNewRefusesABadBaseURL(t *testing.T) {
	for _, u := range []string{"", "/api/v3", "ftp://x", "https://"} {
		if _, err := New(Config{BaseURL: u}); err == nil {
			t.Errorf("base URL %q accepted", u)
		}
	}
}

func TestAPIKeyAndBearerFromTheEnvironment(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	t.Setenv("TEST_API_KEY", "k1")
	t.Setenv("TEST_TOKEN", "t1")
	for _, tc := range []struct {
		auth  Auth
		check func() bool
	}{
		{&APIKey{In: "header", Name: "X-Api-Key", Env: "TEST_API_KEY"}, func() bool { return got.header.Get("X-Api-Key") == "k1" }},
		{&APIKey{In: "query", Name: "api_key", Env: "TEST_API_KEY"}, func() bool { return got.rawQuery == "q=1&api_key=k1" }},
		{&APIKey{In: "cookie", Name: "key", Env: "TEST_API_KEY"}, func() bool { return got.header.Get("Cookie") == "key=k1" }},
		{&Bearer{Env: "TEST_TOKEN"}, func() bool { return got.header.Get("Authorization") == "Bearer t1" }},
	} {
		c := newClient(t, Config{BaseURL: srv.URL, Auth: tc.auth})
		r := NewRequest("GET", "/x")
		r.Query("q", 1)
		if err := c.Call(context.Background(), r, nil); err != nil {
			t.Fatal(err)
		}
		if !tc.check() {
			t.Errorf("%T %+v: received %v %s", tc.auth, tc.auth, got.header, got.rawQuery)
		}
	}
	c := newClient(t, Config{BaseURL: srv.URL, Auth: &Bearer{Env: "TEST_UNSET_TOKEN"}})
	if err := c.Call(context.Background(), NewRequest("GET", "/x"), nil); err == nil || !strings.Contains(err.Error(), "TEST_UNSET_TOKEN is not set") {
		t.Errorf("unset variable: err = %v", err)
	}
}

func TestClientCredentialsCachesTheTokenUntilExpiry(t *testing.T) {
	var issued atomic.Int32
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		r.ParseForm()
		if id != "cid" || secret != "s%3Dcret" || r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("scope") != "read write" {
			http.Error(w, `{"error":"invalid_client"}`, 401)
			return
		}
		n := issued.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"access_token": "tok" + string(rune('0'+n)), "token_type": "Bearer", "expires_in": 3600})
	}))
	defer tokens.Close()
	api, got := recorder(t, 200, `{}`)
	t.Setenv("TEST_CLIENT_ID", "cid")
	t.Setenv("TEST_CLIENT_SECRET", "s=cret")
	now := time.Unix(1_000_000, 0)
	cc := &ClientCredentials{TokenURL: tokens.URL, ClientIDEnv: "TEST_CLIENT_ID", ClientSecretEnv: "TEST_CLIENT_SECRET",
		Scopes: []string{"read", "write"}, now: func() time.Time { return now }}
	c := newClient(t, Config{BaseURL: api.URL, Auth: cc})
	call := func() string {
		t.Helper()
		if err := c.Call(context.Background(), NewRequest("GET", "/x"), nil); err != nil {
			t.Fatal(err)
		}
		return got.header.Get("Authorization")
	}
	if a, b := call(), call(); a != "Bearer tok1" || b != "Bearer tok1" || issued.Load() != 1 {
		t.Errorf("two calls: %q %q with %d token requests, want one token", a, b, issued.Load())
	}
	now = now.Add(time.Hour - expiryMargin + time.Second)
	if a := call(); a != "Bearer tok2" || issued.Load() != 2 {
		t.Errorf("after expiry: %q with %d token requests", a, issued.Load())
	}

	t.Setenv("TEST_CLIENT_SECRET", "wrong")
	cc.Forget()
	err := c.Call(context.Background(), NewRequest("GET", "/x"), nil)
	if err == nil || !strings.Contains(err.Error(), "OAuth token endpoint answered 401") || !strings.Contains(err.Error(), "invalid_client") {
		t.Errorf("refused credentials: err = %v", err)
	}
}

func TestFormBodyAndDeepObjectQuery(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("POST", "/v1/customers")
	r.Form()
	r.BodyField("email", "a@b.c")
	r.BodyField("metadata", map[string]any{"plan": "pro", "seats": 3})
	r.BodyField("expand", []string{"sources", "tax"})
	r.QueryDeep("filter", map[string]any{"created": map[string]int{"gte": 5}})
	r.QueryDeep("limit", 10)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	if ct := got.header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type = %q", ct)
	}
	if want := "email=a%40b.c&expand%5B0%5D=sources&expand%5B1%5D=tax&metadata%5Bplan%5D=pro&metadata%5Bseats%5D=3"; got.body != want {
		t.Errorf("form body = %s, want %s", got.body, want)
	}
	if want := "filter%5Bcreated%5D%5Bgte%5D=5&limit=10"; got.rawQuery != want {
		t.Errorf("query = %s, want %s", got.rawQuery, want)
	}

	r = NewRequest("POST", "/v1/x")
	r.Form()
	r.Body([]string{"a"})
	if err := c.Call(context.Background(), r, nil); err == nil || !strings.Contains(err.Error(), "a form body must be an object") {
		t.Errorf("a list as a form body: err = %v", err)
	}
}

// TestClientCredentialsExpiresInIsSeconds: expires_in is seconds (RFC 6749
// §5.1): a token of 3600 is kept ten minutes on and a second before its
// expiry margin, and replaced at the margin, whatever unit a misreading
// would make of it (milliseconds, minutes).
func TestClientCredentialsExpiresInIsSeconds(t *testing.T) {
	var issued atomic.Int32
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := issued.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"access_token": "tok" + string(rune('0'+n)), "token_type": "Bearer", "expires_in": 3600})
	}))
	defer tokens.Close()
	t.Setenv("TEST_CLIENT_ID", "cid")
	t.Setenv("TEST_CLIENT_SECRET", "secret")
	start := time.Unix(1_000_000, 0)
	now := start
	cc := &ClientCredentials{TokenURL: tokens.URL, ClientIDEnv: "TEST_CLIENT_ID", ClientSecretEnv: "TEST_CLIENT_SECRET", now: func() time.Time { return now }}
	for _, step := range []struct {
		at   time.Duration
		want string
	}{
		{0, "tok1"},
		{10 * time.Minute, "tok1"}, // well before expiry
		{time.Hour - expiryMargin - time.Second, "tok1"}, // just before
		{time.Hour - expiryMargin, "tok2"},               // at the margin: replaced
	} {
		now = start.Add(step.at)
		if tok, err := cc.Token(context.Background()); err != nil || tok != step.want {
			t.Errorf("at +%s: token %q (%v), want %s", step.at, tok, err, step.want)
		}
	}
}
