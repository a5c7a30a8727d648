package otelmcp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/upstream"
)

// The credentials of the redaction table: each has characters that URL
// escaping changes (space, slash, plus, ampersand, equals), so that every
// escaped form differs from the plain one.
const (
	rKey     = "k3y s3cr/t+&=x"
	rToken   = "t0k3n-b34rer.s3cret"
	rUser    = "svc us3r"
	rPass    = "p4ss w0rd/+"
	rID      = "cl13nt id"
	rSecret  = "cl13nt s3cret/+"
	rSession = "c00kie-s3ss10n"
)

// secretForms is every form in which a credential may leave in a text:
// as is, URL-escaped three ways (a space as %20 or +), JSON-escaped (as a
// log or a JSON-RPC answer writes it), and the Basic authorization blobs
// made of the user/password pairs.
func secretForms() map[string]string {
	forms := map[string]string{}
	for name, v := range map[string]string{"key": rKey, "token": rToken, "user": rUser, "password": rPass,
		"client id": rID, "client secret": rSecret, "cookie": rSession} {
		forms[name] = v
		forms[name+" query-escaped"] = url.QueryEscape(v)
		forms[name+" %20-escaped"] = strings.ReplaceAll(url.QueryEscape(v), "+", "%20")
		forms[name+" path-escaped"] = url.PathEscape(v)
		j, _ := json.Marshal(v)
		forms[name+" JSON-escaped"] = strings.Trim(string(j), `"`)
	}
	basic := func(u, p string) string { return base64.StdEncoding.EncodeToString([]byte(u + ":" + p)) }
	forms["userinfo Basic blob"] = basic(rUser, rPass)
	forms["token endpoint Basic blob"] = basic(url.QueryEscape(rID), url.QueryEscape(rSecret))
	return forms
}

// redactEcho is an API, and a token endpoint, that refuse every request
// with a 400 whose body echoes one part of the request, chosen by the
// path's last segment, as error pages do.
func redactEcho(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mode := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		var echo string
		switch mode {
		case "url":
			echo = r.URL.String()
		case "rawquery":
			echo = r.URL.RawQuery
		case "query-values":
			for _, vs := range r.URL.Query() {
				echo += strings.Join(vs, " ") + " "
			}
		case "headers":
			for k, vs := range r.Header {
				echo += k + ": " + strings.Join(vs, ", ") + "\n"
			}
		case "header-values-bare": // each value without its scheme ("Bearer ", "Basic ")
			for _, vs := range r.Header {
				for _, v := range vs {
					_, bare, _ := strings.Cut(v, " ")
					echo += bare + " "
				}
			}
		case "query-reencoded": // as url.Values writes it: a space is +
			echo = r.URL.Query().Encode()
		case "path-escaped": // each credential-bearing value as a path segment shows it
			for _, vs := range r.URL.Query() {
				echo += "/keys/" + url.PathEscape(strings.Join(vs, ""))
			}
			for _, c := range r.Cookies() {
				echo += "/sessions/" + url.PathEscape(c.Value)
			}
			for _, vs := range r.Header {
				for _, v := range vs {
					_, bare, _ := strings.Cut(v, " ")
					echo += "/tokens/" + url.PathEscape(v) + "/" + url.PathEscape(bare)
				}
			}
		case "cookie-values":
			for _, c := range r.Cookies() {
				echo += c.Value + " "
			}
		case "basic-decoded":
			u, p, _ := r.BasicAuth()
			uu, _ := url.QueryUnescape(u)
			pp, _ := url.QueryUnescape(p)
			echo = "user " + u + " password " + p + " (" + uu + ", " + pp + ")"
		case "body":
			echo = string(body)
		case "bad-redirect": // a Location the client cannot parse, carrying the query
			w.Header().Set("Location", "http://[::1/next?"+r.URL.RawQuery)
			w.WriteHeader(http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"refused","echo":`+fmt.Sprintf("%q", echo)+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// userinfoAuth puts a user and password in the URL's userinfo (sent as
// Basic authorization); basicAuth sets the Basic header itself.
type userinfoAuth struct{}

func (userinfoAuth) Authorize(_ context.Context, r *http.Request) error {
	r.URL.User = url.UserPassword(rUser, rPass)
	return nil
}

type basicAuth struct{}

func (basicAuth) Authorize(_ context.Context, r *http.Request) error {
	r.SetBasicAuth(rUser, rPass)
	return nil
}

// TestRedactionTable: every form a credential can take (query key plain,
// with + or %20 for a space, percent-encoded; URL userinfo user and
// password; Authorization Bearer and Basic, whole and bare; cookie values;
// API key headers; the token endpoint's Basic credentials), echoed by the
// upstream in every way (URL, raw query, decoded values, headers, bare
// header values, url.Values re-encoded, path-escaped values, cookie
// values, decoded Basic, body, an unparseable
// redirect), leaves through no exit: the upstream Client's error, the
// tools/call isError result, a slog record of the error, the span's status
// and events.
func TestRedactionTable(t *testing.T) {
	t.Setenv("RT_KEY", rKey)
	t.Setenv("RT_TOKEN", rToken)
	t.Setenv("RT_ID", rID)
	t.Setenv("RT_SECRET", rSecret)
	t.Setenv("RT_SESSION", rSession)
	echo := redactEcho(t)
	auths := []struct {
		name string
		auth func() upstream.Auth
	}{
		{"query key", func() upstream.Auth { return &upstream.APIKey{In: "query", Name: "api_key", Env: "RT_KEY"} }},
		{"header key", func() upstream.Auth { return &upstream.APIKey{In: "header", Name: "X-Api-Key", Env: "RT_KEY"} }},
		{"cookie key", func() upstream.Auth { return &upstream.APIKey{In: "cookie", Name: "session", Env: "RT_SESSION"} }},
		{"bearer", func() upstream.Auth { return &upstream.Bearer{Env: "RT_TOKEN"} }},
		{"userinfo", func() upstream.Auth { return userinfoAuth{} }},
		{"basic header", func() upstream.Auth { return basicAuth{} }},
	}
	modes := []string{"url", "rawquery", "query-values", "query-reencoded", "path-escaped", "headers", "header-values-bare", "cookie-values", "basic-decoded", "body", "bad-redirect"}
	for _, m := range modes { // the token endpoint echoing, for each mode
		auths = append(auths, struct {
			name string
			auth func() upstream.Auth
		}{"token endpoint " + m, func() upstream.Auth {
			return &upstream.ClientCredentials{TokenURL: echo.URL + "/token/" + m, ClientIDEnv: "RT_ID", ClientSecretEnv: "RT_SECRET"}
		}})
	}

	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slogJSON(&lockedWriter{&logs, &logMu})
	tel, opts := newTelemetry()
	srv := runtime.NewServer(runtime.Implementation{Name: "redaction", Version: "1"}, opts...)
	errs := map[string]string{} // row → the Client's error text
	var errMu sync.Mutex
	srv.AddTool(runtime.Tool{Name: "call", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		var a struct{ Auth, Mode int }
		json.Unmarshal(req.Arguments, &a)
		cl, err := upstream.New(upstream.Config{BaseURL: echo.URL, Auth: auths[a.Auth].auth()})
		if err != nil {
			return nil, err
		}
		r := upstream.NewRequest("POST", "/api/"+modes[a.Mode])
		r.Query("q", "pets")
		r.Body(map[string]string{"name": "rex"})
		err = cl.Call(ctx, r, nil)
		if err == nil {
			return nil, fmt.Errorf("no error")
		}
		errMu.Lock()
		errs[fmt.Sprint(a.Auth, a.Mode)] = err.Error()
		errMu.Unlock()
		logger.ErrorContext(ctx, "upstream call failed", "error", err)
		return nil, err
	}})
	p := serveStdio(t, srv)
	p.call(initialize)
	forms := secretForms()
	check := func(row, exit, text string) {
		t.Helper()
		for form, v := range forms {
			if strings.Contains(text, v) {
				t.Errorf("%s: the %s carries the %s (%q): %s", row, exit, form, v, text)
			}
		}
	}
	id := 0
	for ai, a := range auths {
		for mi, m := range modes {
			if strings.HasPrefix(a.name, "token endpoint") && mi > 0 {
				continue // the token endpoint's mode is in its URL
			}
			row := a.name + " × echo " + m
			id++
			logMu.Lock()
			logs.Reset()
			logMu.Unlock()
			resp := p.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"call","arguments":{"auth":%d,"mode":%d}}}`, id, ai, mi))
			if !strings.Contains(resp, `"isError":true`) {
				t.Fatalf("%s: not an isError result: %s", row, resp)
			}
			errMu.Lock()
			msg := errs[fmt.Sprint(ai, mi)]
			errMu.Unlock()
			if msg == "" {
				t.Fatalf("%s: the handler saw no error", row)
			}
			check(row, "Client error", msg)
			check(row, "isError result", resp)
			logMu.Lock()
			check(row, "slog record", logs.String())
			logMu.Unlock()
		}
	}
	for _, s := range tel.spans.Ended() {
		text := s.Status().Description
		for _, kv := range s.Attributes() {
			text += " " + kv.Value.Emit()
		}
		for _, e := range s.Events() {
			text += " " + e.Name
			for _, kv := range e.Attributes {
				text += " " + kv.Value.Emit()
			}
		}
		check(s.Name(), "span", text)
	}
	if len(tel.spans.Ended()) < id {
		t.Errorf("%d spans for %d calls", len(tel.spans.Ended()), id)
	}
}

// lockedWriter serializes the writes of a logger shared by handlers.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
