package lint

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/internal/findings"
	"github.com/mcpgen/mcpgen/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/*/want.*")

func load(t *testing.T, path string) *spec.Spec {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("mcpgen.yaml", data)
	if len(diags) > 0 {
		t.Fatalf("%s does not load:\n%s", path, diags.Error())
	}
	return s
}

// TestGolden lints testdata/<case>/mcpgen.yaml and compares each format's
// output with want.txt, want.json and want.github. `go test ./internal/lint
// -update` rewrites them.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/*")
	if len(dirs) < 3 {
		t.Fatalf("%d cases", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := Lint(load(t, filepath.Join(dir, "mcpgen.yaml")), Options{})
			for format, file := range map[findings.Format]string{
				findings.Text: "want.txt", findings.JSON: "want.json", findings.GitHubActions: "want.github",
			} {
				var buf bytes.Buffer
				if err := r.Write(&buf, format); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, file)
				if *update {
					os.WriteFile(path, buf.Bytes(), 0o644)
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/lint -update)", err)
				}
				if diff := cmp.Diff(string(want), buf.String()); diff != "" {
					t.Errorf("%s (-want +got):\n%s", file, diff)
				}
			}
		})
	}
}

// TestEveryRuleFires: the findings case reports every rule, and the clean
// case none.
func TestEveryRuleFires(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Lint(load(t, "testdata/findings/mcpgen.yaml"), Options{}).Findings {
		seen[f.Rule] = true
	}
	for _, r := range Rules {
		if !seen[r.ID] {
			t.Errorf("rule %s never fires in testdata/findings", r.ID)
		}
	}
	if fs := Lint(load(t, "testdata/clean/mcpgen.yaml"), Options{}).Findings; len(fs) > 0 {
		t.Errorf("clean case: %v", fs)
	}
}

// TestDisabling: lint.disable silences a rule everywhere; x-lint-disable on
// the items; a named type shared by two tools stays reported unless both
// disable the rule.
func TestDisabling(t *testing.T) {
	var got []string
	for _, f := range Lint(load(t, "testdata/disabled/mcpgen.yaml"), Options{}).Findings {
		got = append(got, f.Rule+" "+strings.SplitN(f.Message, " ", 4)[1]+" "+strings.SplitN(f.Message, " ", 4)[2])
	}
	want := []string{
		`OBJECT_OPEN "Meta" accepts`,        // audit does not disable it
		`STRING_UNBOUNDED_ID "order_id" of`, // tag does not disable it
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestOptionsOverrideSpec(t *testing.T) {
	s := load(t, "testdata/findings/mcpgen.yaml")
	for _, f := range Lint(s, Options{MaxTools: 10, MaxListItems: 10}).Findings {
		if f.Rule == "TOO_MANY_TOOLS" || f.Rule == "RESOURCE_LIST_LARGE" {
			t.Errorf("limit not overridden: %s", f)
		}
	}
}

func TestRulesMatchSpec(t *testing.T) {
	var ids []string
	for _, r := range Rules {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, spec.LintRuleIDs) {
		t.Errorf("lint.Rules %v\nspec.LintRuleIDs %v", ids, spec.LintRuleIDs)
	}
}

// TestReadmeDocumentsRules: each rule has a row in the table of
// docs/cli.md.
func TestReadmeDocumentsRules(t *testing.T) {
	data, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		if !bytes.Contains(data, []byte("| `"+r.ID+"` |")) {
			t.Errorf("docs/cli.md has no row for lint rule %s", r.ID)
		}
	}
}

func TestIsIdentifierName(t *testing.T) {
	for name, want := range map[string]bool{
		"id": true, "order_id": true, "customerId": true, "userID": true, "sku": true, "callback_url": true,
		"slugs": true, "api_key": true, "zip_code": true, "email": true,
		"name": false, "idea": false, "keyboard": false, "description": false, "identity": false,
	} {
		if got := IsIdentifierName(name); got != want {
			t.Errorf("IsIdentifierName(%q) = %v", name, got)
		}
	}
}

// TestBudgetNearTheWire: the estimate of each tools/list entry is within a
// third of what the runtime really sends (golden/*/wire.json), so the
// budget speaks of the right order of magnitude.
func TestBudgetNearTheWire(t *testing.T) {
	paths, _ := filepath.Glob("../../golden/*/wire.json")
	checked := 0
	for _, wirePath := range paths {
		var wire struct {
			Tools struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"tools/list"`
		}
		data, _ := os.ReadFile(wirePath)
		if err := json.Unmarshal(data, &wire); err != nil {
			t.Fatal(err)
		}
		s := load(t, filepath.Join(filepath.Dir(wirePath), "mcpgen.yaml"))
		for i, raw := range wire.Tools.Tools {
			var compact bytes.Buffer
			json.Compact(&compact, raw)
			est, _ := json.Marshal(ToolEntry(s, s.Tools[i]))
			ratio := float64(len(est)) / float64(compact.Len())
			if ratio < 0.67 || ratio > 1.5 {
				t.Errorf("%s tool %s: estimated %d bytes, the wire has %d", wirePath, s.Tools[i].Name, len(est), compact.Len())
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d tools checked", checked)
	}
}

// TestUnboundedIDBounds: each of the four bounds alone quiets
// STRING_UNBOUNDED_ID, on the property and through a $ref; an id with none
// is reported.
func TestUnboundedIDBounds(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: 1.0.0}
go: {package: p}
types:
  Slug: {type: string, maxLength: 40}
tools:
  find:
    description: Find an order by one of its identifiers.
    input:
      properties:
        by_pattern_id: {type: string, pattern: '^[a-z]+$'}
        by_enum_id: {enum: [a, b]}
        by_format_id: {type: string, format: uuid}
        by_length_id: {type: string, maxLength: 64}
        slug: {$ref: Slug}
        free_id: {type: string}
`
	s, diags := spec.Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, f := range Lint(s, Options{}).Findings {
		if f.Rule == "STRING_UNBOUNDED_ID" {
			got = append(got, f.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], `"free_id"`) {
		t.Errorf("STRING_UNBOUNDED_ID findings %q, want one, for free_id", got)
	}
}

// TestBudgetByToolset: the breakdown adds up — what is in no toolset plus
// each (disjoint) toolset is every list, and what is served at start is
// what is in no toolset plus the default toolsets — and the text report
// shows a line per toolset.
func TestBudgetByToolset(t *testing.T) {
	s := load(t, "../../golden/toolsets/mcpgen.yaml")
	b := Estimate(s)
	ts := b.Toolsets
	if ts == nil || len(ts.Sets) != 2 || !ts.Dynamic {
		t.Fatalf("toolsets: %+v", ts)
	}
	issues, repos := ts.Sets[0], ts.Sets[1]
	if issues.Name != "issues" || !issues.Default || issues.Count != 3 || repos.Name != "repos" || repos.Default || repos.Count != 4 {
		t.Errorf("sets: %+v", ts.Sets)
	}
	if ts.Always.Count != 1 || ts.AtStart.Count != 4 {
		t.Errorf("always %+v, at start %+v", ts.Always, ts.AtStart)
	}
	near := func(a, b int) bool { return a-b <= 3 && b-a <= 3 } // each total is rounded up once
	all := b.Tools.Tokens + b.Prompts.Tokens + b.Resources.Tokens + b.Templates.Tokens
	// repos has exposure: search: it costs the three search tools in place
	// of its two tools.
	x := repos.Search
	if x == nil || x.Hidden != 2 || x.Tokens < 200 { // the three search tools: 278 tokens since issue 33
		t.Fatalf("repos' search exposure: %+v", x)
	}
	if sum := ts.Always.Tokens + issues.Tokens + repos.Tokens - x.Tokens + x.HiddenTokens; !near(sum, all) {
		t.Errorf("always + toolsets = %d tokens, every list %d", sum, all)
	}
	if !near(ts.AtStart.Tokens, ts.Always.Tokens+issues.Tokens) {
		t.Errorf("at start %d tokens, always + issues %d", ts.AtStart.Tokens, ts.Always.Tokens+issues.Tokens)
	}
	var out bytes.Buffer
	b.WriteText(&out)
	for _, line := range []string{"By toolset", "(in no toolset)", "issues", "served by default", "repos", "at start", "with exposure: search, the 3 search tools"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the report lacks %q:\n%s", line, out.String())
		}
	}

	// Served at start, a search-exposed toolset costs the three search
	// tools once, and its tools are not counted.
	data, err := os.ReadFile("../../golden/toolsets/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("mcpgen.yaml", []byte(strings.Replace(string(data), "enabled: [issues]", "enabled: [issues, repos]", 1)))
	if len(diags) > 0 {
		t.Fatal(diags.Error())
	}
	ts = Estimate(s).Toolsets
	if want := ts.Always.Tokens + ts.Sets[0].Tokens + ts.Sets[1].Tokens; !near(ts.AtStart.Tokens, want) || ts.AtStart.Count != 1+3+(4-2+3) {
		t.Errorf("at start with repos: %+v, want %d tokens, 9 items", ts.AtStart, want)
	}
	if Estimate(load(t, "../../golden/requires/mcpgen.yaml")).Toolsets != nil {
		t.Error("a spec without toolsets has a breakdown")
	}
}

// TestSearchExposureBudget: with server.exposure: search, many tools are
// not TOO_MANY_TOOLS, and the budget shows what tools/list then costs: the
// three search tools.
func TestSearchExposureBudget(t *testing.T) {
	for _, exposure := range []string{"all", "search"} {
		var b strings.Builder
		b.WriteString("mcpgen: 1\nserver: {name: s, version: 1.0.0, exposure: " + exposure + "}\ngo: {package: p}\ntools:\n")
		for i := range 4 {
			b.WriteString("  tool_" + string(rune('a'+i)) + ": {description: Does one thing of several.}\n")
		}
		s, diags := spec.Load("mcpgen.yaml", []byte(b.String()))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		r := Lint(s, Options{MaxTools: 3})
		tooMany := slices.ContainsFunc(r.Findings, func(f findings.Finding) bool { return f.Rule == "TOO_MANY_TOOLS" })
		if tooMany != (exposure == "all") {
			t.Errorf("exposure %s: TOO_MANY_TOOLS reported: %v", exposure, tooMany)
		}
		e := r.Budget.Exposure
		if exposure == "all" {
			if e != nil {
				t.Errorf("exposure all: budget exposure %+v", e)
			}
			continue
		}
		if e == nil || e.Hidden != 4 || len(e.Listed) != 3 || e.Tokens < 200 || e.Tokens > 700 {
			t.Fatalf("exposure search: budget exposure %+v", e)
		}
		var text bytes.Buffer
		r.Budget.WriteText(&text)
		if !strings.Contains(text.String(), "with exposure: search, tools/list shows 3 tools for") {
			t.Errorf("budget text:\n%s", text.String())
		}
	} // A toolset with exposure: search takes its tools out of the count,
	// unless a toolset that lists them has them too.
	for _, tc := range []struct {
		sets    string
		tooMany bool
	}{
		{"{s: {exposure: search, tools: [tool_a, tool_b]}}", false},
		{"{s: {exposure: all, tools: [tool_a, tool_b]}}", true},
		{"{s: {exposure: search, tools: [tool_a, tool_b]}, l: {tools: [tool_a, tool_b]}}", true},
	} {
		src := "mcpgen: 1\nserver: {name: s, version: 1.0.0}\ngo: {package: p}\ntoolsets: " + tc.sets + "\ntools:\n"
		for i := range 4 {
			src += "  tool_" + string(rune('a'+i)) + ": {description: Does one thing of several.}\n"
		}
		s, diags := spec.Load("mcpgen.yaml", []byte(src))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		r := Lint(s, Options{MaxTools: 3})
		if tooMany := slices.ContainsFunc(r.Findings, func(f findings.Finding) bool { return f.Rule == "TOO_MANY_TOOLS" }); tooMany != tc.tooMany {
			t.Errorf("toolsets %s: TOO_MANY_TOOLS reported: %v", tc.sets, tooMany)
		}
	}
}
