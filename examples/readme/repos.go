package main

// repo is a repository whose README the server knows.
type repo struct {
	Owner, Name string
	Summary     string // one line, for readme://index
	Readme      string // Markdown
}

// knownRepos is the server's small catalogue, in index order. A real server
// would fetch READMEs; this one keeps them in memory, so the example runs
// offline and its tests are deterministic.
var knownRepos = []repo{
	{Owner: "golang", Name: "go", Summary: "The Go programming language.", Readme: `# The Go Programming Language

Go is an open source programming language that makes it simple to build
secure, scalable systems.

## Download and install

Binary distributions are available at https://go.dev/dl/. To build from
source, see https://go.dev/doc/install/source.

## Contributing

Go is the work of thousands of contributors. See the contribution guide at
https://go.dev/doc/contribute before sending a change.
`},
	{Owner: "golang", Name: "tools", Summary: "Go tools: gopls, static analysis and more.", Readme: `# Go Tools

This repository holds tools and packages that support the Go programming
language, among them gopls (the Go language server) and the analysis
framework that go vet is built on.

## Install a tool

    go install golang.org/x/tools/gopls@latest
`},
	{Owner: "modelcontextprotocol", Name: "go-sdk", Summary: "The official Go SDK for the Model Context Protocol.", Readme: `# MCP Go SDK

The official Go SDK for the Model Context Protocol: clients and servers,
stdio and Streamable HTTP transports, typed tools.

## Example

    client := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1.0.0"}, nil)
    session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("server")}, nil)
`},
	{Owner: "modelcontextprotocol", Name: "modelcontextprotocol", Summary: "The MCP specification and its documentation.", Readme: `# Model Context Protocol

The specification of the Model Context Protocol, its JSON schema and the
documentation site. Revisions are dated: 2025-11-25 is the current one.
`},
	{Owner: "mcpgen", Name: "mcpgen", Summary: "A generator of typed Go MCP servers from a YAML spec.", Readme: `# mcpgen

mcpgen turns a declarative YAML spec of an MCP server into a working, typed
Go server: one Handler interface to implement, schemas derived from Go
types, and a runtime that speaks MCP over stdio.

    go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
`},
	{Owner: "invopop", Name: "jsonschema", Summary: "JSON Schemas reflected from Go types.", Readme: `# jsonschema

Generate JSON Schemas from Go types through reflection, with struct tags
for constraints and descriptions.
`},
}
