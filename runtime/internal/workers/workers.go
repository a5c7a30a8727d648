// Package workers runs each request of a server in a goroutine of its own,
// reusing goroutines that finished one instead of starting a fresh one: a
// fresh goroutine starts with a small stack and grows it (copying) on every
// call through the validator and encoding/json, which cost more than the
// call itself. A job is only handed to a worker that is idle at that
// moment, never queued behind another; when none is idle, a new goroutine
// starts. Idle workers exit after IdleTimeout, so nothing lingers once the
// server is quiet.
package workers

import (
	"sync"
	"time"
)

// Job is one request (or one session's notifications) to run.
type Job interface{ Run() }

// IdleTimeout is how long a worker waits for its next job before it exits.
const IdleTimeout = 5 * time.Second

// Pool holds the idle workers; the zero value is not usable, New is.
type Pool struct {
	jobs chan Job // unbuffered: a send succeeds only if a worker is waiting
}

// New returns a pool with no worker yet.
func New() *Pool { return &Pool{jobs: make(chan Job)} }

// Run runs j on an idle worker, or on a new goroutine when none is idle.
func (p *Pool) Run(j Job) {
	select {
	case p.jobs <- j:
	default:
		go p.loop(j)
	}
}

var timerPool = sync.Pool{New: func() any { return time.NewTimer(IdleTimeout) }}

func (p *Pool) loop(j Job) {
	t := timerPool.Get().(*time.Timer)
	defer func() {
		t.Stop()
		timerPool.Put(t)
	}()
	for {
		j.Run()
		j = nil // do not keep the finished request alive while idle
		t.Reset(IdleTimeout)
		select {
		case j = <-p.jobs:
		case <-t.C:
			return
		}
	}
}
