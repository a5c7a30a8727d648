package tasks_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime/tasks"
)

// The in-memory Store keeps the contract every TaskStore keeps.
func TestMemoryStore(t *testing.T) {
	storetest.TaskStore(t, tasks.NewMemoryStore(20)) // 2 per owner
}
