package jsonwire

import (
	"testing"
)

func TestValidID(t *testing.T) {
	for raw, want := range map[string]bool{
		`1`: true, `-1`: true, `0`: true, `9007199254740993`: true, `"x"`: true, `""`: true,
		`-`: false, `1.0`: false, `1e3`: false, `null`: false, `true`: false, `{}`: false, `[]`: false, ``: false,
	} {
		if got := ValidID([]byte(raw)); got != want {
			t.Errorf("ValidID(%s) = %v", raw, got)
		}
	}
}

func TestIDKey(t *testing.T) {
	if IDKey(`"ab"`) != IDKey(`"a\u0062"`) {
		t.Error(`"ab" and "a\u0062" are different ids`)
	}
	if IDKey(`"5"`) == IDKey(`5`) {
		t.Error(`the string "5" and the number 5 are the same id`)
	}
}
