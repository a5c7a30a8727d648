package validate

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Arguments are screened before the schema validator sees them, for what the
// validator would get wrong or pay too much for:
//
//   - nesting: the validator copies the instance path at every level of an
//     error, so a violation n levels down costs O(n²) time and memory (a
//     5 000-level tree: 200 MB). Arguments nest at most maxArgumentDepth
//     levels.
//   - long numbers: the validator does exact arithmetic (math/big), whose cost
//     grows faster than the number's length. Numbers have at most
//     maxNumberLength characters.
//   - numbers float64 cannot hold: 1e400 or 1e-400 pass a schema exactly,
//     then decode to ±Inf (refused by encoding/json) or to 0, a value the
//     schema may forbid (exclusiveMinimum: 0); and 1e999999 makes math/big
//     work for ~20 ms. A number written with a fraction or an exponent must be
//     0 or within float64's range.
//   - integers written 1e2 or 5.0: JSON Schema counts them as integers, but
//     encoding/json refuses them for an int field. They are rewritten as
//     integer literals (100, 5), so the validator and the decoder agree.
//
// Integer literals (no fraction, no exponent) are left to the validator,
// which checks them exactly, and to the decoder, which refuses what does not
// fit the Go field.

const (
	// maxArgumentDepth bounds the nesting of objects and arrays in tool
	// arguments (the whole message may nest jsonwire.MaxDepth levels). At
	// this depth an invalid leaf costs the validator about 8 MB and tens of
	// milliseconds.
	maxArgumentDepth = 1000
	// maxNumberLength bounds the text of one number: float64's largest value
	// has 309 digits, and no client needs more than a few dozen.
	maxNumberLength = 1000
)

// Screening is what Screen found.
type Screening struct {
	Violations []Violation // at most maxViolations
	more       int         // violations found beyond those
	Rewritten  bool        // numbers were rewritten in the instance: decode it, not the raw arguments
}

// Screen screens inst, as Decode decoded it, rewriting integral numbers in
// place.
func Screen(inst any) Screening {
	var s Screening
	s.walk(inst, make([]pathStep, 0, 8), 1)
	return s
}

// Explain is the text of the isError result refusing the arguments.
func (s *Screening) Explain(tool string) string {
	text := InvalidArguments(tool, s.Violations)
	if s.more > 0 {
		text += "\n- … and " + strconv.Itoa(s.more) + " more"
	}
	return text
}

// pathStep is one step of the path to a value: an object key, or an array
// index (key unused). Pointers are rendered only for violations.
type pathStep struct {
	key   string
	index int // -1 for an object key
}

// walk screens v, found at path and depth, and returns the number to put in
// its place when it is one to rewrite.
func (s *Screening) walk(v any, path []pathStep, depth int) (replacement json.Number, replace bool) {
	switch v := v.(type) {
	case map[string]any:
		if s.tooDeep(path, depth) {
			return "", false
		}
		for k, e := range v {
			if n, ok := s.walk(e, append(path, pathStep{key: k, index: -1}), depth+1); ok {
				v[k] = n
			}
		}
	case []any:
		if s.tooDeep(path, depth) {
			return "", false
		}
		for i, e := range v {
			if n, ok := s.walk(e, append(path, pathStep{index: i}), depth+1); ok {
				v[i] = n
			}
		}
	case json.Number:
		canonical, problem := screenNumber(string(v))
		if problem != "" {
			s.add(path, problem+" (got "+display(v)+")")
		} else if canonical != "" {
			s.Rewritten = true
			return json.Number(canonical), true
		}
	}
	return "", false
}

func (s *Screening) tooDeep(path []pathStep, depth int) bool {
	if depth <= maxArgumentDepth {
		return false
	}
	s.add(path, "nests too deeply: arguments may nest at most "+strconv.Itoa(maxArgumentDepth)+" levels of objects and arrays")
	return true
}

func (s *Screening) add(path []pathStep, msg string) {
	if len(s.Violations) == maxViolations {
		s.more++
		return
	}
	tokens := make([]string, len(path))
	for i, p := range path {
		if p.index < 0 {
			tokens[i] = p.key
		} else {
			tokens[i] = strconv.Itoa(p.index)
		}
	}
	s.Violations = append(s.Violations, Violation{Ptr: pointer(tokens), Msg: msg})
}

// screenNumber checks the text of a JSON number. It returns the integer
// literal to use instead of an integral number written with a fraction or an
// exponent ("" when the text stays), or why the number is refused.
func screenNumber(s string) (canonical, problem string) {
	if len(s) > maxNumberLength {
		return "", "is out of range: a number may have at most " + strconv.Itoa(maxNumberLength) + " characters"
	}
	if !strings.ContainsAny(s, ".eE") {
		return "", "" // an integer literal: checked exactly by the validator
	}
	neg := s[0] == '-'
	mantissa, exp, _ := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	if exp == "" { // no "e": maybe "E"
		mantissa, exp, _ = strings.Cut(strings.TrimPrefix(s, "-"), "E")
	}
	intPart, frac, _ := strings.Cut(mantissa, ".")
	digits := intPart + frac
	if strings.Trim(digits, "0") == "" {
		if neg {
			return "-0", "" // keeps the sign a float64 field can hold
		}
		return "0", ""
	}
	f, _ := strconv.ParseFloat(s, 64)
	if math.IsInf(f, 0) {
		return "", "is out of range: numbers must be between -1.7976931348623157e308 and 1.7976931348623157e308"
	}
	if f == 0 {
		return "", "is out of range: too close to 0 to be represented; a number other than 0 must be at least 5e-324 in magnitude"
	}
	e := 0
	if exp != "" {
		var err error
		if e, err = strconv.Atoi(exp); err != nil {
			return "", "" // cannot happen for a number in range: leave it as written
		}
	}
	// The decimal point falls after digits[:point]: the number is an
	// integer when every digit after it is 0.
	point := len(intPart) + e
	if point < 0 || strings.Trim(digits[min(point, len(digits)):], "0") != "" {
		return "", "" // has a fractional part
	}
	// Every digit is 0 from digits[point:] on, and some digit is not 0:
	// it is before the point.
	whole := strings.TrimLeft(digits[:min(point, len(digits))], "0")
	zeros := strings.Repeat("0", max(point-len(digits), 0))
	if neg {
		return "-" + whole + zeros, ""
	}
	return whole + zeros, ""
}
