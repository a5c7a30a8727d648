package redisstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
)

// Events written through one replica are replayed by another.
func TestEventsReplayedByAnotherReplica(t *testing.T) {
	eventsReplayedByAnotherReplica(t, redistest.Start(t))
}

func eventsReplayedByAnotherReplica(t *testing.T, r redistest.Deployment) {
	a := openStore(t, r, Config{MaxEventsPerStream: 5}).Events()
	b := openStore(t, r, Config{MaxEventsPerStream: 5}).Events()
	ctx := context.Background()
	for i := 1; i <= 8; i++ {
		if err := a.Append(ctx, "r1.sess", "3", i, fmt.Appendf(nil, `{"n":%d}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	a.Append(ctx, "r1.sess", "4", 1, []byte(`{"other":1}`))
	got, err := b.After(ctx, "r1.sess", "3", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.StoredEvent{{Index: 6, Data: []byte(`{"n":6}`)}, {Index: 7, Data: []byte(`{"n":7}`)}, {Index: 8, Data: []byte(`{"n":8}`)}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("After(5) = %v, want %v", got, want)
	}
	// Only the last 5 are kept.
	if got, _ := b.After(ctx, "r1.sess", "3", 0); len(got) != 5 || got[0].Index != 4 {
		t.Errorf("After(0) = %v, want events 4 to 8", got)
	}
	if got, _ := b.After(ctx, "r1.sess", "9", 0); len(got) != 0 {
		t.Errorf("an unknown stream has events: %v", got)
	}
	if err := b.SessionClosed(ctx, "r1.sess"); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []string{"3", "4"} {
		if got, _ := a.After(ctx, "r1.sess", stream, 0); len(got) != 0 {
			t.Errorf("stream %s of a closed session still has %v", stream, got)
		}
	}
}

func TestEventsRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 200 * time.Millisecond}).Events()
	r.Pause()
	err := st.Append(context.Background(), "s", "1", 1, []byte("{}"))
	r.Resume()
	if err == nil {
		t.Fatal("Append succeeded with Redis paused")
	}
	if err := st.Append(context.Background(), "s", "1", 1, []byte("{}")); err != nil {
		t.Errorf("after Redis came back: %v", err)
	}
}

// The events of a stream, and the session's list of its streams, live
// EventTTL after the last event (renewed by each): a client may resume
// that long after.
func TestEventsLiveEventTTL(t *testing.T) {
	r := redistest.Start(t)
	s := openStore(t, r, Config{EventTTL: time.Hour})
	st := s.Events().(*eventStore)
	ctx := context.Background()
	c := r.Client(t)
	for i := 1; i <= 2; i++ {
		if err := st.Append(ctx, "s1", "1", i, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{st.streamKey("s1", "1"), st.sessionKey("s1")} {
			if ttl := c.PTTL(ctx, key).Val(); ttl < 59*time.Minute || ttl > time.Hour {
				t.Errorf("after event %d, %s expires in %v, want EventTTL (1h)", i, key, ttl)
			}
		}
		c.PExpire(ctx, st.streamKey("s1", "1"), time.Minute) // the next event renews it
	}
}
