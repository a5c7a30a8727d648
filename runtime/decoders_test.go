package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/golden/idempotency"
	"github.com/mcpgen/mcpgen/golden/naming"
	gstrings "github.com/mcpgen/mcpgen/golden/strings"
	features "github.com/mcpgen/mcpgen/golden/tool_features"
	"github.com/mcpgen/mcpgen/runtime"
)

// The generated validating decoders (genimpl/decode.go) against the
// general validator, their oracle: on the same arguments both must accept
// or both refuse, what they accept must decode to the same Go value, and
// a call's answer must be the same as without decoders (violations
// included: the general path words them).

// decodedTools are generated tools with decoders, by name, from packages
// whose specs use every kind of value the decoders understand.
func decodedTools(t testing.TB) map[string]runtime.Tool {
	t.Helper()
	srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
	ordersmcp.Register(srv, ordersmcp.UnimplementedHandler{})
	gstrings.Register(srv, gstrings.UnimplementedHandler{})
	expensesmcp.Register(srv, expensesmcp.UnimplementedHandler{})
	supportmcp.Register(srv, supportmcp.UnimplementedHandler{})
	conformancemcp.Register(srv, conformancemcp.UnimplementedHandler{})
	idempotency.Register(srv, idempotency.UnimplementedHandler{})
	naming.Register(srv, naming.UnimplementedHandler{})
	features.Register(srv, features.UnimplementedHandler{})
	tools := map[string]runtime.Tool{}
	for _, tool := range srv.Tools() {
		if has, _, _, _, _, _ := runtime.DecodeBothWays(tool, []byte(`{}`)); has {
			tools[tool.Name] = tool
		}
	}
	return tools
}

// validSamples are arguments each tool accepts, the seeds of the mutations.
var validSamples = map[string][]string{
	"lookup_order": {`{"order_id":"A-1042"}`},
	"create_note":  {`{"order_id":"A-1042","text":"hello","pinned":true}`, `{"order_id":"B-0001","text":"é\u00e9\n"}`},
	"refund_order": {
		`{"order_id":"A-1042","reason":"late","idempotency_key":"0b7c6f1e-7d55-4d53-a4a5-2c1b4f0e9d11"}`,
		`{"order_id":"A-1042","reason":"other","amount":{"amount":150,"currency":"EUR"},"idempotency_key":"0b7c6f1e-7d55-4d53-a4a5-2c1b4f0e9d11"}`,
	},
	"transfer":         {`{"from":"a","to":"b","cents":1,"request_key":"0b7c6f1e-7d55-4d53-a4a5-2c1b4f0e9d11"}`},
	"slow_compute":     {`{"seconds":0}`, `{"seconds":600,"label":"x"}`, `{"seconds":2.5}`},
	"approve_expense":  {`{"expense_id":"EXP-0042","expected_version":3,"idempotency_key":"abcdefgh-1234"}`},
	"explore_expenses": {`{"month":"2026-10","status":"pending","category":"meals"}`},
	"escalate_ticket":  {`{"id":"T-1001","level":"tier2","reason":"steps to reproduce: none"}`},
	"reply_to_ticket":  {`{"id":"T-1","body":"b","idempotency_key":"0b7c6f1e-7d55-4d53-a4a5-2c1b4f0e9d11"}`},
	"send_message":     {`{"to":"a","text":"t","idempotency_key":"12345678"}`},
	"api.v2.get-user":  {`{"user_id":"u","userUrl":"https://example.com/u","x-request-id":"r","2fa":false}`},
	"list_users":       {`{"order":"+"}`},
	"render":           {`{"format":"image"}`},
	"check_strings": {`{"slug":"hello-world","plain":"","color":"red"}`,
		`{"slug":"a","plain":"x","color":"light-blue","code":"FRA","email":"ada@example.com","when":"2026-11-29T12:00:00Z","short":"","size":"XL","note":"n","quoted":"\"ok\""}`},
}

// TestDecodersAgreeWithValidator feeds every decoded tool its samples,
// the golden calls of golden/strings, and many mutations of each. Valid
// arguments the decoder leaves to the general path (a duplicate key, an
// integer written 1e2) must be accepted by it once re-encoded.
func TestDecodersAgreeWithValidator(t *testing.T) {
	tools := decodedTools(t)
	for _, name := range []string{"lookup_order", "create_note", "refund_order", "check_strings", "reply_to_ticket", "transfer"} {
		if _, ok := tools[name]; !ok {
			t.Fatalf("tool %q has no generated decoder", name)
		}
	}
	inputs := map[string][]string{}
	for name, samples := range validSamples {
		for _, sample := range samples {
			if !agree(t, tools[name], []byte(sample), true) {
				t.Errorf("%s: the sample %s is refused", name, sample)
			}
		}
		inputs[name] = append(inputs[name], samples...)
	}
	var calls []struct {
		Tool string `yaml:"tool"`
		Args any    `yaml:"args"`
	}
	data, err := os.ReadFile("../golden/strings/calls.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &calls); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		b, _ := json.Marshal(c.Args)
		inputs[c.Tool] = append(inputs[c.Tool], string(b))
	}
	for name := range tools {
		inputs[name] = append(inputs[name], `{}`, `{"x":1}`)
	}
	accepted, refused := 0, 0
	for name, args := range inputs {
		tool, ok := tools[name]
		if !ok {
			t.Fatalf("no decoded tool %q", name)
		}
		for _, a := range args {
			for _, m := range mutations([]byte(a)) {
				if agree(t, tool, m, false) {
					accepted++
				} else {
					refused++
				}
			}
		}
	}
	t.Logf("%d accepted, %d refused", accepted, refused)
	if accepted < 20 || refused < 200 {
		t.Errorf("only %d accepted and %d refused inputs: the corpus lost its variety", accepted, refused)
	}
}

// agree checks one input and reports whether the oracle accepted it.
// strict asks that the decoder accept whatever the oracle does; without
// it (fuzzing, where inputs may hold duplicate keys, escaped keys or
// integers written 1e2, which the decoder leaves to the general path), the
// decoder must accept the oracle's value re-encoded.
func agree(t testing.TB, tool runtime.Tool, args []byte, strict bool) bool {
	t.Helper()
	_, fast, fastOK, slow, res, err := runtime.DecodeBothWays(tool, args)
	slowOK := res == nil && err == nil
	switch {
	case fastOK && !slowOK:
		t.Fatalf("%s %s: the decoder accepted arguments the validator refuses: %v %v", tool.Name, args, text(res), err)
	case fastOK && !reflect.DeepEqual(fast, slow):
		t.Fatalf("%s %s: decoded %+v, the general path %+v", tool.Name, args, fast, slow)
	case slowOK && !fastOK && strict:
		t.Fatalf("%s %s: the decoder refused arguments the validator accepts", tool.Name, args)
	case slowOK && !fastOK:
		canonical, err := json.Marshal(slow)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, tool, canonical, true)
	}
	// The call's answer is the general path's: the same violations.
	got, callErr := tool.Handler(context.Background(), &runtime.CallToolRequest{Name: tool.Name, Arguments: args})
	if !slowOK && (text(got) != text(res) || fmt.Sprint(callErr) != fmt.Sprint(err)) {
		t.Fatalf("%s %s: the call answered %q %v, the general path %q %v", tool.Name, args, text(got), callErr, text(res), err)
	}
	if slowOK && (callErr != nil || !strings.Contains(text(got), "not implemented")) {
		t.Fatalf("%s %s: valid arguments did not reach the handler: %q %v", tool.Name, args, text(got), callErr)
	}
	return slowOK
}

func text(res *runtime.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(runtime.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// replacements are the values a mutation puts in place of another.
var replacements = []string{`null`, `true`, `false`, `0`, `-1`, `1.5`, `2.0`, `1e2`, `1e400`, `-0`, `9223372036854775808`,
	`""`, `"x"`, `"A-1042"`, `"\u0041-1042"`, `"é"`, `[]`, `[1]`, `["a"]`, `{}`, `{"a":1}`, `100`, `101`, `100.0000000000000000001`}

// mutations are args and variations of it: every member removed, every
// value (at any depth) replaced, unknown and duplicate members, broken
// syntax.
func mutations(args []byte) [][]byte {
	out := [][]byte{args}
	var v any
	if json.Unmarshal(args, &v) != nil {
		return out
	}
	var walk func(path []any)
	walk = func(path []any) {
		at := get(v, path)
		switch n := at.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(mapsKeys(n)) {
				out = append(out, encode(edit(v, path, func(m any) any {
					c := copyMap(m.(map[string]any))
					delete(c, k)
					return c
				})))
				walk(append(slices.Clone(path), k))
			}
			out = append(out, encode(edit(v, path, func(m any) any {
				c := copyMap(m.(map[string]any))
				c["unknown_key"] = 1
				return c
			})))
		case []any:
			for i := range n {
				walk(append(slices.Clone(path), i))
			}
		}
		if len(path) > 0 {
			for _, r := range replacements {
				var rv any
				d := json.NewDecoder(strings.NewReader(r))
				d.UseNumber()
				_ = d.Decode(&rv)
				out = append(out, encode(edit(v, path, func(any) any { return rv })))
			}
		}
	}
	walk(nil)
	out = append(out, bytes.Replace(args, []byte(`{`), []byte(`{"order_id":"A-1042",`), 1), // a duplicate key, maybe
		bytes.Replace(args, []byte(`"`), []byte(`"\u006f`), 1), // an escaped key
		append(slices.Clone(args), '}'), args[:len(args)-1], []byte(` `+string(args)+` `))
	return out
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func get(v any, path []any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// edit returns a copy of v with the value at path replaced by f of it.
func edit(v any, path []any, f func(any) any) any {
	if len(path) == 0 {
		return f(v)
	}
	switch k := path[0].(type) {
	case string:
		c := copyMap(v.(map[string]any))
		c[k] = edit(c[k], path[1:], f)
		return c
	default:
		c := slices.Clone(v.([]any))
		c[k.(int)] = edit(c[k.(int)], path[1:], f)
		return c
	}
}

func copyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func encode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// FuzzDecoders: any bytes, as the arguments of any decoded tool, get the
// same verdict, value and answer from the decoder and the general path.
func FuzzDecoders(f *testing.F) {
	tools := decodedTools(f)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range tools {
			if !yield(k) {
				return
			}
		}
	})
	for i, name := range names {
		for _, s := range validSamples[name] {
			f.Add(uint8(i), []byte(s))
		}
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		if !json.Valid(args) || len(bytes.TrimSpace(args)) == 0 || bytes.TrimSpace(args)[0] != '{' {
			return // the runtime answers these before any decoder runs
		}
		agree(t, tools[names[int(which)%len(names)]], args, false)
	})
}

// BenchmarkDecodeValidated is the per-call cost of the generated decoders:
// each valid sample of validSamples decoded by its tool's decoder alone.
func BenchmarkDecodeValidated(b *testing.B) {
	tools := decodedTools(b)
	for _, name := range []string{"create_note", "refund_order", "explore_expenses", "check_strings", "api.v2.get-user"} {
		tool, ok := tools[name]
		if !ok {
			b.Fatalf("no decoded tool %q", name)
		}
		for i, sample := range validSamples[name] {
			args := []byte(sample)
			b.Run(fmt.Sprintf("%s/%d", name, i), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, ok := runtime.DecodeFast(tool, args); !ok {
						b.Fatalf("%s refused %s", name, args)
					}
				}
			})
		}
	}
}
