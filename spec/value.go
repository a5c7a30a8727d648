package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// value converts a YAML value (a default, an example, an enum value, a _meta
// object) to JSON. Tags are resolved as yaml.v3 resolves them: 0x1F is the
// integer 31, `"1"` is a string, `~` is null. Mapping keys keep file order
// and must be strings, since JSON object keys are.
func (d *decoder) value(n *yaml.Node) (*Value, bool) {
	var buf bytes.Buffer
	if !d.appendJSON(&buf, n) {
		return nil, false
	}
	return &Value{Pos: posOf(n), JSON: buf.Bytes()}, true
}

func (d *decoder) appendJSON(buf *bytes.Buffer, n *yaml.Node) bool {
	at := n
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		if tag := n.ShortTag(); tag != "!!map" {
			d.errorf(posOf(at), "unsupported YAML tag %s", tag)
			return false
		}
		ok := true
		buf.WriteByte('{')
		for i, e := range d.entries(n, "key") {
			if !isString(e.keyNode) {
				k := deref(e.keyNode).Value
				d.errorf(posOf(e.keyNode), "object key %s must be a string; write %q", k, k)
				ok = false
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, e.key)
			buf.WriteByte(':')
			ok = d.appendJSON(buf, e.value) && ok
		}
		buf.WriteByte('}')
		return ok
	case yaml.SequenceNode:
		if tag := n.ShortTag(); tag != "!!seq" {
			d.errorf(posOf(at), "unsupported YAML tag %s", tag)
			return false
		}
		ok := true
		buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			ok = d.appendJSON(buf, item) && ok
		}
		buf.WriteByte(']')
		return ok
	case yaml.ScalarNode:
		return d.appendScalar(buf, at, n)
	}
	d.errorf(posOf(at), "unsupported YAML value")
	return false
}

func (d *decoder) appendScalar(buf *bytes.Buffer, at, n *yaml.Node) bool {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if decodeScalar(n, &b) != nil {
			d.errorf(posOf(at), "%q is not a valid !!bool", n.Value)
			return false
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		if isJSONNumber(n.Value) && !strings.ContainsAny(n.Value, ".eE") {
			buf.WriteString(n.Value) // as written, whatever its size
			return true
		}
		var v any
		if decodeScalar(n, &v) != nil {
			d.errorf(posOf(at), "%q is not a valid !!int", n.Value)
			return false
		}
		switch i := v.(type) {
		case int:
			buf.WriteString(strconv.FormatInt(int64(i), 10))
		case int64:
			buf.WriteString(strconv.FormatInt(i, 10))
		case uint64:
			buf.WriteString(strconv.FormatUint(i, 10))
		case float64: // an explicit !!int that yaml.v3 read as a float
			return d.appendFloat(buf, at, n, i)
		default:
			d.errorf(posOf(at), "%q is not a valid !!int", n.Value)
			return false
		}
	case "!!float":
		if isJSONNumber(n.Value) {
			// As written: yaml.v3 cannot decode `!!float 9223372036854776000`
			// (an integer past int64), and JSON has no limit on size.
			buf.WriteString(n.Value)
			return true
		}
		var f float64
		if decodeScalar(n, &f) != nil {
			d.errorf(posOf(at), "%q is not a valid !!float", n.Value)
			return false
		}
		return d.appendFloat(buf, at, n, f)
	case "!!str", "!!timestamp", "!!binary":
		if isPlainBigNumber(n) {
			buf.WriteString(n.Value)
			return true
		}
		// JSON has no timestamps: a date is the string as written. Binary
		// data stays base64 text, the usual way to carry bytes in JSON.
		writeJSONString(buf, n.Value)
	default:
		d.errorf(posOf(at), "unsupported YAML tag %s", tag)
		return false
	}
	return true
}

// appendFloat writes a YAML float as JSON. The text is kept when it is
// already a JSON number, so that no digit is lost (0.1 stays 0.1).
func (d *decoder) appendFloat(buf *bytes.Buffer, at, n *yaml.Node, f float64) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		d.errorf(posOf(at), "%s has no JSON equivalent", n.Value)
		return false
	}
	if isJSONNumber(n.Value) {
		buf.WriteString(n.Value)
	} else {
		buf.WriteString(formatFloat(f))
	}
	return true
}

// isPlainBigNumber reports whether n is an untagged, unquoted
// NumberPastFloat64, which the loader reads as the number it is.
func isPlainBigNumber(n *yaml.Node) bool {
	return n.Style == 0 && n.Tag == "!!str" && NumberPastFloat64(n.Value)
}

// NumberPastFloat64 reports whether s is a JSON number past float64's range
// (1e400): unquoted, yaml.v3 resolves it as a string, but YAML 1.2's core
// schema and the loader read it as a number, so a string of that text must
// be written quoted.
func NumberPastFloat64(s string) bool {
	if !isJSONNumber(s) {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return errors.Is(err, strconv.ErrRange)
}

// formatFloat formats f as encoding/json does: plain decimals, exponents only
// for very large or very small magnitudes.
func formatFloat(f float64) string {
	b, _ := json.Marshal(f) // cannot fail: f is finite
	return string(b)
}

// writeJSONString writes s as a JSON string without escaping <, > and &, so
// that descriptions and patterns stay readable in generated code.
func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // cannot fail for a string
	buf.Truncate(buf.Len() - 1) // Encode appends a newline
}

// isJSONNumber reports whether s is a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// number reads a numeric constraint (minimum, multipleOf ...) as a Number,
// keeping the text when it is already JSON so that no bound is rounded.
func (d *decoder) number(n *yaml.Node, key string) (Number, bool) {
	s := deref(n)
	if s.Kind == yaml.ScalarNode {
		switch tag := s.ShortTag(); {
		case tag == "!!int", tag == "!!float", isPlainBigNumber(s):
			var buf bytes.Buffer
			if d.appendScalar(&buf, n, s) {
				return Number(buf.String()), true
			}
			return "", false
		}
	}
	d.errorf(posOf(n), "%s must be a number", key)
	return "", false
}
