// Command genspec writes the benchmark's large inputs: an mcpgen spec of N
// tools (-spec FILE), and N distinct Go types registered by the registration
// benchmark (-types FILE, package bench).
//
//	go run ./cmd/genspec -n 1000 -spec /tmp/big/mcpgen.yaml
//	go run ./cmd/genspec -n 1000 -types tools1000_test.go
package main

import (
	"flag"
	"fmt"
	"go/format"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/bigspec"
)

func main() {
	n := flag.Int("n", 1000, "number of tools")
	specFile := flag.String("spec", "", "write an mcpgen spec of n tools to this file")
	pkg := flag.String("pkg", "bigmcp", "the spec's Go package (and output directory)")
	typesFile := flag.String("types", "", "write n Go input/output types (package bench) to this file")
	flag.Parse()
	if *specFile == "" && *typesFile == "" {
		fmt.Fprintln(os.Stderr, "genspec: nothing to do; pass -spec FILE and/or -types FILE")
		os.Exit(2)
	}
	if *specFile != "" {
		if err := os.WriteFile(*specFile, bigspec.Spec(*n, *pkg), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genspec:", err)
			os.Exit(1)
		}
	}
	if *typesFile != "" {
		src, err := format.Source(bigspec.Types(*n, "bench"))
		if err == nil {
			err = os.WriteFile(*typesFile, src, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "genspec:", err)
			os.Exit(1)
		}
	}
}
