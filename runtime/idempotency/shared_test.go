package idempotency_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/storetest"
	"github.com/mcpgen/mcpgen/runtime/idempotency"
)

// TestMemoryStoreSharedContract: the promises every idempotency store
// keeps (storetest.IdempotencyStore; Redis's too).
func TestMemoryStoreSharedContract(t *testing.T) {
	storetest.IdempotencyStore(t, idempotency.NewMemoryStore(0))
}
