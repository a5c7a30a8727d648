package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// desk implements supportmcp.Handler over in-memory customers and tickets.
// The tools change tickets and tell subscribed clients through srv.
type desk struct {
	// srv is the server serving this desk, set once before it serves (see
	// main): the tools call srv.NotifyResourceUpdated with the URI of the
	// ticket they changed. nil in tests that call the methods directly.
	srv *runtime.Server
	now func() time.Time
	// reportStep is how long build_report works on each ticket
	// (defaultReportStep; tests make it short).
	reportStep time.Duration

	mu        sync.Mutex
	customers map[string]*supportmcp.Customer
	tickets   map[supportmcp.TicketID]*supportmcp.Ticket
}

var _ supportmcp.Handler = (*desk)(nil)

func newDesk(customers []supportmcp.Customer, tickets []supportmcp.Ticket) *desk {
	d := &desk{
		now:        time.Now,
		reportStep: defaultReportStep,
		customers:  map[string]*supportmcp.Customer{},
		tickets:    map[supportmcp.TicketID]*supportmcp.Ticket{},
	}
	for i := range customers {
		d.customers[customers[i].Slug] = &customers[i]
	}
	for i := range tickets {
		d.tickets[tickets[i].ID] = &tickets[i]
	}
	return d
}

// updated tells the clients subscribed to ticket id that it changed. Called
// without d.mu held: NotifyResourceUpdated does not wait for the clients,
// but there is no reason to hold the lock while it marks sessions.
func (d *desk) updated(id supportmcp.TicketID) {
	if d.srv != nil {
		d.srv.NotifyResourceUpdated(supportmcp.TicketParams{ID: id}.Expand())
	}
}

// Resources.

func (d *desk) ReadCustomerAcme(ctx context.Context) (*supportmcp.Customer, error) {
	return d.customer("acme")
}

func (d *desk) ReadCustomerGlobex(ctx context.Context) (*supportmcp.Customer, error) {
	return d.customer("globex")
}

// customer returns a copy of the profile, with its open tickets as they are
// now.
func (d *desk) customer(slug string) (*supportmcp.Customer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.customers[slug]
	if !ok {
		return nil, fmt.Errorf("%w: no customer %q", runtime.ErrResourceNotFound, slug)
	}
	out := *c
	out.Contacts = slices.Clone(c.Contacts)
	out.OpenTickets = []supportmcp.TicketID{}
	for id, t := range d.tickets {
		if t.Customer == slug && t.Status != supportmcp.TicketStatusSolved {
			out.OpenTickets = append(out.OpenTickets, id)
		}
	}
	slices.Sort(out.OpenTickets)
	return &out, nil
}

// ReadTicket serves ticket://{id}; the runtime has already checked the id
// against TicketID's pattern.
func (d *desk) ReadTicket(ctx context.Context, p *supportmcp.TicketParams) (*supportmcp.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.tickets[p.ID]
	if !ok {
		return nil, fmt.Errorf("%w: no ticket %s", runtime.ErrResourceNotFound, p.ID)
	}
	out := *t
	out.Messages = slices.Clone(t.Messages)
	return &out, nil
}

// CompleteTicketID offers the ticket ids that start with prefix.
func (d *desk) CompleteTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for id := range d.tickets {
		if hasPrefixFold(string(id), prefix) {
			out = append(out, string(id))
		}
	}
	slices.Sort(out)
	return out, nil
}

// Tools.

// ReplyToTicket sends a reply. Retries with the same idempotency_key never
// reach it: the spec declares the key, and the runtime answers them with the
// first result (and refuses the key with another reply).
func (d *desk) ReplyToTicket(ctx context.Context, in *supportmcp.ReplyToTicketInput) (*supportmcp.ReplyToTicketOutput, error) {
	d.mu.Lock()
	t, ok := d.tickets[in.ID]
	if !ok {
		d.mu.Unlock()
		return nil, fmt.Errorf("no ticket %s; complete ticket ids to find it", in.ID)
	}
	author := "Support agent"
	if ci, ok := runtime.ClientInfo(ctx); ok && ci.Name != "" {
		author += " (via " + ci.Name + ")"
	}
	t.Messages = append(t.Messages, supportmcp.TicketMessage{
		From: supportmcp.TicketMessageFromAgent, Author: author, At: d.now().UTC().Format(time.RFC3339), Body: in.Body,
	})
	t.Status = supportmcp.TicketStatusPendingCustomer
	out := supportmcp.ReplyToTicketOutput{ID: t.ID, Status: t.Status, Messages: int64(len(t.Messages))}
	d.mu.Unlock()

	d.updated(in.ID)
	return &out, nil
}

// levels orders the levels a ticket goes through: it never goes back.
var levels = []supportmcp.TicketLevel{supportmcp.TicketLevelTier1, supportmcp.TicketLevelTier2, supportmcp.TicketLevelEngineering}

func (d *desk) EscalateTicket(ctx context.Context, in *supportmcp.EscalateTicketInput) (*supportmcp.EscalateTicketOutput, error) {
	to := supportmcp.TicketLevel(in.Level) // the input's enum is a subset of TicketLevel
	d.mu.Lock()
	t, ok := d.tickets[in.ID]
	if !ok {
		d.mu.Unlock()
		return nil, fmt.Errorf("no ticket %s; complete ticket ids to find it", in.ID)
	}
	from := t.Level
	switch cur, next := slices.Index(levels, from), slices.Index(levels, to); {
	case next == cur:
		d.mu.Unlock()
		return &supportmcp.EscalateTicketOutput{ID: t.ID, Level: from, Changed: false}, nil
	case next < cur:
		d.mu.Unlock()
		return nil, fmt.Errorf("%s is already with %s; a ticket never goes back down to %s", t.ID, from, to)
	}
	t.Level = to
	t.Messages = append(t.Messages, supportmcp.TicketMessage{
		From: supportmcp.TicketMessageFromSystem, Author: "escalation", At: d.now().UTC().Format(time.RFC3339),
		Body: fmt.Sprintf("Escalated from %s to %s: %s", from, to, in.Reason),
	})
	d.mu.Unlock()

	d.updated(in.ID)
	return &supportmcp.EscalateTicketOutput{ID: in.ID, Level: to, Changed: true}, nil
}

// Prompts. triage_ticket is declarative (its messages are in the spec);
// only its arguments' completions are here.

func (d *desk) CompleteTriageTicketTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	return d.CompleteTicketID(ctx, prefix, filled)
}

// CompleteTriageTicketCustomer offers the ticket's own customer once
// ticket_id is filled in, else every customer, by prefix.
func (d *desk) CompleteTriageTicketCustomer(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	if t, ok := d.tickets[supportmcp.TicketID(filled["ticket_id"])]; ok {
		out = []string{t.Customer}
	} else {
		for slug := range d.customers {
			out = append(out, slug)
		}
		slices.Sort(out)
	}
	return slices.DeleteFunc(out, func(s string) bool { return !hasPrefixFold(s, prefix) }), nil
}

func (d *desk) CompleteDraftReplyTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	return d.CompleteTicketID(ctx, prefix, filled)
}

// toneGuide is what each tone asks of the draft.
var toneGuide = map[supportmcp.DraftReplyArgsTone]string{
	supportmcp.DraftReplyArgsToneFormal:   "formal: full sentences, no contractions, greet the contact by full name and sign as the support team",
	supportmcp.DraftReplyArgsToneFriendly: "friendly: warm and direct, first names, short paragraphs, no jargon",
}

// PromptDraftReply builds draft_reply: instructions that depend on the
// ticket and the tone, then the ticket itself, embedded. The customer's
// profile is left out on purpose: it holds internal notes that must not
// leak into a reply.
func (d *desk) PromptDraftReply(ctx context.Context, args *supportmcp.DraftReplyArgs) (*runtime.GetPromptResult, error) {
	tone := args.Tone.Or(supportmcp.DraftReplyArgsToneFormal)
	t, err := d.ReadTicket(ctx, &supportmcp.TicketParams{ID: supportmcp.TicketID(args.TicketID)})
	if err != nil {
		// The arguments are wrong, not the server: invalid params.
		return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: fmt.Sprintf("invalid arguments for prompt \"draft_reply\": no ticket %q; complete ticket_id to find one", args.TicketID)}
	}
	c, err := d.customer(t.Customer)
	if err != nil {
		return nil, err
	}
	last := "(the customer has not written yet)"
	for _, m := range slices.Backward(t.Messages) {
		if m.From == supportmcp.TicketMessageFromCustomer {
			last = fmt.Sprintf("%s wrote on %s: %q", m.Author, m.At, m.Body)
			break
		}
	}
	ticketJSON, err := json.Marshal(t) // as resources/read sends it
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Draft a reply on ticket %s (%q) for %s, whose first reply is due within %d hours.\n", t.ID, t.Subject, c.Name, c.SLAHours)
	fmt.Fprintf(&b, "Answer the customer's last message: %s\n", last)
	fmt.Fprintf(&b, "Tone: %s.\n", toneGuide[tone])
	b.WriteString("Do not promise dates that engineering has not confirmed. Return only the reply; I will review it before sending it with reply_to_ticket.")
	return &runtime.GetPromptResult{
		Description: fmt.Sprintf("A %s reply to %s", tone, t.ID),
		Messages: []runtime.PromptMessage{
			{Role: "user", Content: runtime.Text(b.String())},
			{Role: "user", Content: runtime.EmbeddedResource{Resource: runtime.ResourceContents{
				URI: supportmcp.TicketParams{ID: t.ID}.Expand(), MimeType: "application/json", Text: string(ticketJSON),
			}}},
		},
	}, nil
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
