// Package testenv is what the tests of this module share about where they
// run: which tests build whole modules with the go command, and whether
// the race detector is on. test.sh runs those tests once, in its builds
// stage, without -race.
package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// BuildsModules marks a test that builds a generated or scaffolded module
// with the go command in a child process. It skips the test under -short,
// without a go command, and under -race: the child build is not
// instrumented, so the race detector adds nothing but a slower test binary
// and a test that can outlive its timeout on a loaded machine. test.sh's
// builds stage runs these tests without -race; the name of such a test
// ends in "Builds" so that the stage's -run pattern finds it.
func BuildsModules(t testing.TB) {
	t.Helper()
	if name, _, _ := strings.Cut(t.Name(), "/"); !strings.HasSuffix(name, "Builds") {
		t.Fatalf("%s builds modules, so its name must end in Builds (test.sh's builds stage runs -run 'Builds$')", name)
	}
	if testing.Short() {
		t.Skip("builds a module with the go command; not in -short")
	}
	if Race {
		t.Skip("builds a module with the go command; not under -race (test.sh's builds stage runs it without)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
}
