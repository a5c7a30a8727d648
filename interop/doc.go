// Package interop holds the tests that drive mcpgen-generated servers with
// other MCP implementations (the official Go SDK's client). It is its own
// module so that the main module never requires a peer SDK.
package interop
