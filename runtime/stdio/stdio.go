// Package stdio serves MCP over newline-delimited JSON-RPC on a reader and
// a writer (a server's stdin and stdout): one session for the whole
// stream. It is built on the seam of package runtime/transport alone, so
// it serves any transport.Server; runtime.Server.ServeStdio and
// runtime.Serve call it.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// Name is the transport's name, as interceptors see it
// (runtime.TransportStdio).
const Name = "stdio"

// Serve serves one session of srv over newline-delimited JSON-RPC:
// messages are read from r one per line (\r\n tolerated, blank lines
// skipped) and written to w one per line, each message written whole and
// without delay. Nothing but MCP messages is ever written to w.
//
// Malformed input is answered and skipped, never fatal; a line longer than
// the maximum message size (Limits.MaxMessageSize) gets an invalid-request
// error and reading goes on with the next line.
//
// At end of input Serve waits for the requests in flight to be answered
// and returns nil. When ctx is cancelled it cancels the handlers' contexts
// and returns ctx.Err() without waiting for them (only for a write to w
// already under way), unless the server's Limits.ShutdownGrace asks for a
// graceful shutdown; after it returns nothing more is written to w. If
// writing fails, it stops the same way and returns the write error. The
// goroutine reading r exits when its pending Read returns (a reader that
// cannot be interrupted, like os.Stdin, is left to the process exit).
func Serve(ctx context.Context, srv transport.Server, r io.Reader, w io.Writer) error {
	return ServeGracefully(ctx, srv, r, w, srv.Limits().ShutdownGrace)
}

// ServeGracefully is Serve with a graceful shutdown of grace (none when 0):
// once ctx is done, calls that arrive are refused, and those in flight get
// grace to finish and have their responses written before they are
// cancelled.
func ServeGracefully(ctx context.Context, srv transport.Server, r io.Reader, w io.Writer, grace time.Duration) error {
	if err := srv.Start(); err != nil {
		return err
	}
	// run is what the reader, the writer and the handlers live under: it
	// ends with ctx, or, for a graceful shutdown, once the drain is over.
	parent := ctx
	if grace > 0 {
		parent = context.WithoutCancel(ctx)
	}
	run, stop := context.WithCancelCause(parent)
	defer stop(nil)

	lw := &lineWriter{w: w, ctx: run, fail: stop}
	lw.drained.L = &lw.mu
	ss := srv.OpenSession(transport.SinkFunc(lw.send), transport.Options{Name: Name, Detached: true})
	lw.othersInFlight = ss.CallsInFlight
	defer ss.Close()

	readDone := make(chan error, 1)
	go func() { readDone <- readLines(run, ctx, r, ss, srv.Limits().MaxMessageSize) }()

	select {
	case err := <-readDone:
		if err != nil {
			return err
		}
		// End of input: answer what is in flight, unless told to stop;
		// subscriptions end here, or they would be waited for forever.
		ss.EndSubscriptions()
		idle := make(chan struct{})
		go func() { ss.Wait(); close(idle) }()
		select {
		case <-idle:
		case <-ctx.Done():
		case <-run.Done(): // writing failed
		}
	case <-ctx.Done():
	case <-run.Done():
	}
	if grace > 0 && ctx.Err() != nil && run.Err() == nil {
		timer := time.NewTimer(grace)
		select {
		case <-ss.Drain():
		case <-timer.C:
		case <-run.Done():
		}
		timer.Stop()
	}
	ss.Close() // cancels what still runs; after this, w is no longer written
	if err := lw.error(); err != nil {
		return err
	}
	return ctx.Err()
}

// lineWriter writes messages to w, one per line, from many goroutines. The
// goroutine that finds the writer idle writes, in one call, its message and
// every message queued by others meanwhile; the others only append and go
// back to work. A busy server thus makes one write per batch instead of one
// per message, while a quiet one still writes each message at once. When w is
// slower than the handlers, senders wait once maxPending bytes are queued.
type lineWriter struct {
	w    io.Writer
	ctx  context.Context
	fail context.CancelCauseFunc
	// othersInFlight reports calls still running, whose answers could join
	// a write; nil: none are expected.
	othersInFlight func() bool

	mu      sync.Mutex
	drained sync.Cond // signalled after each write
	pending []byte    // queued messages, newline-terminated
	spare   []byte    // the other buffer, reused
	writing bool
	err     error
}

const maxPending = 4 << 20

// directWrite is the size from which a message that finds the writer idle
// is written where it lies instead of being copied into pending.
const directWrite = 64 << 10

var newline = []byte{'\n'}

func (lw *lineWriter) send(msg []byte) {
	lw.mu.Lock()
	for lw.writing && len(lw.pending) > maxPending && lw.err == nil {
		lw.drained.Wait()
	}
	if lw.err != nil || lw.ctx.Err() != nil {
		lw.mu.Unlock()
		return // stopping: answers go nowhere
	}
	if !lw.writing && len(lw.pending) == 0 && len(msg) >= directWrite {
		// A large message alone: written from where it is, not copied
		// into pending first; the line ending follows in a write of its own.
		lw.writing = true
		lw.mu.Unlock()
		var err error
		if lw.ctx.Err() == nil {
			if _, err = lw.w.Write(msg); err == nil {
				_, err = lw.w.Write(newline)
			}
		}
		lw.mu.Lock()
		lw.wrote(err)
	} else {
		lw.pending = append(lw.pending, msg...)
		lw.pending = append(lw.pending, '\n')
		if lw.writing {
			lw.mu.Unlock()
			return
		}
		lw.writing = true
	}
	for len(lw.pending) > 0 {
		// Let the goroutines that are ready to run (other calls finishing)
		// queue their answers first: on a busy server they join this write
		// instead of each making their own. With no other call in flight
		// there is nothing to wait for, and the answer goes at once.
		lw.mu.Unlock()
		if lw.othersInFlight != nil && lw.othersInFlight() {
			goruntime.Gosched()
		}
		lw.mu.Lock()
		batch := lw.pending
		lw.pending = lw.spare[:0]
		lw.mu.Unlock()
		var err error
		if lw.ctx.Err() == nil {
			_, err = lw.w.Write(batch)
		}
		lw.mu.Lock()
		if cap(batch) <= 1<<20 {
			lw.spare = batch[:0]
		} else {
			lw.spare = nil // do not keep a burst's buffer forever
		}
		lw.wrote(err)
	}
	lw.writing = false
	lw.mu.Unlock()
}

// wrote records the outcome of a write; lw.mu is held.
func (lw *lineWriter) wrote(err error) {
	if err != nil && lw.err == nil {
		lw.err = fmt.Errorf("runtime: writing to the client: %w", err)
		lw.fail(lw.err)
	}
	if lw.err != nil || lw.ctx.Err() != nil {
		lw.pending = lw.pending[:0]
	}
	lw.drained.Broadcast()
}

func (lw *lineWriter) error() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}

// readLines feeds each line of r to ss until end of input (nil) or a read
// error. Lines are handed over without copying: HandleMessage does not retain
// them. Once shutdown is done (a graceful shutdown, while ctx goes on), the
// session refuses calls: checked here, a call sent after the shutdown began
// is refused even if the line is read before ServeGracefully notices.
func readLines(ctx, shutdown context.Context, r io.Reader, ss transport.Session, limit int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var long longLine // a line longer than br's buffer, assembled
	tooLong := false  // the current line exceeds limit: skip to its end
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				if long.size+len(chunk) > limit+2 { // +2: the line ending
					tooLong = true
					long.reset()
				} else {
					long.add(chunk)
				}
			}
			continue
		}
		line := chunk
		if long.size > 0 && !tooLong {
			long.add(chunk)
			line = long.join()
		}
		line = bytes.TrimRight(line, "\r\n")
		if ctx.Err() != nil {
			return nil
		}
		switch {
		case tooLong || len(line) > limit:
			ss.RefuseTooLarge()
		case len(bytes.TrimSpace(line)) > 0:
			if shutdown.Err() != nil {
				ss.StopCalls()
			}
			ss.HandleMessage(ctx, line)
		}
		tooLong = false
		long.reset()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("runtime: reading from the client: %w", err)
		}
	}
}

// longLine assembles a line longer than the reader's buffer from copies of
// its pieces, joined once at its end: one allocation of the line's size,
// where appending to one growing slice would allocate and copy about four
// times the line (each doubling) and hold three at once at the last one.
type longLine struct {
	pieces [][]byte
	size   int
}

func (l *longLine) add(p []byte) {
	l.pieces = append(l.pieces, bytes.Clone(p))
	l.size += len(p)
}

func (l *longLine) join() []byte {
	line := make([]byte, 0, l.size)
	for i, p := range l.pieces {
		line = append(line, p...)
		l.pieces[i] = nil // each piece can go as soon as it is copied
	}
	return line
}

func (l *longLine) reset() {
	clear(l.pieces)
	l.pieces = l.pieces[:0]
	l.size = 0
}
