// Package hostile is what the runtime's reliability suites share: the
// servers they attack (generated packages served in process, with handlers
// of fixed data), the table of hostile and malformed inputs, clients for
// stdio and Streamable HTTP that check every message they receive, and the
// checks themselves. See RELIABILITY.md at the repository root.
package hostile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/golden/collections"
	"github.com/mcpgen/mcpgen/golden/numbers"
	"github.com/mcpgen/mcpgen/golden/refs"
	"github.com/mcpgen/mcpgen/runtime"
)

// Tool names registered by NewServer beside the generated ones.
const (
	// SleepTool blocks until its request is cancelled (or a minute has
	// passed), after one progress report when the client asked for
	// progress: the target of cancellations and of duplicate in-flight ids.
	SleepTool = "hostile_sleep"
	// EchoTool reports progress once (when the client asked for progress)
	// and says how many bytes of arguments it received; its input schema
	// accepts any object.
	EchoTool = "hostile_echo"
)

// Options configure NewServer.
type Options struct {
	// Sleep registers SleepTool. Leave it out where every request must
	// finish on its own (fuzzing waits for every handler).
	Sleep bool
	// Runtime options (the logger defaults to one that discards).
	Runtime []runtime.Option
}

// NewServer returns examples/support's generated server (three tools, two
// static resources, a typed ticket://{id} template, a declarative and a
// typed prompt, completions) served by Desk, plus the tools of
// golden/refs (recursive inputs), golden/numbers (every numeric
// constraint) and golden/collections (arrays and maps), and EchoTool (and
// SleepTool when asked for).
func NewServer(o Options) (*runtime.Server, *Desk) {
	opts := append([]runtime.Option{runtime.WithLogger(Quiet())}, o.Runtime...)
	d := NewDesk()
	srv := supportmcp.NewServer(d, opts...)
	d.srv = srv
	refs.Register(srv, Refs{})
	numbers.Register(srv, Numbers{})
	collections.Register(srv, Collections{})
	srv.AddTool(runtime.Tool{
		Name:        EchoTool,
		Description: "Reports progress once (when asked for), and says how many bytes of arguments it got.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":true}`),
		Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			_ = runtime.Progress(ctx, 1, 2, "halfway")
			return runtime.TextResult(fmt.Sprintf("%d bytes of arguments", len(req.Arguments))), nil
		},
	})
	if o.Sleep {
		srv.AddTool(runtime.Tool{
			Name:        SleepTool,
			Description: "Waits until cancelled.",
			Handler: func(ctx context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				_ = runtime.Progress(ctx, 1, 0, "started")
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(time.Minute):
					return runtime.TextResult("woke up"), nil
				}
			},
		})
	}
	return srv, d
}

// Quiet is a logger that discards: hostile input makes the runtime log
// (on purpose), and test output should show failures only.
func Quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// Desk implements supportmcp.Handler over in-memory tickets, as
// examples/support does (that one is package main), safe for concurrent
// use. The tools notify the subscribers of the ticket they change.
type Desk struct {
	srv *runtime.Server

	mu      sync.Mutex
	tickets map[supportmcp.TicketID]*supportmcp.Ticket
}

var _ supportmcp.Handler = (*Desk)(nil)

// Tickets are the ids NewDesk starts with: T-1001 … T-1016.
const firstTicket, lastTicket = 1001, 1016

func NewDesk() *Desk {
	d := &Desk{tickets: map[supportmcp.TicketID]*supportmcp.Ticket{}}
	for n := firstTicket; n <= lastTicket; n++ {
		id := supportmcp.TicketID(fmt.Sprintf("T-%d", n))
		cust := "acme"
		if n%2 == 0 {
			cust = "globex"
		}
		d.tickets[id] = &supportmcp.Ticket{
			ID: id, Customer: cust, Subject: "Subject of " + string(id),
			Status: supportmcp.TicketStatusOpen, Level: supportmcp.TicketLevelTier1, Priority: supportmcp.TicketPriorityNormal,
			Messages: []supportmcp.TicketMessage{{From: supportmcp.TicketMessageFromCustomer, Author: "Customer", At: "2026-11-01T09:00:00Z", Body: "It is broken."}},
		}
	}
	return d
}

func (d *Desk) customer(slug string) (*supportmcp.Customer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := &supportmcp.Customer{
		Slug: slug, Name: strings.ToUpper(slug[:1]) + slug[1:], Plan: supportmcp.CustomerPlanBusiness, SLAHours: 8,
		Contacts:    []supportmcp.Contact{{Name: "Pat", Email: "pat@" + slug + ".example"}},
		OpenTickets: []supportmcp.TicketID{},
	}
	for id, t := range d.tickets {
		if t.Customer == slug && t.Status != supportmcp.TicketStatusSolved {
			c.OpenTickets = append(c.OpenTickets, id)
		}
	}
	slices.Sort(c.OpenTickets)
	return c, nil
}

func (d *Desk) ReadCustomerAcme(ctx context.Context) (*supportmcp.Customer, error) {
	return d.customer("acme")
}

func (d *Desk) ReadCustomerGlobex(ctx context.Context) (*supportmcp.Customer, error) {
	return d.customer("globex")
}

func (d *Desk) ReadTicket(ctx context.Context, p *supportmcp.TicketParams) (*supportmcp.Ticket, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.tickets[p.ID]
	if !ok {
		return nil, runtime.ErrResourceNotFound // the runtime words it, quoting the URI (capped)
	}
	out := *t
	out.Messages = slices.Clone(t.Messages)
	return &out, nil
}

func (d *Desk) CompleteTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for id := range d.tickets {
		if strings.HasPrefix(strings.ToUpper(string(id)), strings.ToUpper(prefix)) {
			out = append(out, string(id))
		}
	}
	slices.Sort(out)
	return out, nil
}

func (d *Desk) ReplyToTicket(ctx context.Context, in *supportmcp.ReplyToTicketInput) (*supportmcp.ReplyToTicketOutput, error) {
	d.mu.Lock()
	t, ok := d.tickets[in.ID]
	if !ok {
		d.mu.Unlock()
		return nil, fmt.Errorf("no ticket %s", in.ID)
	}
	// Retries with the same idempotency_key are the runtime's to answer
	// (the spec declares the key): each call here is a new reply.
	if len(t.Messages) < 50 { // bounded: the stress test replies thousands of times
		t.Messages = append(t.Messages, supportmcp.TicketMessage{From: supportmcp.TicketMessageFromAgent, Author: "Agent", At: "2026-11-02T09:00:00Z", Body: in.Body})
	}
	t.Status = supportmcp.TicketStatusPendingCustomer
	out := &supportmcp.ReplyToTicketOutput{ID: t.ID, Status: t.Status, Messages: int64(len(t.Messages))}
	d.mu.Unlock()
	d.updated(in.ID)
	return out, nil
}

func (d *Desk) EscalateTicket(ctx context.Context, in *supportmcp.EscalateTicketInput) (*supportmcp.EscalateTicketOutput, error) {
	d.mu.Lock()
	t, ok := d.tickets[in.ID]
	if !ok {
		d.mu.Unlock()
		return nil, fmt.Errorf("no ticket %s", in.ID)
	}
	to := supportmcp.TicketLevel(in.Level)
	changed := t.Level != to
	t.Level = to // the stress test escalates in any order: levels may go down here
	d.mu.Unlock()
	d.updated(in.ID)
	return &supportmcp.EscalateTicketOutput{ID: in.ID, Level: to, Changed: changed}, nil
}

// BuildReport counts the tickets at once (examples/support reads them one
// by one and reports more): here it is one more typed tool that may run as
// a task.
func (d *Desk) BuildReport(ctx context.Context, in *supportmcp.BuildReportInput) (*supportmcp.BuildReportOutput, error) {
	slug := in.Customer.Or("")
	d.mu.Lock()
	defer d.mu.Unlock()
	out := &supportmcp.BuildReportOutput{Customer: slug, PastSLA: []supportmcp.TicketID{}}
	for _, t := range d.tickets {
		if slug == "" || t.Customer == slug {
			out.Tickets++
		}
	}
	return out, nil
}

func (d *Desk) updated(id supportmcp.TicketID) {
	if d.srv != nil {
		d.srv.NotifyResourceUpdated(supportmcp.TicketParams{ID: id}.Expand())
	}
}

func (d *Desk) CompleteTriageTicketTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	return d.CompleteTicketID(ctx, prefix, filled)
}

func (d *Desk) CompleteTriageTicketCustomer(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	var out []string
	for _, s := range []string{"acme", "globex"} {
		if strings.HasPrefix(s, strings.ToLower(prefix)) {
			out = append(out, s)
		}
	}
	return out, nil
}

func (d *Desk) CompleteDraftReplyTicketID(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	return d.CompleteTicketID(ctx, prefix, filled)
}

func (d *Desk) PromptDraftReply(ctx context.Context, args *supportmcp.DraftReplyArgs) (*runtime.GetPromptResult, error) {
	t, err := d.ReadTicket(ctx, &supportmcp.TicketParams{ID: supportmcp.TicketID(args.TicketID)})
	if err != nil {
		return nil, &runtime.Error{Code: runtime.CodeInvalidParams, Message: "invalid arguments for prompt \"draft_reply\": no such ticket"}
	}
	tone := args.Tone.Or(supportmcp.DraftReplyArgsToneFormal)
	return &runtime.GetPromptResult{
		Description: fmt.Sprintf("A %s reply to %s", tone, t.ID),
		Messages:    []runtime.PromptMessage{{Role: "user", Content: runtime.Text("Draft a " + string(tone) + " reply to " + string(t.ID) + ".")}},
	}, nil
}

// Refs serves golden/refs: walk_tree flattens the tree it is given (the
// depth of a tree is bounded only by the message's nesting limit).
type Refs struct{}

func (Refs) WalkTree(ctx context.Context, in *refs.WalkTreeInput) (*refs.NodeList, error) {
	out := refs.NodeList{}
	stack := []refs.Node{in.Root}
	for len(stack) > 0 && len(out) < 100 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, refs.Node{Name: n.Name})
		stack = append(stack, n.Children...)
	}
	return &out, nil
}

func (Refs) DescribeNode(ctx context.Context, in *refs.Node) (*refs.Node, error) {
	return &refs.Node{Name: in.Name}, nil
}

// Numbers serves golden/numbers. It checks that what it receives obeys the
// input schema, which the runtime validated: a value that does not is a
// runtime bug, and the handler panics (the client gets an internal error).
type Numbers struct{}

func (Numbers) Compute(ctx context.Context, in *numbers.ComputeInput) (*numbers.ComputeOutput, error) {
	if err := CheckCompute(in); err != nil {
		panic("hostile: compute received arguments its schema forbids: " + err.Error())
	}
	return &numbers.ComputeOutput{Total: float64(in.Count) * float64(in.Percent) / 100}, nil
}

// CheckCompute checks in against golden/numbers' input schema.
func CheckCompute(in *numbers.ComputeInput) error {
	var bad []string
	if in.Count < 1 || in.Count > 1000 {
		bad = append(bad, fmt.Sprintf("count=%d", in.Count))
	}
	if r, ok := in.Ratio.Get(); ok && (r <= 0 || r >= 1) {
		bad = append(bad, fmt.Sprintf("ratio=%v", r))
	}
	if s, ok := in.Step.Get(); ok && s%5 != 0 {
		bad = append(bad, fmt.Sprintf("step=%d", s))
	}
	if f, ok := in.Fine.Get(); ok && (f < -2.5 || f*4 != float64(int64(f*4))) {
		bad = append(bad, fmt.Sprintf("fine=%v", f))
	}
	if in.Percent < 0 || in.Percent > 100 {
		bad = append(bad, fmt.Sprintf("percent=%v", in.Percent))
	}
	if p, ok := in.Priority.Get(); ok && (p < 1 || p > 3) {
		bad = append(bad, fmt.Sprintf("priority=%d", p))
	}
	if w, ok := in.Weight.Get(); ok && w != 0.5 && w != 1 && w != 2.5 {
		bad = append(bad, fmt.Sprintf("weight=%v", w))
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, ", "))
	}
	return nil
}

// Collections serves golden/collections: collect returns the points it was
// given.
type Collections struct{}

func (Collections) Collect(ctx context.Context, in *collections.CollectInput) (*collections.CollectOutput, error) {
	out := collections.CollectOutput(in.Points)
	if out == nil {
		out = collections.CollectOutput{}
	}
	return &out, nil
}
