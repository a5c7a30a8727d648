package runtime

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// progressState is what a request has reported through Progress.
type progressState struct {
	mu     sync.Mutex
	parsed bool    // token looked up in the request's _meta
	token  []byte  // params._meta.progressToken as sent (a string or an integer), or nil
	sent   bool    // a notification went out
	last   float64 // its progress
}

// Progress reports how far the request ctx belongs to has come, with
// notifications/progress {progressToken, progress, total, message}, when the
// client asked for it by sending params._meta.progressToken (a string or an
// integer, echoed exactly); otherwise, and outside a session, it does
// nothing. total ≤ 0 means unknown and is left out, as is an empty message.
// progress must increase from one call to the next: a value that does not
// (or is not finite) returns an error and is not sent. On Streamable HTTP the
// notification travels on the request's response stream.
func Progress(ctx context.Context, progress, total float64, message string) error {
	c := reqFrom(ctx)
	if c == nil {
		return nil
	}
	p := &c.progress
	p.mu.Lock()
	defer p.mu.Unlock() // held while sending: reports go out in order
	if !p.parsed {
		p.token, p.parsed = progressToken(c.meta), true
	}
	modernTask := c.task != nil && c.task.modern
	if p.token == nil && !modernTask {
		return nil
	}
	if math.IsNaN(progress) || math.IsInf(progress, 0) || math.IsNaN(total) || math.IsInf(total, 0) {
		return fmt.Errorf("runtime: Progress: progress and total must be finite numbers")
	}
	if p.sent && progress <= p.last {
		return fmt.Errorf("runtime: Progress: progress must increase: %v after %v", progress, p.last)
	}
	if modernTask {
		// SEP-2663 has no notifications/progress for a task: a client
		// polling tasks/get reads how far it came in its statusMessage.
		p.sent, p.last = true, progress
		msg := progressMessage(progress, total, message)
		c.task.update(func(rec *TaskRecord) { rec.StatusMessage = msg })
		return nil
	}
	bp := bufpool.Get()
	defer bufpool.Put(bp)
	b := append(*bp, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":`...)
	b = append(b, p.token...)
	b = append(b, `,"progress":`...)
	b = appendFloat(b, progress)
	if total > 0 {
		b = append(b, `,"total":`...)
		b = appendFloat(b, total)
	}
	if message != "" {
		b = append(b, `,"message":`...)
		b = jsonwire.AppendString(b, message)
	}
	b = append(b, "}}"...)
	*bp = b
	p.sent, p.last = true, progress
	c.ss.write(c.id, false, b)
	return nil
}

// progressToken returns the progressToken of a request's _meta, or nil when
// there is none or it is neither a string nor an integer.
func progressToken(meta []byte) []byte {
	if meta == nil {
		return nil
	}
	var tok []byte
	if _, err := jsonwire.ScanObject(meta, func(key, val []byte) {
		if string(key) == "progressToken" {
			tok = val
		}
	}); err != nil || !jsonwire.ValidID(tok) {
		return nil
	}
	return tok
}

// appendFloat appends f as encoding/json would: no exponent between 1e-6
// and 1e21, and the shortest representation that reads back the same.
func appendFloat(b []byte, f float64) []byte {
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // 1e-07 → 1e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// progressMessage is a progress report as a task's status message: the
// handler's message, else how far it came ("3 of 10", or "3").
func progressMessage(progress, total float64, message string) string {
	if message != "" {
		return message
	}
	b := appendFloat(nil, progress)
	if total > 0 {
		b = appendFloat(append(b, " of "...), total)
	}
	return string(b)
}
