package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Auth authenticates a request to the upstream API as the server. The
// implementations here read their secrets from environment variables at
// each call, so a rotated secret takes effect without a restart, and a
// missing one fails the call with the variable's name (the server keeps
// serving the tools that need none).
type Auth interface {
	Authorize(ctx context.Context, r *http.Request) error
}

// env reads a secret, or says which variable to set.
func env(name string) (string, error) {
	v := os.Getenv(name)
	if v == "" {
		return "", fmt.Errorf("environment variable %s is not set (the upstream API's credentials)", name)
	}
	return v, nil
}

// APIKey sends a key read from the environment variable Env in the header,
// query parameter or cookie Name.
type APIKey struct {
	In   string // "header", "query" or "cookie"
	Name string
	Env  string
}

func (a *APIKey) Authorize(_ context.Context, r *http.Request) error {
	key, err := env(a.Env)
	if err != nil {
		return err
	}
	switch a.In {
	case "header":
		r.Header.Set(a.Name, key)
	case "query":
		r.URL.RawQuery = setQuery(r.URL.RawQuery, a.Name, key)
	case "cookie":
		r.AddCookie(&http.Cookie{Name: a.Name, Value: key})
	default:
		return fmt.Errorf("API key: in must be header, query or cookie, not %q", a.In)
	}
	return nil
}

// Bearer sends "Authorization: Bearer TOKEN" with the token read from the
// environment variable Env.
type Bearer struct {
	Env string
}

func (b *Bearer) Authorize(_ context.Context, r *http.Request) error {
	tok, err := env(b.Env)
	if err != nil {
		return err
	}
	r.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// ClientCredentials gets a bearer token with the OAuth 2.0 client
// credentials grant (RFC 6749 §4.4) from TokenURL, with the client id and
// secret read from the environment, and keeps it until shortly before it
// expires. Concurrent calls share one token request.
type ClientCredentials struct {
	TokenURL        string
	ClientIDEnv     string
	ClientSecretEnv string
	Scopes          []string
	// HTTPClient sends the token requests (nil: http.DefaultClient).
	HTTPClient *http.Client

	mu      sync.Mutex
	token   string
	expires time.Time
	// now is time.Now, replaced in tests.
	now func() time.Time
}

// expiryMargin is how long before its expiry a token is replaced, so that
// it does not expire on its way to the API.
const expiryMargin = 30 * time.Second

// defaultLifetime is how long a token whose answer gives no expires_in is
// kept.
const defaultLifetime = 5 * time.Minute

func (c *ClientCredentials) Authorize(ctx context.Context, r *http.Request) error {
	tok, err := c.Token(ctx)
	if err != nil {
		return err
	}
	r.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// Token returns the cached token, or gets a new one when there is none or
// it is about to expire.
func (c *ClientCredentials) Token(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	if c.token != "" && now().Before(c.expires) {
		return c.token, nil
	}
	tok, lifetime, err := c.fetch(ctx)
	if err != nil {
		return "", err
	}
	c.token, c.expires = tok, now().Add(lifetime-expiryMargin)
	return tok, nil
}

// Forget drops the cached token, so the next call gets a new one.
func (c *ClientCredentials) Forget() {
	c.mu.Lock()
	c.token = ""
	c.mu.Unlock()
}

func (c *ClientCredentials) fetch(ctx context.Context) (string, time.Duration, error) {
	id, err := env(c.ClientIDEnv)
	if err != nil {
		return "", 0, err
	}
	secret, err := env(c.ClientSecretEnv)
	if err != nil {
		return "", 0, err
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(c.Scopes) > 0 {
		form.Set("scope", strings.Join(c.Scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", 0, fmt.Errorf("OAuth token endpoint %q: %w", c.TokenURL, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	// RFC 6749 §2.3.1: the credentials form-encoded, then as Basic auth.
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	// What an answer may quote back (redact.go): the id and secret, as
	// given and as the Basic header carries them.
	cred := append(secrets{id, secret}, basicCredentials(url.QueryEscape(id), url.QueryEscape(secret))...)
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("OAuth token endpoint: %w", stripURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", 0, fmt.Errorf("OAuth token endpoint: reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		// The answer may quote the client's credentials back (redact.go).
		return "", 0, fmt.Errorf("OAuth token endpoint answered %s: %s", resp.Status, excerpt(cred.cleanHead(body)))
	}
	var t struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return "", 0, fmt.Errorf("OAuth token endpoint: the answer has no access_token: %s", excerpt(cred.cleanHead(body)))
	}
	if t.TokenType != "" && !strings.EqualFold(t.TokenType, "bearer") {
		return "", 0, fmt.Errorf("OAuth token endpoint: token_type %q is not bearer", t.TokenType)
	}
	lifetime := defaultLifetime
	if t.ExpiresIn > 0 {
		lifetime = time.Duration(t.ExpiresIn) * time.Second
	}
	if lifetime <= expiryMargin {
		lifetime = expiryMargin + time.Second // still cached, briefly
	}
	return t.AccessToken, lifetime, nil
}

// setQuery is the query string rawQuery with the parameter name set to
// value: any it had dropped, the new one last; the other parameters keep
// their order and encoding (url.Values.Encode would sort and re-encode
// them).
func setQuery(rawQuery, name, value string) string {
	var kept []string
	for _, pair := range strings.Split(rawQuery, "&") {
		k, _, _ := strings.Cut(pair, "=")
		if uk, err := url.QueryUnescape(k); pair == "" || (err == nil && uk == name) {
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(append(kept, queryEscape(name)+"="+queryEscape(value)), "&")
}
