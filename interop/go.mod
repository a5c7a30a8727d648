module github.com/mcpgen/mcpgen/interop

go 1.26.8

require github.com/mcpgen/mcpgen v0.0.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
)

replace github.com/mcpgen/mcpgen => ../
