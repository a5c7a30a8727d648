package interop

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official Go SDK client over Streamable HTTP (mcp.StreamableClientTransport)
// against the examples started with -http; the conformance fixtures also
// over stdio, so that both transports are held to the same checks.

// TestSupportOverHTTPWithGoSDK: examples/support over Streamable HTTP: the
// lists, a resource, a template, both prompts, completions and tools, as
// over stdio; and, what only HTTP has, two sessions on one server: the
// one that subscribed to a ticket hears (on its GET stream) about a reply
// that the other posts, and the other, not subscribed, hears nothing.
func TestSupportOverHTTPWithGoSDK(t *testing.T) {
	endpoint := startHTTP(t, "support")
	updates := map[string]chan string{"watcher": make(chan string, 16), "agent": make(chan string, 16)}
	connect := func(who string) *mcp.ClientSession {
		return connectGoSDK(t, "http", endpoint, eraLegacy, &mcp.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
				updates[who] <- req.Params.URI
			},
		}, nil)
	}
	watcher, agent := connect("watcher"), connect("agent")
	if watcher.ID() == "" || watcher.ID() == agent.ID() {
		t.Errorf("session ids %q and %q: want two distinct ids", watcher.ID(), agent.ID())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	init := agent.InitializeResult()
	if init.ServerInfo.Name != "support" || !strings.Contains(init.Instructions, "ticket://{id}") {
		t.Errorf("initialize = %s", jsonOf(t, init))
	}
	if caps := init.Capabilities; caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
		t.Errorf("capabilities = %s", jsonOf(t, caps))
	}

	tools, err := agent.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var toolNames []string
	for _, tool := range tools.Tools {
		toolNames = append(toolNames, tool.Name)
	}
	if diff := cmp.Diff([]string{"reply_to_ticket", "escalate_ticket", "build_report"}, toolNames); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	resources, err := agent.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resources.Resources) != 2 || resources.Resources[0].URI != "customer://acme" {
		t.Errorf("resources = %s", jsonOf(t, resources))
	}
	templates, err := agent.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "ticket://{id}" {
		t.Errorf("templates = %s (%v)", jsonOf(t, templates), err)
	}
	prompts, err := agent.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 2 {
		t.Errorf("prompts = %s (%v)", jsonOf(t, prompts), err)
	}

	if acme := readOne(t, agent, "customer://acme"); !strings.Contains(acme.Text, `"plan":"enterprise"`) {
		t.Errorf("customer://acme = %s", acme.Text)
	}
	if tk := readOne(t, agent, "ticket://T-1003"); !strings.Contains(tk.Text, `"customer":"globex"`) {
		t.Errorf("ticket://T-1003 = %s", tk.Text)
	}
	_, err = agent.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ticket://T-9"})
	if e := rpcError(err); e == nil || e.Code != -32002 {
		t.Errorf("ticket://T-9: %v, want -32002", err)
	}

	triage, err := agent.GetPrompt(ctx, &mcp.GetPromptParams{Name: "triage_ticket", Arguments: map[string]string{"ticket_id": "T-1001", "customer": "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(triage.Messages) != 3 {
		t.Fatalf("triage_ticket = %s", jsonOf(t, triage))
	}
	embedded(t, triage.Messages[1], "ticket://T-1001")
	embedded(t, triage.Messages[2], "customer://acme")
	draft, err := agent.GetPrompt(ctx, &mcp.GetPromptParams{Name: "draft_reply", Arguments: map[string]string{"ticket_id": "T-1003"}})
	if err != nil || len(draft.Messages) != 2 || !strings.Contains(draft.Description, "formal") {
		t.Errorf("draft_reply = %s (%v)", jsonOf(t, draft), err)
	}
	_, err = agent.GetPrompt(ctx, &mcp.GetPromptParams{Name: "draft_reply", Arguments: map[string]string{"tone": "formal"}})
	if e := rpcError(err); e == nil || e.Code != -32602 || !strings.Contains(e.Message, `missing required argument "ticket_id"`) {
		t.Errorf("draft_reply without ticket_id: %v, want -32602", err)
	}

	comp, err := agent.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "ticket://{id}"},
		Argument: mcp.CompleteParamsArgument{Name: "id", Value: "T-100"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"T-1001", "T-1002", "T-1003"}, comp.Completion.Values); diff != "" {
		t.Errorf("complete ticket://{id} (-want +got):\n%s", diff)
	}
	comp, err = agent.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "triage_ticket"},
		Argument: mcp.CompleteParamsArgument{Name: "customer"},
		Context:  &mcp.CompleteContext{Arguments: map[string]string{"ticket_id": "T-1003"}},
	})
	if err != nil || !cmp.Equal([]string{"globex"}, comp.Completion.Values) {
		t.Errorf("complete triage_ticket customer after T-1003 = %s (%v), want [globex]", jsonOf(t, comp), err)
	}

	// Two sessions: the watcher subscribes, the agent replies.
	if err := watcher.Subscribe(ctx, &mcp.SubscribeParams{URI: "ticket://T-1001"}); err != nil {
		t.Fatal(err)
	}
	res, err := agent.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket", Arguments: map[string]any{
		"id": "T-1001", "body": "A fix ships tonight.", "idempotency_key": "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
	}})
	if err != nil || res.IsError {
		t.Fatalf("reply_to_ticket: %v %s", err, textOf(res))
	}
	if out := asMap(t, res.StructuredContent); out["status"] != "pending_customer" || out["messages"] != 4.0 {
		t.Errorf("reply_to_ticket = %v", out)
	}
	select {
	case uri := <-updates["watcher"]:
		if uri != "ticket://T-1001" {
			t.Errorf("watcher: notifications/resources/updated for %s, want ticket://T-1001", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watcher: no notifications/resources/updated for ticket://T-1001 after the agent's reply")
	}
	select {
	case uri := <-updates["agent"]:
		t.Errorf("agent, not subscribed: notifications/resources/updated for %s", uri)
	case <-time.After(300 * time.Millisecond):
	}
	// The watcher reads what the agent wrote: one server, shared state.
	if tk := readOne(t, watcher, "ticket://T-1001"); !strings.Contains(tk.Text, "A fix ships tonight.") {
		t.Errorf("the watcher does not see the reply: %s", tk.Text)
	}

	res, err = agent.CallTool(ctx, &mcp.CallToolParams{Name: "escalate_ticket", Arguments: map[string]any{"id": "T-1001", "level": "ceo", "reason": "the customer is very upset"}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "/level") {
		t.Errorf("escalate_ticket to ceo: %v %q", err, textOf(res))
	}
	_, err = agent.CallTool(ctx, &mcp.CallToolParams{Name: "drop_tables", Arguments: map[string]any{}})
	if e := rpcError(err); e == nil || e.Code != -32602 {
		t.Errorf("unknown tool: %v, want -32602", err)
	}
}

// TestConformanceWithGoSDK: examples/conformance over stdio and over
// Streamable HTTP: notifications/message at the level set with
// logging/setLevel (and none below it), notifications/progress for the
// request's progress token, and the server's sampling/createMessage and
// elicitation/create requests answered by the client's handlers.
func TestConformanceWithGoSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			var mu sync.Mutex
			var logs []string
			var progress []mcp.ProgressNotificationParams
			var sampled []*mcp.CreateMessageParams
			answers := &elicitAnswers{}
			opts := &mcp.ClientOptions{
				LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
					mu.Lock()
					defer mu.Unlock()
					logs = append(logs, string(req.Params.Level)+" "+req.Params.Logger+": "+asString(req.Params.Data))
				},
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					progress = append(progress, *req.Params)
				},
				CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					mu.Lock()
					defer mu.Unlock()
					sampled = append(sampled, req.Params)
					return &mcp.CreateMessageResult{
						Role:       "assistant",
						Content:    &mcp.TextContent{Text: "a reply from the interop model"},
						Model:      "interop-model",
						StopReason: "endTurn",
					}, nil
				},
				ElicitationHandler: answers.handle,
			}
			// logging/setLevel and server→client requests are legacy-era
			// features: open with initialize (TestGoSDKBothEras covers both).
			session := connectGoSDK(t, transport, exampleTarget(t, "conformance", transport), eraLegacy, opts, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			// waitFor waits until n items were collected, at most 10 s.
			waitFor := func(n func() int, want int) {
				deadline := time.Now().Add(10 * time.Second)
				for time.Now().Before(deadline) {
					mu.Lock()
					got := n()
					mu.Unlock()
					if got >= want {
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			call := func(name string, args map[string]any, progressToken any) string {
				t.Helper()
				params := &mcp.CallToolParams{Name: name, Arguments: args}
				if progressToken != nil {
					params.SetProgressToken(progressToken)
				}
				res, err := session.CallTool(ctx, params)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.IsError {
					t.Errorf("%s: isError: %s", name, textOf(res))
				}
				return textOf(res)
			}

			if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatal(err)
			}
			if got := call("test_tool_with_logging", map[string]any{}, nil); got != "Tool with logging executed successfully" {
				t.Errorf("test_tool_with_logging = %q", got)
			}
			waitFor(func() int { return len(logs) }, 3)
			mu.Lock()
			if diff := cmp.Diff([]string{
				"info conformance: Tool execution started",
				"info conformance: Tool processing data",
				"info conformance: Tool execution completed",
			}, logs); diff != "" {
				t.Errorf("notifications/message at level debug (-want +got):\n%s", diff)
			}
			logs = nil
			mu.Unlock()
			if err := session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "error"}); err != nil {
				t.Fatal(err)
			}
			call("test_tool_with_logging", map[string]any{}, nil)
			time.Sleep(300 * time.Millisecond)
			mu.Lock()
			if len(logs) != 0 {
				t.Errorf("info messages after logging/setLevel error: %q", logs)
			}
			mu.Unlock()

			if got := call("test_tool_with_progress", map[string]any{}, "progress-1"); got != "Tool with progress executed successfully" {
				t.Errorf("test_tool_with_progress = %q", got)
			}
			waitFor(func() int { return len(progress) }, 3)
			mu.Lock()
			var gotProgress []string
			for _, p := range progress {
				gotProgress = append(gotProgress, jsonOf(t, map[string]any{"token": p.ProgressToken, "progress": p.Progress, "total": p.Total, "message": p.Message}))
			}
			mu.Unlock()
			if diff := cmp.Diff([]string{
				`{"message":"step 1 of 3","progress":0,"token":"progress-1","total":100}`,
				`{"message":"step 2 of 3","progress":50,"token":"progress-1","total":100}`,
				`{"message":"step 3 of 3","progress":100,"token":"progress-1","total":100}`,
			}, gotProgress); diff != "" {
				t.Errorf("notifications/progress (-want +got):\n%s", diff)
			}
			// Without a progress token, no progress.
			call("test_tool_with_progress", map[string]any{}, nil)
			time.Sleep(200 * time.Millisecond)
			mu.Lock()
			if len(progress) != 3 {
				t.Errorf("notifications/progress for a call without a progress token: %s", jsonOf(t, progress[3:]))
			}
			mu.Unlock()

			if got := call("test_sampling", map[string]any{"prompt": "What is the capital of France?"}, nil); got != "LLM response: a reply from the interop model" {
				t.Errorf("test_sampling = %q", got)
			}
			mu.Lock()
			if len(sampled) != 1 || sampled[0].MaxTokens != 100 || len(sampled[0].Messages) != 1 ||
				jsonOf(t, sampled[0].Messages[0]) != `{"content":{"type":"text","text":"What is the capital of France?"},"role":"user"}` {
				t.Errorf("sampling/createMessage params = %s", jsonOf(t, sampled))
			}
			mu.Unlock()

			if got := call("test_elicitation", map[string]any{"message": elicitAcceptMessage}, nil); got != elicitAcceptedText {
				t.Errorf("test_elicitation (accepted) = %q", got)
			}
			if got := call("test_elicitation", map[string]any{"message": elicitDeclineMessage}, nil); got != elicitDeclinedText {
				t.Errorf("test_elicitation (declined) = %q", got)
			}
			if elicited := answers.params(); len(elicited) != 2 || elicited[0].Message != elicitAcceptMessage {
				t.Errorf("elicitation/create params = %s", jsonOf(t, elicited))
			} else {
				schema := asMap(t, elicited[0].RequestedSchema)
				props, _ := schema["properties"].(map[string]any)
				if diff := cmp.Diff([]any{"username", "email"}, schema["required"]); diff != "" || props["email"] == nil {
					t.Errorf("requestedSchema = %s", jsonOf(t, schema))
				}
			}
		})
	}
}
