package scaleout

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestScaleOut runs three replicas of examples/conformance behind nginx
// and checks both eras through it: 2026-07-28 served statelessly by
// whichever replica, legacy sessions kept on their replica by the tag
// routing, and broken without it.
func TestScaleOut(t *testing.T) {
	c := startCluster(t, 3)
	t.Run("modern/round-robin", func(t *testing.T) { testModernRoundRobin(t, c) })
	t.Run("modern/alpha-conformance", func(t *testing.T) { testAlphaThroughBalancer(t, c) })
	t.Run("legacy/sticky", func(t *testing.T) { testLegacySticky(t, c) })
	t.Run("legacy/without-stickiness", func(t *testing.T) { testLegacyWithoutStickiness(t, c) })
	t.Run("modern/typescript-sdk-v2", func(t *testing.T) { testTypeScriptSDK2(t, c, "modern") })
	t.Run("legacy/typescript-sdk-v2", func(t *testing.T) { testTypeScriptSDK2(t, c, "legacy") })
	t.Run("replica-lost", func(t *testing.T) { testReplicaLost(t, c) }) // last: it stops a replica
}

// elicitAccept answers every elicitation with a username and an email.
func elicitAccept(calls *int, mu *sync.Mutex) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		*calls++
		mu.Unlock()
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "alice", "email": "alice@example.com"}}, nil
	}
}

const wantElicited = `User response: <action: accept, content: {"email":"alice@example.com","username":"alice"}>`

// connect connects the official Go SDK client through the balancer at
// endpoint in the 2026-07-28 era or the legacy one (2025-11-25), its HTTP
// exchanges recorded in log.
func connect(t *testing.T, endpoint, version string, log *hopLog, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scaleout-test", Version: "1.0.0"}, opts)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: log.client()}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect through nginx (%s): %v", version, err)
	}
	t.Cleanup(func() { session.Close() })
	if got := session.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %q through nginx, want %q", got, version)
	}
	return session
}

func callText(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if text == nil || res.IsError {
		t.Fatalf("%s: isError %v, content %T", name, res.IsError, res.Content[0])
	}
	return text.Text
}

// testModernRoundRobin: the Go SDK client in the 2026-07-28 era through
// nginx: no session, every request goes to the next replica, all three
// serve, and an elicitation's first attempt and its retry are served by
// different replicas (they share the requestState key); a replica with
// another key refuses that retry's state, so the shared key is what makes
// it work.
func testModernRoundRobin(t *testing.T, c *cluster) {
	log := newHopLog(c)
	var mu sync.Mutex
	elicited := 0
	s := connect(t, c.sticky, "2026-07-28", log, &mcp.ClientOptions{ElicitationHandler: elicitAccept(&elicited, &mu)})
	for range 6 {
		if got := callText(t, s, "test_simple_text", nil); got != "This is a simple text response for testing." {
			t.Errorf("test_simple_text = %q", got)
		}
	}
	if got := callText(t, s, "test_elicitation", map[string]any{"message": "Who are you?"}); got != wantElicited {
		t.Errorf("test_elicitation = %q, want %q", got, wantElicited)
	}
	if elicited != 1 {
		t.Errorf("the client answered %d elicitations, want 1", elicited)
	}

	hops := log.all()
	served := map[string]int{}
	for i, h := range hops {
		served[h.Replica]++
		if h.Verb != http.MethodPost || h.SessionID != "" || h.Status != http.StatusOK {
			t.Errorf("hop %d: %s %s, session %q, status %d: want stateless POSTs answered 200", i, h.Verb, h.Method, h.SessionID, h.Status)
		}
		if i > 0 && h.Replica == hops[i-1].Replica {
			t.Errorf("hops %d and %d (%s, %s) both went to %s: want round robin", i-1, i, hops[i-1].Method, h.Method, h.Replica)
		}
	}
	if len(served) != len(c.Replicas) {
		t.Errorf("requests served per replica: %v, want all %d replicas", served, len(c.Replicas))
	}
	var rounds []hop
	for _, h := range hops {
		if h.Tool == "test_elicitation" {
			rounds = append(rounds, h)
		}
	}
	if len(rounds) != 2 || rounds[0].Retry || !rounds[1].Retry {
		t.Fatalf("test_elicitation went out %d times, want a first attempt then a retry with requestState: %+v", len(rounds), rounds)
	}
	if rounds[0].Replica == rounds[1].Replica {
		t.Errorf("the input_required round and its retry were both served by %s, want two replicas", rounds[0].Replica)
	}
	t.Logf("test_elicitation: input_required from %s, retry completed by %s; requests per replica %v", rounds[0].Replica, rounds[1].Replica, served)

	// The same retry, sent to a replica with another key, is refused.
	stranger, _ := startReplica(t, examples.Bin(t, "conformance"), "stranger", hex.EncodeToString([]byte("another key, 32 bytes long......")))
	status, body := post(t, "http://"+stranger+"/mcp", rounds[1].header, rounds[1].body)
	if status != http.StatusOK || !strings.Contains(body, "-32602") || !strings.Contains(body, "integrity check") {
		t.Errorf("the retry sent to a replica with another key: %d %s, want a -32602 integrity error", status, body)
	}
}

// testLegacySticky: three legacy sessions of the Go SDK client through the
// sticky front door: initialize spreads them over the replicas, and every
// later request of a session, its GET stream and its answer to the
// server's elicitation/create included, reaches the replica whose tag
// starts its session id.
func testLegacySticky(t *testing.T, c *cluster) {
	tags := map[string]bool{}
	for i := range 3 {
		log := newHopLog(c)
		var mu sync.Mutex
		elicited := 0
		s := connect(t, c.sticky, "2025-11-25", log, &mcp.ClientOptions{ElicitationHandler: elicitAccept(&elicited, &mu)})
		tag, _, ok := strings.Cut(s.ID(), ".")
		if !ok || !slices.ContainsFunc(c.Replicas, func(r replica) bool { return r.Name == tag }) {
			t.Fatalf("session %d: id %q does not start with a replica's tag", i, s.ID())
		}
		tags[tag] = true
		for range 10 {
			callText(t, s, "test_simple_text", nil)
		}
		if got := callText(t, s, "test_elicitation", map[string]any{"message": "Who are you?"}); got != wantElicited || elicited != 1 {
			t.Errorf("session %s: test_elicitation = %q after %d elicitations, want %q after 1", s.ID(), got, elicited, wantElicited)
		}
		s.Close()

		var answered, posts int
		for _, h := range log.all() {
			if h.SessionID == "" {
				continue // the initialize, which any replica may take
			}
			if h.Replica != tag {
				t.Errorf("session %s: %s %s went to %s, want %s", s.ID(), h.Verb, h.Method, h.Replica, tag)
			}
			if h.Status >= 300 {
				t.Errorf("session %s: %s %s: status %d", s.ID(), h.Verb, h.Method, h.Status)
			}
			if h.Verb == http.MethodPost {
				posts++
				if h.Method == "" {
					answered++ // the client's response to elicitation/create
				}
			}
		}
		if posts < 12 || answered != 1 {
			t.Errorf("session %s: %d POSTs with the session id (%d responses to the server), want at least 12 and 1", s.ID(), posts, answered)
		}
	}
	if len(tags) != len(c.Replicas) {
		t.Errorf("three sessions landed on replicas %v, want one on each (initialize round-robins)", tags)
	}
}

// testLegacyWithoutStickiness: the same legacy session through plain round
// robin breaks: the requests that reach another replica than the one
// holding the session get 404 (unknown session); through the sticky front
// door the same sequence succeeds.
func testLegacyWithoutStickiness(t *testing.T, c *cluster) {
	for _, door := range []struct {
		name, url string
		sticky    bool
	}{{"sticky", c.sticky, true}, {"round-robin", c.plain, false}} {
		log := newHopLog(c)
		hc := log.client()
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scaleout-test","version":"1.0.0"}}}`
		resp := send(t, hc, door.url, "", init)
		sid := resp.Header.Get("Mcp-Session-Id")
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("%s: initialize: %d, session %q", door.name, resp.StatusCode, sid)
		}
		tag, _, _ := strings.Cut(sid, ".")
		bodies := []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}
		for i := range 5 {
			bodies = append(bodies, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_simple_text"}}`, i+2))
		}
		notFound := 0
		for _, b := range bodies {
			resp := send(t, hc, door.url, sid, b)
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			h := log.all()[len(log.all())-1]
			switch {
			case resp.StatusCode == http.StatusNotFound && strings.Contains(string(data), "session not found"):
				notFound++
				if h.Replica == tag {
					t.Errorf("%s: 404 from %s, the replica holding session %s", door.name, h.Replica, sid)
				}
			case resp.StatusCode < 300:
				if h.Replica != tag {
					t.Errorf("%s: session %s served by %s", door.name, sid, h.Replica)
				}
			default:
				t.Errorf("%s: %s: %d %s", door.name, b, resp.StatusCode, data)
			}
		}
		if door.sticky && notFound != 0 {
			t.Errorf("sticky: %d of %d requests of session %s got 404, want none", notFound, len(bodies), sid)
		}
		if !door.sticky && notFound == 0 {
			t.Errorf("round robin: every request of session %s reached its replica: the test cannot tell stickiness from luck", sid)
		}
		t.Logf("%s: %d of %d requests of session %s got 404 (unknown session)", door.name, notFound, len(bodies), sid)
	}
}

// send POSTs a legacy-era message with the headers a client sends.
func send(t *testing.T, hc *http.Client, url, sid, body string) *http.Response {
	t.Helper()
	resp, err := hc.Do(legacyRequest(t, context.Background(), url, sid, body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// legacyRequest is a POST of a legacy-era message to url in session sid
// ("": none, before initialize), with the headers a client sends.
func legacyRequest(t *testing.T, ctx context.Context, url, sid, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	return req
}

// post sends body with header to url and returns the status and the body.
func post(t *testing.T, url string, header http.Header, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// testReplicaLost: a replica stops. Its legacy session gets 404 through the
// sticky front door (nginx's 502 turned into "session not found", so that
// clients initialize again), a new session lands on a live replica, and
// 2026-07-28 requests keep being served by the others.
func testReplicaLost(t *testing.T, c *cluster) {
	hc := newHopLog(c).client()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scaleout-test","version":"1.0.0"}}}`
	open := func() string {
		resp := send(t, hc, c.sticky, "", init)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
		}
		return sid
	}
	sid := open()
	tag, _, _ := strings.Cut(sid, ".")
	i := slices.IndexFunc(c.Replicas, func(r replica) bool { return r.Name == tag })
	if i < 0 {
		t.Fatalf("session %q has no replica's tag", sid)
	}
	began := time.Now()
	c.Replicas[i].stop()
	t.Logf("replica %s stopped in %v", tag, time.Since(began).Round(time.Millisecond))

	resp := send(t, hc, c.sticky, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text"}}`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "session not found") {
		t.Errorf("a session of the stopped replica %s: %d %s, want 404 session not found", tag, resp.StatusCode, body)
	}
	for range 3 {
		if again := open(); strings.HasPrefix(again, tag+".") {
			t.Errorf("a new session %q landed on the stopped replica", again)
		}
	}

	log := newHopLog(c)
	s := connect(t, c.sticky, "2026-07-28", log, nil)
	for range 4 {
		callText(t, s, "test_simple_text", nil)
	}
	for _, h := range log.all() {
		if h.Replica == tag || h.Status != http.StatusOK {
			t.Errorf("%s after %s stopped: status %d from %s", h.Method, tag, h.Status, h.Replica)
		}
	}
}
