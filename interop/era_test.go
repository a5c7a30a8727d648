package interop

import "github.com/modelcontextprotocol/go-sdk/mcp"

// legacyEra makes the Go SDK client initialize a session at 2025-11-25
// instead of probing with server/discover: generated servers serve
// 2026-07-28 by default, and a v1.8 client left to itself picks it. The
// tests that use it check what only the legacy era has (sessions,
// logging/setLevel, resources/subscribe, -32002); modern_test.go checks the
// client's default, the modern era.
var legacyEra = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
