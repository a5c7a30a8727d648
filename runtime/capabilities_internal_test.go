package runtime

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestWithCapabilities: a capability named is advertised with nothing of
// it registered; the others stay derived from what is.
func TestWithCapabilities(t *testing.T) {
	s := NewServer(Implementation{Name: "s", Version: "1"}, WithCapabilities("resources", "completions"))
	raw, _ := s.capabilities()
	var caps map[string]json.RawMessage
	if err := json.Unmarshal(raw, &caps); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(caps))
	if want := []string{"completions", "logging", "resources"}; !slices.Equal(got, want) {
		t.Errorf("capabilities %s: keys %q, want %q", raw, got, want)
	}
}
