package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Multi round-trip requests: in the 2026-07-28 era, Elicit, CreateMessage
// and ListRoots end the first attempt with input_required, and the retry
// runs the handler again with the answers.

const elicitSchema = `{"type":"object","properties":{"name":{"type":"string"}}}`

func mrtrServer(opts ...runtime.Option) *runtime.Server {
	srv := runtime.NewServer(testInfo(), opts...)
	// "all" asks three things in one round.
	srv.AddTool(runtime.Tool{Name: "all", Description: "Asks three things.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		el, err1 := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Name?", RequestedSchema: json.RawMessage(elicitSchema)})
		sm, err2 := runtime.CreateMessage(ctx, &runtime.CreateMessageRequest{Messages: []runtime.SamplingMessage{{Role: "user", Content: runtime.Text("Hi")}}, MaxTokens: 10})
		roots, err3 := runtime.ListRoots(ctx)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, err
		}
		return runtime.TextResult(fmt.Sprintf("%s %v %s %s %d %s", el.Action, el.Content["name"], sm.Model, sm.Content, len(roots), roots[0].URI)), nil
	}})
	// "rounds" asks, then asks again depending on the answer.
	srv.AddTool(runtime.Tool{Name: "rounds", Description: "Asks twice.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		first, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "First?", RequestedSchema: json.RawMessage(elicitSchema)})
		if err != nil {
			return nil, err
		}
		second, err := runtime.Elicit(ctx, &runtime.ElicitRequest{Message: "Second, after " + first.Content["name"].(string) + "?", RequestedSchema: json.RawMessage(elicitSchema)})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult(first.Content["name"].(string) + "+" + second.Content["name"].(string)), nil
	}})
	// "named" names its request: a client answers it by that key.
	srv.AddTool(runtime.Tool{Name: "named", Description: "Asks by name.", Handler: func(ctx context.Context, _ *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
		el, err := runtime.Elicit(runtime.WithInputKey(ctx, "user_name"), &runtime.ElicitRequest{Message: "Name?", RequestedSchema: json.RawMessage(elicitSchema)})
		if err != nil {
			return nil, err
		}
		return runtime.TextResult(fmt.Sprint(el.Content["name"])), nil
	}})
	// "typed" goes through the typed adapter, which turns errors into
	// isError results: a missing capability is still -32021.
	srv.AddTool(runtime.TypedToolResult(runtime.Tool{Name: "typed", Description: "Samples."}, func(ctx context.Context, _ *runtime.NoArgs) (*runtime.CallToolResult, error) {
		if _, err := runtime.CreateMessage(ctx, &runtime.CreateMessageRequest{Messages: []runtime.SamplingMessage{{Role: "user", Content: runtime.Text("Hi")}}, MaxTokens: 10}); err != nil {
			return nil, err
		}
		return runtime.TextResult("sampled"), nil
	}))
	srv.AddPrompt(runtime.Prompt{Name: "p", Description: "Asks.", Handler: func(ctx context.Context, _ *runtime.GetPromptRequest) (*runtime.GetPromptResult, error) {
		roots, err := runtime.ListRoots(ctx)
		if err != nil {
			return nil, err
		}
		return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{{Role: "user", Content: runtime.Text(roots[0].URI)}}}, nil
	}})
	return srv
}

const allCaps = `{"elicitation":{},"sampling":{},"roots":{}}`

func callParams(tool, caps, extra string) string {
	return `{"name":"` + tool + `"` + extra + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}`
}

// roundResult splits a response into its result without requestState and
// the state.
func roundResult(t *testing.T, msg string) (string, string) {
	t.Helper()
	var r struct {
		Result json.RawMessage
		Error  json.RawMessage
	}
	if err := json.Unmarshal([]byte(msg), &r); err != nil || r.Result == nil {
		t.Fatalf("not a result: %s", msg)
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(r.Result, &m)
	var state string
	_ = json.Unmarshal(m["requestState"], &state)
	delete(m, "requestState")
	b, _ := json.Marshal(m)
	return string(b), state
}

// transports run one exchange: send msg, return the response (the last
// message).
type exchanger func(t *testing.T, msg string) string

func sessionExchanger(t *testing.T, srv *runtime.Server) exchanger {
	p := newSessionPeer(t, srv)
	return func(t *testing.T, msg string) string {
		p.t = t
		got := p.exchange(msg)
		return got[len(got)-1]
	}
}

func httpExchanger(t *testing.T, srv *runtime.Server) exchanger {
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	return func(t *testing.T, msg string) string {
		_, h, body := modernPost(t, ts.URL, msg, nil)
		d := sseData(h.Get("Content-Type"), body)
		return d[len(d)-1]
	}
}

var transports = []struct {
	name string
	make func(*testing.T, *runtime.Server) exchanger
}{{"session", sessionExchanger}, {"http", httpExchanger}}

func TestMRTR(t *testing.T) {
	info := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"0.1.0"}}`
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			ex := tr.make(t, mrtrServer())

			// One round, three requests.
			res, state := roundResult(t, ex(t, req(1, "tools/call", callParams("all", allCaps, ""))))
			want := `{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"0.1.0"}},"inputRequests":{` +
				`"input-0":{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}},` +
				`"input-1":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}},` +
				`"input-2":{"method":"roots/list","params":{}}},"resultType":"input_required"}`
			if res != want || state == "" {
				t.Fatalf("round 1:\n got %s (state %q)\nwant %s", res, state, want)
			}
			answers := `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"Ada"}},"input-1":{"role":"assistant","content":{"type":"text","text":"Hello"},"model":"m1"},"input-2":{"roots":[{"uri":"file:///r"}]},"extra":{"x":1}},"requestState":` + jsonString(state)
			got := ex(t, req(2, "tools/call", callParams("all", allCaps, answers)))
			if want := ok("2", `{"content":[{"type":"text","text":"accept Ada m1 {\"type\":\"text\",\"text\":\"Hello\"} 1 file:///r"}],"resultType":"complete",`+info+`}`); got != want {
				t.Fatalf("round 2:\n got %s\nwant %s", got, want)
			}

			// Two rounds: the answers of the first travel in the state.
			_, s1 := roundResult(t, ex(t, req(3, "tools/call", callParams("rounds", allCaps, ""))))
			r2, s2 := roundResult(t, ex(t, req(4, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(s1)))))
			if !strings.Contains(r2, `"input-1":{"method":"elicitation/create","params":{"message":"Second, after a?"`) || strings.Contains(r2, "input-0") {
				t.Fatalf("round 2 of 2: %s", r2)
			}
			got = ex(t, req(5, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-1":{"action":"accept","content":{"name":"b"}}},"requestState":`+jsonString(s2))))
			if want := ok("5", `{"content":[{"type":"text","text":"a+b"}],"resultType":"complete",`+info+`}`); got != want {
				t.Fatalf("round 3 of 2:\n got %s\nwant %s", got, want)
			}

			// A state is accepted once.
			got = ex(t, req(15, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(s1))))
			if !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, "requestState was already used") {
				t.Fatalf("a state used twice: %s", got)
			}

			// A retry without the answer asks again.
			_, s3 := roundResult(t, ex(t, req(16, "tools/call", callParams("rounds", allCaps, ""))))
			r, _ := roundResult(t, ex(t, req(6, "tools/call", callParams("rounds", allCaps, `,"requestState":`+jsonString(s3)))))
			if !strings.Contains(r, `"input-0"`) {
				t.Fatalf("missing answer: %s", r)
			}

			// A named request; a client may answer it on its first attempt
			// (no state yet), and extra answers are ignored.
			r, _ = roundResult(t, ex(t, req(11, "tools/call", callParams("named", allCaps, ""))))
			if !strings.Contains(r, `"inputRequests":{"user_name":{"method":"elicitation/create"`) {
				t.Fatalf("named: %s", r)
			}
			got = ex(t, req(12, "tools/call", callParams("named", allCaps, `,"inputResponses":{"user_name":{"action":"accept","content":{"name":"Bo"}},"other":{"action":"accept"}}`)))
			if want := ok("12", `{"content":[{"type":"text","text":"Bo"}],"resultType":"complete",`+info+`}`); got != want {
				t.Fatalf("named, answered ahead:\n got %s\nwant %s", got, want)
			}
			got = ex(t, req(13, "tools/call", callParams("named", allCaps, `,"inputResponses":{"user_name":12345}`)))
			if !strings.Contains(got, `"code":-32602`) || !strings.Contains(got, `inputResponses[\"user_name\"] must be a result object`) {
				t.Fatalf("named, answered with a number: %s", got)
			}

			// Prompts too.
			_, ps := roundResult(t, ex(t, req(7, "prompts/get", callParams("p", allCaps, ""))))
			got = ex(t, req(8, "prompts/get", callParams("p", allCaps, `,"inputResponses":{"input-0":{"roots":[{"uri":"file:///p"}]}},"requestState":`+jsonString(ps))))
			if !strings.Contains(got, `"text":"file:///p"`) || !strings.Contains(got, `"resultType":"complete"`) {
				t.Fatalf("prompt: %s", got)
			}

			// State that does not verify, or belongs to another request.
			for _, tc := range []struct{ name, params, msg string }{
				{"tampered", callParams("all", allCaps, `,"requestState":`+jsonString(state+"-TAMPERED")), "requestState failed its integrity check"},
				{"forged", callParams("all", allCaps, `,"requestState":`+jsonString("AQ"+strings.Repeat("A", 60))), "requestState failed its integrity check"},
				{"a bit flipped inside", callParams("all", allCaps, `,"requestState":`+jsonString(flipInside(state))), "requestState failed its integrity check"},
				{"other tool", callParams("rounds", allCaps, `,"requestState":`+jsonString(state)), `requestState was issued for another request (tools/call \"all\")`},
				{"not a string", callParams("all", allCaps, `,"requestState":1`), `\"requestState\" must be a string`},
			} {
				got := ex(t, req(9, "tools/call", tc.params))
				if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":9,"error":{"code":-32602,`) || !strings.Contains(got, tc.msg) {
					t.Errorf("%s: %s", tc.name, got)
				}
			}

			got = ex(t, req(14, "tools/call", callParams("typed", `{"elicitation":{}}`, "")))
			if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":14,"error":{"code":-32021,`) || !strings.Contains(got, `"requiredCapabilities":{"sampling":{}}`) {
				t.Errorf("typed tool without sampling: %s", got)
			}

			// A capability the request did not declare.
			got = ex(t, req(10, "tools/call", callParams("all", `{"elicitation":{},"roots":{}}`, "")))
			if want := fail("10", `{"code":-32021,"message":"missing required client capability: this request needs sampling, which the request's _meta did not declare","data":{"requiredCapabilities":{"sampling":{}}}}`); got != want {
				t.Errorf("missing capability:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestMRTRStateKeyAndExpiry(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	a := sessionExchanger(t, mrtrServer(runtime.WithRequestStateKey(key)))
	b := sessionExchanger(t, mrtrServer(runtime.WithRequestStateKey(key)))
	other := sessionExchanger(t, mrtrServer())
	_, state := roundResult(t, a(t, req(1, "tools/call", callParams("rounds", allCaps, ""))))
	retry := req(2, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(state)))
	if got := b(t, retry); !strings.Contains(got, `"input-1"`) {
		t.Errorf("a replica with the same key: %s", got)
	}
	if got := other(t, retry); !strings.Contains(got, "integrity check") {
		t.Errorf("a server with another key: %s", got)
	}

	short := sessionExchanger(t, mrtrServer(runtime.WithRequestStateTTL(time.Millisecond)))
	_, state = roundResult(t, short(t, req(3, "tools/call", callParams("rounds", allCaps, ""))))
	time.Sleep(5 * time.Millisecond)
	got := short(t, req(4, "tools/call", callParams("rounds", allCaps, `,"requestState":`+jsonString(state))))
	if want := fail("4", `{"code":-32602,"message":"invalid params: requestState has expired; send the request again without it"}`); got != want {
		t.Errorf("expired:\n got %s\nwant %s", got, want)
	}
}

// TestMRTRStateKeyLength: a requestState key of 16 bytes, the shortest
// taken, is shared by the replicas given it; one of 15 is ignored, so each
// replica seals with its own random key and refuses the other's states.
func TestMRTRStateKeyLength(t *testing.T) {
	for _, c := range []struct {
		key    string
		shared bool
	}{{"0123456789abcdef", true}, {"0123456789abcde", false}} {
		a := sessionExchanger(t, mrtrServer(runtime.WithRequestStateKey([]byte(c.key))))
		b := sessionExchanger(t, mrtrServer(runtime.WithRequestStateKey([]byte(c.key))))
		_, state := roundResult(t, a(t, req(1, "tools/call", callParams("rounds", allCaps, ""))))
		got := b(t, req(2, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-0":{"action":"accept","content":{"name":"a"}}},"requestState":`+jsonString(state))))
		if accepted := strings.Contains(got, `"input-1"`); accepted != c.shared {
			t.Errorf("a key of %d bytes: the other replica answered %s; want the state accepted: %v", len(c.key), got, c.shared)
		}
	}
}

// The legacy era is unchanged: Elicit sends elicitation/create and waits.
func TestMRTRLegacyUnchanged(t *testing.T) {
	p := newSessionPeer(t, mrtrServer())
	p.exchange(req(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}}`))
	p.ss.HandleMessage(context.Background(), []byte(req(2, "prompts/get", `{"name":"p"}`)))
	select {
	case m := <-p.out:
		if m != `{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}` {
			t.Fatalf("got %s", m)
		}
	case <-time.After(wait):
		t.Fatal("no roots/list")
	}
	p.ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///l"}]}}`))
	select {
	case m := <-p.out:
		if !strings.Contains(m, `"text":"file:///l"`) || strings.Contains(m, "resultType") {
			t.Fatalf("got %s", m)
		}
	case <-time.After(wait):
		t.Fatal("no response")
	}
}

// On HTTP, a missing capability is a 400 (streamable-http.mdx).
func TestMRTRHTTPMissingCapabilityStatus(t *testing.T) {
	ts := httptest.NewServer(mrtrServer().HTTPHandler())
	t.Cleanup(ts.Close)
	status, _, body := modernPost(t, ts.URL, req(1, "tools/call", callParams("all", `{}`, "")), nil)
	if status != 400 || !strings.Contains(body, `"code":-32021`) {
		t.Errorf("got %d %s", status, body)
	}
	status, _, body = modernPost(t, ts.URL, req(2, "tools/call", callParams("all", allCaps, "")), nil)
	if status != 200 || !strings.Contains(body, `"resultType":"input_required"`) {
		t.Errorf("got %d %s", status, body)
	}
}
