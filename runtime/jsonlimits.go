package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/streamhttp"
)

// Bounds on the work one message can cause before any map is built
// (issue 22, item 4). Decoding JSON into maps costs about 250 bytes of heap
// per object member, so 300,000 members in a 3.5 MB message cost 75 MB and
// most of a second; the message's size alone does not bound that. Every
// message is counted first (one pass over its bytes, no allocation) and
// refused when it holds too many values or too wide an object. Over HTTP,
// messages with many values also take one of a few slots while they are
// served (WithMaxLargeRequests), so that the server's memory is bounded
// whatever number of them arrive at once.

const (
	defaultMaxJSONValues    = 100_000
	defaultMaxObjectMembers = 10_000
)

// jsonLimits bound the shape of one incoming message.
type jsonLimits struct {
	values  int // values in the whole message (WithMaxJSONValues)
	members int // members of any one object (WithMaxObjectMembers)
}

// checkWidth counts msg's values and refuses it beyond the limits; it
// returns the count.
func (l jsonLimits) checkWidth(msg []byte) (int, *Error) {
	values, widest := jsonwire.Width(msg, l.values, l.members)
	switch {
	case widest > l.members:
		return values, errorf(CodeInvalidRequest, "invalid request: an object in the message has more than %d members, the most this server accepts (WithMaxObjectMembers)", l.members)
	case values > l.values:
		return values, errorf(CodeInvalidRequest, "invalid request: the message holds more than %d JSON values, the most this server accepts (WithMaxJSONValues)", l.values)
	}
	return values, nil
}

// WithMaxJSONValues caps the JSON values one incoming message may hold:
// objects, arrays, strings, numbers and literals, each member and item
// counted (default 100,000). A message holding more is refused with an
// invalid-request error (400 over HTTP) before anything is built from it.
// n < 1 keeps the default.
func WithMaxJSONValues(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.json.values = n
		}
	}
}

// WithMaxObjectMembers caps the members of any one JSON object in an
// incoming message (default 10,000): tool arguments, inputResponses, _meta
// and the rest alike. A message with a wider object is refused with an
// invalid-request error (400 over HTTP) before any map is built from it.
// n < 1 keeps the default.
func WithMaxObjectMembers(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.json.members = n
		}
	}
}

// WithMaxLargeRequests caps how many large messages (more than 10,000 JSON
// values) the HTTP transport serves at once (default 4); one more gets 503
// Service Unavailable with Retry-After and a JSON-RPC error. Small messages
// are never held up. n < 1 keeps the default.
func WithMaxLargeRequests(n int) HTTPOption { return streamhttp.WithMaxLargeRequests(n) }
