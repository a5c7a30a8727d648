package runtime

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

type refuseAll struct{}

func (refuseAll) VerifyToken(context.Context, string) (*AuthInfo, error) { return nil, ErrInvalidToken }

// TestListenAndServeMountsMetadata: ListenAndServe serves the metadata at
// both well-known paths beside /mcp, and refuses an incomplete AuthConfig
// with an error rather than a panic.
func TestListenAndServeMountsMetadata(t *testing.T) {
	s := NewServer(Implementation{Name: "x", Version: "1"})
	cfg := AuthConfig{Resource: "http://127.0.0.1/mcp", AuthorizationServers: []string{"https://auth.test"}, Verifier: refuseAll{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveListener(ctx, s, ln, []HTTPOption{WithAuthorization(cfg)}) }()
	base := "http://" + ln.Addr().String()
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), `"resource":"http://127.0.0.1/mcp"`) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, b)
		}
	}
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("/mcp without token: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Verifier = nil
	if err := serveListener(context.Background(), s, ln, []HTTPOption{WithAuthorization(cfg)}); err == nil || !strings.Contains(err.Error(), "Verifier is required") {
		t.Errorf("incomplete config: %v", err)
	}
}
