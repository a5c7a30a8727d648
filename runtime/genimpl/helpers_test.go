package genimpl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/genimpl"
)

func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}

func TestCompleteList(t *testing.T) {
	if c, err := genimpl.CompleteList(numbered(100), nil); err != nil || len(c.Values) != 100 || c.Total != 100 || c.HasMore {
		t.Errorf("CompleteList of 100: %+v %v", c, err)
	}
	if c, err := genimpl.CompleteList(numbered(101), nil); err != nil || len(c.Values) != 100 || c.Total != 101 || !c.HasMore {
		t.Errorf("CompleteList of 101: %+v %v", c, err)
	}
	if c, err := genimpl.CompleteList(nil, nil); err != nil || c.Values == nil || c.Total != 0 {
		t.Errorf("CompleteList of nil: %+v %v", c, err)
	}
	if c, err := genimpl.CompleteList(numbered(3), fmt.Errorf("index down")); c != nil || err == nil {
		t.Errorf("CompleteList with an error: %+v %v, want the error alone", c, err)
	}
}

func TestDecodeDefault(t *testing.T) {
	var tags []string
	genimpl.DecodeDefault(&tags, `["new","gift"]`)
	if fmt.Sprint(tags) != "[new gift]" {
		t.Errorf("tags = %q", tags)
	}
}

func TestDecodeDefaultPanicsOnABadDefault(t *testing.T) {
	defer func() {
		v := recover()
		if msg, _ := v.(string); !strings.Contains(msg, "cannot be decoded") {
			t.Errorf("recovered %v, want a message saying the default cannot be decoded", v)
		}
	}()
	var n int64
	genimpl.DecodeDefault(&n, `"five"`)
}

func TestStrings(t *testing.T) {
	if got := genimpl.Strings([]int64{1, -2}); fmt.Sprint(got) != "[1 -2]" {
		t.Errorf("Strings(int64s) = %q", got)
	}
	if got := genimpl.Strings([]bool{true}); fmt.Sprint(got) != "[true]" {
		t.Errorf("Strings(bools) = %q", got)
	}
}

func TestStaticHTML(t *testing.T) {
	if html, err := genimpl.StaticHTML("<p>v</p>")(context.Background()); html != "<p>v</p>" || err != nil {
		t.Errorf("StaticHTML = %q, %v", html, err)
	}
}

type dialected struct {
	A string `json:"a"`
}

func (dialected) JSONSchemaExtend(s *jsonschema.Schema) {
	genimpl.SetExtra(s, "$schema", "http://json-schema.org/draft-07/schema#")
}

// TestSetExtraSurvivesReflection: a keyword set with SetExtra (a spec's
// $schema) is in the schema the runtime reflects for a type, as when a
// tool's schema reaches a Go type and is left to reflection.
func TestSetExtraSurvivesReflection(t *testing.T) {
	got := string(runtime.SchemaFor[dialected]())
	if !strings.Contains(got, `"$schema":"http://json-schema.org/draft-07/schema#"`) || strings.Count(got, `"$schema"`) != 1 {
		t.Errorf("reflected %s", got)
	}
}
