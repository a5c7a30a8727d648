package runtime_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// boundServer has n toolsets s0…s(n-1), toolset si holding tool ti, and
// serves the toolsets enabled (nil: the default, all).
func boundServer(n int, enabled ...string) *runtime.Server {
	var sets []runtime.Toolset
	for i := range n {
		sets = append(sets, runtime.Toolset{Name: "s" + strconv.Itoa(i), Tools: []string{"t" + strconv.Itoa(i)}})
	}
	opts := []runtime.Option{runtime.WithToolsets(sets...)}
	if enabled != nil {
		opts = append(opts, runtime.WithEnabledToolsets(enabled...))
	}
	srv := runtime.NewServer(testInfo(), opts...)
	for i := range n {
		srv.AddTool(echoTool("t" + strconv.Itoa(i)))
	}
	return srv
}

// A server may have 64 toolsets (a set of them is one word): the 64th is
// served like the first, "all" is all 64; a 65th is a programming error.
func TestToolsetsAtTheBound(t *testing.T) {
	for _, tc := range []struct {
		enabled []string
		want    int
	}{{nil, 64}, {[]string{"all"}, 64}, {[]string{"s63"}, 1}} {
		c := serve(t, boundServer(64, tc.enabled...))
		c.initialize()
		got := listedNames(t, c.result("tools/list", nil), "tools")
		if len(got) != tc.want || tc.want == 1 && !slices.Equal(got, []string{"t63"}) {
			t.Errorf("64 toolsets, enabled %q: %d tools listed (%v), want %d", tc.enabled, len(got), got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("65 toolsets: no panic")
		}
	}()
	boundServer(65)
}
