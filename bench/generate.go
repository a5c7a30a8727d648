// Package bench compares mcpgen's runtime with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) and mcp-go
// (github.com/mark3labs/mcp-go) on the same three tools. It is its own module
// so that the main go.mod never requires a peer SDK. See BENCHMARKS.md.
package bench

//go:generate go run ../cmd/mcpgen generate -f mcpgen.yaml
//go:generate go run ./cmd/genspec -n 1000 -types tools1000_test.go
