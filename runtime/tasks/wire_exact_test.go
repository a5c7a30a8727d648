package tasks_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/tasks"
)

// TestTerminalStatuses: completed, failed and cancelled are terminal;
// working and input_required are not, nor is an unknown status.
func TestTerminalStatuses(t *testing.T) {
	for s, want := range map[tasks.Status]bool{
		tasks.Working: false, tasks.InputRequired: false, tasks.Completed: true, tasks.Failed: true, tasks.Cancelled: true, "": false, "Completed": false,
	} {
		if got := s.Terminal(); got != want {
			t.Errorf("%q.Terminal() = %v, want %v", s, got, want)
		}
	}
}

// TestWireShapesExact: both wire shapes of a record, byte for byte: times
// in UTC RFC 3339 with their fraction, TTL and poll interval in whole
// milliseconds (the poll interval at least 1), the status message only
// when set and escaped, and the modern shape's outcome inlined only when
// detailed and only the one of its status.
func TestWireShapesExact(t *testing.T) {
	zone := time.FixedZone("X", 2*3600)
	base := tasks.Record{
		ID:            "t-1\"é",
		CreatedAt:     time.Date(2026, 1, 2, 5, 4, 5, 123456789, zone),
		UpdatedAt:     time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC),
		TTL:           90*time.Second + 999*time.Microsecond,
		PollInterval:  1500 * time.Millisecond,
		Result:        json.RawMessage(`{"content":[]}`),
		Error:         json.RawMessage(`{"code":-1,"message":"x"}`),
		InputRequests: json.RawMessage(`{"k":{"method":"elicitation/create"}}`),
	}
	const times = `"createdAt":"2026-01-02T03:04:05.123456789Z","lastUpdatedAt":"2026-01-02T03:04:06Z"`
	for _, tc := range []struct {
		status  tasks.Status
		message string
		poll    time.Duration
		legacy  string
		modern  string // not detailed
		detail  string // what detailed adds before the closing brace
	}{
		{tasks.Working, "", 1500 * time.Millisecond,
			`{"taskId":"t-1\"é","status":"working",` + times + `,"ttl":90000,"pollInterval":1500}`,
			`{"taskId":"t-1\"é","status":"working",` + times + `,"ttlMs":90000,"pollIntervalMs":1500}`, ""},
		{tasks.InputRequired, "needs\n\"you\"", 0,
			`{"taskId":"t-1\"é","status":"input_required","statusMessage":"needs\n\"you\"",` + times + `,"ttl":90000,"pollInterval":1}`,
			`{"taskId":"t-1\"é","status":"input_required","statusMessage":"needs\n\"you\"",` + times + `,"ttlMs":90000,"pollIntervalMs":1}`,
			`,"inputRequests":{"k":{"method":"elicitation/create"}}`},
		{tasks.Completed, "", 999 * time.Microsecond,
			`{"taskId":"t-1\"é","status":"completed",` + times + `,"ttl":90000,"pollInterval":1}`,
			`{"taskId":"t-1\"é","status":"completed",` + times + `,"ttlMs":90000,"pollIntervalMs":1}`,
			`,"result":{"content":[]}`},
		{tasks.Failed, "boom", 2 * time.Millisecond,
			`{"taskId":"t-1\"é","status":"failed","statusMessage":"boom",` + times + `,"ttl":90000,"pollInterval":2}`,
			`{"taskId":"t-1\"é","status":"failed","statusMessage":"boom",` + times + `,"ttlMs":90000,"pollIntervalMs":2}`,
			`,"error":{"code":-1,"message":"x"}`},
		{tasks.Cancelled, "", time.Second,
			`{"taskId":"t-1\"é","status":"cancelled",` + times + `,"ttl":90000,"pollInterval":1000}`,
			`{"taskId":"t-1\"é","status":"cancelled",` + times + `,"ttlMs":90000,"pollIntervalMs":1000}`, ""},
	} {
		r := base
		r.Status, r.StatusMessage, r.PollInterval = tc.status, tc.message, tc.poll
		if got := string(r.AppendLegacy([]byte("x"))); got != "x"+tc.legacy {
			t.Errorf("%s legacy\n got %s\nwant x%s", tc.status, got, tc.legacy)
		}
		if got := string(r.AppendModern(nil, "{", false)); got != tc.modern {
			t.Errorf("%s modern\n got %s\nwant %s", tc.status, got, tc.modern)
		}
		wantDetailed := `{"a":1,` + tc.modern[1:len(tc.modern)-1] + tc.detail + `}`
		got := string(r.AppendModern(nil, `{"a":1,`, true))
		if got != wantDetailed {
			t.Errorf("%s modern detailed\n got %s\nwant %s", tc.status, got, wantDetailed)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: not JSON: %s", tc.status, got)
		}
	}
	// A completed task without a result (or failed without an error)
	// inlines nothing.
	r := base
	r.Status, r.Result = tasks.Completed, nil
	if got := string(r.AppendModern(nil, "{", true)); got != `{"taskId":"t-1\"é","status":"completed",`+times+`,"ttlMs":90000,"pollIntervalMs":1500}` {
		t.Errorf("completed without a result: %s", got)
	}
	if got := (&tasks.Record{CreatedAt: base.CreatedAt, TTL: time.Minute}).Expires(); !got.Equal(base.CreatedAt.Add(time.Minute)) {
		t.Errorf("Expires %v", got)
	}
}
