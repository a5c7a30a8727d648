package redisstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// A session saved through one replica loads through another; loading
// extends its TTL; it expires when no replica loads it; Delete ends it.
func TestSessionsSharedExpireAndDelete(t *testing.T) {
	sessionsSharedExpireAndDelete(t, redistest.Start(t))
}

func sessionsSharedExpireAndDelete(t *testing.T, r redistest.Deployment) {
	a := openStore(t, r, Config{}).Sessions()
	b := openStore(t, r, Config{}).Sessions()
	ctx := context.Background()
	if err := a.Save(ctx, "r1.abc", []byte(`{"version":"2025-11-25"}`), time.Second); err != nil {
		t.Fatal(err)
	}
	for range 4 { // 1.6 s in all, each load extending the 1 s TTL
		time.Sleep(400 * time.Millisecond)
		state, ok, err := b.Load(ctx, "r1.abc", time.Second)
		if err != nil || !ok || string(state) != `{"version":"2025-11-25"}` {
			t.Fatalf("Load through another replica: %q, %v, %v", state, ok, err)
		}
	}
	time.Sleep(1500 * time.Millisecond)
	if _, ok, err := b.Load(ctx, "r1.abc", time.Minute); ok || err != nil {
		t.Errorf("an idle session is still there after its TTL (ok=%v, err=%v)", ok, err)
	}
	a.Save(ctx, "r1.def", []byte(`{}`), time.Minute)
	if err := b.Delete(ctx, "r1.def"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := a.Load(ctx, "r1.def", time.Minute); ok {
		t.Error("a deleted session loads")
	}
}

func TestSessionsRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).Sessions()
	r.Pause()
	_, _, err := st.Load(context.Background(), "x", time.Minute)
	r.Resume()
	if err == nil || !strings.Contains(err.Error(), "session store") {
		t.Errorf("Load with Redis paused: %v, want an error naming the session store", err)
	}
}
