package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Load parses and validates a spec. It returns the spec (as complete as it
// could be built) and every finding, sorted by position; file names the spec
// in those findings. It never panics, on any input.
//
// Load reads YAML through yaml.Node only, never into Go structs, so that no
// message ever names a Go type: every finding is written in the spec's own
// words.
func Load(file string, data []byte) (*Spec, Diagnostics) {
	s := &Spec{File: file}
	d := newDecoder(file)
	root, ok := d.parse(data)
	if !ok {
		return s, d.diags.Sort()
	}
	if root != nil {
		d.checkAliases(root)
		d.spec(s, root)
	}
	diags := append(d.diags, validate(s, d.skip)...)
	return s, diags.Sort()
}

// JSON is the document in data as the JSON value the loader reads from it
// (numbers as written, dates as strings, aliases expanded), for tools that
// check a spec's text against mcpgen.schema.json; the findings are those
// that stop that reading (syntax, tags, keys that are not strings).
func JSON(file string, data []byte) ([]byte, Diagnostics) {
	d := newDecoder(file)
	root, ok := d.parse(data)
	if !ok {
		return nil, d.diags.Sort()
	}
	if root == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	if !d.appendJSON(&buf, root) {
		return nil, d.diags.Sort()
	}
	return buf.Bytes(), d.diags.Sort()
}

// LoadNode is Load of a spec already in memory as its document mapping
// (an importer's, before it is written): no text is parsed. Findings are
// placed at the nodes' positions, and the model tells a keyword written
// from one absent by a position that is not zero, so every node needs a
// distinct one (NumberNodes gives them).
func LoadNode(file string, root *yaml.Node) (*Spec, Diagnostics) {
	s := &Spec{File: file}
	d := newDecoder(file)
	d.checkAliases(root)
	d.spec(s, root)
	diags := append(d.diags, validate(s, d.skip)...)
	return s, diags.Sort()
}

// NumberNodes gives every node under root a distinct position in document
// order (line 1, 2, 3…, column 1), as LoadNode needs.
func NumberNodes(root *yaml.Node) {
	line := 0
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		line++
		n.Line, n.Column = line, 1
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
}

// LoadFile reads and loads the spec at path. The error is for I/O only;
// problems with the spec are in the Diagnostics.
func LoadFile(path string) (*Spec, Diagnostics, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	s, diags := Load(path, data)
	return s, diags, nil
}

// parse reads the one YAML document of the file. It returns a nil root for an
// empty file, and ok=false after a syntax error, the only kind of problem that
// stops loading.
func (d *decoder) parse(data []byte) (root *yaml.Node, ok bool) {
	defer func() {
		// yaml.v3 turns its own failures into errors; anything else that
		// escapes it must not crash the caller.
		if r := recover(); r != nil {
			d.errorf(Pos{Line: 1, Column: 1}, "syntax error: %s", strings.TrimPrefix(fmt.Sprint(r), "yaml: "))
			root, ok = nil, false
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, true
		}
		d.syntaxError(err, data)
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		d.syntaxError(err, data)
		return nil, false
	case len(next.Content) == 1 && isNull(next.Content[0]) && next.Content[0].Value == "":
		// A trailing "---" with nothing after it.
	default:
		d.errorf(posOf(&next), "a spec file holds one YAML document; this is a second one")
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0], true
	}
	return &doc, true
}

var yamlLineError = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError rewrites a yaml.v3 error ("yaml: line 3: mapping values are not
// allowed in this context") as `file:3:1: syntax error: ...`. yaml.v3 gives a
// line, not a column, and gives no line at all for a problem on the first
// line or for some errors; those are placed as well as the text allows.
func (d *decoder) syntaxError(err error, data []byte) {
	for _, msg := range strings.Split(err.Error(), "\n") {
		msg = strings.TrimSpace(msg)
		if msg == "" {
			continue
		}
		p := Pos{Line: 1, Column: 1}
		if m := yamlLineError.FindStringSubmatch(msg); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
			p = guessPos(msg, data)
		}
		p = correctLine(msg, p, data)
		if strings.HasPrefix(msg, "found character that cannot start any token") && lineHasTab(data, p.Line) {
			msg += " (indent with spaces, not tabs)"
		}
		if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
			name, _, _ = strings.Cut(name, "'")
			msg = fmt.Sprintf("alias *%s refers to no anchor &%s", name, name)
		}
		if slices.Contains(indentationErrors, msg) {
			if ind, ok := findIndentation(data, p.Line); ok {
				p, msg = ind.pos, ind.msg
			} else if col, ok := colonInValue(sourceLine(data, p.Line)); ok && msg == indentationErrors[0] {
				p.Column = col
				msg += ` (a plain value cannot hold ": "; quote the value)`
			}
		}
		d.diags = append(d.diags, Diagnostic{File: d.file, Pos: p, Message: "syntax error: " + msg, Source: sourceLine(data, p.Line)})
	}
}

// colonInValue finds, in "key: a: b", the column of the second ": ",
// which yaml.v3 reads as a mapping inside a plain value.
func colonInValue(line string) (int, bool) {
	_, value, ok := strings.Cut(line, ": ")
	if !ok {
		return 0, false
	}
	v := strings.TrimSpace(value)
	if v == "" || strings.ContainsRune(`"'{[|>`, rune(v[0])) {
		return 0, false
	}
	i := strings.Index(value, ": ")
	if i < 0 {
		return 0, false
	}
	before := line[:len(line)-len(value)+i]
	return utf8.RuneCountInString(before) + 1, true
}

// sourceLine is line n (1-based) of data, without its line ending, or ""
// when there is no such line or it is too long to show.
func sourceLine(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	line := strings.TrimRight(lines[n-1], "\r")
	// Nothing that a terminal would interpret, and nothing too long to read.
	if utf8.RuneCountInString(line) > 200 || !utf8.ValidString(line) ||
		strings.IndexFunc(line, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) >= 0 {
		return ""
	}
	return line
}

// guessPos finds where a yaml.v3 error that carries no line is: at the
// alias of an unknown anchor, at the first control character, else at 1:1.
func guessPos(msg string, data []byte) Pos {
	var i int
	switch {
	case strings.HasPrefix(msg, "unknown anchor '"):
		name, _, _ := strings.Cut(strings.TrimPrefix(msg, "unknown anchor '"), "'")
		i = bytes.Index(data, []byte("*"+name))
	case strings.HasPrefix(msg, "control characters are not allowed"):
		i = bytes.IndexFunc(data, func(r rune) bool {
			return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
		})
	default:
		return Pos{Line: 1, Column: 1}
	}
	if i < 0 {
		return Pos{Line: 1, Column: 1}
	}
	lineStart := bytes.LastIndexByte(data[:i], '\n') + 1
	return Pos{
		Line:   1 + bytes.Count(data[:i], []byte("\n")),
		Column: 1 + utf8.RuneCount(data[lineStart:i]),
	}
}

// correctLine moves the position of two yaml.v3 errors to where the
// problem is. An unclosed flow mapping or sequence is reported at the
// 0-based line of its opening bracket, one line early: it goes to that
// bracket. A tab that breaks indentation is reported at the line of the
// value before it: it goes to the first tab of indentation from there on.
func correctLine(msg string, p Pos, data []byte) Pos {
	lines := strings.Split(string(data), "\n")
	switch msg {
	case "did not find expected ',' or '}'", "did not find expected ',' or ']'":
		open := "{"
		if strings.HasSuffix(msg, "']'") {
			open = "["
		}
		if p.Line < len(lines) {
			line := lines[p.Line] // the next line, 1-based p.Line+1
			if i := strings.Index(line, open); i >= 0 {
				return Pos{Line: p.Line + 1, Column: utf8.RuneCountInString(line[:i]) + 1}
			}
		}
	case "found a tab character that violates indentation":
		for n := max(p.Line, 1); n <= len(lines); n++ {
			line := lines[n-1]
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			if i := strings.IndexByte(indent, '\t'); i >= 0 {
				return Pos{Line: n, Column: i + 1}
			}
		}
	}
	return p
}

func lineHasTab(data []byte, line int) bool {
	lines := bytes.Split(data, []byte("\n"))
	return line >= 1 && line <= len(lines) && bytes.ContainsRune(lines[line-1], '\t')
}
