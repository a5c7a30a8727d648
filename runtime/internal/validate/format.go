package validate

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonformat"
	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
)

// registerIntegerFormats asserts the integer formats of jsonformat
// (int32, int64: a range) in c, as the spec and the decoders do.
func registerIntegerFormats(c *jsonschema.Compiler) {
	for _, f := range jsonformat.Integers {
		lo, hi := big.NewRat(f.Min, 1), big.NewRat(f.Max, 1)
		c.RegisterFormat(&jsonschema.Format{Name: f.Name, Validate: func(v any) error {
			n, ok := v.(json.Number)
			if !ok {
				return nil // not a number: the format says nothing of it
			}
			r, ok := new(big.Rat).SetString(string(n))
			if !ok || !r.IsInt() || r.Cmp(lo) >= 0 && r.Cmp(hi) <= 0 {
				return nil
			}
			return fmt.Errorf("out of the range of %s [%d, %d]", f.Name, f.Min, f.Max)
		}})
	}
}

// formats holds a validator per format name, compiled on first use.
var formats sync.Map // name → *Validator (nil when the format is unknown)

// FormatValid reports whether s is a valid value of format name, as the
// schema validator asserts formats: generated decoders check formats with
// it, so they accept exactly the strings the validator accepts.
func FormatValid(name, s string) bool {
	v, ok := formats.Load(name)
	if !ok {
		schema, _ := json.Marshal(map[string]string{"format": name})
		compiled, err := Compile(schema)
		if err != nil {
			compiled = nil
		}
		v, _ = formats.LoadOrStore(name, compiled)
	}
	val := v.(*Validator)
	return val != nil && val.sch.Validate(s) == nil
}
