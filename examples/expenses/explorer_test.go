package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// call runs a tool as tools/call does (validation, the handler, AppTool's
// text check) and returns its result.
func call(t *testing.T, srv *runtime.Server, name string, args any) *runtime.CallToolResult {
	t.Helper()
	raw, _ := json.Marshal(args)
	for _, tool := range srv.Tools() {
		if tool.Name == name {
			res, err := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: name, Arguments: raw})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return res
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// text is the first text block of a result: what a host without MCP Apps
// shows.
func text(t *testing.T, res *runtime.CallToolResult) string {
	t.Helper()
	b, _ := json.Marshal(res.Content)
	var blocks []struct{ Type, Text string }
	json.Unmarshal(b, &blocks)
	if len(blocks) == 0 || blocks[0].Type != "text" {
		t.Fatalf("no text block first: %s", b)
	}
	return blocks[0].Text
}

func structured[T any](t *testing.T, res *runtime.CallToolResult) *T {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	v := new(T)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structuredContent: %v: %s", err, b)
	}
	return v
}

func TestSnapshotIsBoundedVersionedAndSummarized(t *testing.T) {
	srv := expensesmcp.NewServer(newExplorer(sampleLedger()))
	res := call(t, srv, "explore_expenses", map[string]any{"month": "2026-10"})
	if res.IsError {
		t.Fatalf("error: %v", res.Content)
	}
	snap := structured[expensesmcp.Snapshot](t, res)
	if len(snap.Rows) != 16 || snap.Totals.Count != 16 || snap.Truncated {
		t.Errorf("rows %d, count %d, truncated %v", len(snap.Rows), snap.Totals.Count, snap.Truncated)
	}
	var sum int64
	for _, r := range snap.Rows {
		sum += r.AmountCents
	}
	if sum != snap.Totals.AmountCents {
		t.Errorf("totals %d, rows add up to %d", snap.Totals.AmountCents, sum)
	}
	summary := text(t, res)
	structuredJSON, _ := json.Marshal(res.StructuredContent)
	t.Logf("a month's snapshot: text summary %d bytes, structured content %d bytes", len(summary), len(structuredJSON))
	for _, want := range []string{"2026-10", snap.SnapshotID, "16 expenses", expensesmcp.Euros(sum), "pending approval"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q: %s", want, summary)
		}
	}
	again := structured[expensesmcp.Snapshot](t, call(t, srv, "explore_expenses", map[string]any{"month": "2026-10"}))
	if again.SnapshotID != snap.SnapshotID {
		t.Errorf("the same filter over the same ledger gave snapshots %s and %s", snap.SnapshotID, again.SnapshotID)
	}
	pending := structured[expensesmcp.Snapshot](t, call(t, srv, "explore_expenses", map[string]any{"month": "2026-10", "status": "pending"}))
	if pending.SnapshotID == snap.SnapshotID || int64(len(pending.Rows)) != snap.Totals.PendingCount {
		t.Errorf("pending snapshot %s with %d rows; the month has %d pending", pending.SnapshotID, len(pending.Rows), snap.Totals.PendingCount)
	}
	bad := call(t, srv, "explore_expenses", map[string]any{"month": "October"})
	if !bad.IsError {
		t.Error("a bad month was accepted")
	}
}

// firstPending returns an expense the approver may approve.
func firstPending(t *testing.T, l *ledger) expensesmcp.Row {
	t.Helper()
	for _, id := range l.order {
		if r := l.records[id].row; r.Status == expensesmcp.StatusPending && r.AmountCents <= approvalLimitCents {
			return r
		}
	}
	t.Fatal("no pending expense under the limit")
	return expensesmcp.Row{}
}

func TestApproveOncePerKey(t *testing.T) {
	l := sampleLedger()
	srv := expensesmcp.NewServer(newExplorer(l))
	row := firstPending(t, l)
	before := l.approvedCount()
	args := map[string]any{"expense_id": row.ID, "expected_version": row.Version, "idempotency_key": "key-00000001"}

	// Concurrent retries of one approval: one acts, the others replay.
	var wg sync.WaitGroup
	results := make([]*runtime.CallToolResult, 8)
	for i := range results {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = call(t, srv, "approve_expense", args) }()
	}
	wg.Wait()
	fresh := 0
	for _, res := range results {
		if res.IsError {
			t.Fatalf("error: %s", text(t, res))
		}
		a := structured[expensesmcp.Approval](t, res)
		if !a.Replayed {
			fresh++
		}
		if a.Expense.Status != expensesmcp.StatusApproved || a.Expense.Version != row.Version+1 {
			t.Errorf("approval answered %+v", a.Expense)
		}
	}
	if fresh != 1 || l.approvedCount() != before+1 {
		t.Errorf("%d calls acted, %d approvals added; want 1 and 1", fresh, l.approvedCount()-before)
	}
	if s := text(t, results[0]); !strings.Contains(s, string(row.ID)) {
		t.Errorf("summary: %s", s)
	}

	// The key with other arguments is refused; a new key on the now
	// approved expense is checked again and refused.
	reused := call(t, srv, "approve_expense", map[string]any{"expense_id": row.ID, "expected_version": row.Version + 1, "idempotency_key": "key-00000001"})
	if !reused.IsError || !strings.Contains(text(t, reused), "already used") {
		t.Errorf("a reused key with other arguments: %v", text(t, reused))
	}
	stale := call(t, srv, "approve_expense", map[string]any{"expense_id": row.ID, "expected_version": row.Version, "idempotency_key": "key-00000002"})
	if !stale.IsError || !strings.Contains(text(t, stale), "changed since your snapshot") {
		t.Errorf("a stale approval: %v", text(t, stale))
	}
}

func TestApproveChecksAgainServerSide(t *testing.T) {
	l := sampleLedger()
	srv := expensesmcp.NewServer(newExplorer(l))
	for _, id := range l.order {
		r := l.records[id].row
		var want string
		switch {
		case r.Status != expensesmcp.StatusPending:
			want = "not pending"
		case r.AmountCents > approvalLimitCents:
			want = "approval limit"
		default:
			continue
		}
		res := call(t, srv, "approve_expense", map[string]any{"expense_id": r.ID, "expected_version": r.Version, "idempotency_key": "key-" + string(r.ID)})
		if !res.IsError || !strings.Contains(text(t, res), want) {
			t.Errorf("%s (%s, %d cents): %s", r.ID, r.Status, r.AmountCents, text(t, res))
		}
	}
	missing := call(t, srv, "expense_detail", map[string]any{"expense_id": "EXP-9999"})
	if !missing.IsError {
		t.Error("the detail of a missing expense")
	}
}

func TestDetail(t *testing.T) {
	srv := expensesmcp.NewServer(newExplorer(sampleLedger()))
	res := call(t, srv, "expense_detail", map[string]any{"expense_id": "EXP-0020"})
	d := structured[expensesmcp.Detail](t, res)
	if d.Expense.ID != "EXP-0020" || len(d.LineItems) != 2 || d.LineItems[0].AmountCents+d.LineItems[1].AmountCents != d.Expense.AmountCents {
		t.Errorf("detail %+v", d)
	}
	if s := text(t, res); !strings.HasPrefix(s, "EXP-0020: ") {
		t.Errorf("summary: %s", s)
	}
}
