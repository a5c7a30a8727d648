// Package upstream is the HTTP client that generated upstream calls use: a
// tool whose spec has an `http:` binding gets a Go method that builds a
// Request (path, query, headers, cookies, JSON body) and hands it to a
// Client, which adds the upstream's authentication, bounds the time and the
// size of the answer, decodes a 2xx JSON answer into the tool's output and
// turns any other status into an error the runtime answers as an isError
// result. Only what differs per tool is generated; everything else is here,
// once. It depends on net/http and package runtime only.
//
// The MCP client's own token is never passed through (the MCP authorization
// spec forbids it): the Client authenticates as the server, with the
// credentials its Auth reads from the environment.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime"
)

// Defaults of Config.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 10 << 20
	// excerptBytes bounds the part of an error answer's body that an
	// isError result quotes: enough for an API's error message, not a page.
	excerptBytes = 512
)

// Config is what a Client needs to reach the upstream API; generated code
// fills it from the spec's `upstream:` section (UpstreamConfig).
type Config struct {
	// BaseURL is the API's absolute http(s) URL; a binding's path is
	// appended to it ("https://api.example.com/v1" + "/pets/{id}").
	BaseURL string
	// Timeout bounds each call, from sending the request to reading the
	// whole answer (0: DefaultTimeout). The MCP request's own cancellation
	// stops a call too.
	Timeout time.Duration
	// MaxResponseBytes bounds the body read from an answer (0:
	// DefaultMaxResponseBytes); a larger body fails the call.
	MaxResponseBytes int64
	// Auth authenticates each request; nil sends none.
	Auth Auth
	// HTTPClient sends the requests (nil: a client of the Client's own,
	// with http.DefaultTransport). Its Timeout, if any, applies too.
	HTTPClient *http.Client
	// UserAgent is sent as User-Agent when not empty.
	UserAgent string
}

// Client calls one upstream API. It is safe for concurrent use.
type Client struct {
	base *url.URL
	cfg  Config
	http *http.Client
}

// New checks cfg and returns its Client. The base URL must be an absolute
// http(s) URL: a server cannot guess where its API lives.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("upstream: no base URL: set the spec's upstream.baseUrl or its baseUrlEnv variable")
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream: base URL %q is not an absolute http(s) URL", cfg.BaseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	c := &Client{base: u, cfg: cfg, http: cfg.HTTPClient}
	if c.http == nil {
		c.http = &http.Client{}
	}
	return c, nil
}

// BaseURL is the API's URL the client calls.
func (c *Client) BaseURL() string { return c.base.String() }

// StatusError is a non-2xx answer. Its text, which the model reads in the
// isError result, has the method, the path, the status and the start of
// the body, where APIs say what was wrong.
type StatusError struct {
	Method, Path string
	StatusCode   int
	Status       string
	// Excerpt is the start of the body (at most 512 bytes, valid UTF-8).
	Excerpt string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("upstream %s %s answered %s", e.Method, e.Path, e.Status)
	if e.Excerpt != "" {
		msg += ": " + e.Excerpt
	}
	return msg
}

// Call sends r and decodes a 2xx JSON answer into out (a pointer; nil
// ignores the body). An answer without a body (204, or empty) leaves out
// as it is.
// A Go type's decoding error is worded as a violation (output.go); use
// CallOutput to check the answer against the tool's output schema.
func (c *Client) Call(ctx context.Context, r *Request, out any) error {
	return c.CallOutput(ctx, r, nil, out)
}

// CallResult sends r for a tool without a typed output: a 2xx answer's
// body becomes the result's text.
func (c *Client) CallResult(ctx context.Context, r *Request) (*runtime.CallToolResult, error) {
	body, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return runtime.TextResult(r.method + " " + r.path + ": done"), nil
	}
	return runtime.TextResult(string(body)), nil
}

// do sends r and returns the body of a 2xx answer.
func (c *Client) do(ctx context.Context, r *Request) ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := r.build(ctx, c.base)
	if err != nil {
		return nil, err
	}
	if c.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	var secret secrets // what Auth put on req: no error may show it (redact.go)
	if c.cfg.Auth != nil {
		query, header := req.URL.Query(), req.Header.Clone()
		if err := c.cfg.Auth.Authorize(ctx, req); err != nil {
			return nil, fmt.Errorf("upstream %s %s: %w", r.method, r.path, err)
		}
		secret = credentialsAdded(req, query, header)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, secret.redact(fmt.Errorf("upstream %s %s: %w", r.method, r.path, stripURL(err)))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxResponseBytes+1))
	if err != nil {
		return nil, secret.redact(fmt.Errorf("upstream %s %s: reading the answer: %w", r.method, r.path, stripURL(err)))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if f, ok := c.cfg.Auth.(interface{ Forget() }); ok && resp.StatusCode == http.StatusUnauthorized {
			f.Forget() // a revoked token: the next call gets a new one
		}
		return nil, &StatusError{Method: r.method, Path: r.path, StatusCode: resp.StatusCode, Status: resp.Status, Excerpt: excerpt(secret.cleanHead(body))}
	}
	if int64(len(body)) > c.cfg.MaxResponseBytes {
		return nil, fmt.Errorf("upstream %s %s: the answer is larger than %d bytes", r.method, r.path, c.cfg.MaxResponseBytes)
	}
	return body, nil
}

// stripURL drops the URL from a *url.Error: it may carry a query-string API
// key, and the method and path are said already.
func stripURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

// excerpt is the start of body, cut on a rune boundary, with invalid UTF-8
// replaced, and with its spacing collapsed to one line.
func excerpt(body []byte) string {
	cut := len(body) > excerptBytes
	if cut {
		body = body[:excerptBytes]
		// Drop a rune the cut split.
		for i := len(body) - 1; i >= 0 && i >= len(body)-utf8.UTFMax; i-- {
			if utf8.RuneStart(body[i]) {
				if !utf8.FullRune(body[i:]) {
					body = body[:i]
				}
				break
			}
		}
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "\uFFFD")), " ")
	if cut {
		s += " …"
	}
	return s
}
