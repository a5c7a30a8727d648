package hostile

import (
	"context"
	"log/slog"
	"sync"
)

// Watch is a slog.Handler that keeps what the runtime logs at level Error
// or above: recovered panics (its own, or a handler's), results that could
// not be encoded, outputs that do not match their schema. Under hostile
// input every one of them is a bug.
type Watch struct {
	mu   sync.Mutex
	errs []string
}

// Logger returns a logger that writes to w.
func (w *Watch) Logger() *slog.Logger { return slog.New(w) }

// Take returns what was logged since the last call, and forgets it.
func (w *Watch) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.errs
	w.errs = nil
	return out
}

func (w *Watch) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (w *Watch) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		msg += " " + a.Key + "=" + a.Value.String()
		return true
	})
	if len(msg) > 2000 {
		msg = msg[:2000] + "…"
	}
	w.mu.Lock()
	w.errs = append(w.errs, msg)
	w.mu.Unlock()
	return nil
}

func (w *Watch) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *Watch) WithGroup(string) slog.Handler      { return w }
