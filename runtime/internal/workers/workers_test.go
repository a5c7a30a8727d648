package workers

import (
	"sync"
	"sync/atomic"
	"testing"
)

type job struct {
	n  *atomic.Int32
	wg *sync.WaitGroup
}

func (j job) Run() { j.n.Add(1); j.wg.Done() }

// Every job runs once, whether a worker was idle for it or not.
func TestRunsEveryJob(t *testing.T) {
	p := New()
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 3 {
		for range 100 {
			wg.Add(1)
			p.Run(job{&n, &wg})
		}
		wg.Wait() // the next round finds idle workers
	}
	if n.Load() != 300 {
		t.Errorf("%d jobs ran, want 300", n.Load())
	}
}
