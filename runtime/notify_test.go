package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

const (
	toolsChanged     = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
	resourcesChanged = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`
	promptsChanged   = `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`
)

func updated(uri string) string {
	return `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"` + uri + `"}}`
}

func noPrompt(name string) runtime.Prompt {
	return runtime.Prompt{Name: name, Handler: func(context.Context, *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		return textPrompt(name), nil
	}}
}

func textResource(uri string) runtime.Resource {
	return runtime.TypedResource(runtime.Resource{URI: uri}, func(context.Context) (string, error) { return uri, nil })
}

func TestCapabilitiesEverything(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	srv.AddResourceTemplate(echoParams[PostParams]("post://{id}"))
	srv.AddPrompt(noPrompt("p"))
	c := serve(t, srv)
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	want := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},` +
		`"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{}},"serverInfo":{"name":"test-server","version":"0.1.0"}}}`
	if got := c.recv(); got != want {
		t.Errorf("initialize:\n got %s\nwant %s", got, want)
	}
	srv2 := runtime.NewServer(testInfo())
	srv2.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "x://{y}",
		Handler: func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
			return nil, nil
		},
		Complete: func(context.Context, *runtime.CompleteRequest) (*runtime.Completion, error) { return nil, nil }})
	jsonEqual(t, `{"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":true,"listChanged":true},"completions":{},"logging":{}},
		"serverInfo":{"name":"test-server","version":"0.1.0"}}`, serve(t, srv2).initialize())
}

func TestSubscriptions(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddResource(textResource("watched://r"))
	srv.AddResourceTemplate(echoParams[PostParams]("post://{id}"))
	c := serve(t, srv)
	c.initialize()
	other := serve(t, srv) // a second session, subscribed to nothing
	other.initialize()

	jsonEqual(t, `{}`, c.result("resources/subscribe", map[string]any{"uri": "watched://r"}))
	jsonEqual(t, `{}`, c.result("resources/subscribe", map[string]any{"uri": "post://7"}))
	jsonEqual(t, `{}`, c.result("resources/subscribe", map[string]any{"uri": "post://7"})) // again: still one subscription
	for _, tc := range []struct {
		params any
		want   string
	}{
		{map[string]any{"uri": "nothing://x"}, `{"code":-32002,"message":"resource not found: \"nothing://x\"","data":{"uri":"nothing://x"}}`},
		{map[string]any{"uri": 1}, `{"code":-32602,"message":"invalid params: \"uri\" must be a string"}`},
		{map[string]any{"uri": "relative"}, `{"code":-32602,"message":"invalid params: \"uri\" must be an absolute URI such as file:///notes.txt (got \"relative\")"}`},
		{nil, `{"code":-32602,"message":"invalid params: resources/subscribe takes an object with \"uri\""}`},
	} {
		if got := errorJSON(c.request("resources/subscribe", tc.params)); got != tc.want {
			t.Errorf("subscribe %v:\n got %s\nwant %s", tc.params, got, tc.want)
		}
	}

	srv.NotifyResourceUpdated("other://x") // nobody: nothing is sent
	srv.NotifyResourceUpdated("post://8")  // matches a template, but nobody subscribed to it
	srv.NotifyResourceUpdated("watched://r")
	if got := c.recv(); got != updated("watched://r") {
		t.Errorf("notification %s, want %s", got, updated("watched://r"))
	}
	srv.NotifyResourceUpdated("post://7")
	if got := c.recv(); got != updated("post://7") {
		t.Errorf("notification %s, want %s", got, updated("post://7"))
	}

	jsonEqual(t, `{}`, c.result("resources/unsubscribe", map[string]any{"uri": "watched://r"}))
	jsonEqual(t, `{}`, c.result("resources/unsubscribe", map[string]any{"uri": "never://subscribed"}))
	srv.NotifyResourceUpdated("watched://r") // no longer subscribed
	srv.NotifyResourceUpdated("post://7")
	if got := c.recv(); got != updated("post://7") {
		t.Errorf("after unsubscribe: %s, want %s", got, updated("post://7"))
	}
	// The other session got nothing: its next line answers its ping.
	if got := other.request("ping", nil); string(got.Result) != `{}` {
		t.Errorf("the unsubscribed session: %+v", got)
	}
}

func TestListChanged(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("t1"))
	srv.AddResource(textResource("r://1"))
	srv.AddPrompt(noPrompt("p1"))
	c := serve(t, srv)
	c.initialize()
	h := func(context.Context, *runtime.ReadResourceRequest) (*runtime.ReadResourceResult, error) {
		return nil, nil
	}
	for _, tc := range []struct {
		name   string
		change func()
		want   string
	}{
		{"AddTool", func() { srv.AddTool(echoTool("t2")) }, toolsChanged},
		{"RemoveTool", func() { srv.RemoveTool("t1") }, toolsChanged},
		{"AddResource", func() { srv.AddResource(textResource("r://2")) }, resourcesChanged},
		{"RemoveResource", func() { srv.RemoveResource("r://1") }, resourcesChanged},
		{"AddResourceTemplate", func() { srv.AddResourceTemplate(runtime.ResourceTemplate{URITemplate: "t://{x}", Handler: h}) }, resourcesChanged},
		{"RemoveResourceTemplate", func() { srv.RemoveResourceTemplate("t://{x}") }, resourcesChanged},
		{"AddPrompt", func() { srv.AddPrompt(noPrompt("p2")) }, promptsChanged},
		{"RemovePrompt", func() { srv.RemovePrompt("p1") }, promptsChanged},
	} {
		tc.change()
		if got := c.recv(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// Removing what is not there changes nothing.
	srv.RemoveTool("t1")
	srv.RemovePrompt("nope")
	srv.RemoveResource("r://9")
	if got := c.request("tools/list", nil); got.Error != nil || !contains(string(got.Result), `"t2"`) || contains(string(got.Result), `"t1"`) {
		t.Errorf("tools/list after the changes: %s", got.Result)
	}
}

// TestListChangedOnlyAdvertised: a session told at initialize that there are
// no prompts gets no prompts/list_changed; one not initialized gets nothing.
func TestListChangedOnlyAdvertised(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("t1"))
	c := serve(t, srv)
	c.initialize()
	late := serve(t, srv) // not initialized yet
	srv.AddPrompt(noPrompt("p1"))
	srv.AddTool(echoTool("t2"))
	if got := c.recv(); got != toolsChanged {
		t.Errorf("got %s, want only %s", got, toolsChanged)
	}
	// The late session's first message is its initialize response, which
	// advertises the prompts now there; then changes reach it.
	res := late.initialize()
	if !contains(string(res), `"prompts":{"listChanged":true}`) {
		t.Errorf("late initialize: %s", res)
	}
	srv.RemovePrompt("p1")
	if got := late.recv(); got != promptsChanged {
		t.Errorf("late session: %s, want %s", got, promptsChanged)
	}
	// The prompts are gone, but the session was told there are some: it may
	// still list them.
	jsonEqual(t, `{"prompts":[]}`, late.result("prompts/list", nil))
}

// inproc is a session driven in process, recording what it sends.
type inproc struct {
	ss   *runtime.Session
	mu   sync.Mutex
	msgs []string
}

func newInproc(srv *runtime.Server) *inproc {
	p := &inproc{}
	p.ss = srv.NewSession(func(b []byte) {
		p.mu.Lock()
		p.msgs = append(p.msgs, string(b))
		p.mu.Unlock()
	})
	return p
}

func (p *inproc) sent() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// TestNoNotificationBeforeInitializeResult races changes against
// initialize: the initialize response always comes first.
func TestNoNotificationBeforeInitializeResult(t *testing.T) {
	for range 50 {
		srv := runtime.NewServer(testInfo())
		srv.AddTool(echoTool("t0"))
		p := newInproc(srv)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				srv.AddTool(echoTool(fmt.Sprint("t", i+1)))
			}
		})
		p.ss.HandleMessage(context.Background(), []byte(benchInit))
		close(stop)
		wg.Wait()
		if msgs := p.sent(); len(msgs) == 0 || !strings.HasPrefix(msgs[0], `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion"`) {
			t.Fatalf("first message %q", msgs)
		}
		p.ss.Close()
	}
}

// TestMutatorsDoNotWaitForClients: a client that never reads blocks its
// session's sends, never the server's mutators.
func TestMutatorsDoNotWaitForClients(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("t0"))
	srv.AddResource(textResource("r://x"))
	unblock := make(chan struct{})
	ss := srv.NewSession(func(b []byte) {
		if !strings.Contains(string(b), `"id":`) {
			<-unblock // the client reads responses, but no notification
		}
	})
	defer ss.Close()     // waits for the send in progress…
	defer close(unblock) // …so it must end first
	ss.HandleMessage(context.Background(), []byte(benchInit))
	ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"r://x"}}`))
	done := make(chan struct{})
	go func() {
		for i := range 1000 {
			srv.AddTool(echoTool(fmt.Sprint("t", i+1)))
			srv.NotifyResourceUpdated("r://x")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("mutators blocked on a client that does not read")
	}
}

// TestNotifyWhileServing runs reads, calls, subscriptions, notifications and
// registrations concurrently on several sessions (run it with -race).
func TestNotifyWhileServing(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(echoTool("echo"))
	srv.AddResourceTemplate(echoParams[PostParams]("post://{id}"))
	srv.AddPrompt(noPrompt("p"))
	const sessions, requests = 4, 200
	type counts struct {
		mu        sync.Mutex
		responses map[string]int
		notes     int
	}
	var all []*counts
	var sss []*runtime.Session
	for range sessions {
		cn := &counts{responses: map[string]int{}}
		all = append(all, cn)
		ss := srv.NewSession(func(b []byte) {
			var r response
			_ = jsonUnmarshal(b, &r)
			cn.mu.Lock()
			defer cn.mu.Unlock()
			if r.ID == nil {
				cn.notes++
				return
			}
			if r.Error != nil {
				t.Errorf("error response %s", b)
			}
			cn.responses[string(r.ID)]++
		})
		ss.HandleMessage(context.Background(), []byte(benchInit))
		sss = append(sss, ss)
	}
	var wg sync.WaitGroup
	for si, ss := range sss {
		wg.Go(func() {
			for i := range requests {
				var msg string
				switch i % 5 {
				case 0:
					msg = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{}}}`
				case 1:
					msg = `{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"post://` + fmt.Sprint(si+1) + `"}}`
				case 2:
					msg = `{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"post://` + fmt.Sprint(i) + `"}}`
				case 3:
					msg = `{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":"p"}}`
				case 4:
					msg = `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
				}
				ss.HandleMessage(context.Background(), []byte(fmt.Sprintf(msg, i+1)))
			}
		})
	}
	wg.Go(func() {
		for i := range requests {
			srv.NotifyResourceUpdated(fmt.Sprint("post://", i))
			srv.AddTool(echoTool(fmt.Sprint("extra", i)))
			srv.RemoveTool(fmt.Sprint("extra", i))
			_ = srv.Tools()
		}
	})
	wg.Wait()
	for _, ss := range sss {
		ss.Wait()
		ss.Close()
	}
	for i, cn := range all {
		cn.mu.Lock()
		if len(cn.responses) != requests+1 { // + initialize
			t.Errorf("session %d: %d responses, want %d", i, len(cn.responses), requests+1)
		}
		for id, n := range cn.responses {
			if n != 1 {
				t.Errorf("session %d: id %s answered %d times", i, id, n)
			}
		}
		cn.mu.Unlock()
	}
}
