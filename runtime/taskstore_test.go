package runtime_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/storetest"
)

// The in-memory TaskStore keeps the contract every TaskStore keeps.
func TestMemoryTaskStore(t *testing.T) {
	storetest.TaskStore(t, runtime.NewMemoryTaskStore(20)) // 2 per owner
}
