package validate

import (
	"encoding/json"
	"sync"
)

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
