package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// Output is a tool's output schema, which an upstream answer must match
// before it is decoded: decoding alone would fill a missing required
// property with its Go zero value, and a value of the wrong type would
// fail with encoding/json's words for the Go type. Compiled on first use.
type Output struct{ schema *validate.Lazy }

// NewOutput is the Output of the JSON Schema schema (generated code passes
// the tool's output schema).
func NewOutput(schema json.RawMessage) *Output {
	return &Output{schema: validate.NewLazy(schema)}
}

// OutputError is an upstream answer that does not match the tool's output
// schema. Its text, which the model reads in the isError result, names
// each property that is wrong (a JSON pointer) and what it must be.
type OutputError struct {
	Method, Path string
	Violations   string // "- /name: is missing …", one a line
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("upstream %s %s: the answer does not match the tool's output schema:%s", e.Method, e.Path, e.Violations)
}

// CallOutput is Call with the answer checked against the tool's output
// schema o first (nil checks nothing): a mismatch is an *OutputError.
func (c *Client) CallOutput(ctx context.Context, r *Request, o *Output, out any) error {
	body, err := c.do(ctx, r)
	if err != nil {
		return err
	}
	if out == nil || len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if !json.Valid(body) {
		// No excerpt: a 2xx page is not screened for the credentials an
		// error answer is (redact.go).
		return fmt.Errorf("upstream %s %s: the answer is not JSON (%d bytes)", r.method, r.path, len(body))
	}
	if o != nil {
		v, err := o.schema.Validator()
		if err != nil {
			return fmt.Errorf("upstream %s %s: the tool's output schema does not compile: %w", r.method, r.path, err)
		}
		inst, err := validate.Decode(body)
		if err != nil {
			return fmt.Errorf("upstream %s %s: the answer cannot be read: %w", r.method, r.path, err)
		}
		// A property the schema does not know is no mismatch: an API may
		// add properties, and decoding drops them (as the tool's output
		// does not have them, the runtime's own check of it passes).
		vs := slices.DeleteFunc(v.Check(inst), func(v validate.Violation) bool { return v.Unknown })
		if len(vs) > 0 {
			return outputError(r, vs)
		}
	}
	if err := json.Unmarshal(body, out); err != nil {
		// Valid, but not for the Go type (a number beyond its range).
		return outputError(r, []validate.Violation{validate.DecodeError(err)})
	}
	return nil
}

func outputError(r *Request, vs []validate.Violation) error {
	var b strings.Builder
	validate.WriteViolations(&b, vs)
	return &OutputError{Method: r.method, Path: r.path, Violations: b.String()}
}
