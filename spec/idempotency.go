package spec

import (
	"fmt"
	"time"

	"gopkg.in/yaml.v3"
)

// Idempotency is a tool's `idempotency:` mapping: the runtime runs the
// handler once per value of the key argument, and answers retries with the
// first result (runtime.Idempotency).
//
//	idempotency: {key: idempotency_key, ttl: 24h}
type Idempotency struct {
	Pos Pos
	// Key names a required top-level string property of the tool's input.
	Key    string
	KeyPos Pos
	// TTL is how long results are kept for retries; 0 when absent (the
	// runtime's default, 24h).
	TTL    time.Duration
	TTLPos Pos
}

var idempotencyFields = fields[*Idempotency]{
	{key: "key", required: true, doc: "The name of a required top-level string property of the input, such as idempotency_key (required).", schema: nonEmptyString,
		decode: func(d *decoder, id *Idempotency, e entry) {
			id.Key, _ = d.str(e.value, "idempotency key")
			id.KeyPos = posOf(e.value)
		}},
	{key: "ttl", doc: "How long results are kept for retries: a Go duration such as 24h or 90m (default 24h).", schema: durationSchema,
		decode: func(d *decoder, id *Idempotency, e entry) {
			id.TTLPos = posOf(e.value)
			id.TTL, _ = d.positiveDuration(e.value, "ttl", "24h, 90m or 30s")
		}},
}

func (d *decoder) idempotency(n *yaml.Node, tool string) *Idempotency {
	m, ok := d.mapping(n, "idempotency")
	if !ok {
		return nil
	}
	id := &Idempotency{Pos: posOf(n)}
	decodeMapping(d, m, id, idempotencyFields, func(e entry) {
		d.unknownKey(e, fmt.Sprintf("in the idempotency of tool %q", tool), idempotencyFields.keys())
	})
	if id.Key == "" {
		d.errorf(orPos(id.KeyPos, id.Pos), "the idempotency of tool %q needs a key: the name of a required string property of the input, e.g. {key: idempotency_key}", tool)
	}
	return id
}

// idempotency checks that the key is a required top-level string property
// of the tool's input: the runtime reads it from every call's arguments.
func (v *validator) idempotency(t *Tool) {
	id := t.Idempotency
	if id == nil || id.Key == "" {
		return
	}
	at := orPos(id.KeyPos, id.Pos)
	if t.Input == nil {
		if t.InputSchema != nil {
			v.errorf(at, "tool %q: idempotency needs input:, not inputSchema:, to find its key %q", t.Name, id.Key)
		} else {
			v.errorf(at, "tool %q has no input: idempotency needs a key property such as idempotency_key", t.Name)
		}
		return
	}
	obj, _ := v.resolve(t.Input)
	if obj == nil || obj.Kind != KindObject {
		return // reported by toolInput
	}
	var names []string
	for _, p := range obj.Properties {
		names = append(names, p.Name)
		if p.Name != id.Key {
			continue
		}
		if !p.Required {
			v.errorf(at, "idempotency key %q of tool %q must be a required property: add it to the input's required list", id.Key, t.Name)
		}
		switch s, _ := v.resolve(p.Schema); {
		case s == nil: // an unknown $ref, reported on its own
		case s.Kind != KindString:
			v.errorf(at, "idempotency key %q of tool %q must be a string property, not %s", id.Key, t.Name, kindPhrase(s.Kind))
		case s.Nullable:
			v.errorf(at, "idempotency key %q of tool %q must not be nullable", id.Key, t.Name)
		}
		return
	}
	v.errorf(at, "idempotency key %q is not a property of the input of tool %q%s", id.Key, t.Name, didYouMean(id.Key, names))
}

// positiveDuration decodes a Go duration that must be positive; examples
// are named in the error of a bad one.
func (d *decoder) positiveDuration(n *yaml.Node, key, examples string) (time.Duration, bool) {
	s, ok := d.str(n, key)
	if !ok {
		return 0, false
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		d.errorf(posOf(n), "%s must be a positive duration such as %s, not %q", key, examples, s)
		return 0, false
	}
	return v, true
}
