// Package interop holds the tests that drive mcpgen-generated servers with
// other MCP implementations: the official Go SDK's client (over stdio and
// Streamable HTTP), the official TypeScript SDK's client (node/sdk-*.mjs,
// over both transports) and the MCP Inspector's CLI. It is its own module
// so that the main module never requires a peer SDK.
//
// The Node.js peers are pinned in node/package-lock.json; setup.sh installs
// them (npm ci). Without them, or without Node, their tests skip, except
// under CI (CI set), where they fail.
package interop
