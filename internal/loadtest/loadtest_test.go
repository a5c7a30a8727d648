package loadtest

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// Each worker numbers its calls from 0 until stop, which waits for them
// and may be called again.
func TestRunUntilStop(t *testing.T) {
	var calls [3]atomic.Int64
	var next [3]int
	stop := Run(3, func(w, n int) {
		if n != next[w] {
			t.Errorf("worker %d: call %d, want %d", w, n, next[w])
		}
		next[w]++
		calls[w].Add(1)
	})
	for w := range calls {
		for calls[w].Load() == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	stop()
	stop()
	after := [3]int64{calls[0].Load(), calls[1].Load(), calls[2].Load()}
	time.Sleep(10 * time.Millisecond)
	for w := range calls {
		if calls[w].Load() != after[w] {
			t.Errorf("worker %d called after stop", w)
		}
	}
}

// Retry counts each attempt, a failure and a success on a retry; after
// Abort it stops before the next attempt.
func TestTallyRetryAndAbort(t *testing.T) {
	var tally Tally
	boom := errors.New("boom")
	if err := tally.Retry(5, 0, func(attempt int) error {
		if attempt < 2 {
			return boom
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := tally.Retry(2, 0, func(int) error { return boom }); err != boom {
		t.Fatalf("Retry = %v, want the last error", err)
	}
	if got, want := tally.String(), "2 calls, 1 acknowledged, 5 attempts, 4 failed, 1 answered on a retry"; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("tally %q, want it to start %q", got, want)
	}
	if tally.Acked() != 1 || tally.Failed() != 4 {
		t.Errorf("acked %d failed %d", tally.Acked(), tally.Failed())
	}
	attempts := 0
	err := tally.Retry(10, 0, func(int) error {
		attempts++
		tally.Abort()
		return boom
	})
	if !errors.Is(err, ErrAborted) || attempts != 1 {
		t.Errorf("after Abort: %v after %d attempts, want ErrAborted after 1", err, attempts)
	}
}
