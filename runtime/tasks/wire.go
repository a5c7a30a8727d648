package tasks

import (
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// appendTime appends t as an ISO 8601 JSON string.
func appendTime(b []byte, t time.Time) []byte {
	return jsonwire.AppendString(b, t.UTC().Format(time.RFC3339Nano))
}

// AppendModern appends the task in the SEP-2663 shape after head (which
// opens the object): with its outcome inlined when detailed.
func (t *Record) AppendModern(b []byte, head string, detailed bool) []byte {
	b = append(b, head...)
	b = append(b, `"taskId":`...)
	b = jsonwire.AppendString(b, t.ID)
	b = append(b, `,"status":`...)
	b = jsonwire.AppendString(b, string(t.Status))
	if t.StatusMessage != "" {
		b = append(b, `,"statusMessage":`...)
		b = jsonwire.AppendString(b, t.StatusMessage)
	}
	b = append(b, `,"createdAt":`...)
	b = appendTime(b, t.CreatedAt)
	b = append(b, `,"lastUpdatedAt":`...)
	b = appendTime(b, t.UpdatedAt)
	b = append(b, `,"ttlMs":`...)
	b = strconv.AppendInt(b, t.TTL.Milliseconds(), 10)
	b = append(b, `,"pollIntervalMs":`...)
	b = strconv.AppendInt(b, max(1, t.PollInterval.Milliseconds()), 10)
	if detailed {
		switch {
		case t.Status == Completed && t.Result != nil:
			b = append(b, `,"result":`...)
			b = append(b, t.Result...)
		case t.Status == Failed && t.Error != nil:
			b = append(b, `,"error":`...)
			b = append(b, t.Error...)
		case t.Status == InputRequired && t.InputRequests != nil:
			b = append(b, `,"inputRequests":`...)
			b = append(b, t.InputRequests...)
		}
	}
	return append(b, '}')
}

// AppendLegacy appends the task in the 2025-11-25 shape (Task).
func (t *Record) AppendLegacy(b []byte) []byte {
	b = append(b, `{"taskId":`...)
	b = jsonwire.AppendString(b, t.ID)
	b = append(b, `,"status":`...)
	b = jsonwire.AppendString(b, string(t.Status))
	if t.StatusMessage != "" {
		b = append(b, `,"statusMessage":`...)
		b = jsonwire.AppendString(b, t.StatusMessage)
	}
	b = append(b, `,"createdAt":`...)
	b = appendTime(b, t.CreatedAt)
	b = append(b, `,"lastUpdatedAt":`...)
	b = appendTime(b, t.UpdatedAt)
	b = append(b, `,"ttl":`...)
	b = strconv.AppendInt(b, t.TTL.Milliseconds(), 10)
	b = append(b, `,"pollInterval":`...)
	b = strconv.AppendInt(b, max(1, t.PollInterval.Milliseconds()), 10)
	return append(b, '}')
}
