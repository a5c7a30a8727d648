// Package interop holds the tests that drive mcpgen-generated servers with
// other MCP implementations: the official Go SDK's client (over stdio and
// Streamable HTTP), the official TypeScript SDK's client (v1:
// node/sdk-*.mjs; v2: node/sdk2-*.mjs; over both transports) and the MCP
// Inspector's CLI. The eras_*_test.go tests run the Go SDK and the
// TypeScript SDK v2 clients in both protocol eras (2025-11-25 with
// initialize, 2026-07-28 stateless) against the same handlers; scaleout/
// runs replicas behind nginx; prism_test.go runs a server scaffolded with
// mcpgen init -openapi against Stoplight Prism (prism/). It is its own
// module so that the main module never requires a peer SDK.
//
// The Node.js peers are pinned in node/package-lock.json; setup.sh installs
// them (npm ci). Without them, or without Node, their tests skip, except
// under CI (CI set), where they fail.
package interop
