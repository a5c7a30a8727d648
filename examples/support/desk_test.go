package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

func testDesk() *desk {
	d := newDesk(sampleCustomers(), sampleTickets())
	d.now = func() time.Time { return time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC) }
	return d
}

// TestReplyIsIdempotent goes through the generated server: the runtime, not
// the desk, deduplicates replies by their idempotency_key.
func TestReplyIsIdempotent(t *testing.T) {
	d := testDesk()
	w := newLegacyWire(t, d, `{}`)
	reply := func(id int, ticket string) string {
		return w.call(id, `"method":"tools/call","params":{"name":"reply_to_ticket","arguments":`+
			`{"id":"`+ticket+`","body":"The fix ships tonight.","idempotency_key":"6f1c1d2e-8d9b-4f7a-9c1e-2b3a4c5d6e7f"}}`)
	}
	first := reply(2, "T-1001")
	if !strings.Contains(first, `"structuredContent":{"id":"T-1001","status":"pending_customer","messages":4}`) {
		t.Fatalf("first reply: %s", first)
	}
	if again := reply(3, "T-1001"); again != first {
		t.Errorf("retry: %s, want the first result %s", again, first)
	}
	tk, _ := d.ReadTicket(context.Background(), &supportmcp.TicketParams{ID: "T-1001"})
	if n := len(tk.Messages); n != 4 || tk.Messages[3].At != "2026-11-04T09:00:00Z" {
		t.Errorf("ticket has %d messages: %+v", n, tk.Messages)
	}
	if other := reply(4, "T-1003"); !strings.Contains(other, `"isError":true`) || !strings.Contains(other, "already used") {
		t.Errorf("same key on another ticket: %s", other)
	}
	if _, err := d.ReplyToTicket(context.Background(), &supportmcp.ReplyToTicketInput{ID: "T-9", Body: "x", IdempotencyKey: "k"}); err == nil {
		t.Error("reply to an unknown ticket succeeded")
	}
}

func TestEscalateNeverGoesDown(t *testing.T) {
	d, ctx := testDesk(), context.Background()
	out, err := d.EscalateTicket(ctx, &supportmcp.EscalateTicketInput{ID: "T-1002", Level: supportmcp.EscalateTicketInputLevelTier2, Reason: "all users locked out"})
	if err != nil || out.Changed || out.Level != supportmcp.TicketLevelTier2 {
		t.Errorf("same level: %+v %v, want unchanged", out, err)
	}
	out, err = d.EscalateTicket(ctx, &supportmcp.EscalateTicketInput{ID: "T-1002", Level: supportmcp.EscalateTicketInputLevelEngineering, Reason: "SAML assertion rejected"})
	if err != nil || !out.Changed || out.Level != supportmcp.TicketLevelEngineering {
		t.Errorf("to engineering: %+v %v", out, err)
	}
	if _, err := d.EscalateTicket(ctx, &supportmcp.EscalateTicketInput{ID: "T-1002", Level: supportmcp.EscalateTicketInputLevelTier2, Reason: "back to tier two"}); err == nil {
		t.Error("a ticket went back down a level")
	}
}

func TestResourcesAndCompletion(t *testing.T) {
	d, ctx := testDesk(), context.Background()
	acme, err := d.ReadCustomerAcme(ctx)
	if err != nil || !slices.Equal(acme.OpenTickets, []supportmcp.TicketID{"T-1001", "T-1002"}) {
		t.Errorf("acme: %+v %v", acme, err)
	}
	if _, err := d.ReadTicket(ctx, &supportmcp.TicketParams{ID: "T-9"}); !errors.Is(err, runtime.ErrResourceNotFound) {
		t.Errorf("unknown ticket: %v", err)
	}
	ids, _ := d.CompleteTicketID(ctx, "t-100", nil)
	if !slices.Equal(ids, []string{"T-1001", "T-1002", "T-1003"}) {
		t.Errorf("ids for t-100 = %q", ids)
	}
	who, _ := d.CompleteTriageTicketCustomer(ctx, "", map[string]string{"ticket_id": "T-1017"})
	if !slices.Equal(who, []string{"globex"}) {
		t.Errorf("customer of T-1017 = %q", who)
	}
	who, _ = d.CompleteTriageTicketCustomer(ctx, "a", nil)
	if !slices.Equal(who, []string{"acme"}) {
		t.Errorf("customers for a = %q", who)
	}
}

func TestDraftReply(t *testing.T) {
	d, ctx := testDesk(), context.Background()
	res, err := d.PromptDraftReply(ctx, &supportmcp.DraftReplyArgs{TicketID: "T-1001", Tone: runtime.Some(supportmcp.DraftReplyArgsToneFriendly)})
	if err != nil || len(res.Messages) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	text := res.Messages[0].Content.(runtime.TextContent).Text
	if !strings.Contains(text, "Any news?") || !strings.Contains(text, "friendly") {
		t.Errorf("instructions = %q", text)
	}
	if r := res.Messages[1].Content.(runtime.EmbeddedResource).Resource; r.URI != "ticket://T-1001" || strings.Contains(r.Text, "Renewal") {
		t.Errorf("embedded = %+v (must be the ticket, without the customer's internal notes)", r)
	}
	var rpcErr *runtime.Error
	if _, err := d.PromptDraftReply(ctx, &supportmcp.DraftReplyArgs{TicketID: "T-9"}); !errors.As(err, &rpcErr) || rpcErr.Code != runtime.CodeInvalidParams {
		t.Errorf("unknown ticket: %v, want invalid params", err)
	}
}
