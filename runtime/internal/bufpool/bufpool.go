// Package bufpool pools the byte buffers that messages are encoded into
// (responses, notifications, what streams queue): a buffer is filled,
// handed to the transport, which must not retain it, and put back.
package bufpool

import "sync"

var pool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// Get returns an empty buffer.
func Get() *[]byte { return pool.Get().(*[]byte) }

// Put returns b to the pool, unless it grew past 256 KiB: one huge message
// is not kept alive forever.
func Put(b *[]byte) {
	if cap(*b) > 256<<10 {
		return
	}
	*b = (*b)[:0]
	pool.Put(b)
}
