package streamhttp

import "github.com/mcpgen/mcpgen/runtime/transport"

// EventStoreOf is the event store h uses.
func EventStoreOf(h *Handler) transport.EventStore { return h.cfg.store }

// RateLimited is rateLimited, for the test of its encoding.
var RateLimited = rateLimited
