package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/logging"
)

// LogLevel is the severity of a log message sent to the client
// (notifications/message), as in syslog (RFC 5424) (logging.Level).
type LogLevel = logging.Level

// The levels, least severe first.
const (
	LevelDebug     = logging.LevelDebug
	LevelInfo      = logging.LevelInfo
	LevelNotice    = logging.LevelNotice
	LevelWarning   = logging.LevelWarning
	LevelError     = logging.LevelError
	LevelCritical  = logging.LevelCritical
	LevelAlert     = logging.LevelAlert
	LevelEmergency = logging.LevelEmergency
)

// setLevel handles logging/setLevel {level}.
func (ss *Session) setLevel(params json.RawMessage) (encoder, *Error) {
	var p struct {
		Level json.RawMessage `json:"level"`
	}
	var level LogLevel
	if jsonwire.FirstByte(params) != '{' || json.Unmarshal(params, &p) != nil || json.Unmarshal(p.Level, &level) != nil || level.Rank() < 0 {
		return nil, errorf(CodeInvalidParams, `invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency`)
	}
	ss.logLevel.Store(int32(level.Rank()))
	if e := ss.persist(); e != nil {
		return nil, e
	}
	return rawResult(`{}`), nil
}

// Log sends a log message to the client of the request ctx belongs to
// (notifications/message {level, logger, data}), if level is at or above
// the level the client set with logging/setLevel (info until it sets one).
// In the 2026-07-28 era the level is the request's own
// (_meta io.modelcontextprotocol/logLevel), and without one nothing is sent.
// On Streamable HTTP it travels on that request's response stream, which
// turns into an SSE stream for it. logger names the source and may be "";
// data is any JSON-encodable value (a json.RawMessage is sent as it is).
//
// Log returns an error for an unknown level or data that cannot be encoded;
// sending is fire-and-forget. Outside a session (a handler called directly,
// in a test) it does nothing.
func Log(ctx context.Context, level LogLevel, logger string, data any) error {
	rank := level.Rank()
	if rank < 0 {
		return fmt.Errorf("runtime: Log: %s is not a log level", quote(string(level)))
	}
	c := reqFrom(ctx)
	if c == nil {
		return nil
	}
	threshold := c.ss.logLevel.Load()
	if c.peer != nil && c.peer.modern {
		threshold = c.peer.logRank // noLogging unless the request's _meta asked
	}
	if int32(rank) < threshold {
		return nil
	}
	bp := bufpool.Get()
	defer bufpool.Put(bp)
	b, err := logging.AppendMessage(*bp, level, logger, data)
	*bp = b[:0]
	if err != nil {
		return fmt.Errorf("runtime: Log: encoding data: %w", err)
	}
	c.ss.write(c.id, false, b)
	return nil
}

// Logger returns a slog.Logger whose records go to the client of the request
// ctx belongs to, through Log: see NewSlogHandler. Outside a session its
// records go nowhere.
func Logger(ctx context.Context) *slog.Logger { return slog.New(NewSlogHandler(ctx)) }

// NewSlogHandler returns a slog.Handler that sends each record to the client
// of the request ctx belongs to as a notifications/message, for handlers
// that already log through slog or want to combine it with other handlers.
// The data is a JSON object with the message under "msg" and the attributes
// as slog.JSONHandler writes them (groups nest); time and level are left out
// (the level travels as the message's level). slog levels map to MCP's:
// below Info → debug, Info → info, Info+2 → notice, Warn → warning,
// Error → error, Error+4 → critical, Error+8 → alert, Error+12 and above →
// emergency. Records below the level the client set are not encoded at all.
func NewSlogHandler(ctx context.Context) slog.Handler {
	if c := reqFrom(ctx); c != nil {
		return logging.NewSlogHandler(callLog{c})
	}
	return logging.NewSlogHandler(nil)
}

// callLog is the logging.Sink of one request.
type callLog struct{ c *call }

func (s callLog) Enabled(l LogLevel) bool { return int32(l.Rank()) >= s.c.ss.logLevel.Load() }

func (s callLog) Log(l LogLevel, data json.RawMessage) error { return Log(s.c, l, "", data) }

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
