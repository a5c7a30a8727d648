package interop

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official TypeScript SDK client (@modelcontextprotocol/sdk, v1, pinned
// in node/package-lock.json), driven by node/sdk-*.mjs over stdio (the SDK
// spawns the example binary) and over Streamable HTTP (the example started
// with -http). Each script runs named steps and prints one JSON summary:
// what each step returned, or the error it threw, plus what the client's
// handlers saw. These tests check the summary.

// tsSummary is the JSON a node/sdk-*.mjs script prints (see node/lib.mjs).
type tsSummary struct {
	Transport string            `json:"transport"`
	Steps     map[string]tsStep `json:"steps"`
	Server    struct {
		Info         map[string]any `json:"info"`
		Capabilities map[string]any `json:"capabilities"`
		Instructions *string        `json:"instructions"`
	} `json:"server"`
	SessionID    *string  `json:"sessionId"`
	ClientErrors []string `json:"clientErrors"`

	// sdk-support.mjs
	ResourceUpdated []string `json:"resourceUpdated"`

	// sdk-conformance.mjs
	LogsAtDebug      []mcp.LoggingMessageParams       `json:"logsAtDebug"`
	LogsAtError      []mcp.LoggingMessageParams       `json:"logsAtError"`
	Progress         []mcp.ProgressNotificationParams `json:"progress"`
	SamplingRequests []json.RawMessage                `json:"samplingRequests"`
	ElicitRequests   []json.RawMessage                `json:"elicitRequests"`
}

type tsStep struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// result decodes the result of a step that must have succeeded into v (a
// result type of the Go SDK, whose JSON is the wire's). It reports false,
// after an error, when the step failed.
func (s *tsSummary) result(t *testing.T, step string, v any) bool {
	t.Helper()
	st, ok := s.Steps[step]
	switch {
	case !ok:
		t.Errorf("%s: step %s did not run", s.Transport, step)
		return false
	case st.Error != nil:
		t.Errorf("%s: step %s failed: %s", s.Transport, step, st.Error.Message)
		return false
	}
	if v != nil {
		if err := json.Unmarshal(st.Result, v); err != nil {
			t.Errorf("%s: step %s: decoding %s: %v", s.Transport, step, st.Result, err)
			return false
		}
	}
	return true
}

// rpcErr checks that a step failed with a JSON-RPC error of that code whose
// message contains want.
func (s *tsSummary) rpcErr(t *testing.T, step string, code int, want string) {
	t.Helper()
	st, ok := s.Steps[step]
	switch {
	case !ok:
		t.Errorf("%s: step %s did not run", s.Transport, step)
	case st.Error == nil:
		t.Errorf("%s: step %s succeeded (%s), want error %d", s.Transport, step, st.Result, code)
	case st.Error.Code == nil || *st.Error.Code != code || !strings.Contains(st.Error.Message, want):
		t.Errorf("%s: step %s: error %v %q, want %d containing %q", s.Transport, step, st.Error.Code, st.Error.Message, code, want)
	}
}

// checkHTTPSession checks the HTTP-only steps of node/lib.mjs: a session id
// was assigned, DELETE ended the session, and the ended session's id then
// gets 404.
func (s *tsSummary) checkHTTPSession(t *testing.T) {
	t.Helper()
	if s.Transport != "http" {
		return
	}
	if s.SessionID == nil || *s.SessionID == "" || !regexp.MustCompile(`^[\x21-\x7E]+$`).MatchString(*s.SessionID) {
		t.Errorf("Mcp-Session-Id = %v, want visible ASCII", s.SessionID)
	}
	s.result(t, "terminateSession", nil)
	var after struct{ Status int }
	if s.result(t, "postAfterTerminate", &after) && after.Status != 404 {
		t.Errorf("POST with a deleted session's Mcp-Session-Id: HTTP %d, want 404", after.Status)
	}
}

func runTSScript(t *testing.T, script, transport, target string) *tsSummary {
	t.Helper()
	node := needNode(t)
	out := runNode(t, node, 90*time.Second, nil, script, transport, target)
	var s tsSummary
	lastJSONLine(t, out, &s)
	if s.Transport != transport {
		t.Fatalf("summary is for transport %q, want %q: %s", s.Transport, transport, out)
	}
	return &s
}

// TestTypeScriptSDKSupport: the TypeScript SDK client against
// examples/support: the lists, tools (structured output the SDK validates
// against the output schema, an isError result, an unknown tool), a static
// resource and a template, both prompts and a prompt error, completions,
// and a resource subscription notified by a tool call (over HTTP, on the
// standalone GET stream).
func TestTypeScriptSDKSupport(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			needNode(t)
			s := runTSScript(t, "sdk-support.mjs", transport, exampleTarget(t, "support", transport))
			if s.Server.Info["name"] != "support" || s.Server.Instructions == nil || !strings.Contains(*s.Server.Instructions, "ticket://{id}") {
				t.Errorf("serverInfo %v, instructions %v", s.Server.Info, s.Server.Instructions)
			}
			if res, ok := s.Server.Capabilities["resources"].(map[string]any); !ok || res["subscribe"] != true {
				t.Errorf("capabilities = %v, want resources.subscribe", s.Server.Capabilities)
			}

			var tools mcp.ListToolsResult
			if s.result(t, "listTools", &tools) {
				var names []string
				for _, tool := range tools.Tools {
					names = append(names, tool.Name)
				}
				if diff := cmp.Diff([]string{"reply_to_ticket", "escalate_ticket", "build_report"}, names); diff != "" {
					t.Errorf("tools (-want +got):\n%s", diff)
				}
			}
			var resources mcp.ListResourcesResult
			if s.result(t, "listResources", &resources) {
				var uris []string
				for _, r := range resources.Resources {
					uris = append(uris, r.URI)
				}
				if diff := cmp.Diff([]string{"customer://acme", "customer://globex"}, uris); diff != "" {
					t.Errorf("resources (-want +got):\n%s", diff)
				}
			}
			var templates mcp.ListResourceTemplatesResult
			if s.result(t, "listResourceTemplates", &templates) &&
				(len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "ticket://{id}") {
				t.Errorf("templates = %s", jsonOf(t, templates))
			}
			var prompts mcp.ListPromptsResult
			if s.result(t, "listPrompts", &prompts) {
				var names []string
				for _, p := range prompts.Prompts {
					names = append(names, p.Name)
				}
				if diff := cmp.Diff([]string{"triage_ticket", "draft_reply"}, names); diff != "" {
					t.Errorf("prompts (-want +got):\n%s", diff)
				}
			}

			var customer mcp.ReadResourceResult
			if s.result(t, "readCustomer", &customer) {
				if len(customer.Contents) != 1 || customer.Contents[0].MIMEType != "application/json" || !strings.Contains(customer.Contents[0].Text, `"slug":"acme"`) {
					t.Errorf("customer://acme = %s", jsonOf(t, customer))
				}
			}
			var ticket mcp.ReadResourceResult
			if s.result(t, "readTicket", &ticket) {
				if len(ticket.Contents) != 1 || ticket.Contents[0].URI != "ticket://T-1002" || !strings.Contains(ticket.Contents[0].Text, `"id":"T-1002"`) {
					t.Errorf("ticket://T-1002 = %s", jsonOf(t, ticket))
				}
			}
			s.rpcErr(t, "readMissingTicket", -32002, "no ticket T-9")

			var triage mcp.GetPromptResult
			if s.result(t, "getTriagePrompt", &triage) {
				if len(triage.Messages) != 3 {
					t.Errorf("triage_ticket = %s, want 3 messages", jsonOf(t, triage))
				} else {
					embedded(t, triage.Messages[1], "ticket://T-1001")
					embedded(t, triage.Messages[2], "customer://acme")
				}
			}
			var draft mcp.GetPromptResult
			if s.result(t, "getDraftPrompt", &draft) && (len(draft.Messages) != 2 || !strings.Contains(draft.Description, "friendly")) {
				t.Errorf("draft_reply = %s", jsonOf(t, draft))
			}
			s.rpcErr(t, "getDraftPromptBadTone", -32602, `argument "tone" must be one of "formal", "friendly" (got "angry")`)

			for step, want := range map[string][]string{
				"completeTemplate":          {"T-1001", "T-1002", "T-1003"},
				"completePromptWithContext": {"globex"},
				"completeEnum":              {"formal", "friendly"},
			} {
				var c mcp.CompleteResult
				if s.result(t, step, &c) {
					if diff := cmp.Diff(want, c.Completion.Values); diff != "" {
						t.Errorf("%s (-want +got):\n%s", step, diff)
					}
				}
			}

			s.result(t, "subscribe", nil)
			var reply mcp.CallToolResult
			if s.result(t, "callReply", &reply) {
				if out := asMap(t, reply.StructuredContent); reply.IsError || out["status"] != "pending_customer" || out["messages"] != 4.0 {
					t.Errorf("reply_to_ticket = %s", jsonOf(t, reply))
				}
			}
			if diff := cmp.Diff([]string{"ticket://T-1001"}, s.ResourceUpdated); diff != "" {
				t.Errorf("notifications/resources/updated after reply_to_ticket on a subscribed ticket (-want +got):\n%s", diff)
			}
			var invalid mcp.CallToolResult
			if s.result(t, "callEscalateInvalid", &invalid) && (!invalid.IsError || !strings.Contains(textOf(&invalid), "/level")) {
				t.Errorf("escalate_ticket to ceo = %s, want an isError result naming /level", jsonOf(t, invalid))
			}
			s.rpcErr(t, "callUnknownTool", -32602, "drop_tables")
			var after mcp.ReadResourceResult
			if s.result(t, "readTicketAfterReply", &after) && (len(after.Contents) != 1 || !strings.Contains(after.Contents[0].Text, "A fix ships tonight.")) {
				t.Errorf("ticket://T-1001 after the reply = %s", jsonOf(t, after))
			}

			s.checkHTTPSession(t)
			if len(s.ClientErrors) > 0 {
				t.Errorf("the SDK client reported errors: %q", s.ClientErrors)
			}
		})
	}
}

// TestTypeScriptSDKConformance: the TypeScript SDK client against
// examples/conformance: log messages at the level the client set (and none
// below it), progress notifications for its progress token, and the
// server's sampling and elicitation requests answered by the client's
// handlers, with the tool results that embed the answers.
func TestTypeScriptSDKConformance(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			needNode(t)
			s := runTSScript(t, "sdk-conformance.mjs", transport, exampleTarget(t, "conformance", transport))
			if s.Server.Info["name"] != "mcpgen-conformance" {
				t.Errorf("serverInfo = %v", s.Server.Info)
			}
			if _, ok := s.Server.Capabilities["logging"]; !ok {
				t.Errorf("capabilities = %v, want logging", s.Server.Capabilities)
			}

			s.result(t, "setLevelDebug", nil)
			checkText(t, s, "callLogging", "Tool with logging executed successfully")
			var got []string
			for _, m := range s.LogsAtDebug {
				got = append(got, string(m.Level)+" "+m.Logger+": "+asString(m.Data))
			}
			if diff := cmp.Diff([]string{
				"info conformance: Tool execution started",
				"info conformance: Tool processing data",
				"info conformance: Tool execution completed",
			}, got); diff != "" {
				t.Errorf("notifications/message at level debug (-want +got):\n%s", diff)
			}
			s.result(t, "setLevelError", nil)
			checkText(t, s, "callLoggingFiltered", "Tool with logging executed successfully")
			if len(s.LogsAtError) != 0 {
				t.Errorf("info messages sent after logging/setLevel error: %s", jsonOf(t, s.LogsAtError))
			}

			checkText(t, s, "callProgress", "Tool with progress executed successfully")
			var progress []string
			for _, p := range s.Progress {
				progress = append(progress, jsonOf(t, map[string]any{"progress": p.Progress, "total": p.Total, "message": p.Message}))
			}
			want := []string{
				`{"message":"step 1 of 3","progress":0,"total":100}`,
				`{"message":"step 2 of 3","progress":50,"total":100}`,
				`{"message":"step 3 of 3","progress":100,"total":100}`,
			}
			// The last notification immediately precedes the response; over
			// stdio both often arrive in one read, and SDK 1.x then handles
			// the response first and drops that notification as "unknown
			// token" (modelcontextprotocol/typescript-sdk#2580). The server
			// wrote all three, in order, before the response (the Go SDK
			// test checks all three): accept the first two, in order.
			droppedLast := len(progress) == 2
			if droppedLast {
				t.Logf("%s: the SDK dropped the last progress notification, which came with the response (typescript-sdk#2580)", transport)
				want = want[:2]
			}
			if diff := cmp.Diff(want, progress); diff != "" {
				t.Errorf("onprogress (-want +got):\n%s", diff)
			}

			checkText(t, s, "callSampling", "LLM response: a reply from the interop model")
			if len(s.SamplingRequests) != 1 {
				t.Errorf("sampling/createMessage requests: %s, want 1", jsonOf(t, s.SamplingRequests))
			} else {
				var req mcp.CreateMessageParams
				err := json.Unmarshal(s.SamplingRequests[0], &req)
				ok := err == nil && req.MaxTokens == 100 && len(req.Messages) == 1 && req.Messages[0].Role == "user"
				if ok {
					text, isText := req.Messages[0].Content.(*mcp.TextContent)
					ok = isText && text.Text == "What is the capital of France?"
				}
				if !ok {
					t.Errorf("sampling/createMessage params = %s (%v)", s.SamplingRequests[0], err)
				}
			}

			checkText(t, s, "callElicitationAccept", elicitAcceptedText)
			checkText(t, s, "callElicitationDecline", elicitDeclinedText)
			if len(s.ElicitRequests) != 2 {
				t.Errorf("elicitation/create requests: %s, want 2", jsonOf(t, s.ElicitRequests))
			} else {
				var req mcp.ElicitParams
				if err := json.Unmarshal(s.ElicitRequests[0], &req); err != nil || req.Message != elicitAcceptMessage {
					t.Errorf("elicitation/create params = %s (%v)", s.ElicitRequests[0], err)
				}
				schema := asMap(t, req.RequestedSchema)
				if diff := cmp.Diff([]any{"username", "email"}, schema["required"]); diff != "" {
					t.Errorf("requestedSchema.required (-want +got):\n%s", diff)
				}
			}

			s.checkHTTPSession(t)
			errs := slices.DeleteFunc(slices.Clone(s.ClientErrors), func(e string) bool {
				return droppedLast && strings.Contains(e, "unknown token") && strings.Contains(e, `"progress":100`)
			})
			if len(errs) > 0 {
				t.Errorf("the SDK client reported errors: %q", errs)
			}
		})
	}
}

// checkText checks that a tools/call step returned a non-error result
// whose text is want.
func checkText(t *testing.T, s *tsSummary, step, want string) {
	t.Helper()
	var res mcp.CallToolResult
	if s.result(t, step, &res) && (res.IsError || textOf(&res) != want) {
		t.Errorf("%s: %s = %s, want the text %q", s.Transport, step, jsonOf(t, res), want)
	}
}

func asString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}
