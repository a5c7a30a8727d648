package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportOpenAPI runs mcpgen import openapi as a user would: a fresh
// import writes the spec and its lock, the spec generates, a second import
// without a lock is refused, and a re-import into the curated spec prints
// the upstream changes.
func TestImportOpenAPI(t *testing.T) {
	testdata, _ := filepath.Abs("../openapi/testdata")
	dir := t.TempDir()
	code, stdout, stderr := run(t, dir, "import", "openapi", "-tag", "pet", filepath.Join(testdata, "petstore-3.0.json"))
	if code != ExitOK || !strings.Contains(stderr, "8 tools from 20 operations written to mcpgen.yaml") {
		t.Fatalf("import: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, f := range []string{"mcpgen.yaml", "mcpgen.openapi-lock.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if code, _, stderr := run(t, dir, "generate"); code != ExitOK {
		t.Fatalf("generate the imported spec: exit %d\n%s", code, stderr)
	}
	// A spec without a lock is not overwritten.
	os.WriteFile(filepath.Join(dir, "other.yaml"), []byte("mcpgen: 1\n"), 0o644)
	code, _, stderr = run(t, dir, "import", "openapi", "-o", "other.yaml", filepath.Join(testdata, "petstore-3.0.json"))
	if code != ExitUsage || !strings.Contains(stderr, "pass -force") {
		t.Errorf("overwriting a spec without a lock: exit %d\n%s", code, stderr)
	}

	// Re-import: the curated spec of internal/openapi's golden test.
	reimport := filepath.Join(testdata, "reimport")
	code, _, stderr = run(t, dir, "import", "openapi", "-o", "notes.yaml", filepath.Join(reimport, "v1.yaml"))
	if code != ExitOK {
		t.Fatalf("import v1: %s", stderr)
	}
	curated, _ := os.ReadFile(filepath.Join(reimport, "curated.yaml"))
	os.WriteFile(filepath.Join(dir, "notes.yaml"), curated, 0o644)
	code, stdout, stderr = run(t, dir, "import", "openapi", "-o", "notes.yaml", filepath.Join(reimport, "v2.yaml"))
	want, _ := os.ReadFile(filepath.Join(reimport, "want-changes.txt"))
	if code != ExitOK || stdout != string(want) {
		t.Errorf("re-import: exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, stdout, want, stderr)
	}

	code, _, stderr = run(t, dir, "import", "openapi", "-o", "-", filepath.Join(testdata, "no-such.json"))
	if code != ExitInternal || !strings.Contains(stderr, "no-such.json") {
		t.Errorf("a missing file: exit %d\n%s", code, stderr)
	}
}
