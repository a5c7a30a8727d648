package gen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/spec"
)

// The schemas in registration code are JSON text that a reviewer reads like
// the spec: a value is written on one line when it fits in schemaWidth
// columns, else its members one a line, so that a spec edit shows as the
// lines it changes. The schema's own object is the exception: its short
// members ("type", "required", "additionalProperties") run on the lines of
// its braces, around its properties one a line:
//
//	{"type": "object", "properties": {
//		"query": {"type": "string", "minLength": 1},
//		"limit": {"type": "integer", "minimum": 1, "maximum": 100}
//	}, "required": ["query"], "additionalProperties": false}
//
// (issue 27: generated lines are what a reviewer reads and the compiler
// parses). The schema of a named type is written once, as a
// constant (namedSchemas), and every $defs entry equal to it names the
// constant: `"$defs": {"Money": ` + schemaOfMoney + `}`. Go joins the
// constants when it compiles; the runtime compacts the text once at
// registration, so clients receive exactly specschema.Wire's bytes.

// jsonNode is a parsed compact JSON value that keeps the bytes of every
// scalar as written, so that writing it out again changes whitespace only.
type jsonNode struct {
	raw  []byte   // the compact bytes of the whole value
	keys [][]byte // an object's keys, quoted as written
	kids []*jsonNode
	kind byte // '{', '[', 0 for a scalar, 'c' for a constant named by raw
}

// parseCompact parses compact JSON (no whitespace between tokens), as
// specschema.Wire and json.Compact write it.
func parseCompact(b []byte) (*jsonNode, error) {
	n, end, err := parseValue(b, 0)
	if err == nil && end != len(b) {
		err = fmt.Errorf("data after the JSON value at byte %d", end)
	}
	return n, err
}

func parseValue(b []byte, i int) (*jsonNode, int, error) {
	if i >= len(b) {
		return nil, i, fmt.Errorf("unexpected end of JSON")
	}
	start := i
	switch b[i] {
	case '{', '[':
		n := &jsonNode{kind: b[i]}
		closer := byte('}')
		if n.kind == '[' {
			closer = ']'
		}
		i++
		for i < len(b) && b[i] != closer {
			if len(n.kids) > 0 {
				if b[i] != ',' {
					return nil, i, fmt.Errorf("want , at byte %d", i)
				}
				i++
			}
			if n.kind == '{' {
				end, err := stringEnd(b, i)
				if err != nil {
					return nil, i, err
				}
				n.keys = append(n.keys, b[i:end])
				if end >= len(b) || b[end] != ':' {
					return nil, end, fmt.Errorf("want : at byte %d", end)
				}
				i = end + 1
			}
			kid, end, err := parseValue(b, i)
			if err != nil {
				return nil, end, err
			}
			n.kids = append(n.kids, kid)
			i = end
		}
		if i >= len(b) {
			return nil, i, fmt.Errorf("unexpected end of JSON")
		}
		n.raw = b[start : i+1]
		return n, i + 1, nil
	case '"':
		end, err := stringEnd(b, i)
		return &jsonNode{raw: b[i:end]}, end, err
	}
	for i < len(b) && strings.IndexByte("0123456789+-.eEtrufalsn", b[i]) >= 0 { // a number, true, false, null
		i++
	}
	if i == start {
		return nil, i, fmt.Errorf("want a value at byte %d", i)
	}
	return &jsonNode{raw: b[start:i]}, i, nil
}

// stringEnd returns the index after the JSON string that starts at b[i].
func stringEnd(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return i, fmt.Errorf("want a string at byte %d", i)
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return len(b), fmt.Errorf("unterminated string at byte %d", i)
}

// layout is the layout of one schema: literal JSON text and the names
// of constants, in order.
type layout struct {
	parts []textPart
	text  strings.Builder // the text after the last part, not yet a part
}

// textPart is literal JSON text, or (ident != "") a constant's name.
type textPart struct {
	text  string
	ident string
}

// emit appends text s (never empty). It is built up in a Builder: adding
// to the part's string copied a large schema's text once per token
// (issue 32).
func (st *layout) emit(s string) {
	st.text.WriteString(s)
}

// constant appends the name of a constant.
func (st *layout) constant(name string) {
	st.flush()
	st.parts = append(st.parts, textPart{ident: name})
}

// flush ends the text being built as a part.
func (st *layout) flush() {
	if st.text.Len() > 0 {
		st.parts = append(st.parts, textPart{text: st.text.String()})
		st.text.Reset()
	}
}

// width is how many columns n takes on one line.
func width(n *jsonNode) int {
	switch n.kind {
	case 0:
		return len(n.raw)
	case 'c':
		return len(n.raw) + 6 // ` + name + `
	}
	w := 2
	for i, kid := range n.kids {
		if i > 0 {
			w += 2
		}
		if n.kind == '{' {
			w += len(n.keys[i]) + 2
		}
		w += width(kid)
	}
	return w
}

// schemaWidth is the width a schema line is kept within (a tab counts 4):
// wider than prose's textWidth, since a property's JSON reads best whole
// on its line.
const schemaWidth = 110

// root writes the schema's own value n: an object that does not fit on one
// line has its members run on from its opening brace, each on the current
// line when it fits in what is left of it, else starting a new one (at the
// root's column, where its closers stand). A member that does not fit even
// alone is broken as value breaks it, its members one a line, its closer
// at the start of a line that the next members continue.
func (st *layout) root(n *jsonNode) {
	defer st.flush()
	if n.kind != '{' || len(n.kids) == 0 || width(n) <= schemaWidth {
		st.value(n, 0, 0)
		return
	}
	st.emit("{")
	column := 1
	for i, kid := range n.kids {
		key := string(n.keys[i]) + ": "
		member := len(key) + width(kid)
		sep := ""
		if i > 0 {
			sep = ", "
		}
		trail := 0 // the comma after it
		if i < len(n.kids)-1 {
			trail = 1
		}
		need := member + trail // what must fit on this line: the member, or a broken one's opening
		if member+trail > schemaWidth && kid.kind != 0 && kid.kind != 'c' {
			need = len(key) + 1
		}
		if i > 0 && column+len(sep)+need > schemaWidth {
			sep = ",\n" // a new line, at the root's own column
			column = 0
		} else {
			column += len(sep)
		}
		st.emit(sep + key)
		column += len(key)
		st.value(kid, 0, column+trail)
		if kid.kind == 0 || kid.kind == 'c' || column+trail+width(kid) <= schemaWidth { // on one line
			column += width(kid)
		} else {
			column = 1 // broken: its closer starts a line
		}
	}
	st.emit("}")
}

// value writes n at nesting depth; column is where the line stands.
func (st *layout) value(n *jsonNode, depth, column int) {
	switch n.kind {
	case 0:
		st.emit(string(n.raw))
		return
	case 'c':
		st.constant(string(n.raw))
		return
	}
	flat := len(n.kids) == 0 || column+width(n) <= schemaWidth
	closer := "}"
	if n.kind == '[' {
		closer = "]"
	}
	st.emit(string(n.kind))
	indent := strings.Repeat("\t", depth+1)
	for i, kid := range n.kids {
		switch {
		case i > 0 && flat:
			st.emit(", ")
		case i > 0:
			st.emit(",")
		}
		col := column + 1
		if !flat {
			st.emit("\n" + indent)
			col = 4 * (depth + 1)
		}
		if n.kind == '{' {
			st.emit(string(n.keys[i]) + ": ")
			col += len(n.keys[i]) + 2
		}
		st.value(kid, depth+1, col)
	}
	if !flat {
		st.emit("\n" + strings.Repeat("\t", depth))
	}
	st.emit(closer)
}

// layoutSchema is the Go expression of the JSON text of a compact schema
// of spec schema s (nil for one the spec writes out): raw strings joined
// with the constants of the named types it uses (useConstants). isConst
// says that the schema is itself a named type's constant.
func (g *generator) layoutSchema(compact []byte, s *spec.Schema, isConst bool) jen.Code {
	root, err := parseCompact(compact)
	if err != nil {
		panic("gen: a schema is not compact JSON: " + err.Error()) // Wire and json.Compact wrote it
	}
	if s != nil && !isConst {
		// A schema that is a named type's, as a tool's output: $ref Order.
		if ns := g.rootType(s); ns != nil {
			if name := constFor(ns, compact); name != "" {
				return jen.Id(name)
			}
		}
	}
	if s != nil {
		g.useConstants(root, s, isConst)
	}
	st := &layout{}
	st.root(root)
	var code *jen.Statement
	for _, p := range st.parts {
		var c jen.Code
		switch {
		case p.ident != "":
			c = jen.Id(p.ident)
		case canBeRaw(p.text):
			c = rawString(p.text)
		default:
			c = textLit(p.text)
		}
		if code == nil {
			code = jen.Add(c)
		} else {
			code = code.Op("+").Add(c)
		}
	}
	return code
}

// unquote is the text of a JSON key that has no escapes (Go names, as
// $defs keys are), or "".
func unquote(key []byte) string {
	if len(key) < 2 || bytes.IndexByte(key, '\\') >= 0 {
		return ""
	}
	return string(key[1 : len(key)-1])
}
