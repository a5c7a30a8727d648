package gonames

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/spec"
)

// settledAPI settles src and returns the plan of the settled spec (which
// must generate) and the notes.
func settledAPI(t *testing.T, src string) (*gen.API, []string, *yaml.Node) {
	t.Helper()
	root, notes := settleGenerates(t, src)
	data, err := Encode(root)
	if err != nil {
		t.Fatal(err)
	}
	s, diags := spec.Load("mcpgen.yaml", data)
	if len(diags) > 0 {
		t.Fatalf("the settled text does not load: %v\n%s", diags, data)
	}
	api, diags := gen.PlanNames(s)
	if len(diags) > 0 || len(api.Collisions) > 0 {
		t.Fatalf("the settled text still has findings %v, collisions %+v", diags, api.Collisions)
	}
	return api, notes, root
}

// want is base, then base followed by the first free numbers from 2 (the
// numbers in skip are spelled elsewhere in the spec, so not free), n names
// in all, sorted.
func firstFree(base string, n int, skip map[int]bool) []string {
	names := []string{base}
	for i := 2; len(names) < n; i++ {
		if !skip[i] {
			names = append(names, fmt.Sprintf("%s%d", base, i))
		}
	}
	sort.Strings(names)
	return names
}

// TestSettleRandomCollisionsTakeFirstFreeNumbers: any set of tool names
// with one Go spelling (in any order, with Go names the spec already
// spells elsewhere) settles to a spec that generates, whose tools' Go
// names are the plain one and the first free numbers from 2, one note per
// name given.
func TestSettleRandomCollisionsTakeFirstFreeNumbers(t *testing.T) {
	spellings := []string{"get-x", "get_x", "GetX", "getX", "get.x", "Get-X", "get__x", "Get_X"}
	rng := rand.New(rand.NewSource(31))
	for trial := 0; trial < 40; trial++ {
		perm := rng.Perm(len(spellings))
		n := 2 + rng.Intn(len(spellings)-1)
		var b strings.Builder
		b.WriteString("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n")
		var wires []string
		for _, i := range perm[:n] {
			wires = append(wires, spellings[i])
			fmt.Fprintf(&b, "  %q: {description: d}\n", spellings[i])
		}
		// Go names spelled elsewhere (a prompt's goName) are not free.
		skip := map[int]bool{}
		prompts := 0
		for k := 2; k < 2+n; k++ {
			if rng.Intn(3) == 0 {
				skip[k] = true
				if prompts == 0 {
					b.WriteString("prompts:\n")
				}
				prompts++
				fmt.Fprintf(&b, "  p%d: {description: d, goName: GetX%d}\n", k, k)
			}
		}
		src := b.String()
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			api, notes, _ := settledAPI(t, src)
			var got []string
			for _, m := range api.Methods {
				if strings.HasPrefix(m.What, "tool ") {
					got = append(got, m.Name)
				}
			}
			sort.Strings(got)
			want := firstFree("GetX", n, skip)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("tools %q: Go names %q, want %q\n%s", wires, got, want, src)
			}
			if len(notes) != n-1 {
				t.Errorf("%d notes for %d names given: %q", len(notes), n-1, notes)
			}
		})
	}
}

// TestSettleRandomFieldCollisions: properties of one object whose Go
// field names collide (nodeId, node_id, node-id, …), in any order and
// number, settle to fields NodeID, NodeID2, … with the first free numbers.
func TestSettleRandomFieldCollisions(t *testing.T) {
	spellings := []string{"nodeId", "node_id", "node-id", "NodeID", "nodeID", "node.id", "Node_Id"}
	rng := rand.New(rand.NewSource(12))
	for trial := 0; trial < 30; trial++ {
		perm := rng.Perm(len(spellings))
		n := 2 + rng.Intn(len(spellings)-1)
		var b strings.Builder
		b.WriteString("mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  t:\n    description: d\n    input:\n      properties:\n")
		for _, i := range perm[:n] {
			fmt.Fprintf(&b, "        %q: {type: string}\n", spellings[i])
		}
		src := b.String()
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			api, notes, _ := settledAPI(t, src)
			var got []string
			for _, ty := range api.Types {
				if ty.Name == "TInput" {
					for _, f := range ty.Fields {
						got = append(got, f.Name)
					}
				}
			}
			sort.Strings(got)
			if want := firstFree("NodeID", n, nil); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("fields %q, want %q\n%s", got, want, src)
			}
			if len(notes) != n-1 {
				t.Errorf("%d notes for %d names given: %q", len(notes), n-1, notes)
			}
		})
	}
}

// TestSettleNotes: each note names the path of what it renamed, the Go
// name it could not have and why (taken, or one generated methods use),
// and the goName (or goNames entry) written; the wire name stays as it is.
func TestSettleNotes(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  Color: {type: string, enum: [a-b, a_b]}
tools:
  t:
    description: d
    input:
      properties:
        jsonSchema: {type: string}
        applyDefaults: {type: string}
        a: {type: string}
        A: {type: string}
`
	_, notes, root := settledAPI(t, src)
	want := []string{
		`types.Color: the constant of enum value "a_b" gets the Go name ColorAB, which is taken; goNames: {"a_b": AB2}`,
		"tools.t.input.properties.jsonSchema: its Go name JSONSchema is one generated methods use; goName: JSONSchema2 (the wire name stays)",
		"tools.t.input.properties.applyDefaults: its Go name ApplyDefaults is one generated methods use; goName: ApplyDefaults2 (the wire name stays)",
		"tools.t.input.properties.A: its Go name A is taken; goName: A2 (the wire name stays)",
	}
	sort.Strings(want)
	got := append([]string(nil), notes...)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out, _ := Encode(root)
	for _, w := range []string{"jsonSchema:", "applyDefaults:", "a:", "A:", "a-b", "a_b"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the wire name %s is gone:\n%s", w, out)
		}
	}
}

// TestSettleKeepsGoNamesEntries: a goNames mapping the spec already has
// gets the new entry beside its own, not in place of them.
func TestSettleKeepsGoNamesEntries(t *testing.T) {
	src := `mcpgen: 1
server: {name: s, version: '1'}
go: {package: p}
types:
  Color: {type: string, enum: [a-b, a_b, z], goNames: {z: Zed}}
tools:
  t: {description: d}
`
	api, _, _ := settledAPI(t, src)
	var consts []string
	for _, ty := range api.Types {
		if ty.Name == "Color" {
			for _, c := range ty.Consts {
				consts = append(consts, c.Name)
			}
		}
	}
	sort.Strings(consts)
	if got := strings.Join(consts, " "); got != "ColorAB ColorAB2 ColorZed" {
		t.Errorf("Color's constants %s, want ColorAB ColorAB2 ColorZed", got)
	}
}

// TestSettleAsIs: a spec without a collision comes back as it was, with
// its spec, no note and no finding; a spec that does not load comes back
// with its findings and no spec, whatever else collides in it.
func TestSettleAsIs(t *testing.T) {
	src := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  get_x: {description: d}\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	before, _ := encodeWhole(doc.Content[0])
	st, err := SettleText("mcpgen.yaml", doc.Content[0])
	if err != nil || st.Spec == nil || len(st.Notes) > 0 || len(st.Diags) > 0 {
		t.Fatalf("err %v, spec %v, notes %q, findings %v", err, st.Spec != nil, st.Notes, st.Diags)
	}
	if string(st.Data) != string(before) {
		t.Errorf("the text changed:\n%s\nwas:\n%s", st.Data, before)
	}
	root, err := st.Root()
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := encodeWhole(root); string(after) != string(before) {
		t.Errorf("Root is not the spec:\n%s", after)
	}

	bad := "mcpgen: 1\nserver: {name: s, version: '1'}\ngo: {package: p}\ntools:\n  get_x: {description: d}\n  get-x: {description: d, input: {properties: {n: {type: integer, minimum: x}}}}\n"
	if err := yaml.Unmarshal([]byte(bad), &doc); err != nil {
		t.Fatal(err)
	}
	_, s, notes, diags, err := Settle("mcpgen.yaml", doc.Content[0])
	if err != nil || s != nil || len(notes) > 0 || len(diags) != 1 || !strings.Contains(diags[0].String(), "minimum must be a number") {
		t.Errorf("err %v, spec %v, notes %q, findings %v; want the one finding and no spec", err, s != nil, notes, diags)
	}
}

// TestEncodeRandomTreesIsWhole: for random mappings of what an importer
// writes (keys of every kind: plain words, YAML 1.1 booleans and nulls,
// numbers, upper case, quoted, empty; values scalars, flow and block
// mappings and sequences, block text; head comments, line comments in block mappings), Encode's
// entry-by-entry text is exactly yaml.v3's text of the whole.
func TestEncodeRandomTreesIsWhole(t *testing.T) {
	keys := []string{"a", "tools", "types", "x", "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
		"Y", "ON", "Off", "1", "0x1", "1.5", "get-x", "get_x", "A", "", " lead", "a b", "a:b", "#c", "- x", "only", "offset", "nil"}
	scalars := []string{"1", "d", "", "yes", "on", "null", "line one\nline two\n", "x\n\n  y", "'q'", "a: b", "#", "-1", "1e3"}
	rng := rand.New(rand.NewSource(5))
	var node func(depth int) *yaml.Node
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	mapping := func(depth int) *yaml.Node {
		m := &yaml.Node{Kind: yaml.MappingNode}
		if rng.Intn(4) == 0 {
			m.Style = yaml.FlowStyle
		}
		seen := map[string]bool{}
		for n := rng.Intn(4); n >= 0; n-- {
			k := keys[rng.Intn(len(keys))]
			if seen[k] {
				continue
			}
			seen[k] = true
			kn := str(k)
			if rng.Intn(6) == 0 {
				kn.HeadComment = "# from " + k
			}
			v := node(depth + 1)
			// (A line comment inside a flow mapping moves the emitter's
			// closing brace, which importers never write.)
			if rng.Intn(8) == 0 && v.Kind == yaml.ScalarNode && m.Style == 0 {
				v.LineComment = "# note"
			}
			m.Content = append(m.Content, kn, v)
		}
		return m
	}
	node = func(depth int) *yaml.Node {
		switch r := rng.Intn(6); {
		case depth < 4 && r < 3:
			return mapping(depth)
		case depth < 4 && r == 3:
			s := &yaml.Node{Kind: yaml.SequenceNode}
			for n := rng.Intn(3); n >= 0; n-- {
				s.Content = append(s.Content, node(depth+1))
			}
			return s
		default:
			v := str(scalars[rng.Intn(len(scalars))])
			if rng.Intn(3) == 0 {
				v.Tag, v.Value = "!!int", fmt.Sprint(rng.Intn(100))
			}
			return v
		}
	}
	for trial := 0; trial < 300; trial++ {
		root := mapping(0)
		root.Style = 0
		if len(root.Content) == 0 {
			continue
		}
		if rng.Intn(3) == 0 {
			root.HeadComment = "# imported"
		}
		got, err := Encode(root)
		if err != nil {
			t.Fatal(err)
		}
		want, err := encodeWhole(root)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("trial %d: by entries:\n%s\nwhole:\n%s", trial, got, want)
		}
	}
}
