package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
)

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
	sink := &slogSink{call: reqFrom(ctx)}
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
	call  *call
	json  slog.Handler
	mu    sync.Mutex
	level LogLevel
}

func (h *slogHandler) Enabled(_ context.Context, l slog.Level) bool {
	c := h.sink.call
	return c != nil && int32(slogLevel(l).rank()) >= c.ss.logLevel.Load()
}

func (h *slogHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.Enabled(ctx, r.Level) {
		return nil
	}
	h.sink.mu.Lock()
	defer h.sink.mu.Unlock()
	h.sink.level = slogLevel(r.Level)
	return h.json.Handle(ctx, r)
}

func (h *slogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &slogHandler{sink: h.sink, json: h.json.WithAttrs(as)}
}

func (h *slogHandler) WithGroup(name string) slog.Handler {
	return &slogHandler{sink: h.sink, json: h.json.WithGroup(name)}
}

func (s *slogSink) Write(p []byte) (int, error) {
	if s.call == nil {
		return len(p), nil
	}
	data := json.RawMessage(bytes.TrimRight(p, "\n"))
	return len(p), Log(s.call, s.level, "", data)
}

func slogLevel(l slog.Level) LogLevel {
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
