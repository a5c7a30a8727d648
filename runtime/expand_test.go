package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// The expansion itself is tested in runtime/internal/uritemplate; here, the
// exported wrapper: it expands, and panics naming the template.

func TestExpandURITemplate(t *testing.T) {
	if got := runtime.ExpandURITemplate("notes://{topic}{?page}", map[string]any{"topic": "café", "page": 2}); got != "notes://caf%C3%A9?page=2" {
		t.Errorf("got %q", got)
	}
}

func TestExpandURITemplatePanics(t *testing.T) {
	for _, tc := range []struct {
		template string
		vars     map[string]any
		want     string
	}{
		{"x://{id", nil, "unclosed expression"},
		{"x://{}", nil, "empty expression"},
		{"x://{=a}", nil, "reserved for future extensions"},
		{"x://{a b}", nil, "invalid variable name"},
		{"x://{a:0}", nil, "invalid prefix length"},
		{"x://{a}", map[string]any{"a": struct{}{}}, `variable "a" has unsupported type struct {}`},
	} {
		func() {
			defer func() {
				if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), tc.want) || !strings.Contains(fmt.Sprint(v), "runtime: ExpandURITemplate(") {
					t.Errorf("%s: panic %v, want one mentioning %q", tc.template, v, tc.want)
				}
			}()
			runtime.ExpandURITemplate(tc.template, tc.vars)
		}()
	}
}
