package specschema

import (
	"encoding/json"
	"fmt"
)

// decodeOrdered decodes a JSON document into the types Wire writes with:
// objects as object (keys in document order), arrays as []any, numbers as
// json.Number, strings, booleans and null as themselves. Schema profiles
// rewrite this form, so that the keys stay in the spec's order.
func decodeOrdered(data []byte) (any, error) {
	dec := exactDecoder(data)
	v, err := orderedValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("specschema: data after the JSON value")
	}
	return v, nil
}

func orderedValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, member{k.(string), v})
		}
		_, err := dec.Token() // }
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := orderedValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ]
		return a, err
	}
	return t, nil
}

// get returns the value of key k, and whether it is there.
func (o object) get(k string) (any, bool) {
	for _, m := range o {
		if m.key == k {
			return m.val, true
		}
	}
	return nil, false
}

// without returns o without key k.
func (o object) without(k string) object {
	out := make(object, 0, len(o))
	for _, m := range o {
		if m.key != k {
			out = append(out, m)
		}
	}
	return out
}
