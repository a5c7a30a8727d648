package gen_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/golden/minimal"
	"github.com/mcpgen/mcpgen/runtime"
)

// The error a generated UnimplementedHandler returns is found by errors.As
// in the form people write it (a *runtime.NotImplementedError target), even
// wrapped: the generated form and the receiver of Error agree.
func TestUnimplementedErrorIsFoundByErrorsAs(t *testing.T) {
	_, err := minimal.UnimplementedHandler{}.PingMe(context.Background())
	var ni *runtime.NotImplementedError
	if !errors.As(fmt.Errorf("wrapped: %w", err), &ni) {
		t.Fatalf("errors.As did not find a *runtime.NotImplementedError in %v (%T)", err, err)
	}
	if ni.Kind != "tool" || ni.Name != "ping_me" {
		t.Errorf("NotImplementedError = %+v, want tool ping_me", *ni)
	}
}
