package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	validate "github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mcpgen/mcpgen/internal/specschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/spec"
)

// call is one entry of a golden case's calls.yaml: arguments for a tool,
// and whether the spec accepts them.
type call struct {
	Tool  string `yaml:"tool"`
	Valid bool   `yaml:"valid"`
	Why   string `yaml:"why"`
	Args  any    `yaml:"args"`
}

// TestValidationAgreesWithSpec is the differential test of validation: for
// every call in golden/*/calls.yaml, the schema computed from the spec alone
// (compiled by an independent JSON Schema validator) and the generated
// server (its advertised schema and its validation before the handler) must
// both give the verdict the case states.
func TestValidationAgreesWithSpec(t *testing.T) {
	files, _ := filepath.Glob("../golden/*/calls.yaml")
	if len(files) == 0 {
		t.Fatal("no golden calls.yaml found")
	}
	for _, callsPath := range files {
		specPath := filepath.Join(filepath.Dir(callsPath), "mcpgen.yaml")
		t.Run(filepath.Base(filepath.Dir(callsPath)), func(t *testing.T) {
			s, diags, err := spec.LoadFile(specPath)
			if err != nil || len(diags) > 0 {
				t.Fatalf("load: %v %v", err, diags)
			}
			register := compiledCases[specPath]
			if register == nil {
				t.Fatalf("%s is not in compiledCases", specPath)
			}
			srv := runtime.NewServer(runtime.Implementation{Name: "t", Version: "1"})
			register(srv)
			handlers := map[string]runtime.ToolHandler{}
			for _, tool := range srv.Tools() {
				handlers[tool.Name] = tool.Handler
			}
			var calls []call
			data, err := os.ReadFile(callsPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal(data, &calls); err != nil {
				t.Fatal(err)
			}
			for i, c := range calls {
				args, err := json.Marshal(c.Args)
				if err != nil {
					t.Fatal(err)
				}
				specVerdict := specAccepts(t, s, c.Tool, args)
				serverVerdict, msg := serverAccepts(t, handlers[c.Tool], c.Tool, args)
				if specVerdict != c.Valid || serverVerdict != c.Valid {
					t.Errorf("call %d (%s, %s) %s: want valid=%v; the spec's schema says %v, the server says %v (%s)",
						i, c.Tool, c.Why, args, c.Valid, specVerdict, serverVerdict, msg)
				}
			}
		})
	}
}

// specAccepts validates args against the input schema computed from the
// spec, compiled with format assertions like the runtime's.
func specAccepts(t *testing.T, s *spec.Spec, toolName string, args []byte) bool {
	t.Helper()
	var tool *spec.Tool
	for _, st := range s.Tools {
		if st.Name == toolName {
			tool = st
		}
	}
	if tool == nil {
		t.Fatalf("no tool %q in the spec", toolName)
	}
	doc := any(map[string]any{"type": "object", "additionalProperties": false})
	switch {
	case tool.InputSchema != nil:
		raw, err := validate.UnmarshalJSON(bytes.NewReader(tool.InputSchema.JSON))
		if err != nil {
			t.Fatal(err)
		}
		doc = raw
	case tool.Input != nil:
		wire, _ := specschema.Wire(s, tool.Input)
		raw, err := validate.UnmarshalJSON(bytes.NewReader(wire))
		if err != nil {
			t.Fatal(err)
		}
		doc = raw
	}
	c := validate.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("spec.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("spec.json")
	if err != nil {
		t.Fatalf("the spec's schema for %s does not compile: %v", toolName, err)
	}
	inst, err := validate.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst) == nil
}

// serverAccepts calls the generated tool with an UnimplementedHandler
// behind it: arguments that pass validation reach the handler, which says
// "not implemented"; arguments that fail never reach it.
func serverAccepts(t *testing.T, h runtime.ToolHandler, name string, args []byte) (bool, string) {
	t.Helper()
	if h == nil {
		t.Fatalf("tool %q is not registered", name)
	}
	res, err := h(context.Background(), &runtime.CallToolRequest{Name: name, Arguments: args})
	var rpcErr *runtime.Error
	if errors.As(err, &rpcErr) {
		return false, rpcErr.Message
	}
	if err != nil {
		t.Fatalf("tool %q: %v", name, err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(runtime.TextContent); ok {
			text += tc.Text
		}
	}
	return strings.Contains(text, "not implemented"), text
}
