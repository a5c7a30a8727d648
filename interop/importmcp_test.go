package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/mcpimport"
	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// The round trip of `mcpgen import mcp`: import a real server's lists,
// generate Go from the imported spec, serve it (the generated
// UnimplementedHandler: this is about the lists), list it, and compare
// every item with the original's:
//
//   - exact: JSON-equal (keys in any order);
//   - equivalent: equal once each inputSchema and outputSchema is in
//     mcpimport.EquivalentForm (definitions expanded, null spellings and
//     additionalProperties: true as JSON Schema reads them, $schema
//     dropped, numbers as numbers, required sorted, and required: [],
//     properties: {} and items: {} dropped: each accepts what its
//     absence accepts);
//   - different: anything else, printed as a diff.
//
// A difference or a raw schema fails the test unless it is listed below
// with its reason.

// knownDifferent are the items that may come back different, with why.
var knownDifferent = map[string]string{}

// knownRaw are the tools whose schema stays raw, with the keyword that
// forces it.
var knownRaw = map[string]string{
	"gosdk/json_schema_2020_12_tool.inputSchema": "allOf with if/then/else: required properties that depend on another's value, which no typed Go struct says",
}

type importSource struct {
	name string
	opts mcpimport.Options
}

func TestImportMCPRoundTrip(t *testing.T) {
	node := needNode(t)
	nodeModules, err := filepath.Abs(filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"server-everything", "server-filesystem"} {
		if _, err := os.Stat(filepath.Join(nodeModules, pkg, "package.json")); err != nil {
			unavailable(t, "interop/node/node_modules has no @modelcontextprotocol/"+pkg)
		}
	}
	tmp := t.TempDir()
	fsRoot := filepath.Join(tmp, "files")
	if err := os.Mkdir(fsRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	sources := []importSource{
		{"everything", mcpimport.Options{Command: []string{node, filepath.Join(nodeModules, "server-everything", "dist", "index.js")}}},
		{"filesystem", mcpimport.Options{Command: []string{node, filepath.Join(nodeModules, "server-filesystem", "dist", "index.js"), fsRoot}}},
		{"gosdk", mcpimport.Options{URL: "http://" + startGoSDKEverything(t, tmp) + "/"}},
	}

	ctx := context.Background()
	mcpgen := buildMcpgen(t, tmp)
	module := filepath.Join(tmp, "roundtrip")
	originals := map[string]*mcpimport.Lists{}
	bareNames := map[string]*mcpimport.Lists{}
	raw := map[string]string{}
	for _, src := range sources {
		// What a client with every capability is shown, with what each
		// item a bare client is not shown needs (requires:).
		lists, err := mcpimport.Probe(ctx, src.opts)
		if err != nil {
			t.Fatalf("%s: listing the original: %v", src.name, err)
		}
		originals[src.name] = lists
		if bareNames[src.name], err = mcpimport.List(ctx, src.opts); err != nil {
			t.Fatalf("%s: listing the original as a bare client: %v", src.name, err)
		}
		res, err := mcpimport.FromLists(lists, mcpimport.Options{Package: src.name + "mcp"})
		if err != nil {
			t.Fatalf("%s: import: %v", src.name, err)
		}
		for _, n := range res.Notes {
			t.Logf("%s: note: %s", src.name, n)
		}
		for _, r := range res.Raw {
			raw[src.name+"/"+r] = "raw"
		}
		specFile := filepath.Join(module, src.name+".yaml")
		if err := os.MkdirAll(module, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(specFile, res.YAML, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(mcpgen, "generate", "-f", specFile, "-o", filepath.Join(module, src.name+"mcp")).CombinedOutput(); err != nil {
			t.Fatalf("%s: mcpgen generate: %v\n%s\nthe imported spec:\n%s", src.name, err, out, res.YAML)
		}
	}
	for r := range raw {
		if why, ok := knownRaw[r]; ok {
			t.Logf("raw schema, as listed: %s (%s)", r, why)
		} else {
			t.Errorf("raw schema not listed in knownRaw: %s", r)
		}
	}
	bin := buildRoundTrip(t, module, sources)

	for _, src := range sources {
		generated := mcpimport.Options{Command: []string{bin, src.name}}
		got, err := mcpimport.ListAs(ctx, generated, mcpimport.FullCapabilities)
		if err != nil {
			t.Fatalf("%s: listing the generated server: %v", src.name, err)
		}
		bare, err := mcpimport.List(ctx, generated)
		if err != nil {
			t.Fatalf("%s: listing the generated server as a bare client: %v", src.name, err)
		}
		if diff := cmp.Diff(names(bareNames[src.name]), names(bare)); diff != "" {
			t.Errorf("%s: a bare client is shown other items (-original +generated):\n%s", src.name, diff)
		}
		orig := originals[src.name]
		var summary []string
		for _, l := range []struct {
			name      string
			orig, got []json.RawMessage
		}{
			{"tools", orig.Tools, got.Tools},
			{"resources", orig.Resources, got.Resources},
			{"templates", orig.Templates, got.Templates},
			{"prompts", orig.Prompts, got.Prompts},
		} {
			counts := compareList(t, src.name, l.name, l.orig, l.got)
			summary = append(summary, fmt.Sprintf("%s %d/%d/%d", l.name, counts[exact], counts[equivalent], counts[different]))
		}
		t.Logf("%s (exact/equivalent/different): %s; raw schemas %d; %d items need a client capability (a bare client is shown %d tools of %d)",
			src.name, strings.Join(summary, ", "), countPrefix(raw, src.name+"/"), len(orig.Requires), len(bare.Tools), len(got.Tools))
	}
}

// names lists the names of each list's items, in order.
func names(l *mcpimport.Lists) [4][]string {
	var out [4][]string
	for i, items := range [][]json.RawMessage{l.Tools, l.Resources, l.Templates, l.Prompts} {
		for _, it := range items {
			var head struct{ Name string }
			json.Unmarshal(it, &head)
			out[i] = append(out[i], head.Name)
		}
	}
	return out
}

func countPrefix(m map[string]string, prefix string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

// repoRoot is the main module's directory.
func repoRoot() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(here))
}

// buildMcpgen builds this checkout's mcpgen command.
func buildMcpgen(t *testing.T, tmp string) string {
	t.Helper()
	bin := filepath.Join(tmp, "mcpgen")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcpgen")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building mcpgen: %v\n%s", err, out)
	}
	return bin
}

// startGoSDKEverything builds and starts the official Go SDK's conformance
// server (the version this module requires) over Streamable HTTP.
func startGoSDKEverything(t *testing.T, tmp string) string {
	t.Helper()
	bin := filepath.Join(tmp, "gosdk-everything")
	build := exec.Command("go", "build", "-o", bin, "github.com/modelcontextprotocol/go-sdk/conformance/everything-server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the Go SDK's conformance server: %v\n%s", err, out)
	}
	for attempt := 0; attempt < 3; attempt++ {
		addr := testproc.FreeAddr(t)
		var out testproc.Buffer
		cmd := exec.Command(bin, "-http", addr)
		cmd.Stdout, cmd.Stderr = &out, &out
		if _, err := testproc.Start(t, cmd, "gosdk everything-server", &out, os.Interrupt, addr); err == nil {
			return addr
		} else if !strings.Contains(out.String(), "address already in use") {
			t.Fatalf("gosdk everything-server: %v\n%s", err, out.String())
		}
	}
	t.Fatal("gosdk everything-server: no free port after 3 attempts")
	return ""
}

// buildRoundTrip builds one binary serving each generated package over
// stdio (its argument names the source), in a module of its own that
// requires this checkout of mcpgen.
func buildRoundTrip(t *testing.T, module string, sources []importSource) string {
	t.Helper()
	repo := repoRoot()
	goMod := fmt.Sprintf("module roundtrip\n\ngo 1.26.8\n\nrequire github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\nreplace github.com/mcpgen/mcpgen => %s\n", repo)
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var imports, cases strings.Builder
	for _, s := range sources {
		fmt.Fprintf(&imports, "\t%q\n", "roundtrip/"+s.name+"mcp")
		fmt.Fprintf(&cases, "\tcase %q:\n\t\tsrv = %smcp.NewServer(%smcp.UnimplementedHandler{})\n", s.name, s.name, s.name)
	}
	main := fmt.Sprintf(`package main

import (
	"context"
	"os"

	"github.com/mcpgen/mcpgen/runtime"

%s)

func main() {
	var srv *runtime.Server
	switch os.Args[1] {
%s	}
	if err := runtime.Serve(context.Background(), srv, ""); err != nil {
		os.Exit(1)
	}
}
`, imports.String(), cases.String())
	for name, data := range map[string][]byte{"go.mod": []byte(goMod), "go.sum": sum, "main.go": []byte(main)} {
		if err := os.WriteFile(filepath.Join(module, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(module, "roundtrip")
	build := exec.Command("go", "build", "-mod=mod", "-o", bin, ".")
	build.Dir = module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated servers: %v\n%s", err, out)
	}
	return bin
}

const (
	exact      = mcpimport.Exact
	equivalent = mcpimport.Equivalent
	different  = mcpimport.Different
)

// compareList pairs the items of one list by name and classifies each.
func compareList(t *testing.T, server, list string, orig, got []json.RawMessage) [3]int {
	t.Helper()
	var counts [3]int
	byName := func(items []json.RawMessage) (map[string]json.RawMessage, []string) {
		m := map[string]json.RawMessage{}
		var names []string
		for _, it := range items {
			var head struct{ Name string }
			json.Unmarshal(it, &head)
			m[head.Name] = it
			names = append(names, head.Name)
		}
		return m, names
	}
	o, names := byName(orig)
	g, gotNames := byName(got)
	for _, n := range gotNames {
		if _, ok := o[n]; !ok {
			t.Errorf("%s %s: %q is listed by the generated server only", server, list, n)
		}
	}
	if !reflect.DeepEqual(names, gotNames) && len(names) == len(gotNames) {
		t.Logf("%s %s: the order differs: %q, then %q", server, list, names, gotNames)
	}
	for _, n := range names {
		key := server + "/" + list + "/" + n
		gv, ok := g[n]
		if !ok {
			t.Errorf("%s: missing from the generated server's list", key)
			counts[different]++
			continue
		}
		v, diff := classify(o[n], gv)
		counts[v]++
		if v == equivalent && testing.Verbose() {
			t.Logf("%s: equivalent (-original +generated, before EquivalentForm):\n%s", key, cmp.Diff(mcpimport.DecodeItem(o[n]), mcpimport.DecodeItem(gv)))
		}
		if v == different {
			if why, ok := knownDifferent[key]; ok {
				t.Logf("%s: different, as listed (%s)", key, why)
			} else {
				t.Errorf("%s: different (-original +generated):\n%s", key, diff)
			}
		}
	}
	return counts
}

// classify compares two items of a list, with a diff when they differ.
func classify(orig, got json.RawMessage) (mcpimport.Verdict, string) {
	v := mcpimport.Compare(orig, got)
	if v != different {
		return v, ""
	}
	return v, cmp.Diff(mcpimport.EquivalentForm(mcpimport.DecodeItem(orig)), mcpimport.EquivalentForm(mcpimport.DecodeItem(got)))
}
