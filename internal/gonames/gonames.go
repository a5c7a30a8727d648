// Package gonames settles the Go names of an imported spec through the
// generator's own plan: wire names are data (an OpenAPI property
// "jsonSchema", tools get-x and get_x), Go names are derived from them, and
// an importer must write a spec that generates. Where gen.PlanAPI reports a
// collision (gen.Collision: two names with one Go spelling, or a name that
// generated code reserves), Settle writes the goName (or goNames entry)
// the collision asks for, and plans again until nothing collides. Both
// importers (internal/openapi, internal/mcpimport) use it, so one rule
// names what they write.
package gonames

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/yamlmap"
	"github.com/mcpgen/mcpgen/spec"
)

// maxRounds bounds the plan-fix loop; each round settles every collision
// it sees, so two or three rounds are the most real specs need.
const maxRounds = 20

// Settle plans the spec whose document mapping is root (file names it in
// findings) and gives goName to what collides, until the plan has no
// collision. It returns the spec as it now stands (root's content is not
// changed, only its positions renumbered: the spec is re-read from its
// text, positions and all), the
// spec loaded from it, one note per name it gave, and the findings that
// are left (of loading, or of planning: nothing Settle can fix).
func Settle(file string, root *yaml.Node) (*yaml.Node, *spec.Spec, []string, spec.Diagnostics, error) {
	st, err := SettleText(file, root)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	settled, err := st.Root()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return settled, st.Spec, st.Notes, st.Diags, nil
}

// Settled is a spec whose Go names SettleText settled.
type Settled struct {
	Data []byte // the spec's text
	// Spec is nil when loading reported findings. A spec that settled as
	// is was loaded from the tree (its positions numbered, not the
	// text's); any other from Data.
	Spec  *spec.Spec
	Notes []string // one per name given
	Diags spec.Diagnostics
	root  *yaml.Node
}

// Root is the spec's document mapping read from Data, with the positions
// the findings name, parsed once (a spec that settled as is has none
// until asked: it was loaded from the importer's tree).
func (st *Settled) Root() (*yaml.Node, error) {
	if st.root == nil {
		var doc yaml.Node
		if err := yaml.Unmarshal(st.Data, &doc); err != nil || len(doc.Content) == 0 {
			return nil, fmt.Errorf("re-reading the spec: %v", err)
		}
		st.root = doc.Content[0]
	}
	return st.root, nil
}

// SettleText is Settle giving the settled spec as text (and the mapping
// only when asked for).
func SettleText(file string, root *yaml.Node) (*Settled, error) {
	st := &Settled{}
	for round := 0; ; round++ {
		data, err := Encode(root)
		if err != nil {
			return nil, err
		}
		if round == 0 {
			if s := settlesAsIs(file, root); s != nil {
				return &Settled{Data: data, Spec: s}, nil
			}
		}
		*st = Settled{Data: data, Notes: st.Notes}
		s, diags := st.load(file)
		if len(diags) > 0 {
			st.Diags = diags
			return st, nil
		}
		api, diags := gen.PlanNames(s)
		st.Spec, st.Diags = s, diags
		if len(api.Collisions) == 0 || round == maxRounds {
			return st, nil
		}
		if root, err = st.Root(); err != nil {
			return nil, err
		}
		if settleRound(root, api, data, &st.Notes) == 0 {
			return st, nil
		}
	}
}

// load loads the spec from its text through Root's tree, so that a round
// parses its text once (Graph's spec is ~200 MB of nodes; a second parse
// for the fixes held two at once). Loading does not change the tree.
func (st *Settled) load(file string) (*spec.Spec, spec.Diagnostics) {
	root, err := st.Root()
	if err != nil {
		return spec.Load(file, st.Data) // its findings say what is wrong
	}
	return spec.LoadNode(file, root)
}

// settlesAsIs is the spec in root when it loads and plans without a
// finding or a collision (most do), else nil. Loaded from root itself, it
// needs no parse of its text, which was half the cost of a large import;
// any other spec SettleText settles on its text, so that findings and
// fixes have the text's positions. root's positions are renumbered.
func settlesAsIs(file string, root *yaml.Node) *spec.Spec {
	spec.NumberNodes(root)
	s, diags := spec.LoadNode(file, root)
	if len(diags) > 0 {
		return nil
	}
	if api, diags := gen.PlanNames(s); len(diags) > 0 || len(api.Collisions) > 0 {
		return nil
	}
	return s
}

// settleRound writes the fix of every collision of one plan into root
// (the spec re-read from data, so that positions are the plan's), and
// returns how many it wrote.
func settleRound(root *yaml.Node, api *gen.API, data []byte, notes *[]string) int {
	at := map[spec.Pos]located{}
	index(root, "", at)
	taken := takenNames(api, data)
	fixed := 0
	for _, c := range api.Collisions {
		loc, ok := at[c.At]
		if !ok || loc.node.Kind != yaml.MappingNode || c.Base == "" {
			continue
		}
		name := free(c.Base, taken)
		why := "is taken"
		if c.Reserved {
			why = "is one generated methods use"
		}
		switch c.Fix {
		case "goName":
			yamlmap.Map{N: loc.node}.Set("goName", yamlmap.Str(name))
			*notes = append(*notes, fmt.Sprintf("%s: its Go name %s %s; goName: %s (the wire name stays)", loc.path, c.GoName, why, name))
		case "goNames":
			m := yamlmap.Map{N: loc.node}.Get("goNames")
			if m == nil || m.Kind != yaml.MappingNode {
				m = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
				yamlmap.Map{N: loc.node}.Set("goNames", m)
			}
			yamlmap.Map{N: m}.Set(c.EnumValue, yamlmap.Str(name))
			*notes = append(*notes, fmt.Sprintf("%s: the constant of enum value %s gets the Go name %s, which %s; goNames: {%s: %s}", loc.path, strconv.Quote(c.EnumValue), c.GoName, why, strconv.Quote(c.EnumValue), name))
		default:
			continue
		}
		fixed++
	}
	return fixed
}

// located is a mapping of the spec and its path (tools.x.input).
type located struct {
	node *yaml.Node
	path string
}

// itemSections are the sections whose items take a goName beside their
// key: a collision's At is the item's key.
var itemSections = map[string]bool{"tools": true, "resources": true, "resourceTemplates": true, "prompts": true}

// index records every mapping by its position and every key by its own
// (standing for the mapping it holds: a tool's item).
func index(n *yaml.Node, path string, at map[spec.Pos]located) {
	switch n.Kind {
	case yaml.MappingNode:
		// A block mapping starts where its first key does: the section
		// of tools (resources, templates, prompts) stands for none, so
		// that its first item's key stands for the item.
		if !itemSections[path] {
			at[spec.Pos{Line: n.Line, Column: n.Column}] = located{n, path}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			if v.Kind == yaml.MappingNode {
				kp := spec.Pos{Line: k.Line, Column: k.Column}
				if _, ok := at[kp]; !ok {
					at[kp] = located{v, p}
				}
			}
			index(v, p, at)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			index(c, fmt.Sprintf("%s[%d]", path, i), at)
		}
	}
}

// takenNames is every Go name the plan gave, and every word of the spec
// that could be one (a goName written anywhere).
func takenNames(api *gen.API, data []byte) map[string]bool {
	taken := map[string]bool{}
	for _, t := range api.Types {
		taken[t.Name] = true
		for _, f := range t.Fields {
			taken[f.Name] = true
		}
		for _, c := range t.Consts {
			taken[c.Name] = true
			taken[c.Suffix] = true
		}
	}
	for _, m := range api.Methods {
		taken[m.Name] = true
	}
	for _, c := range api.Collisions {
		taken[c.GoName] = true
	}
	for _, w := range strings.FieldsFunc(string(data), func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		if w[0] >= 'A' && w[0] <= 'Z' {
			taken[w] = true
		}
	}
	return taken
}

// free is base followed by the first number from 2 that makes a name not
// taken; it takes the name.
func free(base string, taken map[string]bool) string {
	for i := 2; ; i++ {
		name := base + strconv.Itoa(i)
		if !taken[name] {
			taken[name] = true
			return name
		}
	}
}

// Encode writes a spec's document mapping as YAML, indented by two.
//
// yaml.v3's emitter keeps every event of a document until the end (its
// queue is never trimmed), so one encode of a 4 MB spec allocates ~1 GB;
// Encode writes a large mapping entry by entry instead (the same text:
// the emitter's output for an entry does not depend on its siblings when
// no foot comment joins them), and the whole only as a fallback.
func Encode(root *yaml.Node) ([]byte, error) {
	if !chunkable(root) {
		return encodeWhole(root)
	}
	var b bytes.Buffer
	if err := encodeEntries(&b, root, "", 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// chunkDepth is how many levels of mappings Encode splits (the spec's
// sections, then each tool and type).
const chunkDepth = 2

// encodeEntries writes mapping m's entries at indent; the first carries
// m's head comment (m is the document's mapping only at depth 0).
func encodeEntries(b *bytes.Buffer, m *yaml.Node, indent string, depth int) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if depth+1 < chunkDepth && (i > 0 || m.HeadComment == "") && splittable(k, v) {
			b.WriteString(indent)
			b.WriteString(k.Value)
			b.WriteString(":\n")
			if err := encodeEntries(b, v, indent+"  ", depth+1); err != nil {
				return err
			}
			continue
		}
		one := &yaml.Node{Kind: yaml.MappingNode, Tag: m.Tag, Content: []*yaml.Node{k, v}}
		if i == 0 {
			one.HeadComment = m.HeadComment
		}
		data, err := encodeWhole(one)
		if err != nil {
			return err
		}
		for len(data) > 0 {
			line, rest, _ := bytes.Cut(data, []byte("\n"))
			if len(line) > 0 {
				b.WriteString(indent)
				b.Write(line)
			}
			b.WriteByte('\n')
			data = rest
		}
	}
	return nil
}

// chunkable: root is a block mapping whose text Encode may write entry by
// entry: no foot comment anywhere (the emitter turns one into a blank line
// before the next entry), no comment but a head comment on root, no anchor.
func chunkable(root *yaml.Node) bool {
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 || root.Anchor != "" ||
		(root.Tag != "" && root.Tag != "!!map") || root.LineComment != "" || root.FootComment != "" || len(root.Content) == 0 {
		return false
	}
	var noFoot func(n *yaml.Node) bool
	noFoot = func(n *yaml.Node) bool {
		if n.FootComment != "" {
			return false
		}
		for _, c := range n.Content {
			if !noFoot(c) {
				return false
			}
		}
		return true
	}
	return noFoot(root)
}

// splittable: the entry k: v is written as the line "k:" and v's entries
// below it: k a plain word (written as is), v a block mapping with
// entries, neither commented.
func splittable(k, v *yaml.Node) bool {
	if k.Kind != yaml.ScalarNode || k.Style != 0 || (k.Tag != "" && k.Tag != "!!str") || k.Anchor != "" ||
		k.HeadComment != "" || k.LineComment != "" || !plainWord(k.Value) {
		return false
	}
	return v.Kind == yaml.MappingNode && v.Style == 0 && v.Anchor == "" && (v.Tag == "" || v.Tag == "!!map") &&
		v.HeadComment == "" && v.LineComment == "" && len(v.Content) > 0
}

// plainWord: s is lower-case letters (yaml writes it unquoted) and not a
// word YAML 1.1 reads as a boolean or null (yaml.v3 quotes true, false and
// null; the others it writes plain, and they are left out to be safe).
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	switch s {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

func encodeWhole(root *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
