package testenv

import (
	"fmt"
	"testing"
)

// TestBuildsModulesNeedsItsName: a test that builds modules but is not
// named …Builds would never run in test.sh's builds stage, so it fails.
func TestBuildsModulesNeedsItsName(t *testing.T) {
	ft := &fakeT{name: "TestSomething"}
	func() {
		defer func() { recover() }()
		BuildsModules(ft)
	}()
	if !ft.fatal {
		t.Error("BuildsModules accepted a test named TestSomething")
	}
	ok := &fakeT{name: "TestOrdersBuilds/sub"}
	func() {
		defer func() { recover() }()
		BuildsModules(ok)
	}()
	if ok.fatal {
		t.Errorf("BuildsModules refused TestOrdersBuilds/sub: %s", ok.msg)
	}
}

// fakeT records what BuildsModules does to a test; Fatalf and Skip stop
// it as the real ones do (by panicking here, recovered above).
type fakeT struct {
	testing.TB
	name  string
	fatal bool
	msg   string
}

func (f *fakeT) Helper()      {}
func (f *fakeT) Name() string { return f.name }
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = true
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}
func (f *fakeT) Skip(args ...any) { panic("skip") }
