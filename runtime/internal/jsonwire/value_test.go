package jsonwire

import "testing"

func TestIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "1.5": true, "1e3": true, "-0.5E-2": true,
		"": false, "01": false, "+1": false, "1.": false, ".5": false, "1e": false, "NaN": false, "1 ": false,
	} {
		if got := IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
