package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/safetext"
	jsonschema "github.com/santhosh-tekuri/jsonschema/v6"
)

// Validator is a compiled schema, plus the schema itself to explain
// violations (e.g. which properties are allowed).
type Validator struct {
	sch *jsonschema.Schema
	doc any
}

// noLoader refuses every external reference: a schema must be
// self-contained, and the runtime never reads files or the network because a
// schema says so (2026-07-28 makes this a MUST).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not supported: %s", url)
}

const schemaURL = "mcpgen:schema.json"

// Compile compiles a JSON Schema (draft 2020-12 unless it says
// otherwise) with format assertions on, so "format":"date-time" is checked.
func Compile(schema json.RawMessage) (*Validator, error) {
	doc, err := Decode(schema)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	registerIntegerFormats(c)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &Validator{sch: sch, doc: doc}, nil
}

// Decode decodes JSON as the validator wants it: numbers stay
// json.Number, so integers beyond 2^53 are checked exactly.
func Decode(b []byte) (any, error) {
	return jsonwire.ParseValue(b)
}

// Check validates inst and returns every Violation, sorted by location.
func (v *Validator) Check(inst any) []Violation {
	err := v.sch.Validate(inst)
	if err == nil {
		return nil
	}
	if ve, ok := errors.AsType[*jsonschema.ValidationError](err); ok {
		return explain(ve, inst, v.doc)
	}
	return []Violation{{Msg: safetext.Sanitize(err.Error(), 300)}}
}

// Lazy is a schema compiled into a validator once, on first use:
// compiling is most of the cost of registering a tool, and a server may
// register many tools it never calls (or be built per request).
type Lazy struct {
	doc  json.RawMessage
	once sync.Once
	v    *Validator
	err  error
}

// NewLazy returns schema, to be compiled at the first Validator call.
func NewLazy(schema json.RawMessage) *Lazy { return &Lazy{doc: schema} }

// Validator compiles the schema the first time and returns the result.
func (ls *Lazy) Validator() (*Validator, error) {
	ls.once.Do(func() { ls.v, ls.err = Compile(ls.doc) })
	return ls.v, ls.err
}

// DecodeError words an encoding/json error that came after validation
// passed: a number overflowing its Go field, or a custom UnmarshalJSON
// objecting.
func DecodeError(err error) Violation {
	if e, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		ptr := ""
		if e.Field != "" {
			ptr = "/" + strings.ReplaceAll(token(e.Field), ".", "/")
		}
		if v, isNum := strings.CutPrefix(e.Value, "number "); isNum {
			return Violation{Ptr: ptr, Msg: "is out of range (got " + safetext.Sanitize(v, safetext.MaxLen) + ")"}
		}
		return Violation{Ptr: ptr, Msg: "cannot be decoded (got " + safetext.Sanitize(e.Value, safetext.MaxLen) + ")"}
	}
	return Violation{Msg: "cannot be decoded: " + safetext.Sanitize(err.Error(), 300)}
}
