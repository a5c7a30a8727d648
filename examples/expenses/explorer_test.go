package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// client is the server behind Streamable HTTP, called the way a host that
// shows the explorer calls it (it declares the MCP Apps extension, without
// which the app-only tools do not exist): every call goes through the
// session's whole path (validation, the handler, AppTool's text check).
type client struct {
	url string
}

func serveHTTP(t *testing.T, srv *runtime.Server) *client {
	t.Helper()
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	return &client{url: ts.URL}
}

// result is a tools/call result as the client reads it.
type result struct {
	Content []struct {
		Type, Text string
	}
	StructuredContent json.RawMessage
	IsError           bool
}

// call sends one stateless (2026-07-28) tools/call and returns its result.
func (c *client) call(t *testing.T, name string, args any) *result {
	t.Helper()
	res, err := c.try(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// try is call for goroutines, which must not stop the test.
func (c *client) try(name string, args any) (*result, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": name, "arguments": args,
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": uiHost},
	}})
	req, _ := http.NewRequest("POST", c.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok && strings.Contains(d, `"id":1`) {
				data = []byte(d)
			}
		}
	}
	var msg struct{ Result *result }
	if err := json.Unmarshal(data, &msg); err != nil || msg.Result == nil {
		return nil, fmt.Errorf("%s: HTTP %d: %s", name, resp.StatusCode, data)
	}
	return msg.Result, nil
}

// uiHost are the capabilities of a host that shows views.
var uiHost = map[string]any{"extensions": map[string]any{runtime.UIExtension: map[string]any{"mimeTypes": []string{runtime.AppMIMEType}}}}

// text is the first text block of a result: what a host without MCP Apps
// shows.
func text(t *testing.T, res *result) string {
	t.Helper()
	if len(res.Content) == 0 || res.Content[0].Type != "text" {
		t.Fatalf("no text block first: %+v", res.Content)
	}
	return res.Content[0].Text
}

func structured[T any](t *testing.T, res *result) *T {
	t.Helper()
	v := new(T)
	if err := json.Unmarshal(res.StructuredContent, v); err != nil {
		t.Fatalf("structuredContent: %v: %s", err, res.StructuredContent)
	}
	return v
}

func TestSnapshotIsBoundedVersionedAndSummarized(t *testing.T) {
	c := serveHTTP(t, expensesmcp.NewServer(newExplorer(sampleLedger())))
	res := c.call(t, "explore_expenses", map[string]any{"month": "2026-10"})
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
	t.Logf("a month's snapshot: text summary %d bytes, structured content %d bytes", len(summary), len(res.StructuredContent))
	for _, want := range []string{"2026-10", snap.SnapshotID, "16 expenses", expensesmcp.Euros(sum), "pending approval"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q: %s", want, summary)
		}
	}
	again := structured[expensesmcp.Snapshot](t, c.call(t, "explore_expenses", map[string]any{"month": "2026-10"}))
	if again.SnapshotID != snap.SnapshotID {
		t.Errorf("the same filter over the same ledger gave snapshots %s and %s", snap.SnapshotID, again.SnapshotID)
	}
	pending := structured[expensesmcp.Snapshot](t, c.call(t, "explore_expenses", map[string]any{"month": "2026-10", "status": "pending"}))
	if pending.SnapshotID == snap.SnapshotID || int64(len(pending.Rows)) != snap.Totals.PendingCount {
		t.Errorf("pending snapshot %s with %d rows; the month has %d pending", pending.SnapshotID, len(pending.Rows), snap.Totals.PendingCount)
	}
	bad := c.call(t, "explore_expenses", map[string]any{"month": "October"})
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
	c := serveHTTP(t, expensesmcp.NewServer(newExplorer(l)))
	row := firstPending(t, l)
	before := l.approvedCount()
	args := map[string]any{"expense_id": row.ID, "expected_version": row.Version, "idempotency_key": "key-00000001"}

	// Concurrent retries of one approval: the handler runs once, and every
	// call gets its result.
	var wg sync.WaitGroup
	results := make([]*result, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func() { defer wg.Done(); results[i], errs[i] = c.try("approve_expense", args) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, res := range results {
		if res.IsError {
			t.Fatalf("error: %s", text(t, res))
		}
		a := structured[expensesmcp.Approval](t, res)
		if a.Expense.Status != expensesmcp.StatusApproved || a.Expense.Version != row.Version+1 {
			t.Errorf("approval answered %+v", a.Expense)
		}
		if string(res.StructuredContent) != string(results[0].StructuredContent) {
			t.Errorf("retries answered differently: %s and %s", res.StructuredContent, results[0].StructuredContent)
		}
	}
	if l.approvedCount() != before+1 || l.dataVersion != 2 {
		t.Errorf("%d approvals added, ledger at version %d; want 1 and 2", l.approvedCount()-before, l.dataVersion)
	}
	if s := text(t, results[0]); !strings.Contains(s, string(row.ID)) {
		t.Errorf("summary: %s", s)
	}

	// The key with other arguments is refused; a new key on the now
	// approved expense is checked again and refused.
	reused := c.call(t, "approve_expense", map[string]any{"expense_id": row.ID, "expected_version": row.Version + 1, "idempotency_key": "key-00000001"})
	if !reused.IsError || !strings.Contains(text(t, reused), "idempotency") {
		t.Errorf("a reused key with other arguments: %v", text(t, reused))
	}
	stale := c.call(t, "approve_expense", map[string]any{"expense_id": row.ID, "expected_version": row.Version, "idempotency_key": "key-00000002"})
	if !stale.IsError || !strings.Contains(text(t, stale), "changed since your snapshot") {
		t.Errorf("a stale approval: %v", text(t, stale))
	}
}

func TestApproveChecksAgainServerSide(t *testing.T) {
	l := sampleLedger()
	c := serveHTTP(t, expensesmcp.NewServer(newExplorer(l)))
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
		res := c.call(t, "approve_expense", map[string]any{"expense_id": r.ID, "expected_version": r.Version, "idempotency_key": "key-" + string(r.ID)})
		if !res.IsError || !strings.Contains(text(t, res), want) {
			t.Errorf("%s (%s, %d cents): %s", r.ID, r.Status, r.AmountCents, text(t, res))
		}
	}
	missing := c.call(t, "expense_detail", map[string]any{"expense_id": "EXP-9999"})
	if !missing.IsError {
		t.Error("the detail of a missing expense")
	}
}

func TestDetail(t *testing.T) {
	c := serveHTTP(t, expensesmcp.NewServer(newExplorer(sampleLedger())))
	res := c.call(t, "expense_detail", map[string]any{"expense_id": "EXP-0020"})
	d := structured[expensesmcp.Detail](t, res)
	if d.Expense.ID != "EXP-0020" || len(d.LineItems) != 2 || d.LineItems[0].AmountCents+d.LineItems[1].AmountCents != d.Expense.AmountCents {
		t.Errorf("detail %+v", d)
	}
	if s := text(t, res); !strings.HasPrefix(s, "EXP-0020: ") {
		t.Errorf("summary: %s", s)
	}
}
