package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/openapi"
	"github.com/mcpgen/mcpgen/spec"
)

// Result is what one description went through. A step that failed has
// its error; later steps did not run.
type Result struct {
	ID    string `json:"id"`    // the description's path under the directory's api/
	Bytes int    `json:"bytes"` // its size
	Pkg   string `json:"pkg"`   // the generated package's directory in the module ("": none)

	ImportErr   string `json:"importErr,omitempty"`
	Panic       string `json:"panic,omitempty"` // a panic of any step, with where
	GenerateErr string `json:"generateErr,omitempty"`
	BuildErr    string `json:"buildErr,omitempty"`

	Operations int      `json:"operations"`
	Tools      int      `json:"tools"`
	Bound      int      `json:"bound"`             // tools with an http binding
	Unbound    []string `json:"unbound,omitempty"` // the importer's note for each unbound operation
	Notes      int      `json:"notes"`

	// ImportCPU and ImportRSS are the worker process's CPU time and peak
	// resident memory at the end of the import (0 when it ran in-process).
	ImportCPU  time.Duration `json:"importCPU"`
	ImportWall time.Duration `json:"importWall"`
	ImportRSS  int64         `json:"importRSS"` // bytes
}

// Step names the last step a description passed.
func (r *Result) Imported() bool  { return r.ImportErr == "" && r.Panic == "" }
func (r *Result) Generated() bool { return r.Imported() && r.GenerateErr == "" && r.Pkg != "" }
func (r *Result) Built() bool     { return r.Generated() && r.BuildErr == "" }

// checkOne imports the description at path and generates its package into
// moduleDir/pkg; a panic anywhere is a result, not a crash of the run.
func checkOne(dir, id, moduleDir, pkg string, measure func(*Result)) (r *Result) {
	r = &Result{ID: id}
	defer func() {
		if v := recover(); v != nil {
			r.Panic = fmt.Sprintf("%v at %s", v, panicSite(debug.Stack()))
		}
	}()
	data, err := os.ReadFile(filepath.Join(dir, id))
	if err != nil {
		r.ImportErr = err.Error()
		return r
	}
	r.Bytes = len(data)
	start := time.Now()
	res, err := openapi.Import(data, openapi.Options{Package: pkg})
	r.ImportWall = time.Since(start)
	if measure != nil {
		measure(r)
	}
	if err != nil {
		r.ImportErr = err.Error()
		return r
	}
	r.Operations, r.Tools, r.Notes = res.Operations, len(res.Tools), len(res.Notes)
	for _, n := range res.Notes {
		if strings.Contains(n, ": no http binding (") {
			r.Unbound = append(r.Unbound, n)
		}
	}
	s, diags := spec.Load(id+".mcpgen.yaml", res.YAML)
	if len(diags) > 0 {
		r.GenerateErr = firstLines(diags.Error(), 3)
		return r
	}
	for _, t := range s.Tools {
		if t.HTTP != nil {
			r.Bound++
		}
	}
	files, err := gen.Generate(s, gen.Options{})
	if err != nil {
		r.GenerateErr = firstLines(err.Error(), 3)
		return r
	}
	out := filepath.Join(moduleDir, pkg)
	if err := os.MkdirAll(out, 0o755); err != nil {
		r.GenerateErr = err.Error()
		return r
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(out, f.Path), f.Bytes, 0o644); err != nil {
			r.GenerateErr = err.Error()
			return r
		}
	}
	r.Pkg = pkg
	return r
}

// panicSite is the first frame of a panic's stack inside mcpgen (beyond the
// runtime's and this runner's own frames).
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if strings.Contains(fn, "github.com/mcpgen/mcpgen/") && !strings.Contains(fn, "internal/openapi/corpus") && !strings.HasPrefix(fn, "panic(") {
			file := strings.TrimSpace(lines[i+1])
			if j := strings.Index(file, "mcpgen/"); j >= 0 {
				file = file[j:]
			}
			if j := strings.LastIndex(file, " +0x"); j >= 0 {
				file = file[:j]
			}
			return file
		}
	}
	return "unknown"
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

// pkgName is a Go package (and directory) name for a description id:
// amazonaws.com/ec2.json → amazonaws_com_ec2.
func pkgName(id string) string {
	id = strings.TrimSuffix(id, filepath.Ext(id))
	var b strings.Builder
	for _, c := range strings.ToLower(id) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return "p_" + b.String()
}

// writeModule makes moduleDir a module that requires the checkout at
// checkout (go.sum copied from it).
func writeModule(moduleDir, checkout string) error {
	if err := os.MkdirAll(moduleDir, 0o755); err != nil {
		return err
	}
	gomod := "module example.com/corpus\n\ngo 1.26.8\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + checkout + "\n"
	if err := os.WriteFile(filepath.Join(moduleDir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(moduleDir, "go.sum"), sum, 0o644)
}

// buildHeader starts the errors of one package in go build's output.
var buildHeader = regexp.MustCompile(`^# example\.com/corpus/(\S+)`)

// buildModule runs go build ./... once over every generated package (one
// module: the runtime compiles once) and sets each failing result's
// BuildErr from go build's output.
func buildModule(moduleDir string, results []*Result, parallel int) (time.Duration, error) {
	start := time.Now()
	cmd := exec.Command("go", "build", "-p", fmt.Sprint(parallel), "./...")
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err == nil {
		return took, nil
	}
	byPkg := map[string]*Result{}
	for _, r := range results {
		if r.Pkg != "" {
			byPkg[r.Pkg] = r
		}
	}
	var cur *Result
	var other []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := buildHeader.FindStringSubmatch(line); m != nil {
			cur = byPkg[strings.SplitN(m[1], "/", 2)[0]]
			continue
		}
		if cur == nil {
			other = append(other, line)
			continue
		}
		if strings.Count(cur.BuildErr, "\n") < 3 {
			if cur.BuildErr != "" {
				cur.BuildErr += "\n"
			}
			cur.BuildErr += line
		}
	}
	failed := 0
	for _, r := range results {
		if r.BuildErr != "" {
			failed++
		}
	}
	if failed == 0 {
		return took, fmt.Errorf("go build: %v\n%s", err, firstLines(strings.Join(other, "\n"), 20))
	}
	return took, nil
}

// checkout is the repository this runner is part of.
func checkout() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(here), "..", "..", ".."))
}

// listDescriptions is every .json and .yaml file under dir, sorted.
func listDescriptions(dir string) ([]string, error) {
	var ids []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".json" || ext == ".yaml" || ext == ".yml") {
			rel, _ := filepath.Rel(dir, path)
			ids = append(ids, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(ids)
	return ids, err
}
