package gonames

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/settle/*.golden")

// TestSettleGolden settles each spec of testdata/settle (one kind of
// collision each, and one without) and compares the settled spec and the
// notes, in their order, byte for byte with NAME.golden; the settled spec
// must have no collision left and generate. `go test ./internal/gonames
// -run TestSettleGolden -update` rewrites the goldens: review their diff.
func TestSettleGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "settle", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root, notes := settleGenerates(t, string(src))
			out, err := Encode(root)
			if err != nil {
				t.Fatal(err)
			}
			got := string(out) + "--- notes\n"
			for _, n := range notes {
				got += n + "\n"
			}
			testenv.CheckCurrent(t, strings.TrimSuffix(file, ".yaml")+".golden", []byte(got), *update, "go test ./internal/gonames -run TestSettleGolden -update")
		})
	}
}
