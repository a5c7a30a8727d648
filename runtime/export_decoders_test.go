package runtime

import (
	"reflect"

	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// DecodeBothWays decodes args, a JSON object, for t, a generated tool:
// with the input type's generated decoder (hasDecoder false when it has
// none), and with the general path alone (validator, then encoding/json),
// the oracle the decoder must agree with. Both apply defaults on success.
func DecodeBothWays(t Tool, args []byte) (hasDecoder bool, fast any, fastOK bool, slow any, slowRes *CallToolResult, slowErr error) {
	o := t.generated
	fast = reflect.New(o.in).Interface()
	if dec := o.decoder; dec != nil {
		hasDecoder = true
		if fastOK = dec.Decode(args, fast); fastOK {
			applyDefaults(fast)
		}
	}
	slow = reflect.New(o.in).Interface()
	slowRes, slowErr = inputCodec{schema: validate.NewLazy(o.input)}.decode(t.Name, args, slow)
	return hasDecoder, fast, fastOK, slow, slowRes, slowErr
}

// DecodeFast decodes args with t's generated validating decoder alone into
// a new value of its input type, and reports whether it accepted them (has
// false when the input type has no decoder).
func DecodeFast(t Tool, args []byte) (has, ok bool) {
	dec := t.generated.decoder
	if dec == nil {
		return false, false
	}
	return true, dec.Decode(args, reflect.New(t.generated.in).Interface())
}
