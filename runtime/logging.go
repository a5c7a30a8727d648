package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

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
