package runtime

import "encoding/json"

// Opt is an optional value: the one way generated code represents an optional
// field (STYLE.md rule 15), with no pointers. Tag such fields
// `json:"name,omitzero"` so an absent value is omitted when encoding; an Opt
// is zero exactly when it is not Set.
type Opt[T any] struct {
	Value T
	Set   bool
}

// Some returns an Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{Value: v, Set: true} }

// Get returns the value and whether it is set.
func (o Opt[T]) Get() (T, bool) { return o.Value, o.Set }

// Or returns the value if set, def otherwise.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}

// IsZero reports whether the value is absent; encoding/json's omitzero uses it.
func (o Opt[T]) IsZero() bool { return !o.Set }

// MarshalJSON encodes the value, or null when it is not set (which only
// happens without omitzero).
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

// UnmarshalJSON decodes the value and marks it set. encoding/json does not
// call it for an absent key, which therefore leaves the Opt unset. A JSON null
// sets it with the zero value; the input schema decides whether null is
// allowed at all.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.Value); err != nil {
		return err
	}
	o.Set = true
	return nil
}

// JSONSchemaAlias makes github.com/invopop/jsonschema describe an Opt[T] as
// T: optionality is expressed by the field not being required (omitzero), not
// by the schema of the value.
func (Opt[T]) JSONSchemaAlias() any {
	var v T
	return v
}
