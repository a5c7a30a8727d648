package testenv

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// CheckCurrent fails t unless the committed file at path holds got, the
// bytes its one source renders now; with update it rewrites the file
// first. how says how to rewrite it, for the failure message.
func CheckCurrent(t testing.TB, path string, got []byte, update bool, how string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale (%s); -committed +now:\n%s", path, how, cmp.Diff(string(want), string(got)))
	}
}
