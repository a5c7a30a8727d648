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
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/mcpimport"
	"github.com/mcpgen/mcpgen/interop/internal/testproc"
)

// The round trip of `mcpgen import mcp`: import a real server's lists
// (server-everything and server-filesystem from interop/node, the Go
// SDK's conformance server over HTTP, and the npmServers of
// interop/mcpservers, started four at a time),
// generate Go from the imported spec, serve it (the generated
// UnimplementedHandler: this is about the lists), list it, and compare
// every item with the original's:
//
//   - exact: JSON-equal (keys in any order);
//   - equivalent: equal once each inputSchema and outputSchema is in
//     mcpimport.EquivalentForm (definitions expanded, null spellings and
//     additionalProperties: true as JSON Schema reads them, $schema
//     dropped, numbers as numbers, required sorted, and required: [],
//     properties: {}, items: {} and propertyNames: {type: string}
//     dropped: each accepts what its absence accepts; an inputSchema
//     without a type is type: object, as MCP's arguments are; a prompt's
//     arguments: [] is none), each equivalent server's line saying why
//     its items are not exact, cause by cause (mcpimport.Difference);
//   - different: anything else, printed as a diff.
//
// A difference or a raw schema fails the test unless it is listed below
// with its reason, and so does a listed one that no longer occurs. The
// list capabilities (tools, resources, prompts, completions) each server
// declares must be the original's too.

// knownDifferent are the items that may come back different, with why.
// An entry that no longer applies fails the test: the list says what is.
var knownDifferent = map[string]string{}

// knownRaw are the tools whose schema stays raw, with the keyword that
// forces it. An entry that no longer applies fails the test.
var knownRaw = map[string]string{
	"gosdk/json_schema_2020_12_tool.inputSchema": "allOf with if/then/else: required properties that depend on another's value, which no typed Go struct says",
}

// mcpServersDir holds the real MCP servers from npm that the round trip
// imports (package.json and package-lock.json pin them; interop/setup.sh
// installs them).
const mcpServersDir = "mcpservers"

// npmServers are those servers: each starts and lists offline over stdio,
// a placeholder standing in for the key it asks for (none is used: only
// initialize and the list methods are called).
var npmServers = []struct {
	name, bin string
	args, env []string
}{
	{name: "memory", bin: "mcp-server-memory", env: []string{"MEMORY_FILE_PATH=" + filepath.Join(os.TempDir(), "mcpgen-roundtrip-memory.jsonl")}},
	{name: "thinking", bin: "mcp-server-sequential-thinking"},
	{name: "github", bin: "mcp-server-github", env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=placeholder"}},
	{name: "gitlab", bin: "mcp-server-gitlab", env: []string{"GITLAB_PERSONAL_ACCESS_TOKEN=placeholder"}},
	{name: "slack", bin: "mcp-server-slack", env: []string{"SLACK_BOT_TOKEN=xoxb-placeholder", "SLACK_TEAM_ID=T00000000"}},
	{name: "brave", bin: "mcp-server-brave-search", env: []string{"BRAVE_API_KEY=placeholder"}},
	{name: "maps", bin: "mcp-server-google-maps", env: []string{"GOOGLE_MAPS_API_KEY=placeholder"}},
	{name: "everart", bin: "mcp-server-everart", env: []string{"EVERART_API_KEY=placeholder"}},
	{name: "playwright", bin: "playwright-mcp"},
	{name: "context7", bin: "context7-mcp"},
	{name: "firecrawl", bin: "firecrawl-mcp", env: []string{"FIRECRAWL_API_KEY=fc-placeholder"}},
	{name: "notion", bin: "notion-mcp-server", env: []string{"NOTION_TOKEN=ntn_placeholder"}},
	{name: "tavily", bin: "tavily-mcp", env: []string{"TAVILY_API_KEY=tvly-placeholder"}},
	{name: "exa", bin: "exa-mcp-server", env: []string{"EXA_API_KEY=placeholder"}},
	// Beyond tools: a resource, a resource template and a prompt (git), and
	// MCP Apps servers whose app tools and ui:// resources only a client
	// with the extension is shown (pdf, sysmon).
	{name: "chromedevtools", bin: "chrome-devtools-mcp"},
	{name: "git", bin: "git-mcp-server"},
	{name: "pdf", bin: "mcp-pdf-server", args: []string{"--stdio"}},
	{name: "sysmon", bin: "mcp-system-monitor-server", args: []string{"--stdio"}},
	{name: "awskb", bin: "mcp-server-aws-kb-retrieval", env: []string{"AWS_ACCESS_KEY_ID=placeholder", "AWS_SECRET_ACCESS_KEY=placeholder", "AWS_REGION=us-east-1"}},
}

type importSource struct {
	name string
	opts mcpimport.Options
}

// imported is what the round trip learnt of one source.
type imported struct {
	orig, bare *mcpimport.Lists // as a client with every capability, and as a bare one
	raw        []string
	err        error
}

// parallelism bounds the servers started at once (each is a Node process).
const parallelism = 4

// importSources are the servers the round trip imports (tmp holds the
// filesystem server's root and the Go SDK server's build); it skips, or
// fails under CI, when the npm peers are missing.
func importSources(t *testing.T, tmp string) []importSource {
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
	fsRoot := filepath.Join(tmp, "files")
	if err := os.Mkdir(fsRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	sources := []importSource{
		{"everything", mcpimport.Options{Command: []string{node, filepath.Join(nodeModules, "server-everything", "dist", "index.js")}}},
		{"filesystem", mcpimport.Options{Command: []string{node, filepath.Join(nodeModules, "server-filesystem", "dist", "index.js"), fsRoot}}},
		{"gosdk", mcpimport.Options{URL: "http://" + startGoSDKEverything(t, tmp) + "/"}},
	}
	for _, s := range npmServers {
		script, err := filepath.EvalSymlinks(filepath.Join(mcpServersDir, "node_modules", ".bin", s.bin))
		if err != nil {
			unavailable(t, "interop/mcpservers/node_modules has no "+s.bin)
		}
		sources = append(sources, importSource{s.name, mcpimport.Options{Command: append([]string{node, script}, s.args...), Env: s.env}})
	}
	return sources
}

func TestImportMCPRoundTrip(t *testing.T) {
	tmp := t.TempDir()
	sources := importSources(t, tmp)

	mcpgen := buildMcpgen(t, tmp)
	module := filepath.Join(tmp, "roundtrip")
	if err := os.MkdirAll(module, 0o755); err != nil {
		t.Fatal(err)
	}
	results := make([]imported, len(sources))
	forEach(len(sources), func(i int) {
		results[i] = importOne(sources[i], mcpgen, module)
	})
	raw := map[string]bool{}
	var built []importSource
	for i, src := range sources {
		r := results[i]
		if r.err != nil {
			t.Errorf("%s: %v", src.name, r.err)
			continue
		}
		for _, n := range r.raw {
			raw[src.name+"/"+n] = true
		}
		built = append(built, src)
	}
	for r := range raw {
		if why, ok := knownRaw[r]; ok {
			t.Logf("raw schema, as listed: %s (%s)", r, why)
		} else {
			t.Errorf("raw schema not listed in knownRaw: %s", r)
		}
	}
	for r := range knownRaw {
		if !raw[r] {
			t.Errorf("knownRaw lists %s, which is typed now: take it out", r)
		}
	}
	if len(built) == 0 {
		t.FailNow()
	}
	bin := buildRoundTrip(t, module, built)

	reports := make([]serverReport, len(sources))
	forEach(len(sources), func(i int) {
		if results[i].err == nil {
			reports[i] = compareServer(t, sources[i].name, bin, results[i], raw)
		}
	})
	seen := map[string]bool{}
	var total [3]int
	reasons := map[string]int{}
	for i := range sources {
		if reports[i].line != "" {
			t.Log(reports[i].line)
		}
		for k := range reports[i].differed {
			seen[k] = true
		}
		for v, n := range reports[i].counts {
			total[v] += n
		}
		for r, n := range reports[i].reasons {
			reasons[r] += n
		}
	}
	summary := fmt.Sprintf("all %d servers (exact/equivalent/different): %d/%d/%d items; raw schemas %d", len(sources), total[exact], total[equivalent], total[different], len(raw))
	for _, r := range sortedKeys(reasons) {
		summary += fmt.Sprintf("\n\tnot exact: %d items: %s", reasons[r], r)
	}
	t.Log(summary)
	for k := range knownDifferent {
		if !seen[k] {
			t.Errorf("knownDifferent lists %s, which no longer differs: take it out", k)
		}
	}
}

// forEach runs f(0) … f(n-1), parallelism at a time.
func forEach(n int, f func(i int)) {
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}

// importOne lists a source (as a client with every capability, which says
// what each item needs with requires:, and as a bare one), imports it and
// generates its package.
func importOne(src importSource, mcpgen, module string) imported {
	ctx := context.Background()
	var r imported
	var err error
	if r.orig, err = mcpimport.Probe(ctx, src.opts); err != nil {
		return imported{err: fmt.Errorf("listing the original: %w", err)}
	}
	if r.bare, err = mcpimport.List(ctx, src.opts); err != nil {
		return imported{err: fmt.Errorf("listing the original as a bare client: %w", err)}
	}
	res, err := mcpimport.FromLists(r.orig, mcpimport.Options{Package: src.name + "mcp"})
	if err != nil {
		return imported{err: fmt.Errorf("import: %w", err)}
	}
	r.raw = res.Raw
	specFile := filepath.Join(module, src.name+".yaml")
	if err := os.WriteFile(specFile, res.YAML, 0o644); err != nil {
		return imported{err: err}
	}
	if out, err := exec.Command(mcpgen, "generate", "-f", specFile, "-o", filepath.Join(module, src.name+"mcp")).CombinedOutput(); err != nil {
		return imported{err: fmt.Errorf("mcpgen generate: %v\n%s\nnotes:\n%s\nthe imported spec:\n%s", err, out, strings.Join(res.Notes, "\n"), res.YAML)}
	}
	return r
}

// compareServer lists the generated server of one source and compares it
// with the original, item by item; it returns the summary line and the
// knownDifferent keys that matched.
// serverReport is what compareServer found: the summary line, the
// knownDifferent keys that matched, the items of each verdict and the
// causes of the inexact ones (how many items each).
type serverReport struct {
	line     string
	differed map[string]bool
	counts   [3]int
	reasons  map[string]int
}

func compareServer(t *testing.T, name, bin string, r imported, raw map[string]bool) serverReport {
	ctx := context.Background()
	generated := mcpimport.Options{Command: []string{bin, name}}
	got, err := mcpimport.ListAs(ctx, generated, mcpimport.FullCapabilities)
	if err != nil {
		t.Errorf("%s: listing the generated server: %v", name, err)
		return serverReport{}
	}
	bare, err := mcpimport.List(ctx, generated)
	if err != nil {
		t.Errorf("%s: listing the generated server as a bare client: %v", name, err)
		return serverReport{}
	}
	if diff := cmp.Diff(names(r.bare, name), names(bare, "")); diff != "" {
		t.Errorf("%s: a bare client is shown other items (-original +generated):\n%s", name, diff)
	}
	if o, g := listCapabilities(r.orig), listCapabilities(got); !reflect.DeepEqual(o, g) {
		t.Errorf("%s: the generated server declares the list capabilities %q, the original %q", name, g, o)
	}
	orig := r.orig
	differed := map[string]bool{}
	reasons := map[string]int{} // why items are equivalent, not exact: how many items each
	var all [3]int
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
		counts := compareList(t, name, l.name, l.orig, l.got, differed, reasons)
		for v, n := range counts {
			all[v] += n
		}
		summary = append(summary, fmt.Sprintf("%s %d/%d/%d", l.name, counts[exact], counts[equivalent], counts[different]))
	}
	n := 0
	for k := range raw {
		if strings.HasPrefix(k, name+"/") {
			n++
		}
	}
	line := fmt.Sprintf("%s (exact/equivalent/different): %s; raw schemas %d; %d items need a client capability (a bare client is shown %d tools of %d)",
		name, strings.Join(summary, ", "), n, len(orig.Requires), len(bare.Tools), len(got.Tools))
	for _, r := range sortedKeys(reasons) {
		line += fmt.Sprintf("\n\tnot exact: %d items: %s", reasons[r], r)
	}
	return serverReport{line, differed, all, reasons}
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// onlyDialectReason counts the items that differ by nothing but the
// $schema of an inputSchema or outputSchema root: one the spec does not
// take (draft-04, or on a root written as a $ref); a dialect it takes is
// kept and advertised as written.
const onlyDialectReason = "(of these, nothing but a root $schema)"

// itemReasons are the causes of the differences between two items, each
// once (mcpimport.Difference.Reason), and whether the only one is a root
// $schema.
func itemReasons(orig, got json.RawMessage) ([]string, bool) {
	seen := map[string]bool{}
	var out []string
	onlyDialect := true
	for _, d := range mcpimport.Differences(orig, got) {
		if d.Path != "inputSchema.$schema" && d.Path != "outputSchema.$schema" {
			onlyDialect = false
		}
		if r := d.Reason(); !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, onlyDialect && len(out) > 0
}

// listCapabilities are the capabilities a server declares that have lists
// or answers of their own.
func listCapabilities(l *mcpimport.Lists) []string {
	var out []string
	for _, c := range []string{"tools", "resources", "prompts", "completions"} {
		if _, ok := l.Capabilities[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// names lists the names of each list's items, in order; those of server
// that knownDifferent lists as left out of the import are not counted.
func names(l *mcpimport.Lists, server string) [4][]string {
	var out [4][]string
	for i, items := range [][]json.RawMessage{l.Tools, l.Resources, l.Templates, l.Prompts} {
		for _, it := range items {
			var head struct{ Name string }
			json.Unmarshal(it, &head)
			list := [...]string{"tools", "resources", "templates", "prompts"}[i]
			if _, left := knownDifferent[server+"/"+list+"/"+head.Name]; !left || server == "" {
				out[i] = append(out[i], head.Name)
			}
		}
	}
	return out
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
func compareList(t *testing.T, server, list string, orig, got []json.RawMessage, differed map[string]bool, reasons map[string]int) [3]int {
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
			counts[different]++
			if why, ok := knownDifferent[key]; ok {
				differed[key] = true
				t.Logf("%s: missing from the generated server's list, as listed (%s)", key, why)
			} else {
				t.Errorf("%s: missing from the generated server's list", key)
			}
			continue
		}
		v, diff := classify(o[n], gv)
		counts[v]++
		if v == equivalent {
			rs, onlyDialect := itemReasons(o[n], gv)
			for _, r := range rs {
				reasons[r]++
			}
			if onlyDialect {
				reasons[onlyDialectReason]++
			}
			if testing.Verbose() {
				t.Logf("%s: equivalent (-original +generated, before EquivalentForm):\n%s", key, cmp.Diff(mcpimport.DecodeItem(o[n]), mcpimport.DecodeItem(gv)))
			}
		}
		if v == different {
			listed := key
			if _, ok := knownDifferent[listed]; !ok {
				listed = server + "/" + list + "/*" // every item of the list
			}
			if why, ok := knownDifferent[listed]; ok {
				differed[listed] = true
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
