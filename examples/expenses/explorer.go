package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
)

// explorer implements expensesmcp.Handler over a ledger. Each tool does
// the same work whoever calls it, the model or the view: the view has no
// endpoint of its own, and approve checks everything again server side.
type explorer struct {
	l *ledger
	// approver is who approves: in a real deployment the signed-in user
	// from the request's credentials, never a value the view sends.
	approver string
}

var _ expensesmcp.Handler = (*explorer)(nil)

func newExplorer(l *ledger) *explorer { return &explorer{l: l, approver: "approver@example.com"} }

// ExploreExpenses takes a snapshot of one month, optionally narrowed to a
// status or category.
func (e *explorer) ExploreExpenses(_ context.Context, in *expensesmcp.ExploreExpensesInput) (*expensesmcp.Snapshot, error) {
	l := e.l
	l.mu.Lock()
	defer l.mu.Unlock()
	status, byStatus := in.Status.Get()
	category, byCategory := in.Category.Get()
	snap := &expensesmcp.Snapshot{
		Month: in.Month,
		Rows:  []expensesmcp.Row{},
		Totals: expensesmcp.Totals{
			ByCategory: map[string]int64{},
		},
		Provenance: expensesmcp.Provenance{Source: "ledger (in-memory sample)", AsOf: l.asOf.UTC().Format(time.RFC3339), DataVersion: l.dataVersion},
	}
	for _, id := range l.order {
		row := l.records[id].row
		if row.Date[:7] != string(in.Month) || byStatus && row.Status != status || byCategory && row.Category != category {
			continue
		}
		t := &snap.Totals
		t.Count++
		t.AmountCents += row.AmountCents
		t.ByCategory[string(row.Category)] += row.AmountCents
		if row.Status == expensesmcp.StatusPending {
			t.PendingCount++
			t.PendingCents += row.AmountCents
		}
		if len(snap.Rows) == snapshotRows {
			snap.Truncated = true
			continue
		}
		snap.Rows = append(snap.Rows, row)
	}
	// The same filter over the same ledger version names the same snapshot.
	sum := sha256.Sum256(fmt.Appendf(nil, "%s|%s|%s|%d", in.Month, status, category, l.dataVersion))
	snap.SnapshotID = "snap-" + hex.EncodeToString(sum[:6])
	return snap, nil
}

// ExpenseDetail returns one expense in full, for the view's drill-down.
func (e *explorer) ExpenseDetail(_ context.Context, in *expensesmcp.ExpenseDetailInput) (*expensesmcp.Detail, error) {
	l := e.l
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.records[in.ExpenseID]
	if !ok {
		return nil, fmt.Errorf("no expense %s; take a new snapshot with explore_expenses", in.ExpenseID)
	}
	return &expensesmcp.Detail{
		Expense:   r.row,
		Purpose:   r.purpose,
		LineItems: append([]expensesmcp.LineItem{}, r.lineItems...),
		History:   append([]expensesmcp.Event{}, r.history...),
	}, nil
}

// ApproveExpense approves one pending expense. The runtime calls it once
// per idempotency key (the spec's idempotency:), so it only checks the
// state again, as for any caller: the expense exists, is unchanged since
// the user's snapshot, is pending, is within the approver's limit, and is
// not the approver's own.
func (e *explorer) ApproveExpense(_ context.Context, in *expensesmcp.ApproveExpenseInput) (*expensesmcp.Approval, error) {
	l := e.l
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.records[in.ExpenseID]
	switch {
	case !ok:
		return nil, fmt.Errorf("no expense %s", in.ExpenseID)
	case r.row.Version != in.ExpectedVersion:
		return nil, fmt.Errorf("expense %s changed since your snapshot (it is at version %d, you saw %d); take a new snapshot and look again", in.ExpenseID, r.row.Version, in.ExpectedVersion)
	case r.row.Status != expensesmcp.StatusPending:
		return nil, fmt.Errorf("expense %s is %s, not pending: only pending expenses can be approved", in.ExpenseID, r.row.Status)
	case r.row.AmountCents > approvalLimitCents:
		return nil, fmt.Errorf("expense %s is %s, above your approval limit of %s: it needs finance", in.ExpenseID, expensesmcp.Euros(r.row.AmountCents), expensesmcp.Euros(approvalLimitCents))
	case r.row.Employee == e.approver:
		return nil, fmt.Errorf("you cannot approve your own expense %s", in.ExpenseID)
	}
	now := l.now().UTC()
	r.row.Status = expensesmcp.StatusApproved
	r.row.Version++
	r.history = append(r.history, expensesmcp.Event{At: now.Format(time.RFC3339), Who: e.approver, What: "approved"})
	l.dataVersion++
	l.asOf = now
	return &expensesmcp.Approval{Expense: r.row}, nil
}

// approvedCount counts approved expenses, for tests.
func (l *ledger) approvedCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.records {
		if r.row.Status == expensesmcp.StatusApproved {
			n++
		}
	}
	return n
}
