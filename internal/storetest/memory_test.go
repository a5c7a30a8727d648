package storetest

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// The in-memory task store pages as TaskPaging says, under 20 random
// schedules of page sizes, expiries and status changes.
func TestMemoryTaskPaging(t *testing.T) {
	for seed := range uint64(20) {
		TaskPaging(t, runtime.NewMemoryTaskStore(1000), seed) // 100 per owner
	}
}
