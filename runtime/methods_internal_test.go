package runtime

import "testing"

// The method table's entries must be coherent: the dispatch trusts them.
func TestMethodTableIsCoherent(t *testing.T) {
	for name, m := range methods {
		if m.name != name {
			t.Errorf("%s is filed under %q", m.name, name)
		}
		if (m.answer == nil) == (m.start == nil) {
			t.Errorf("%s: exactly one of answer and start must be set", name)
		}
		if m.eras == 0 {
			t.Errorf("%s exists in no era", name)
		}
		if m.userCode && m.start == nil {
			t.Errorf("%s runs user code but is answered at once: it must start a call", name)
		}
		if m.inputRounds && (m.eras&eraModern == 0 || m.target == "" || !m.userCode) {
			t.Errorf("%s: only modern user code with a target may retry for input", name)
		}
		if m.gate != 0 && m.gate != capCompletions && gateNoun[m.gate] == "" {
			t.Errorf("%s: gate %d has no noun for its not-found message", name, m.gate)
		}
		if m.needsSession && m.eras&eraLegacy == 0 {
			t.Errorf("%s needs a session but does not exist in the legacy era", name)
		}
	}
}

// Both eras find exactly their methods, removed ones included.
func TestLookupMethodByEra(t *testing.T) {
	for _, tc := range []struct {
		name           string
		legacy, modern bool
	}{
		{methodInitialize, true, false},
		{methodPing, true, false},
		{methodSetLevel, true, false},
		{methodSubscribe, true, false},
		{methodDiscover, false, true},
		{methodSubscriptionsOpen, false, true},
		{methodToolsCall, true, true},
		{methodComplete, true, true},
		{"tools/unknown", false, false},
	} {
		if got := lookupMethod([]byte(tc.name), eraLegacy) != nil; got != tc.legacy {
			t.Errorf("legacy era has %s: %v, want %v", tc.name, got, tc.legacy)
		}
		if got := lookupMethod([]byte(tc.name), eraModern) != nil; got != tc.modern {
			t.Errorf("modern era has %s: %v, want %v", tc.name, got, tc.modern)
		}
	}
	if n := testing.AllocsPerRun(100, func() { lookupMethod([]byte(methodToolsCall), eraLegacy) }); n != 0 {
		t.Errorf("lookupMethod allocates %v times", n)
	}
}
