package otelenv

import (
	"context"
	"errors"
	"log/slog"
	"os"

	"go.opentelemetry.io/contrib/bridges/otelslog"
	"go.opentelemetry.io/otel/log"
)

// serverLogger is the server's logger (runtime.WithLogger) when
// OpenTelemetry is set up: what the runtime's default logger writes to
// stderr (Warn and above), and every record from Info up to lp, through the
// otelslog bridge.
func serverLogger(service string, lp log.LoggerProvider) *slog.Logger {
	stderr := slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})
	bridge := otelslog.NewHandler(service, otelslog.WithLoggerProvider(lp))
	return slog.New(both{stderr, minLevel{bridge, slog.LevelInfo}})
}

// both sends each record to two handlers.
type both [2]slog.Handler

func (b both) Enabled(ctx context.Context, l slog.Level) bool {
	return b[0].Enabled(ctx, l) || b[1].Enabled(ctx, l)
}

func (b both) Handle(ctx context.Context, r slog.Record) error {
	var errs []error
	for _, h := range b {
		if h.Enabled(ctx, r.Level) {
			errs = append(errs, h.Handle(ctx, r.Clone()))
		}
	}
	return errors.Join(errs...)
}

func (b both) WithAttrs(attrs []slog.Attr) slog.Handler {
	return both{b[0].WithAttrs(attrs), b[1].WithAttrs(attrs)}
}

func (b both) WithGroup(name string) slog.Handler {
	return both{b[0].WithGroup(name), b[1].WithGroup(name)}
}

// minLevel drops the records of h below level.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.level && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{m.Handler.WithAttrs(attrs), m.level}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{m.Handler.WithGroup(name), m.level}
}
