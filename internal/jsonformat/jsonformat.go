// Package jsonformat declares the values of the JSON Schema keyword
// "format" that the spec accepts, per kind, and what an integer format
// constrains. It is a leaf package, so that the spec's checks (spec), the
// generator's decoders (gen) and the runtime's validator
// (runtime/internal/validate) read one table: adding a format is one line
// here.
package jsonformat

import "math"

// Strings are the JSON Schema 2020-12 formats (its "Defined Formats"),
// which apply to strings.
var Strings = []string{
	"date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template",
	"json-pointer", "relative-json-pointer", "regex",
}

// IntegerFormat is a format of integers, as OpenAPI defines them: the
// value lies in [Min, Max]. The spec, the decoders and the validator all
// assert it (JSON Schema leaves formats to annotation; a server that
// advertises int32 and accepts 2^40 would mislead its clients).
type IntegerFormat struct {
	Name     string
	Min, Max int64
}

// Integers are the formats of integers.
var Integers = []IntegerFormat{
	{"int32", math.MinInt32, math.MaxInt32},
	{"int64", math.MinInt64, math.MaxInt64},
}

// Integer is the integer format named name.
func Integer(name string) (IntegerFormat, bool) {
	for _, f := range Integers {
		if f.Name == name {
			return f, true
		}
	}
	return IntegerFormat{}, false
}

// IntegerNames are the names of Integers, in order.
func IntegerNames() []string {
	names := make([]string, len(Integers))
	for i, f := range Integers {
		names[i] = f.Name
	}
	return names
}
