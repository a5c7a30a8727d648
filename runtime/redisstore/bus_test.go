package redisstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
)

// Every replica receives each message once, in the order published, from
// whichever replica published it.
func TestBusEveryReplicaOnceInOrder(t *testing.T) { busEveryReplicaOnceInOrder(t, redistest.Start(t)) }

func busEveryReplicaOnceInOrder(t *testing.T, r redistest.Deployment) {
	replicas := []*Store{openStore(t, r, Config{}), openStore(t, r, Config{}), openStore(t, r, Config{})}
	got := make([]chan string, len(replicas))
	for i, s := range replicas {
		got[i] = make(chan string, 100)
		stop, err := s.Bus().Subscribe(context.Background(), func(m []byte) { got[i] <- string(m) })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
	}
	var want []string
	for n := range 30 {
		msg := fmt.Sprintf("u:res://%d", n)
		want = append(want, msg)
		if err := replicas[n%3].Bus().Publish(context.Background(), []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range replicas {
		var seen []string
		for range want {
			select {
			case m := <-got[i]:
				seen = append(seen, m)
			case <-time.After(5 * time.Second):
				t.Fatalf("replica %d received %d of %d messages", i, len(seen), len(want))
			}
		}
		if strings.Join(seen, " ") != strings.Join(want, " ") {
			t.Errorf("replica %d received\n%v\nwant\n%v", i, seen, want)
		}
		select {
		case m := <-got[i]:
			t.Errorf("replica %d received %q once more", i, m)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// With Redis unresponsive, Publish fails within the timeout; once Redis is
// back, the subscription works again without being made anew.
func TestBusRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	s := openStore(t, r, Config{Timeout: 300 * time.Millisecond})
	got := make(chan string, 10)
	stop, err := s.Bus().Subscribe(context.Background(), func(m []byte) { got <- string(m) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r.Pause()
	start := time.Now()
	err = s.Bus().Publish(context.Background(), []byte("lost"))
	took := time.Since(start)
	r.Resume()
	if err == nil || !strings.Contains(err.Error(), "notification bus") {
		t.Errorf("Publish with Redis paused: %v, want an error naming the bus", err)
	}
	if took > time.Second {
		t.Errorf("Publish took %v with a 300ms timeout", took)
	}
	if err := s.Bus().Publish(context.Background(), []byte("back")); err != nil {
		t.Fatal(err)
	}
	// The message sent while Redis was paused may still be delivered: it
	// sat in the socket, and Redis read it when it resumed.
	for {
		select {
		case m := <-got:
			if m == "back" {
				return
			}
			if m != "lost" {
				t.Fatalf("after Redis came back: received %q", m)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("nothing received after Redis came back")
		}
	}
}
