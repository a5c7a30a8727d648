package openapi

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestReimport and TestGoldenImports")

// TestReimport: a spec imported from v1.yaml and curated by hand
// (curated.yaml: list_notes renamed notes, get_note's and create_note's
// descriptions edited, create_note given a permission, delete_note
// removed, a type Health and a tool ping added) re-imported from v2.yaml
// (a new query parameter, a new body property, a new operation, a new
// property of Note, get_note's description changed upstream). The edits
// survive, the upstream changes land, and both are reported: golden files
// want.yaml and want-changes.txt (go test ./internal/openapi -run
// TestReimport -update rewrites them).
func TestReimport(t *testing.T) {
	dir := filepath.Join("testdata", "reimport")
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	first, err := Import(read("v1.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lock, err := first.Lock()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Reimport(read("curated.yaml"), lock, read("v2.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSpec(t, "reimported", res.YAML)
	changes := strings.Join(res.Changes, "\n") + "\n"
	if *update {
		os.WriteFile(filepath.Join(dir, "want.yaml"), res.YAML, 0o644)
		os.WriteFile(filepath.Join(dir, "want-changes.txt"), []byte(changes), 0o644)
	}
	if want := string(read("want.yaml")); string(res.YAML) != want {
		t.Errorf("re-imported spec:\n%s\nwant:\n%s", res.YAML, want)
	}
	if want := string(read("want-changes.txt")); changes != want {
		t.Errorf("changes:\n%s\nwant:\n%s", changes, want)
	}

	// Once more with the same description: nothing changed upstream, and
	// delete_note stays removed (the new lock remembers it).
	lock2, _ := res.Lock()
	again, err := Reimport(res.YAML, lock2, read("v2.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(again.YAML) != string(res.YAML) {
		t.Errorf("a second re-import of the same description changed the spec:\n%s", again.YAML)
	}
	if len(again.Changes) != 1 || !strings.HasPrefix(again.Changes[0], "kept your curation: tools renamed 1, edited 2, removed 1, added 1; types added 1") {
		t.Errorf("second re-import changes: %q", again.Changes)
	}
	if _, err := json.Marshal(lock2); err != nil {
		t.Fatal(err)
	}
}
