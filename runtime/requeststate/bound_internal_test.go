package requeststate

import "testing"

// TestMemoryStoreDefaultBound: 0 and below mean DefaultMaxUsed records;
// any other bound is kept as given.
func TestMemoryStoreDefaultBound(t *testing.T) {
	for n, want := range map[int]int{0: DefaultMaxUsed, -1: DefaultMaxUsed, 1: 1, 7: 7} {
		if got := NewMemoryStore(n).(*memoryStore).max; got != want {
			t.Errorf("NewMemoryStore(%d) holds %d records, want %d", n, got, want)
		}
	}
}
