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
	"sync/atomic"
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
	readDone := make(chan error, 1)
	rd := newReader(run, ctx, r, lw, srv.Limits().MaxMessageSize, readDone)
	ss := srv.OpenSession(&sink{lw: lw, rd: rd}, transport.Options{Name: Name, Detached: true, InlineCalls: rd.callBegins})
	lw.othersInFlight = ss.CallsInFlight
	defer ss.Close()
	rd.ss = ss
	rd.start()

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
	lw.finish()
	if err := lw.error(); err != nil {
		return err
	}
	return ctx.Err()
}

// sink is the session's Sink: one stream for everything, and the reader told
// of each message, so that a call that sends something before its answer
// does not keep the reading from going on.
type sink struct {
	lw *lineWriter
	rd *reader
}

func (s *sink) Send(rel string, final bool, msg []byte) bool {
	s.rd.sending(rel, final)
	s.lw.send(msg)
	return true
}

func (*sink) Abandon(string)     {}
func (*sink) CloseStream(string) {}
func (*sink) Close()             {}

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
	held    bool // queue without writing: the reader writes the queue once it waits for input
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
	if lw.held && len(lw.pending)+len(msg) < directWrite {
		lw.pending = append(lw.pending, msg...)
		lw.pending = append(lw.pending, '\n')
		lw.mu.Unlock()
		return // the reader writes it with the others (release)
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
	lw.flush()
}

// hold makes send queue messages instead of writing them, until release:
// the reader holds them while more input is buffered, so that the answers
// to a burst of requests, made on the reader's goroutine, go in one write.
func (lw *lineWriter) hold() {
	lw.mu.Lock()
	lw.held = true
	lw.mu.Unlock()
}

// release writes what hold queued, and lets send write at once again.
func (lw *lineWriter) release() {
	lw.mu.Lock()
	lw.held = false
	if lw.writing || len(lw.pending) == 0 {
		lw.mu.Unlock() // the goroutine writing takes the queue along
		return
	}
	lw.writing = true
	lw.flush()
}

// flush writes the queue until it is empty, then lets go of lw.mu; lw.mu is
// held and lw.writing set.
func (lw *lineWriter) flush() {
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
	lw.drained.Broadcast()
	lw.mu.Unlock()
}

// finish writes what is held, and waits for a write under way by a
// goroutine that is not the session's (the reader's release): once the
// session is closed nothing more is queued.
func (lw *lineWriter) finish() {
	lw.release()
	lw.mu.Lock()
	for lw.writing {
		lw.drained.Wait()
	}
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

// inlineBudget is how long a call runs on the reading goroutine before the
// reading moves to another one: the longest a slow call holds back the
// messages behind it. A call that finishes within it (most do, in a few
// microseconds) costs no goroutine switch at all. With GOMAXPROCS=1 a call
// that computes without yielding holds the only thread, and the hand-off
// waits for Go to preempt it (about 10 ms); a call that blocks yields at once.
var inlineBudget = 200 * time.Microsecond // a variable for the tests

// reader reads the lines of r and hands each to the session. Reading is a
// role that passes between goroutines: the goroutine holding it reads a line
// and handles it, and a call of that line runs on it to its end
// (transport.Options.InlineCalls). If the call is still running after
// inlineBudget, or sends something of its own before its answer (a request to
// the client it will wait for, progress), the role passes to another
// goroutine, which reads on while the call finishes where it began; that
// goroutine then waits to take the role again. Messages are thus still
// handled one at a time and in order, and a slow call does not keep
// notifications/cancelled or the next calls from being read.
//
// Each line is copied into its turn's buffer before it is handed over (a
// memmove, no allocation once warm): HandleMessage does not retain it (a call
// copies what it keeps), but the role may pass while HandleMessage still
// reads it, and the next reader refills the read buffer. Answers made while the reader
// has more input buffered are held (lineWriter.hold) and written together
// just before it waits for input, as a batch.
type reader struct {
	// ctx ends the reading; once shutdown is done (a graceful shutdown,
	// while ctx goes on), the session refuses calls: checked for each
	// line, a call sent after the shutdown began is refused even if the
	// line is read before ServeGracefully notices.
	ctx, shutdown context.Context
	ss            transport.Session
	lw            *lineWriter
	limit         int
	done          chan<- error  // the reading's end: nil at end of input, else the read error
	ended         chan struct{} // closed at the reading's end: idle goroutines exit

	// The role's state, used only by the goroutine holding it (passing it
	// orders the accesses).
	br      *bufio.Reader
	long    longLine // a line longer than br's buffer, assembled
	tooLong bool     // the current line exceeds limit: skip to its end
	holding bool     // answers are being held for the next write

	current atomic.Pointer[turn] // the turn of the role's holder
	spare   chan *turn           // hands the role to a goroutine waiting for it
}

// A turn is one goroutine's time holding the role.
type turn struct {
	state atomic.Int32 // reading, handling, calling or passed
	timer *time.Timer  // passes the role on once a message took inlineBudget
	// line is a copy of the line being handled: the role may pass while
	// HandleMessage still reads its message, and the next reader refills
	// the buffer the line was read into.
	line []byte
}

const (
	reading  int32 = iota // reading input (or about to)
	handling              // in HandleMessage, ordered with the next messages
	calling               // running a call, the role free to pass on
	passed                // the role went to another goroutine
)

// idleReader is how long a goroutine that lost the role to a slow call
// waits, once the call is over, to take the role again.
const idleReader = 5 * time.Second

func newReader(ctx, shutdown context.Context, r io.Reader, lw *lineWriter, limit int, done chan<- error) *reader {
	return &reader{ctx: ctx, shutdown: shutdown, lw: lw, limit: limit, done: done,
		ended: make(chan struct{}), br: bufio.NewReaderSize(r, 64<<10), spare: make(chan *turn)}
}

// start begins the reading on a goroutine of its own.
func (rd *reader) start() { go rd.take(rd.newTurn()) }

func (rd *reader) newTurn() *turn {
	t := &turn{}
	t.timer = time.AfterFunc(time.Hour, func() { rd.pass(t) })
	t.timer.Stop()
	return t
}

// callBegins is told by the session that the message being handled starts
// a call on this goroutine (transport.Options.InlineCalls): from now on the
// role may pass, after inlineBudget or as the call sends something.
func (rd *reader) callBegins() {
	if t := rd.current.Load(); t != nil && t.state.CompareAndSwap(handling, calling) {
		t.timer.Reset(inlineBudget)
	}
}

// pass gives the role of t's goroutine, which is running a call, to another
// goroutine: one waiting for it, or a new one.
func (rd *reader) pass(t *turn) {
	if !t.state.CompareAndSwap(calling, passed) {
		return // the call is over, or the role is gone already
	}
	next := rd.newTurn()
	select {
	case rd.spare <- next:
	default:
		go rd.take(next)
	}
}

// sending is told of every message the session sends: one that belongs to
// a request and comes before its answer means that a call may wait for
// the client, so the role passes on at once instead of after inlineBudget.
func (rd *reader) sending(rel string, final bool) {
	if rel != "" && !final {
		if t := rd.current.Load(); t != nil {
			rd.pass(t)
		}
	}
}

// take holds the role with t until it passes on or the reading ends; then,
// if it passed, waits for a while to be handed the role again.
func (rd *reader) take(t *turn) {
	for {
		t.state.Store(reading)
		rd.current.Store(t)
		if !rd.read(t) {
			return // the reading is over
		}
		// The role passed on while t's message was handled: wait for it.
		idle := time.NewTimer(idleReader)
		select {
		case t = <-rd.spare:
			idle.Stop()
		case <-idle.C:
			return
		case <-rd.ended:
			idle.Stop()
			return
		}
	}
}

// read feeds each line of the input to the session until the reading ends
// (false) or the role passes to another goroutine (true).
func (rd *reader) read(t *turn) bool {
	for {
		if rd.holding && !rd.lineBuffered() {
			rd.holding = false
			rd.lw.release() // the held answers go before we wait for input
		}
		chunk, err := rd.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !rd.tooLong {
				if rd.long.size+len(chunk) > rd.limit+2 { // +2: the line ending
					rd.tooLong = true
					rd.long.reset()
				} else {
					rd.long.add(chunk)
				}
			}
			continue
		}
		line := chunk
		if rd.long.size > 0 && !rd.tooLong {
			rd.long.add(chunk)
			line = rd.long.join() // a copy already
		} else {
			t.line = append(t.line[:0], line...)
			line = t.line
		}
		line = bytes.TrimRight(line, "\r\n")
		tooLong := rd.tooLong
		rd.tooLong = false
		rd.long.reset() // line is a copy: the next line starts afresh, on whichever goroutine reads it
		if rd.ctx.Err() != nil {
			rd.end(nil)
			return false
		}
		switch {
		case tooLong || len(line) > rd.limit:
			rd.ss.RefuseTooLarge()
		case len(bytes.TrimSpace(line)) > 0:
			if rd.shutdown.Err() != nil {
				rd.ss.StopCalls()
			}
			if !rd.holding {
				rd.holding = true
				rd.lw.hold()
			}
			if rd.handle(t, line) {
				return true // line is not ours any more: the next reader has the buffer
			}
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			} else {
				err = fmt.Errorf("runtime: reading from the client: %w", err)
			}
			rd.end(err)
			return false
		}
	}
}

// handle hands line to the session and reports whether the role passed on
// meanwhile, while a call of the line ran (callBegins).
func (rd *reader) handle(t *turn, line []byte) (passed bool) {
	t.state.Store(handling)
	rd.ss.HandleMessage(rd.ctx, line)
	if t.state.CompareAndSwap(handling, reading) {
		return false // no call, or one that ran elsewhere
	}
	if t.state.CompareAndSwap(calling, reading) {
		t.timer.Stop() // (should it fire meanwhile, pass finds the call over)
		return false
	}
	return true
}

// lineBuffered reports whether a whole line is buffered, so that reading it
// will not wait for input.
func (rd *reader) lineBuffered() bool {
	n := rd.br.Buffered()
	if n == 0 {
		return false
	}
	b, _ := rd.br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// end ends the reading with err (nil: end of input).
func (rd *reader) end(err error) {
	if rd.holding {
		rd.holding = false
		rd.lw.release()
	}
	close(rd.ended)
	rd.done <- err
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
