package runtime_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Over stdio a call runs on the goroutine that reads the input, and the
// reading moves to another goroutine when the call is slow (package
// runtime/stdio). These tests hold a call until something that can only
// happen if the reading went on: none of them measures time.

// heldTool is a tool whose calls wait until release is closed or their
// context ends, which they report on cancelled.
type heldTool struct {
	started   chan string
	release   chan struct{}
	cancelled chan string
}

func newHeldTool() *heldTool {
	return &heldTool{started: make(chan string, 64), release: make(chan struct{}), cancelled: make(chan string, 64)}
}

func (b *heldTool) tool() runtime.Tool {
	return runtime.Tool{Name: "slow", Description: "Waits to be released.", Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		b.started <- string(req.Arguments)
		select {
		case <-b.release:
			return runtime.TextResult("released " + string(req.Arguments)), nil
		case <-ctx.Done():
			b.cancelled <- string(req.Arguments)
			return nil, ctx.Err()
		}
	}}
}

// sendAsync writes line to the server from a goroutine of its own: a server
// that stopped reading fails the test (waiting for an answer) instead of
// blocking the write forever.
func sendAsync(c *client, line string) { go io.WriteString(c.w, line+"\n") }

func callLine(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

// TestStdioSlowCallDoesNotHoldBackFastOne: the slow call is released only
// once the fast call sent after it has been answered, which needs the
// reading to have left the slow call's goroutine.
func TestStdioSlowCallDoesNotHoldBackFastOne(t *testing.T) {
	b := newHeldTool()
	srv := runtime.NewServer(testInfo())
	srv.AddTool(b.tool())
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	sendAsync(c, callLine(10, "slow", `{"n":1}`)+"\n"+callLine(11, "echo", `{"s":"fast"}`))
	if r := parse(t, c.recv()); string(r.ID) != "11" || r.Error != nil {
		t.Fatalf("first answer: id %s, error %v; want the fast call's (11)", r.ID, r.Error)
	}
	close(b.release)
	if r := parse(t, c.recv()); string(r.ID) != "10" || !strings.Contains(string(r.Result), `released {\"n\":1}`) {
		t.Fatalf("second answer: id %s %s; want the slow call's (10)", r.ID, r.Result)
	}
}

// TestStdioCancelReachesSlowCall: notifications/cancelled, read while the
// call it names runs on the goroutine that read the call, cancels it; it is
// not answered, and the session goes on.
func TestStdioCancelReachesSlowCall(t *testing.T) {
	b := newHeldTool()
	srv := runtime.NewServer(testInfo())
	srv.AddTool(b.tool())
	c := serve(t, srv)
	c.initialize()
	c.send(callLine(20, "slow", `{"n":2}`))
	<-b.started // the call runs before the cancellation is sent
	sendAsync(c, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":20}}`)
	select {
	case got := <-b.cancelled:
		if got != `{"n":2}` {
			t.Errorf("cancelled %s", got)
		}
	case l := <-c.lines:
		t.Fatalf("unexpected line before the cancellation: %s", l)
	case <-time.After(wait):
		t.Fatal("the cancellation did not reach the call")
	}
	// The next answer is the ping's: the cancelled call has none.
	if r := c.request("ping", nil); r.Error != nil {
		t.Fatalf("ping: %v", r.Error)
	}
}

// TestStdioEndOfInputAnswersSlowCalls: at end of input, the slow calls in
// flight (each began on the reading goroutine, which then moved on) and a
// fast one sent after them are all answered before ServeStdio returns.
func TestStdioEndOfInputAnswersSlowCalls(t *testing.T) {
	const slow = 8
	b := newHeldTool()
	srv := runtime.NewServer(testInfo())
	srv.AddTool(b.tool())
	srv.AddTool(echoTool("echo"))
	c := serve(t, srv)
	c.initialize()
	var in strings.Builder
	for i := range slow {
		in.WriteString(callLine(100+i, "slow", fmt.Sprintf(`{"n":%d}`, i)) + "\n")
	}
	in.WriteString(callLine(200, "echo", `{"s":"last"}`))
	sendAsync(c, in.String())
	for range slow {
		select {
		case <-b.started: // every slow call runs at once: the reading went on after each
		case <-time.After(wait):
			t.Fatal("the slow calls did not all start")
		}
	}
	if r := parse(t, c.recv()); string(r.ID) != "200" {
		t.Fatalf("first answer: id %s, want the fast call's (200)", r.ID)
	}
	c.w.Close() // end of input while the slow calls wait
	close(b.release)
	if err := c.closeInput(); err != nil {
		t.Fatalf("ServeStdio = %v", err)
	}
	answered := map[string]bool{}
	for _, l := range c.rest() {
		r := parse(t, l)
		if r.Error != nil || !strings.Contains(string(r.Result), "released") {
			t.Errorf("answer %s", l)
		}
		answered[string(r.ID)] = true
	}
	if len(answered) != slow {
		t.Errorf("%d of %d slow calls answered after end of input: %v", len(answered), slow, answered)
	}
}
