package mcpimport

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the recorded listings")

// TestRecordedServers imports each recorded listing of testdata/servers
// (what a real server listed, recorded by interop's
// TestRecordImportFixtures; synthetic-*.json are crafted for shapes no
// recorded server shows, and say so) and compares the spec, byte for
// byte, with testdata/golden/NAME.yaml and what the import reported
// (protocol, counts, raw schemas, notes) with NAME.notes.txt. The
// imported spec must load and generate. `go test ./internal/mcpimport
// -update` rewrites the goldens: review their diff.
func TestRecordedServers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "servers", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded listings: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var lists Lists
			if err := json.Unmarshal(data, &lists); err != nil {
				t.Fatal(err)
			}
			res, err := FromLists(&lists, Options{})
			if err != nil {
				t.Fatal(err)
			}
			const how = "go test ./internal/mcpimport -run TestRecordedServers -update"
			dir := filepath.Join("testdata", "golden")
			testenv.CheckCurrent(t, filepath.Join(dir, name+".yaml"), res.YAML, *update, how)
			testenv.CheckCurrent(t, filepath.Join(dir, name+".notes.txt"), []byte(report(res)), *update, how)
			s, diags := spec.Load(name+".yaml", res.YAML)
			if len(diags) > 0 {
				t.Fatalf("the imported spec does not load:\n%v", diags)
			}
			if _, err := gen.Generate(s, gen.Options{}); err != nil {
				t.Errorf("the imported spec does not generate: %v", err)
			}
		})
	}
}

// report is what an import says besides the spec, one item a line.
func report(res *Result) string {
	var b strings.Builder
	c := res.Counts
	fmt.Fprintf(&b, "protocol: %s\ncounts: %d tools, %d resources, %d templates, %d prompts\n", res.Protocol, c.Tools, c.Resources, c.Templates, c.Prompts)
	for _, r := range res.Raw {
		fmt.Fprintf(&b, "raw: %s\n", r)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
