package runtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/internal/bufpool"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// LogLevel is the severity of a log message sent to the client
// (notifications/message), as in syslog (RFC 5424).
type LogLevel string

// The levels, least severe first.
const (
	LevelDebug     LogLevel = "debug"
	LevelInfo      LogLevel = "info"
	LevelNotice    LogLevel = "notice"
	LevelWarning   LogLevel = "warning"
	LevelError     LogLevel = "error"
	LevelCritical  LogLevel = "critical"
	LevelAlert     LogLevel = "alert"
	LevelEmergency LogLevel = "emergency"
)

var logLevels = [...]LogLevel{LevelDebug, LevelInfo, LevelNotice, LevelWarning, LevelError, LevelCritical, LevelAlert, LevelEmergency}

// defaultLogRank is the level a session sends from until the client sets
// one: info. MCP leaves the default to the server; info keeps debug chatter
// off the wire and lets a client that never calls logging/setLevel see what
// matters.
const defaultLogRank = 1

// rank orders levels; -1 for a string that is not a level.
func (l LogLevel) rank() int {
	for i, x := range logLevels {
		if x == l {
			return i
		}
	}
	return -1
}

// setLevel handles logging/setLevel {level}.
func (ss *Session) setLevel(params json.RawMessage) (encoder, *Error) {
	var p struct {
		Level json.RawMessage `json:"level"`
	}
	var level LogLevel
	if jsonwire.FirstByte(params) != '{' || json.Unmarshal(params, &p) != nil || json.Unmarshal(p.Level, &level) != nil || level.rank() < 0 {
		return nil, errorf(CodeInvalidParams, `invalid params: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency`)
	}
	ss.logLevel.Store(int32(level.rank()))
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
	rank := level.rank()
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
	b := append(*bp, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"`...)
	b = append(b, level...)
	b = append(b, '"')
	if logger != "" {
		b = append(b, `,"logger":`...)
		b = jsonwire.AppendString(b, logger)
	}
	b = append(b, `,"data":`...)
	var err error
	if b, err = jsonwire.AppendValue(b, data); err != nil {
		*bp = b[:0]
		return fmt.Errorf("runtime: Log: encoding data: %w", err)
	}
	b = append(b, "}}"...)
	c.ss.write(c.id, false, b)
	*bp = b
	return nil
}
