package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/internal/udiff"
)

// CheckCurrent fails t unless the committed file at path holds got, the
// bytes its one source renders now, and shows how they differ as a
// unified diff; with update it rewrites the file first (its directory
// too). how says how to rewrite it, for the failure message.
func CheckCurrent(t testing.TB, path string, got []byte, update bool, how string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, how)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale (%s):\n%s", path, how, udiff.Unified(path+" (committed)", path+" (now)", string(want), string(got)))
	}
}
