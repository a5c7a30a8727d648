package interop

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSupportOverStdioWithGoSDK drives seed 004's support desk as a host
// would: list the three primitives, expand both prompts, subscribe to a
// ticket and hear about the reply a tool posts, complete ticket ids, and
// get -32602 for prompt arguments that break the prompt's contract.
func TestSupportOverStdioWithGoSDK(t *testing.T) {
	updates := make(chan string, 16)
	session := connectGoSDK(t, "stdio", exampleBin(t, "support"), eraLegacy, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	}, nil)
	ctx := context.Background()

	caps := session.InitializeResult().Capabilities
	if caps.Tools == nil || caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil {
		t.Errorf("capabilities = %s", jsonOf(t, caps))
	}

	// Everything the server offers, in spec order.
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	toolsByName := map[string]*mcp.Tool{}
	var toolNames []string
	for _, tool := range tools.Tools {
		toolNames = append(toolNames, tool.Name)
		toolsByName[tool.Name] = tool
	}
	if diff := cmp.Diff([]string{"reply_to_ticket", "escalate_ticket", "build_report"}, toolNames); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}
	if a := toolsByName["reply_to_ticket"].Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("reply_to_ticket annotations = %s, want a non-destructive write", jsonOf(t, a))
	}
	if a := toolsByName["escalate_ticket"].Annotations; a == nil || a.DestructiveHint == nil || *a.DestructiveHint || !a.IdempotentHint {
		t.Errorf("escalate_ticket annotations = %s, want destructiveHint false, idempotentHint true", jsonOf(t, a))
	}
	level := asMap(t, toolsByName["escalate_ticket"].InputSchema)["properties"].(map[string]any)["level"].(map[string]any)
	if diff := cmp.Diff([]any{"tier2", "engineering"}, level["enum"]); diff != "" {
		t.Errorf("escalate_ticket level enum (-want +got):\n%s", diff)
	}

	resources, err := session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI+" "+r.MIMEType)
	}
	if diff := cmp.Diff([]string{"customer://acme application/json", "customer://globex application/json"}, uris); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	templates, err := session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "ticket://{id}" {
		t.Errorf("templates = %s", jsonOf(t, templates.ResourceTemplates))
	}
	prompts, err := session.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var promptArgs []string
	for _, p := range prompts.Prompts {
		for _, a := range p.Arguments {
			promptArgs = append(promptArgs, p.Name+"."+a.Name+map[bool]string{true: "*", false: ""}[a.Required])
		}
	}
	if diff := cmp.Diff([]string{"triage_ticket.ticket_id*", "triage_ticket.customer*", "draft_reply.ticket_id*", "draft_reply.tone"}, promptArgs); diff != "" {
		t.Errorf("prompt arguments (* required) (-want +got):\n%s", diff)
	}

	// A profile is typed JSON.
	var acme struct {
		Slug        string   `json:"slug"`
		Plan        string   `json:"plan"`
		SLAHours    int      `json:"sla_hours"`
		OpenTickets []string `json:"open_tickets"`
	}
	profile := readOne(t, session, "customer://acme")
	if err := json.Unmarshal([]byte(profile.Text), &acme); err != nil || profile.MIMEType != "application/json" {
		t.Fatalf("customer://acme: %v (%s) %s", err, profile.MIMEType, profile.Text)
	}
	if acme.Slug != "acme" || acme.Plan != "enterprise" || acme.SLAHours != 4 || !slices.Equal(acme.OpenTickets, []string{"T-1001", "T-1002"}) {
		t.Errorf("acme = %+v", acme)
	}

	// The declarative triage prompt: its text, then the ticket and the
	// customer's profile, embedded through the server's own resources.
	got, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "triage_ticket", Arguments: map[string]string{"ticket_id": "T-1001", "customer": "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 3 {
		t.Fatalf("triage_ticket has %d messages, want 3: %s", len(got.Messages), jsonOf(t, got))
	}
	if text, ok := got.Messages[0].Content.(*mcp.TextContent); !ok || !strings.Contains(text.Text, "Triage support ticket T-1001 from customer acme.") {
		t.Errorf("message 1 = %s", jsonOf(t, got.Messages[0]))
	}
	ticket := embedded(t, got.Messages[1], "ticket://T-1001")
	var tk struct {
		ID       string            `json:"id"`
		Customer string            `json:"customer"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(ticket.Text), &tk); err != nil || tk.ID != "T-1001" || tk.Customer != "acme" || len(tk.Messages) != 3 {
		t.Errorf("embedded ticket: %v %s", err, ticket.Text)
	}
	if c := embedded(t, got.Messages[2], "customer://acme"); c.Text != profile.Text {
		t.Errorf("embedded profile differs from resources/read:\n%s\n%s", c.Text, profile.Text)
	}

	// Subscribe to a ticket; a reply posted by the tool is announced.
	if err := session.Subscribe(ctx, &mcp.SubscribeParams{URI: "ticket://T-1001"}); err != nil {
		t.Fatal(err)
	}
	// A change to a ticket nobody subscribed to is not announced…
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "escalate_ticket", Arguments: map[string]any{"id": "T-1003", "level": "tier2", "reason": "delays across all webhook endpoints"}})
	if err != nil || res.IsError {
		t.Fatalf("escalate_ticket: %v %s", err, textOf(res))
	}
	// …a reply on the subscribed one is.
	replyArgs := map[string]any{"id": "T-1001", "body": "A fix for large exports ships tonight; we will confirm here.", "idempotency_key": "9d7e1c52-3b8a-4f0e-a6d1-5c2b9e8f7a10"}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket", Arguments: replyArgs})
	if err != nil || res.IsError {
		t.Fatalf("reply_to_ticket: %v %s", err, textOf(res))
	}
	firstReply := asMap(t, res.StructuredContent)
	if firstReply["status"] != "pending_customer" || firstReply["messages"] != 4.0 {
		t.Errorf("reply_to_ticket output = %v", firstReply)
	}
	select {
	case uri := <-updates:
		if uri != "ticket://T-1001" {
			t.Errorf("notifications/resources/updated for %s, want only ticket://T-1001", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated for ticket://T-1001 after reply_to_ticket")
	}
	after := readOne(t, session, "ticket://T-1001")
	if !strings.Contains(after.Text, `"status":"pending_customer"`) || !strings.Contains(after.Text, "ships tonight") {
		t.Errorf("the ticket does not show the reply: %s", after.Text)
	}
	// A retry with the same key sends nothing: the runtime answers it with
	// the first result.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "reply_to_ticket", Arguments: replyArgs})
	if err != nil || res.IsError || !cmp.Equal(asMap(t, res.StructuredContent), firstReply) {
		t.Errorf("retried reply: %v %s, want %v", err, textOf(res), firstReply)
	}
	// After unsubscribing, changes are no longer announced.
	if err := session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "ticket://T-1001"}); err != nil {
		t.Fatal(err)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "escalate_ticket", Arguments: map[string]any{"id": "T-1001", "level": "engineering", "reason": "PDF renderer runs out of memory above 400 pages"}})
	if err != nil || res.IsError {
		t.Fatalf("escalate_ticket: %v %s", err, textOf(res))
	}
	select {
	case uri := <-updates:
		t.Errorf("notifications/resources/updated for %s after unsubscribing", uri)
	case <-time.After(300 * time.Millisecond):
	}

	// Completion of ticket ids, as a template variable and as prompt
	// arguments; the customer from the ticket already chosen; an enum.
	for _, c := range []struct {
		ref        *mcp.CompleteReference
		arg, value string
		context    map[string]string
		want       []string
	}{
		{&mcp.CompleteReference{Type: "ref/resource", URI: "ticket://{id}"}, "id", "T-100", nil, []string{"T-1001", "T-1002", "T-1003"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "triage_ticket"}, "ticket_id", "T-101", nil, []string{"T-1017"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "draft_reply"}, "ticket_id", "t-1", nil, []string{"T-1001", "T-1002", "T-1003", "T-1017"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "triage_ticket"}, "customer", "", map[string]string{"ticket_id": "T-1003"}, []string{"globex"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "draft_reply"}, "tone", "f", nil, []string{"formal", "friendly"}},
	} {
		params := &mcp.CompleteParams{Ref: c.ref, Argument: mcp.CompleteParamsArgument{Name: c.arg, Value: c.value}}
		if c.context != nil {
			params.Context = &mcp.CompleteContext{Arguments: c.context}
		}
		res, err := session.Complete(ctx, params)
		if err != nil {
			t.Errorf("complete %s %s=%q: %v", c.ref.Type, c.arg, c.value, err)
			continue
		}
		if diff := cmp.Diff(c.want, res.Completion.Values); diff != "" {
			t.Errorf("complete %s %s=%q (-want +got):\n%s", c.ref.Type, c.arg, c.value, diff)
		}
	}

	// The handler-built prompt, then the arguments that break its contract.
	draft, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "draft_reply", Arguments: map[string]string{"ticket_id": "T-1003", "tone": "friendly"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(draft.Messages) != 2 || !strings.Contains(draft.Description, "friendly") {
		t.Fatalf("draft_reply = %s", jsonOf(t, draft))
	}
	embedded(t, draft.Messages[1], "ticket://T-1003")
	for _, c := range []struct {
		args map[string]string
		why  string
	}{
		{map[string]string{"ticket_id": "T-1001", "tone": "angry"}, `argument "tone" must be one of "formal", "friendly" (got "angry")`},
		{map[string]string{"tone": "formal"}, `missing required argument "ticket_id"`},
		{map[string]string{"ticket_id": "T-9"}, `no ticket "T-9"`},
	} {
		_, err := session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "draft_reply", Arguments: c.args})
		if e := rpcError(err); e == nil || e.Code != -32602 || !strings.Contains(e.Message, c.why) {
			t.Errorf("draft_reply %v: %v, want -32602 saying %s", c.args, err, c.why)
		}
	}
	// A tool's enum is checked as its input schema says: an isError result.
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "escalate_ticket", Arguments: map[string]any{"id": "T-1001", "level": "ceo", "reason": "the customer is very upset"}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res), "/level") {
		t.Errorf("escalate_ticket to ceo: %v %q", err, textOf(res))
	}
}

// embedded returns the resource a prompt message embeds, after checking its
// URI and that it is JSON text.
func embedded(t *testing.T, m *mcp.PromptMessage, uri string) *mcp.ResourceContents {
	t.Helper()
	e, ok := m.Content.(*mcp.EmbeddedResource)
	if !ok || e.Resource == nil {
		t.Fatalf("message %s does not embed a resource", jsonOf(t, m))
	}
	if e.Resource.URI != uri || e.Resource.MIMEType != "application/json" || !json.Valid([]byte(e.Resource.Text)) {
		t.Errorf("embedded resource = %s, want %s as JSON text", jsonOf(t, e.Resource), uri)
	}
	return e.Resource
}
