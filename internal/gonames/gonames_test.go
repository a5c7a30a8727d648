package gonames

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/gen"
)

// settleGenerates settles the spec src and checks that it then has no
// finding, no collision left, and generates; it returns the settled
// mapping and the notes.
func settleGenerates(t *testing.T, src string) (*yaml.Node, []string) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	root, s, notes, diags, err := Settle("mcpgen.yaml", doc.Content[0])
	if err != nil || len(diags) > 0 || s == nil {
		t.Fatalf("err %v, findings %v", err, diags)
	}
	if api, _ := gen.PlanNames(s); len(api.Collisions) > 0 {
		t.Fatalf("collisions left after %d notes %q: %+v", len(notes), notes, api.Collisions)
	}
	if _, err := gen.Generate(s, gen.Options{}); err != nil {
		t.Fatalf("the settled spec does not generate: %v", err)
	}
	return root, notes
}

// TestSettle: every kind of collision the plan reports is settled by a
// goName (or goNames) where the plan says, and the spec then generates.
func TestSettle(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  Job:
    type: object
    properties:
      summary: {type: object, properties: {a: {type: string}}}
  JobSummary: {type: string}
  Color: {type: string, enum: [a-b, a_b, A B]}
tools:
  get-x:
    description: d
    input:
      properties:
        jsonSchema: {type: string}
        nodeId: {type: string}
        node_id: {type: string}
  get_x: {description: d}
  GetX: {description: d}
`
	root, notes := settleGenerates(t, src)
	out, _ := Encode(root)
	for _, want := range []string{"goName: Summary2", "goName: JSONSchema2", "goName: NodeID2", "goName: GetX2", "goName: GetX3", `a_b: AB2`, `A B: AB3`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the spec lacks %q:\n%s", want, out)
		}
	}
	if len(notes) != 7 {
		t.Errorf("%d notes, want 7: %q", len(notes), notes)
	}
}

// TestSettleAvoidsSpecWords: a new Go name is none the spec already spells,
// whether the plan has it yet or not: here the goName GetX2 of a tool, and
// the enum value AB2's constant suffix.
func TestSettleAvoidsSpecWords(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  Color: {type: string, enum: [a-b, a_b, AB2]}
tools:
  get-x: {description: d}
  get_x: {description: d}
prompts:
  p1: {description: d, goName: GetX2, arguments: {a1: {description: d}}}
resources:
  r1: {uri: 'test://r', description: d, goName: GetX3}
`
	root, _ := settleGenerates(t, src)
	out, _ := Encode(root)
	for _, want := range []string{"goName: GetX4", "a_b: AB3"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the spec lacks %q:\n%s", want, out)
		}
	}
}

// TestSettleAvoidsMethodNames: a new Go name is none the plan already
// gives a generated method, though the spec spells it nowhere (tool get-x2
// is method GetX2): get_x becomes GetX3, and get-x2, which collided with
// nothing, keeps its name; one note, for the one name given.
func TestSettleAvoidsMethodNames(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
tools:
  get-x: {description: d}
  get_x: {description: d}
  get-x2: {description: d}
`
	root, notes := settleGenerates(t, src)
	out, _ := Encode(root)
	if !strings.Contains(string(out), "get_x: {description: d, goName: GetX3}") || !strings.Contains(string(out), "get-x2: {description: d}\n") {
		t.Errorf("get_x should get goName GetX3 and get-x2 none:\n%s", out)
	}
	if len(notes) != 1 {
		t.Errorf("%d notes, want 1: %q", len(notes), notes)
	}
}

// TestSettleUntilNoCollision: a fix can make the next collision (here the
// goName GetX2 gives get_x's input and output the names of two types), and
// Settle goes on until the plan has none.
func TestSettleUntilNoCollision(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  GetX2Input: {type: string}
  GetX2Output: {type: string}
tools:
  get-x:
    description: d
    input: {properties: {a: {type: string}}}
  get_x:
    description: d
    input: {properties: {a: {type: string}}}
    output: {properties: {b: {type: string}}}
`
	_, notes := settleGenerates(t, src)
	if len(notes) < 2 {
		t.Errorf("%d notes, want the tool's goName and its input's and output's: %q", len(notes), notes)
	}
}

// TestEncodeByEntriesIsWhole: Encode's entry-by-entry text is the text of
// one encode of the whole document, for what specs hold (comments, block
// scalars with blank lines, quoted keys, flow and nested mappings).
func TestEncodeByEntriesIsWhole(t *testing.T) {
	for _, src := range []string{
		"# head\n# two lines\nmcpgen: 1\nserver: {name: s, version: '1'}\ntypes:\n  # shared schema #/x\n  A: {type: string}\n  B:\n    type: object\n    properties:\n      'y': {type: string}\ntools:\n  # from GET /x\n  get_x:\n    description: |-\n      one\n\n        indented\n\n      last\n    input: {properties: {a: {type: string}}}\n  \"yes\": {description: d}\n  true: {description: \" lead\"}\n",
		"a:\n  b:\n    - 1\n    - {c: d}\n  e: [1, 2]\nno:\n  x: 1\ntrue:\n  x: 1\nnull:\n  x: 1\n\"n\": {}\nz: ''\n",
		"a:\n  b: 1\n  # foot\n\nc: 2\n",
		// Every word YAML 1.1 reads as a boolean or null, as a key over a
		// mapping (the entries Encode splits), beside plain words near them.
		"y:\n  x: 1\nn:\n  x: 1\nyes:\n  x: 1\nno:\n  x: 1\non:\n  x: 1\noff:\n  x: 1\ntrue:\n  x: 1\nfalse:\n  x: 1\nnull:\n  x: 1\nonly:\n  x: 1\noffset:\n  x: 1\n",
		"a: 1 # line\nb:\n  c: |2\n     lead\n",
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		// Keys as an importer writes them: strings, whatever they read as.
		for i := 0; i < len(doc.Content[0].Content); i += 2 {
			if k := doc.Content[0].Content[i]; k.Style == 0 {
				k.Tag = "!!str"
			}
		}
		got, err := Encode(doc.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := encodeWhole(doc.Content[0])
		if string(got) != string(want) {
			t.Errorf("by entries:\n%s\nwhole:\n%s", got, want)
		}
	}
}

// TestSettleTextFindings: a spec that does not load is reported with the
// positions of its text, not of the tree it came from.
func TestSettleTextFindings(t *testing.T) {
	src := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  a: {description: d, input: {properties: {n: {type: integer, maximum: x}}}}\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	st, err := SettleText("mcpgen.yaml", doc.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Diags) != 1 || st.Diags[0].String() != "mcpgen.yaml:5:72: maximum must be a number" {
		t.Errorf("findings %v, want one at the maximum of the written text", st.Diags)
	}
}
