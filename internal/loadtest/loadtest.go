// Package loadtest is the steady load the tests that break something
// under it share (a Redis failover in runtime/redisstore, a replica killed
// or restarted in interop/scaleout): workers that call over and over until
// stopped, and a tally of the calls that failed and were retried.
package loadtest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Run starts workers goroutines, each calling work(worker, n) for n = 0,
// 1, 2, … until stop is called; stop waits for them to finish their call
// (calling it again does nothing).
func Run(workers int, work func(worker, n int)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				work(w, n)
			}
		}()
	}
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

// Tally counts the attempts of calls that are retried until they succeed,
// safe for concurrent use.
type Tally struct {
	mu                  sync.Mutex
	calls, acked        int // keys called, keys that succeeded
	attempts, failed    int // attempts made, attempts that failed
	retried             int // keys that succeeded on a retry
	firstFail, lastFail time.Time
	aborted             atomic.Bool
}

// ErrAborted is what Retry returns once Abort was called.
var ErrAborted = errors.New("loadtest: aborted")

// Abort makes every Retry return ErrAborted before its next attempt: a
// test that fails meanwhile stops its load at once instead of retrying on.
func (t *Tally) Abort() { t.aborted.Store(true) }

// Retry calls call(attempt) until it returns nil, at most attempts times,
// pausing pause between, and returns its last error (ErrAborted after
// Abort). Each attempt is counted.
func (t *Tally) Retry(attempts int, pause time.Duration, call func(attempt int) error) error {
	t.mu.Lock()
	t.calls++
	t.mu.Unlock()
	var err error
	for attempt := range attempts {
		if t.aborted.Load() {
			return ErrAborted
		}
		err = call(attempt)
		now := time.Now()
		t.mu.Lock()
		t.attempts++
		if err == nil {
			t.acked++
			if attempt > 0 {
				t.retried++
			}
		} else {
			t.failed++
			if t.firstFail.IsZero() {
				t.firstFail = now
			}
			t.lastFail = now
		}
		t.mu.Unlock()
		if err == nil {
			return nil
		}
		time.Sleep(pause)
	}
	return err
}

// Acked is how many calls succeeded, at once or on a retry.
func (t *Tally) Acked() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.acked
}

// Failed is how many attempts failed.
func (t *Tally) Failed() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// FailWindow is the time from the first failed attempt to the last: how
// long calls failed.
func (t *Tally) FailWindow() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastFail.Sub(t.firstFail)
}

func (t *Tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("%d calls, %d acknowledged, %d attempts, %d failed, %d answered on a retry; calls failed for %v",
		t.calls, t.acked, t.attempts, t.failed, t.retried, t.lastFail.Sub(t.firstFail).Round(time.Millisecond))
}
