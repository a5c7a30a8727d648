package interop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcpimport"
)

// fixturesDir holds the recorded listings of internal/mcpimport's golden
// test (TestRecordedServers): what each real server of the round trip
// lists, as mcpimport.Probe read it.
const fixturesDir = "../internal/mcpimport/testdata/servers"

// TestRecordImportFixtures rewrites those recordings from the servers
// themselves when MCPGEN_RECORD_IMPORT_FIXTURES=1 (then run `go test
// ./internal/mcpimport -update` and review both diffs); otherwise it
// skips: the recordings are inputs, kept as the servers sent them.
func TestRecordImportFixtures(t *testing.T) {
	if os.Getenv("MCPGEN_RECORD_IMPORT_FIXTURES") != "1" {
		t.Skip("set MCPGEN_RECORD_IMPORT_FIXTURES=1 to record the listings of internal/mcpimport's golden test")
	}
	sources := importSources(t, t.TempDir())
	lists := make([]*mcpimport.Lists, len(sources))
	errs := make([]error, len(sources))
	forEach(len(sources), func(i int) {
		lists[i], errs[i] = mcpimport.Probe(context.Background(), sources[i].opts)
	})
	for i, src := range sources {
		if errs[i] != nil {
			t.Errorf("%s: %v", src.name, errs[i])
			continue
		}
		b, err := json.MarshalIndent(lists[i], "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fixturesDir, src.name+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
