package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
)

// Implementation names a client or a server (MCP's Implementation).
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an icon for a server, tool, resource or prompt.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"` // "light" or "dark"
}

// Protocol revisions this runtime speaks, newest first. An initialize asking
// for anything else is answered with the newest (lifecycle.mdx: the client
// then decides whether to disconnect).
var supportedVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

const latestVersion = "2025-11-25"

// Option configures a Server.
type Option func(*config)

type config struct {
	instructions   string
	pageSize       int
	logger         *slog.Logger
	maxMessageSize int
}

const (
	defaultPageSize       = 1000
	defaultMaxMessageSize = 4 << 20
)

// WithInstructions sets the instructions returned by initialize: how to use
// the server, as a hint for the model.
func WithInstructions(text string) Option { return func(c *config) { c.instructions = text } }

// WithPageSize sets how many items a list method returns per page (default
// 1000). n < 1 keeps the default.
func WithPageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.pageSize = n
		}
	}
}

// WithLogger sets where the server logs (default: text to os.Stderr at level
// Warn). The server never logs to stdout, which belongs to the protocol.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithMaxMessageSize caps the size of one incoming message in bytes (default
// 4 MiB). A longer message is answered with an invalid-request error and
// skipped. n < 1 keeps the default.
func WithMaxMessageSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxMessageSize = n
		}
	}
}

// Server holds what a server offers (its tools, later resources and
// prompts) and serves any number of sessions over any transport. Register
// everything before serving; a Server is safe for concurrent use by its
// sessions.
type Server struct {
	info Implementation
	cfg  config

	mu     sync.Mutex // guards tools and byName
	tools  []*toolEntry
	byName map[string]*toolEntry
	// snap is an immutable view of the tools for the request path, rebuilt
	// lazily after AddTool, so serving never takes a lock.
	snap atomic.Pointer[toolSnapshot]

	workers *workers // goroutines for requests, shared by the sessions
}

// NewServer returns a server that introduces itself as info.
func NewServer(info Implementation, opts ...Option) *Server {
	s := &Server{
		info:    info,
		byName:  make(map[string]*toolEntry),
		workers: newWorkers(),
		cfg: config{
			pageSize:       defaultPageSize,
			maxMessageSize: defaultMaxMessageSize,
		},
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	if s.cfg.logger == nil {
		s.cfg.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return s
}

// capabilities returns the server capabilities for initialize: only what is
// registered is advertised.
func (s *Server) capabilities() json.RawMessage {
	if len(s.toolSnapshot().list) > 0 {
		return json.RawMessage(`{"tools":{}}`)
	}
	return json.RawMessage(`{}`)
}

// logger returns the logger of the server serving ctx, or slog.Default() when
// a handler runs outside a session (e.g. called directly by a test).
func logger(ctx context.Context) *slog.Logger {
	if c := reqFrom(ctx); c != nil {
		return c.ss.srv.cfg.logger
	}
	return slog.Default()
}
