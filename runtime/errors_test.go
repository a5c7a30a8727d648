package runtime_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

func TestErrorTexts(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&runtime.Error{Code: runtime.CodeInvalidParams, Message: "bad"}, "jsonrpc error -32602: bad"},
		{&runtime.NotImplementedError{Kind: "tool", Name: "lookup_order"}, `tool "lookup_order" is not implemented`},
		{&runtime.NotImplementedError{Kind: "prompt", Name: "triage"}, `prompt "triage" is not implemented`},
		{&runtime.NotImplementedError{Name: "x"}, `handler "x" is not implemented`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
	var e *runtime.Error
	if !errors.As(fmt.Errorf("wrapped: %w", &runtime.Error{Code: runtime.CodeResourceNotFound}), &e) || e.Code != -32002 {
		t.Error("a wrapped *Error is not found by errors.As")
	}
}
