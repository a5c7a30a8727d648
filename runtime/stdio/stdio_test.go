package stdio_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/stdio"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// fakeServer is a transport.Server that is not the runtime: stdio needs
// nothing but the seam. Its session echoes each message back and records
// what the transport asked of it.
type fakeServer struct {
	limit int
	opts  transport.Options
	ss    *fakeSession
}

func (f *fakeServer) Start() error { return nil }
func (f *fakeServer) Limits() transport.Limits {
	return transport.Limits{MaxMessageSize: f.limit}
}
func (f *fakeServer) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	f.opts = o
	f.ss = &fakeSession{sink: sink}
	return f.ss
}

type fakeSession struct {
	sink transport.Sink
	mu   sync.Mutex
	log  []string
}

func (s *fakeSession) note(what string) { s.mu.Lock(); s.log = append(s.log, what); s.mu.Unlock() }
func (s *fakeSession) HandleMessage(_ context.Context, msg []byte) {
	s.sink.Send("", true, append([]byte("echo "), msg...))
}
func (s *fakeSession) RefuseTooLarge()        { s.sink.Send("", true, []byte("too large")) }
func (s *fakeSession) CallsInFlight() bool    { return false }
func (s *fakeSession) EndSubscriptions()      { s.note("end subscriptions") }
func (s *fakeSession) StopCalls()             { s.note("stop calls") }
func (s *fakeSession) Drain() <-chan struct{} { s.note("drain"); return nil }
func (s *fakeSession) Wait()                  { s.note("wait") }
func (s *fakeSession) Close()                 { s.note("close") }

func TestServeOnTheSeam(t *testing.T) {
	srv := &fakeServer{limit: 10}
	in := "a\r\n\n  \nbbbbbbbbbbbbbbbbbbbbbbbbb\n" + strings.Repeat("c", 100<<10) + "\nd"
	var out bytes.Buffer
	if err := stdio.Serve(context.Background(), srv, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if want := "echo a\ntoo large\ntoo large\necho d\n"; out.String() != want {
		t.Errorf("written:\n%q\nwant\n%q", out.String(), want)
	}
	if srv.opts.Name != "stdio" || !srv.opts.Detached || srv.opts.NoRequests || srv.opts.InlineCalls == nil {
		t.Errorf("options %+v, want Name stdio, Detached and InlineCalls", srv.opts)
	}
	// At end of input: subscriptions end before the wait, or it would last
	// forever; the session is closed in any case.
	if diff := cmp.Diff([]string{"end subscriptions", "wait", "close"}, dedupe(srv.ss.log)); diff != "" {
		t.Errorf("session calls (-want +got):\n%s", diff)
	}
}

// dedupe drops repeated Closes (a deferred one follows the explicit one).
func dedupe(log []string) []string {
	var out []string
	for _, s := range log {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// askingSession runs a call inline that sends a request to the client and
// waits for its answer, as a handler asking for roots or an elicitation does.
type askingSession struct {
	fakeSession
	begins   func()
	answered chan struct{}
}

func (s *askingSession) HandleMessage(_ context.Context, msg []byte) {
	switch string(msg) {
	case "ask":
		s.begins() // a call, run on this goroutine from here on
		s.sink.Send("1", false, []byte("request"))
		<-s.answered
		s.sink.Send("1", true, []byte("result"))
	case "answer":
		close(s.answered)
	}
}

type askingServer struct{ fakeServer }

func (f *askingServer) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	return &askingSession{fakeSession: fakeSession{sink: sink}, begins: o.InlineCalls, answered: make(chan struct{})}
}

// TestCallThatAsksPassesTheReading: a call that sends something before its
// answer hands the reading on at once, without waiting for the budget (here
// an hour): the client's answer is read while the call waits for it.
func TestCallThatAsksPassesTheReading(t *testing.T) {
	defer stdio.SetInlineBudget(time.Hour)()
	srv := &askingServer{fakeServer{limit: 100}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- stdio.Serve(context.Background(), srv, inR, outW); outW.Close() }()
	go io.WriteString(inW, "ask\n")
	lines := make(chan string)
	go func() {
		out := bufio.NewScanner(outR)
		for out.Scan() {
			lines <- out.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("nothing written: the reading stayed with the call")
		}
		return ""
	}
	if l := next(); l != "request" {
		t.Fatalf("first line %q, want the request", l)
	}
	go io.WriteString(inW, "answer\n")
	if l := next(); l != "result" { // the answer was read while the call waited
		t.Errorf("second line %q, want the result", l)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// slowLongSession runs a call for a line longer than the read buffer that
// waits for the next line to be read.
type slowLongSession struct {
	fakeSession
	begins func()
	next   chan struct{}
	calls  sync.WaitGroup
}

func (s *slowLongSession) Wait() { s.calls.Wait() }

func (s *slowLongSession) HandleMessage(_ context.Context, msg []byte) {
	if len(msg) > 64<<10 {
		s.calls.Add(1) // before the reading passes on, so before end of input
		defer s.calls.Done()
		s.begins()
		<-s.next
		s.sink.Send("1", true, []byte("long done"))
		return
	}
	s.sink.Send("", true, append([]byte("echo "), msg...))
	close(s.next)
}

type slowLongServer struct{ fakeServer }

func (f *slowLongServer) OpenSession(sink transport.Sink, o transport.Options) transport.Session {
	return &slowLongSession{fakeSession: fakeSession{sink: sink}, begins: o.InlineCalls, next: make(chan struct{})}
}

// TestLongLineThenPass: the reading passes on while a long line's call runs;
// the next reader starts the next line afresh, not after the long one.
func TestLongLineThenPass(t *testing.T) {
	srv := &slowLongServer{fakeServer{limit: 300 << 10}} // each line is within it, not the two together
	long := strings.Repeat("x", 200<<10)
	in := long + "\n" + long + "\nshort\n"
	var out bytes.Buffer
	if err := stdio.Serve(context.Background(), srv, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if want := "echo short\nlong done\nlong done\n"; out.String() != want {
		t.Errorf("written %.80q, want %q", out.String(), want)
	}
}

// TestServeLongLineAtTheLimit: a message of exactly the limit, longer than
// the read buffer and ended by CRLF, is served (its line ending does not
// count toward the limit); one byte more is refused. The limit is one
// less than twice the 64 KiB read buffer, so that the message and its CR
// fill the buffer exactly twice.
func TestServeLongLineAtTheLimit(t *testing.T) {
	const limit = 128<<10 - 1
	for _, c := range []struct {
		size int
		want string
	}{{limit, "echo " + strings.Repeat("x", limit)}, {limit + 1, "too large"}} {
		srv := &fakeServer{limit: limit}
		in := strings.Repeat("x", c.size) + "\r\nd\r\n"
		var out bytes.Buffer
		if err := stdio.Serve(context.Background(), srv, strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		if want := c.want + "\necho d\n"; out.String() != want {
			t.Errorf("a message of %d bytes, limit %d: written %.40q… (%d bytes), want %.40q… (%d bytes)", c.size, limit, out.String(), out.Len(), want, len(want))
		}
	}
}
