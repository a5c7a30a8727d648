package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// decoder turns the yaml.Node tree of one file into the model. It never stops
// at the first problem: it records a Diagnostic and goes on with what it can
// read, so that a file's findings all come out at once.
type decoder struct {
	file  string
	diags Diagnostics
	// clientDefault is `go: {client: true}`, resolved once the whole go:
	// mapping (its output) is read.
	clientDefault bool
	// skip holds the model elements that could not be decoded (a schema
	// whose type is unknown, a section that is not a mapping, ...). The
	// validator leaves them alone: their problem is already reported, and
	// checking a half-built element would only add noise.
	skip map[any]bool
	// quiet holds the positions of aliases replaced by null (see
	// checkAliases): the alias is reported once, and what follows from the
	// null is not.
	quiet map[Pos]bool
	// typeNames are the names under types:, known before any schema is read
	// (for the hint "write $ref: Order" after `type: Order`).
	typeNames map[string]bool
}

func newDecoder(file string) *decoder {
	return &decoder{file: file, skip: map[any]bool{}, quiet: map[Pos]bool{}, typeNames: map[string]bool{}}
}

func posOf(n *yaml.Node) Pos {
	if n == nil {
		return Pos{}
	}
	return Pos{Line: n.Line, Column: n.Column}
}

func (d *decoder) errorf(p Pos, format string, args ...any) {
	if d.quiet[p] {
		return
	}
	d.diags = append(d.diags, Diagnostic{File: d.file, Pos: p, Message: fmt.Sprintf(format, args...)})
}

// at formats a position the way diagnostics print it, for messages that name
// a second place ("first defined at mcpgen.yaml:12:3").
func at(file string, p Pos) string {
	return fmt.Sprintf("%s:%d:%d", file, atLeast1(p.Line), atLeast1(p.Column))
}

// deref follows aliases to the node they stand for. checkAliases has already
// removed alias loops, so this terminates.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// entry is one `key: value` pair of a YAML mapping.
type entry struct {
	key     string
	keyNode *yaml.Node
	value   *yaml.Node
	inFlow  bool // the mapping is written {…}
}

// commaHint explains the usual cause of an unknown key with no value inside
// {…}: an unquoted comma in the value before it (`{description: a, b}`
// makes a key "b").
func commaHint(e entry) string {
	if v := deref(e.value); e.inFlow && v.Kind == yaml.ScalarNode && v.Value == "" && v.ShortTag() == "!!null" {
		return "; inside {…} a comma ends a value, so quote the value before it if it holds a comma"
	}
	return ""
}

// entries returns the pairs of mapping m in file order. Merge keys (<<) are
// expanded in place, explicit keys overriding merged ones as YAML says.
// A duplicate explicit key is reported with both positions and dropped, so
// that the model holds the first definition only; what names the key in that
// message ("tool", "type", "property", or "key").
//
// yaml.v3 checks duplicate keys only when it decodes into Go maps and
// structs, not when it parses into a yaml.Node (see TestYAMLNodeKeepsDuplicates),
// so this is the only place they are caught.
func (d *decoder) entries(m *yaml.Node, what string) []entry {
	explicit := map[string]*yaml.Node{}
	var out []entry
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := deref(m.Content[i])
		if k.Kind != yaml.ScalarNode {
			d.errorf(posOf(m.Content[i]), "a key must be a plain name, not a %s", nodeKindName(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			continue
		}
		if first, dup := explicit[k.Value]; dup {
			d.errorf(posOf(m.Content[i]), "duplicate %s %q (first defined at %s)", what, k.Value, at(d.file, posOf(first)))
			continue
		}
		explicit[k.Value] = m.Content[i]
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if k.ShortTag() == "!!merge" {
			for _, e := range d.merged(v, what) {
				if explicit[e.key] == nil && !seen[e.key] {
					seen[e.key] = true
					out = append(out, e)
				}
			}
			continue
		}
		if explicit[k.Value] != m.Content[i] || seen[k.Value] {
			continue // a duplicate, reported above
		}
		seen[k.Value] = true
		out = append(out, entry{key: k.Value, keyNode: m.Content[i], value: v, inFlow: m.Style&yaml.FlowStyle != 0})
	}
	return out
}

// merged returns the entries a merge key (<<) brings in: those of a mapping,
// or of a list of mappings where earlier ones win.
func (d *decoder) merged(v *yaml.Node, what string) []entry {
	v = deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return d.entries(v, what)
	case yaml.SequenceNode:
		var out []entry
		seen := map[string]bool{}
		for _, item := range v.Content {
			item = deref(item)
			if item.Kind != yaml.MappingNode {
				d.errorf(posOf(item), "<< must be a mapping or a list of mappings")
				continue
			}
			for _, e := range d.entries(item, what) {
				if !seen[e.key] {
					seen[e.key] = true
					out = append(out, e)
				}
			}
		}
		return out
	}
	d.errorf(posOf(v), "<< must be a mapping or a list of mappings")
	return nil
}

// nodeKindName names a YAML node kind in the words of the spec's messages.
func nodeKindName(n *yaml.Node) string {
	switch deref(n).Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "scalar"
}

// isNull reports whether n is YAML null (absent value, ~ or null).
func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// mapping reports whether n is a mapping, and if not says that what must be
// one.
func (d *decoder) mapping(n *yaml.Node, what string) (*yaml.Node, bool) {
	m := deref(n)
	if m.Kind != yaml.MappingNode {
		d.errorf(posOf(n), "%s must be a mapping", what)
		return nil, false
	}
	return m, true
}

// list returns the items of a sequence, or says that key must be a list.
func (d *decoder) list(n *yaml.Node, key string) ([]*yaml.Node, bool) {
	s := deref(n)
	if s.Kind != yaml.SequenceNode {
		d.errorf(posOf(n), "%s must be a list", key)
		return nil, false
	}
	return s.Content, true
}

// isString reports whether n is a YAML string scalar (quoted, or plain and
// not resolving to a number, bool, null ...).
func isString(n *yaml.Node) bool {
	n = deref(n)
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
}

// str returns a string value, or says that key must be a string. A plain
// `42` or `true` is not a string: it is quoted in the spec when meant.
func (d *decoder) str(n *yaml.Node, key string) (string, bool) {
	if !isString(n) {
		d.errorf(posOf(n), "%s must be a string", key)
		return "", false
	}
	return deref(n).Value, true
}

// boolean returns a true/false value, or says that key must be one. YAML 1.1
// words (yes, on ...) are strings in yaml.v3 and so are rejected here.
func (d *decoder) boolean(n *yaml.Node, key string) (bool, bool) {
	s := deref(n)
	if s.Kind == yaml.ScalarNode && s.ShortTag() == "!!bool" {
		var b bool
		if decodeScalar(s, &b) == nil {
			return b, true
		}
	}
	d.errorf(posOf(n), "%s must be true or false", key)
	return false, false
}

// integer returns an integer value, or says that key must be one.
func (d *decoder) integer(n *yaml.Node, key string) (int64, bool) {
	s := deref(n)
	if s.Kind == yaml.ScalarNode && s.ShortTag() == "!!int" {
		var i int64
		if decodeScalar(s, &i) == nil {
			return i, true
		}
		d.errorf(posOf(n), "%s is too large", key)
		return 0, false
	}
	d.errorf(posOf(n), "%s must be an integer", key)
	return 0, false
}

// decodeScalar decodes one scalar with yaml.v3's own resolution, using the
// tag yaml.v3 resolved (so that `! 12` and `12` agree).
func decodeScalar(n *yaml.Node, out any) error {
	tmp := *n
	tmp.Tag = n.ShortTag()
	return tmp.Decode(out)
}

// maxAliasNodes bounds how many nodes aliases may add to a document when
// expanded. Real reuse through anchors is far below; a "billion laughs" file
// is far above.
const maxAliasNodes = 100_000

// checkAliases makes the node graph safe to walk. An alias used inside its
// own anchor (a loop, which yaml.v3 accepts when parsing into a yaml.Node) is
// reported and replaced by null; if aliases would add more than maxAliasNodes
// nodes to the document, that is reported and every alias is replaced by null.
func (d *decoder) checkAliases(root *yaml.Node) {
	if !hasAlias(root) {
		return // a tree: nothing loops or expands (the walk below costs two maps of every node)
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[*yaml.Node]int{}
	size := map[*yaml.Node]int{}
	var firstAlias *yaml.Node
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		if n.Kind == yaml.AliasNode {
			if firstAlias == nil {
				firstAlias = n
			}
			t := n.Alias
			switch {
			case t == nil:
				nullify(n)
				return 1
			case state[t] == visiting:
				d.errorf(posOf(n), "alias *%s is used inside its own anchor &%s", n.Value, n.Value)
				d.quiet[posOf(n)] = true
				nullify(n)
				return 1
			}
			return walk(t)
		}
		switch state[n] {
		case visiting:
			return 1 // only reachable through an alias, handled above
		case done:
			return size[n]
		}
		state[n] = visiting
		total := 1
		for _, c := range n.Content {
			if c == nil {
				continue
			}
			total = min(total+walk(c), 1<<40) // saturate: no overflow
		}
		state[n] = done
		size[n] = total
		return total
	}
	if expanded := walk(root); expanded-len(state) > maxAliasNodes {
		d.errorf(posOf(firstAlias), "aliases expand this file by more than %d nodes", maxAliasNodes)
		var strip func(n *yaml.Node)
		strip = func(n *yaml.Node) {
			if n.Kind == yaml.AliasNode {
				d.quiet[posOf(n)] = true
				nullify(n)
				return
			}
			for _, c := range n.Content {
				if c != nil {
					strip(c)
				}
			}
		}
		strip(root)
	}
}

// hasAlias reports whether an alias is anywhere under n.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if c != nil && hasAlias(c) {
			return true
		}
	}
	return false
}

// nullify turns an alias node into a null scalar at the same position.
func nullify(n *yaml.Node) {
	n.Kind, n.Tag, n.Value, n.Alias, n.Style = yaml.ScalarNode, "!!null", "", nil, 0
}
