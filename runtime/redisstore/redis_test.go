package redisstore

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// openStore opens a Store on b with cfg, closed by the test's cleanup.
func openStore(t testing.TB, b redistest.Deployment, cfg Config) *Store {
	t.Helper()
	s, err := Open(context.Background(), b.URL(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(context.Background(), "http://x", Config{}); err == nil {
		t.Error("Open accepted an http URL")
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err := Open(context.Background(), "redis://"+addr+"/0", Config{Timeout: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("Open succeeded with no Redis")
	}
	if want := fmt.Sprintf("Redis at %s does not answer", addr); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// New shares a client the caller made and keeps: the store works on it,
// and closing the store leaves the client open.
func TestNewOnCallersClient(t *testing.T) {
	r := redistest.Start(t)
	client := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer client.Close()
	st := New(client, Config{})
	ctx := context.Background()
	states := st.RequestStates()
	expires := time.Now().Add(time.Minute)
	if first, err := states.FirstUse(ctx, "state-1", expires); err != nil || !first {
		t.Fatalf("first use = %v, %v; want true", first, err)
	}
	if first, err := states.FirstUse(ctx, "state-1", expires); err != nil || first {
		t.Fatalf("second use = %v, %v; want false", first, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(ctx).Err(); err != nil {
		t.Errorf("the caller's client was closed with the store: %v", err)
	}
}

// Open's errors name the URL without its credentials: the password of the
// user part and the password or sentinel_password of the query alike.
func TestOpenErrorsHideCredentials(t *testing.T) {
	for _, url := range []string{
		"memcache://user:PW1secret@h:1/0?password=PW2secret",
		"redis+sentinel://suser:PW1secret@h:1?addr=h:2&password=PW2secret&sentinel_password=PW3secret",
		"redis://user:PW1secret@h:1/notadb?password=PW2secret",
		"rediss+cluster://user:PW1secret@h:1?password=PW2secret&sentinel_password=PW3secret&bogus_option=1",
	} {
		_, err := Open(context.Background(), url, Config{Timeout: 200 * time.Millisecond})
		if err == nil {
			t.Errorf("Open(%q) succeeded", url)
			continue
		}
		if !strings.Contains(err.Error(), "bad Redis URL") {
			t.Errorf("Open(%q): %v, want a bad Redis URL error", url, err)
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q)'s error shows a credential: %v", url, err)
		}
	}
}
