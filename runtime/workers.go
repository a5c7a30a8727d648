package runtime

import (
	"sync"
	"time"
)

// workers runs each request in a goroutine of its own, reusing goroutines
// that finished a request instead of starting a fresh one: a fresh goroutine
// starts with a small stack and grows it (copying) on every call through the
// validator and encoding/json, which cost more than the call itself. A request
// is only handed to a worker that is idle at that moment, never queued behind
// another request; when none is idle, a new goroutine starts. Idle workers
// exit after idleWorkerTimeout, so nothing lingers once the server is quiet.
type workers struct {
	jobs chan job // unbuffered: a send succeeds only if a worker is waiting
}

type job interface{ run() }

const idleWorkerTimeout = 5 * time.Second

func newWorkers() *workers { return &workers{jobs: make(chan job)} }

func (w *workers) run(j job) {
	select {
	case w.jobs <- j:
	default:
		go w.loop(j)
	}
}

var timerPool = sync.Pool{New: func() any { return time.NewTimer(idleWorkerTimeout) }}

func (w *workers) loop(j job) {
	t := timerPool.Get().(*time.Timer)
	defer func() {
		t.Stop()
		timerPool.Put(t)
	}()
	for {
		j.run()
		j = nil // do not keep the finished request alive while idle
		t.Reset(idleWorkerTimeout)
		select {
		case j = <-w.jobs:
		case <-t.C:
			return
		}
	}
}
