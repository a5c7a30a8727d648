package runtime

import "time"

// A graceful shutdown drains a session: the calls in flight may finish and
// have their responses written, while no new call starts. Notifications and
// responses are still handled meanwhile: the client may cancel a call, or
// answer a question a handler asked it.

// codeShuttingDown answers a call that arrives while the server shuts down
// (JSON-RPC's range for server errors).
const codeShuttingDown = -32000

var errShuttingDown = &Error{Code: codeShuttingDown, Message: "the server is shutting down and starts no new calls; retry on a new connection"}

// defaultStdioShutdownTimeout is how long Serve lets stdio calls finish.
const defaultStdioShutdownTimeout = 10 * time.Second

// WithStdioShutdownTimeout makes a cancelled context a graceful shutdown
// of ServeStdio: calls that arrive from then on are refused (error -32000),
// the calls in flight get d to finish and have their responses written,
// then the rest are cancelled. Without it ServeStdio cancels them at once.
// Serve, which mains call, shuts down gracefully in any case (10s unless
// this option says otherwise). d ≤ 0 keeps the default.
func WithStdioShutdownTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.stdioShutdown = d
		}
	}
}

// StopCalls makes the session refuse calls from now on (error -32000);
// notifications and answers to the server's requests are still handled.
func (ss *Session) StopCalls() {
	ss.mu.Lock()
	ss.draining = true
	ss.mu.Unlock()
}

// Drain stops new calls from starting and returns a channel closed once no
// call is in flight. Calls start under ss.mu, which StopCalls takes to set
// the flag: none is added to ss.wg after it returns, so waiting on it is
// safe.
func (ss *Session) Drain() <-chan struct{} {
	ss.StopCalls()
	idle := make(chan struct{})
	go func() {
		ss.wg.Wait()
		close(idle)
	}()
	return idle
}
