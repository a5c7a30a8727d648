package runtime

import (
	"encoding/json"
	"testing"
)

func TestCursor(t *testing.T) {
	for off := 1; off <= 3; off++ {
		raw, _ := json.Marshal(map[string]string{"cursor": encodeCursor(off)})
		got, e := pageStart(raw, 3)
		if e != nil || got != off {
			t.Errorf("cursor for %d: %d, %v", off, got, e)
		}
	}
	if _, e := pageStart([]byte(`{"cursor":"`+encodeCursor(4)+`"}`), 3); e == nil {
		t.Error("a cursor past the end is accepted")
	}
}
