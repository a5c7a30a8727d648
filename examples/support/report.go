package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// defaultReportStep is how long build_report spends on one ticket: the
// stand-in for the real work (fetching each ticket's history from a slow
// ticketing system), which makes the report a long job worth a task.
const defaultReportStep = time.Second

// BuildReport reads the tickets one by one (reportStep each), reporting
// progress after each, and stops early when the call or its task is
// cancelled. It is an ordinary tool method: the runtime runs it as a task
// when the client can follow one (mcpgen.yaml: execution.taskSupport).
func (d *desk) BuildReport(ctx context.Context, in *supportmcp.BuildReportInput) (*supportmcp.BuildReportOutput, error) {
	slug := in.Customer.Or("")
	tickets, slaHours, err := d.reportTickets(slug)
	if err != nil {
		return nil, err
	}
	out := &supportmcp.BuildReportOutput{Customer: slug, PastSLA: []supportmcp.TicketID{}}
	now := d.now()
	for i, t := range tickets {
		if err := sleep(ctx, d.reportStep); err != nil {
			return nil, err // cancelled: nobody waits for the report any more
		}
		out.Tickets++
		switch t.Status {
		case supportmcp.TicketStatusOpen:
			out.Open++
			if pastSLA(t, slaHours[t.Customer], now) {
				out.PastSLA = append(out.PastSLA, t.ID)
			}
		case supportmcp.TicketStatusPendingCustomer:
			out.PendingCustomer++
		case supportmcp.TicketStatusSolved:
			out.Solved++
		}
		if t.Level != supportmcp.TicketLevelTier1 {
			out.Escalated++
		}
		// Progress is best effort: a report is worth finishing even when
		// no one hears how far it got (a 2026-07-28 task has no stream).
		_ = runtime.Progress(ctx, float64(i+1), float64(len(tickets)), fmt.Sprintf("read %s (%d of %d)", t.ID, i+1, len(tickets)))
	}
	return out, nil
}

// reportTickets returns copies of the tickets the report covers, by id,
// and each customer's SLA in hours.
func (d *desk) reportTickets(slug string) ([]supportmcp.Ticket, map[string]int64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.customers[slug]; slug != "" && !ok {
		return nil, nil, fmt.Errorf("no customer %q; the customers are acme and globex", slug)
	}
	sla := map[string]int64{}
	for s, c := range d.customers {
		sla[s] = c.SLAHours
	}
	var out []supportmcp.Ticket
	for _, t := range d.tickets {
		if slug == "" || t.Customer == slug {
			c := *t
			c.Messages = slices.Clone(t.Messages)
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b supportmcp.Ticket) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out, sla, nil
}

// pastSLA reports whether open ticket t's last message is the customer's
// and has waited longer than slaHours.
func pastSLA(t supportmcp.Ticket, slaHours int64, now time.Time) bool {
	if len(t.Messages) == 0 {
		return false
	}
	last := t.Messages[len(t.Messages)-1]
	at, err := time.Parse(time.RFC3339, last.At)
	return err == nil && last.From == supportmcp.TicketMessageFromCustomer && now.Sub(at) > time.Duration(slaHours)*time.Hour
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
