package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/internal/typeschema"
	"github.com/mcpgen/mcpgen/runtime/internal/validate"
)

// The typed adapters connect generated (or hand-written) typed handlers to
// the protocol. At registration they derive the schemas of In and Out and
// compile their validators, once. Per call they validate the arguments, decode
// them into *In, call the handler, and validate and encode *Out: no schema
// reflection or compilation on the request path.

// NoArgs is the input type of a tool that takes no arguments. Its schema is
// {"type":"object","additionalProperties":false}.
type NoArgs = typeschema.NoArgs

// SchemaFor returns the JSON Schema that TypedTool and TypedToolResult
// advertise for T: reflected by github.com/invopop/jsonschema with the
// top-level struct expanded, named types in $defs referenced by $ref, and no
// $schema or $id of the reflector's (MCP schemas default to draft 2020-12;
// a spec's own $schema comes from the type's JSONSchemaExtend). NoArgs gives
// {"type":"object","additionalProperties":false}.
func SchemaFor[T any]() json.RawMessage { return typeschema.For(reflect.TypeFor[T]()) }

// TypedTool returns t with its Handler set to call fn with validated,
// decoded arguments, and with InputSchema and OutputSchema filled from In and
// Out unless already set (a set schema is used as is, for validation too).
//
// A call whose arguments do not match the input schema gets an isError result
// listing every violation, and fn is not called. Valid arguments are decoded
// into a new *In and, if *In is a Defaulter, the defaults of what the client
// left out are filled in before fn runs. fn's *Out is validated
// against the output schema (a mismatch is a server bug: logged, and answered
// with an isError result). When the output schema's top-level type is
// "object", the output is returned as structuredContent and mirrored as a JSON
// text block; otherwise (arrays, strings…) no outputSchema is advertised,
// since 2025-11-25 requires an object schema, and only the text block is sent.
// An error from fn becomes an isError result with the error's text (so the
// handler returned by TypedTool never fails, except with an *Error, which the
// session answers as a protocol error); a nil *Out with a nil error is an
// isError result too.
//
// TypedTool panics if In's schema is not an object schema or a schema does
// not compile: both are programming errors.
func TypedTool[In, Out any](t Tool, fn func(ctx context.Context, in *In) (*Out, error)) Tool {
	in := newInputCodec[In](&t)
	out := newOutputCodec[Out](&t)
	name := t.Name
	t.Handler = typedHandler(name, in, newValue[In], fn, func(ctx context.Context, o *Out) *CallToolResult {
		if o == nil {
			return noResult()
		}
		return out.result(ctx, name, o)
	})
	return t
}

// typedHandler is the handler every typed adapter installs: a new input from
// newIn, the arguments validated and decoded into it, fn called, and what
// fn returned turned into the call's result by finish (an error by failed).
func typedHandler[In, Out any](name string, in *inputCodec, newIn func() In, fn func(context.Context, In) (Out, error),
	finish func(context.Context, Out) *CallToolResult) ToolHandler {
	return func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		v := newIn()
		if res, err := in.decode(name, req.Arguments, v); res != nil || err != nil {
			return res, err
		}
		if res, err := checkInput(ctx, name, v); res != nil || err != nil {
			return res, err
		}
		o, err := fn(ctx, v)
		if err != nil {
			return failed(ctx, err)
		}
		return finish(ctx, o), nil
	}
}

// newValue is a new zero *T, the input of a call of TypedTool.
func newValue[T any]() *T { return new(T) }

// builtResult finishes a call of a handler that builds its own result.
func builtResult(_ context.Context, res *CallToolResult) *CallToolResult {
	if res == nil {
		return noResult()
	}
	return res
}

// noResult answers a handler that returned neither a result nor an error.
func noResult() *CallToolResult { return ErrorResult("tool returned no result") }

// TypedToolResult is TypedTool for a handler that builds its own result
// (images, resource links, several blocks…). OutputSchema is left as given.
func TypedToolResult[In any](t Tool, fn func(ctx context.Context, in *In) (*CallToolResult, error)) Tool {
	t.Handler = typedHandler(t.Name, newInputCodec[In](&t), newValue[In], fn, builtResult)
	return t
}

// inputCodec validates and decodes a tool's arguments (a value: one pointer,
// so a handler can hold it without allocating it). Its validator is
// compiled at registration (TypedTool) or on first use (genimpl.GeneratedTool,
// whose schemas are trusted), through validate.Lazy.
type inputCodec struct {
	schema *validate.Lazy
	// decoder, when set, is the generated validating decoder
	// (genimpl/table.go) of the input type for this very schema: it
	// decodes and checks the arguments in one pass, and when it refuses
	// them (leaving the value zero) the general path decides and words the
	// violations.
	decoder gensupport.Decoder
}

func newInputCodec[In any](t *Tool) *inputCodec {
	if t.InputSchema == nil {
		t.InputSchema = SchemaFor[In]()
	}
	return &inputCodec{schema: checkedInputSchema(t)}
}

// checkedInputSchema compiles the tool's input schema now, so that a bad
// hand-written schema panics at registration.
func checkedInputSchema(t *Tool) *validate.Lazy {
	if typeschema.Type(t.InputSchema) != "object" {
		panic(fmt.Sprintf("runtime: tool %q: the input schema must have \"type\":\"object\" (is the input type a struct?)", t.Name))
	}
	ls := validate.NewLazy(t.InputSchema)
	if _, err := ls.Validator(); err != nil {
		panic(fmt.Sprintf("runtime: tool %q: the input schema does not compile: %v", t.Name, err))
	}
	return ls
}

var emptyObject = json.RawMessage(`{}`)

// decode validates args, decodes them into dst and fills in the defaults
// of what the client left out (Defaulter). It returns a non-nil result
// or error when the handler must not run.
func (c inputCodec) decode(tool string, args json.RawMessage, dst any) (*CallToolResult, error) {
	if jsonwire.IsNull(args) {
		args = emptyObject
	} else if jsonwire.FirstByte(args) != '{' {
		return nil, errorf(CodeInvalidParams, `invalid params: "arguments" must be a JSON object`)
	}
	if c.decoder != nil && c.decoder.Decode(args, dst) {
		applyDefaults(dst)
		return nil, nil
	}
	v, err := c.schema.Validator()
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: the input schema of tool %s does not compile; this is a bug in the server", quote(tool))
	}
	inst, err := validate.Decode(args)
	if err != nil {
		return nil, errorf(CodeInvalidParams, `invalid params: "arguments" is not valid JSON`)
	}
	screened := validate.Screen(inst)
	if len(screened.Violations) > 0 {
		return ErrorResult(screened.Explain(tool)), nil
	}
	if vs := v.Check(inst); len(vs) > 0 {
		return ErrorResult(validate.InvalidArguments(tool, vs)), nil
	}
	if screened.Rewritten { // integers written 1e2: decode what was validated
		if args, err = json.Marshal(inst); err != nil {
			return nil, fmt.Errorf("runtime: re-encoding the arguments of tool %q: %w", tool, err)
		}
	}
	// The schema and the Go type agree by construction, but JSON numbers can
	// still overflow a Go integer, and custom UnmarshalJSON methods may object.
	if err := json.Unmarshal(args, dst); err != nil {
		return ErrorResult(validate.InvalidArguments(tool, []validate.Violation{validate.DecodeError(err)})), nil
	}
	applyDefaults(dst) // after validation: defaults never mask what was sent
	return nil, nil
}

type outputCodec struct {
	schema     *validate.Lazy
	structured bool // the output schema is an object schema: send structuredContent
}

func newOutputCodec[Out any](t *Tool) *outputCodec {
	if t.OutputSchema == nil {
		t.OutputSchema = SchemaFor[Out]()
	}
	c := newOutputCodecFor(t)
	if _, err := c.schema.Validator(); err != nil {
		panic(fmt.Sprintf("runtime: tool %q: the output schema does not compile: %v", t.Name, err))
	}
	return c
}

// newOutputCodecFor prepares the validation of t.OutputSchema (compiled on
// first use) and keeps it advertised only when it is an object schema.
func newOutputCodecFor(t *Tool) *outputCodec {
	c := &outputCodec{schema: validate.NewLazy(t.OutputSchema), structured: typeschema.Type(t.OutputSchema) == "object"}
	if !c.structured {
		t.OutputSchema = nil // 2025-11-25: an outputSchema must be an object schema
	}
	return c
}

func (c *outputCodec) result(ctx context.Context, tool string, out any) *CallToolResult {
	b, err := json.Marshal(out)
	if err != nil {
		logger(ctx).ErrorContext(ctx, "runtime: tool output cannot be encoded", "tool", tool, "error", err)
		return ErrorResult("internal error: tool " + quote(tool) + " produced output that could not be encoded; this is a bug in the server")
	}
	v, err := c.schema.Validator()
	if err != nil {
		logger(ctx).ErrorContext(ctx, "runtime: tool output schema does not compile", "tool", tool, "error", err)
		return ErrorResult("internal error: the output schema of tool " + quote(tool) + " does not compile; this is a bug in the server")
	}
	inst, err := validate.Decode(b)
	if err == nil {
		if vs := v.Check(inst); len(vs) > 0 {
			var sb strings.Builder
			validate.WriteViolations(&sb, vs)
			logger(ctx).ErrorContext(ctx, "runtime: tool output does not match its output schema", "tool", tool, "violations", sb.String())
			return ErrorResult("internal error: tool " + quote(tool) + " produced output that does not match its output schema; this is a bug in the server")
		}
	}
	var res *CallToolResult
	if s, ok := out.(TextSummarizer); ok {
		res = &CallToolResult{Content: []Content{TextContent{Text: s.TextSummary()}, TextContent{Text: string(b)}}}
	} else {
		res = oneBlock(TextContent{Text: string(b)})
	}
	if c.structured {
		res.StructuredContent = json.RawMessage(b)
	}
	return res
}

// TextSummarizer is implemented by tool outputs that can say in a few words
// what they hold. TypedTool sends that summary as the first text block,
// before the JSON: it is what a person reads in a host that shows no view
// (MCP Apps), and what the model quotes.
type TextSummarizer interface {
	TextSummary() string
}

// Defaulter is implemented by argument types that fill in defaults for what
// the client left out: mcpgen generates ApplyDefaults for every type whose
// spec has a `default:` a client may omit. TypedTool, TypedToolResult,
// TypedTemplate and TypedPrompt call it after the arguments are validated and
// decoded, so validation sees the arguments exactly as sent (a JSON Schema
// default is only an annotation) and the handler sees the defaults applied.
// ApplyDefaults must keep every value the client sent, null included.
type Defaulter interface {
	ApplyDefaults()
}

// applyDefaults calls v's ApplyDefaults, if it has one.
func applyDefaults(v any) {
	if d, ok := v.(Defaulter); ok {
		d.ApplyDefaults()
	}
}

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
