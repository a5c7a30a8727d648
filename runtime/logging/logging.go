// Package logging holds the severities of MCP's log messages
// (server/utilities/logging.mdx, notifications/message), the message's wire
// encoding and a slog.Handler that turns slog records into such messages.
//
// Which client a message goes to, and the level a session or a request sends
// from (logging/setLevel, or a 2026-07-28 request's _meta), are package
// runtime's: runtime.Log sends one message, runtime.Logger and
// runtime.NewSlogHandler give handlers a slog.Logger over it, and runtime
// names Level and its values LogLevel, LevelDebug, … LevelEmergency.
package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// Level is the severity of a log message sent to the client, as in syslog
// (RFC 5424).
type Level string

// The levels, least severe first.
const (
	LevelDebug     Level = "debug"
	LevelInfo      Level = "info"
	LevelNotice    Level = "notice"
	LevelWarning   Level = "warning"
	LevelError     Level = "error"
	LevelCritical  Level = "critical"
	LevelAlert     Level = "alert"
	LevelEmergency Level = "emergency"
)

var levels = [...]Level{LevelDebug, LevelInfo, LevelNotice, LevelWarning, LevelError, LevelCritical, LevelAlert, LevelEmergency}

// DefaultRank is the rank a session sends from until the client sets a
// level: info's. MCP leaves the default to the server; info keeps debug
// chatter off the wire and lets a client that never calls logging/setLevel
// see what matters.
const DefaultRank = 1

// Silent is a threshold above every level's rank: nothing is sent.
const Silent = len(levels)

// Rank orders levels from 0 (debug); -1 for a string that is not a level.
func (l Level) Rank() int {
	for i, x := range levels {
		if x == l {
			return i
		}
	}
	return -1
}

// AppendMessage appends the notification {level, logger, data} to dst;
// logger "" is left out, and data is any JSON-encodable value (a
// json.RawMessage goes as it is). On an encoding error what it appended is
// cut off again.
func AppendMessage(dst []byte, level Level, logger string, data any) ([]byte, error) {
	b := append(dst, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"`...)
	b = append(b, level...)
	b = append(b, '"')
	if logger != "" {
		b = append(b, `,"logger":`...)
		b = jsonwire.AppendString(b, logger)
	}
	b = append(b, `,"data":`...)
	b, err := jsonwire.AppendValue(b, data)
	if err != nil {
		return b[:len(dst)], err
	}
	return append(b, "}}"...), nil
}

// Sink receives the records of a handler made by NewSlogHandler.
type Sink interface {
	// Enabled reports whether a record of level l would be sent.
	Enabled(l Level) bool
	// Log sends one message; data is the record as a JSON object.
	Log(l Level, data json.RawMessage) error
}

// NewSlogHandler returns a slog.Handler that sends each record to s, which
// may be nil (records then go nowhere). The data is a JSON object with the
// message under "msg" and the attributes as slog.JSONHandler writes them
// (groups nest); time and level are left out (the level travels as the
// message's level, by SlogLevel). Records s does not enable are not
// encoded at all.
func NewSlogHandler(s Sink) slog.Handler {
	sink := &slogSink{to: s}
	sink.json = slog.NewJSONHandler(sink, &slog.HandlerOptions{
		Level: slog.LevelDebug - 4, // Enabled below decides
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			return a
		},
	})
	return &slogHandler{sink: sink, json: sink.json}
}

// slogHandler encodes records with a slog.JSONHandler (attributes, groups
// and LogValuers as slog users expect) that writes to the sink.
type slogHandler struct {
	sink *slogSink
	json slog.Handler // sink.json, or derived from it by WithAttrs/WithGroup
}

// slogSink receives the JSONHandler's output: one Write per record, made
// while Handle holds mu, so that level is the record's.
type slogSink struct {
	to    Sink
	json  slog.Handler
	mu    sync.Mutex
	level Level
}

func (h *slogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.sink.to != nil && h.sink.to.Enabled(SlogLevel(l))
}

func (h *slogHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.Enabled(ctx, r.Level) {
		return nil
	}
	h.sink.mu.Lock()
	defer h.sink.mu.Unlock()
	h.sink.level = SlogLevel(r.Level)
	return h.json.Handle(ctx, r)
}

func (h *slogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &slogHandler{sink: h.sink, json: h.json.WithAttrs(as)}
}

func (h *slogHandler) WithGroup(name string) slog.Handler {
	return &slogHandler{sink: h.sink, json: h.json.WithGroup(name)}
}

func (s *slogSink) Write(p []byte) (int, error) {
	if s.to == nil {
		return len(p), nil
	}
	data := json.RawMessage(bytes.TrimRight(p, "\n"))
	return len(p), s.to.Log(s.level, data)
}

// SlogLevel maps a slog level to MCP's: below Info → debug, Info → info,
// Info+2 → notice, Warn → warning, Error → error, Error+4 → critical,
// Error+8 → alert, Error+12 and above → emergency.
func SlogLevel(l slog.Level) Level {
	switch {
	case l < slog.LevelInfo:
		return LevelDebug
	case l < slog.LevelInfo+2:
		return LevelInfo
	case l < slog.LevelWarn:
		return LevelNotice
	case l < slog.LevelError:
		return LevelWarning
	case l < slog.LevelError+4:
		return LevelError
	case l < slog.LevelError+8:
		return LevelCritical
	case l < slog.LevelError+12:
		return LevelAlert
	}
	return LevelEmergency
}
