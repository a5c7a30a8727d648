// Command mcpgen generates typed Go MCP servers from a YAML spec. See
// docs/README.md for the spec language and the commands.
package main

import (
	"os"

	"github.com/mcpgen/mcpgen/internal/cli"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
