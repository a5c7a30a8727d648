package validate

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

func TestScreenNumber(t *testing.T) {
	for _, tc := range []struct{ in, canonical, problem string }{
		{"5", "", ""},
		{"-12", "", ""},
		{"1" + strings.Repeat("0", 400), "", ""}, // integer literals are left to the validator
		{"1e2", "100", ""},
		{"1E2", "100", ""},
		{"1e+2", "100", ""},
		{"5.0", "5", ""},
		{"-5.00", "-5", ""},
		{"0.15e2", "15", ""},
		{"1500e-2", "15", ""},
		{"0.000001e7", "10", ""},
		{"9007199254740993.0", "9007199254740993", ""}, // exact, not through float64
		{"1e300", "1" + strings.Repeat("0", 300), ""},
		{"0.0", "0", ""},
		{"-0.0", "-0", ""},
		{"0e999999", "0", ""},
		{"1.5", "", ""},
		{"0.5e1", "5", ""},
		{"0.55e1", "", ""},
		{"1e-2", "", ""},
		{"1e-320", "", ""}, // subnormal: a float64 holds it
		{"1e400", "", "between"},
		{"-1e999999", "", "between"},
		{"1e-400", "", "too close to 0"},
		{"-1e-999999", "", "too close to 0"},
		{"1." + strings.Repeat("3", 999), "", "at most 1000 characters"},
	} {
		canonical, problem := screenNumber(tc.in)
		if canonical != tc.canonical || !strings.Contains(problem, tc.problem) || (tc.problem == "") != (problem == "") {
			t.Errorf("screenNumber(%.40s) = %q, %q; want %q and a problem containing %q", tc.in, canonical, problem, tc.canonical, tc.problem)
		}
		if canonical == "" {
			continue
		}
		// A rewrite keeps the value exactly.
		a, _ := new(big.Rat).SetString(tc.in)
		b, _ := new(big.Rat).SetString(canonical)
		if a.Cmp(b) != 0 {
			t.Errorf("screenNumber(%s) = %s: a different number", tc.in, canonical)
		}
	}
}

func TestScreenArguments(t *testing.T) {
	inst, err := jsonwire.ParseValue([]byte(`{"a":[1e2,{"b":5.0}],"c":1.5,"d":"1e2"}`))
	if err != nil {
		t.Fatal(err)
	}
	s := Screen(inst)
	if len(s.Violations) != 0 || !s.Rewritten {
		t.Fatalf("Screening = %+v, want a rewrite and no Violation", s)
	}
	got, _ := json.Marshal(inst)
	if string(got) != `{"a":[100,{"b":5}],"c":1.5,"d":"1e2"}` {
		t.Errorf("Rewritten to %s", got)
	}

	inst, _ = jsonwire.ParseValue([]byte(`{"ok":1,"x":[1,{"y":1e999}],"z":1e-999}`))
	s = Screen(inst)
	var ptrs []string
	for _, v := range s.Violations {
		ptrs = append(ptrs, v.Ptr)
	}
	if slices.Sort(ptrs); s.Rewritten || !slices.Equal(ptrs, []string{"/x/1/y", "/z"}) {
		t.Errorf("Screening = %+v, want violations at /x/1/y and /z", s)
	}

	// The count is capped, and the rest counted.
	inst, _ = jsonwire.ParseValue([]byte(`[` + strings.TrimSuffix(strings.Repeat("1e999,", 70), ",") + `]`))
	s = Screen(inst)
	if len(s.Violations) != maxViolations || s.more != 70-maxViolations {
		t.Errorf("%d violations and %d more, want %d and %d", len(s.Violations), s.more, maxViolations, 70-maxViolations)
	}
	if text := s.Explain("t"); !strings.HasSuffix(text, "\n- … and 20 more") || !strings.Contains(text, "\n- /0: is out of range") {
		t.Errorf("explanation:\n%s", text)
	}

	// Nesting.
	deep := strings.Repeat(`{"a":`, maxArgumentDepth) + `1` + strings.Repeat(`}`, maxArgumentDepth)
	inst, _ = jsonwire.ParseValue([]byte(deep))
	if s = Screen(inst); len(s.Violations) != 0 {
		t.Errorf("%d levels: %+v", maxArgumentDepth, s.Violations)
	}
	deep = strings.Repeat(`{"a":`, maxArgumentDepth+1) + `1` + strings.Repeat(`}`, maxArgumentDepth+1)
	inst, _ = jsonwire.ParseValue([]byte(deep))
	if s = Screen(inst); len(s.Violations) != 1 || !strings.Contains(s.Violations[0].Msg, "nests too deeply") ||
		s.Violations[0].Ptr != "/a/a/…/a/a/a/a/a" {
		t.Errorf("%d levels: %+v", maxArgumentDepth+1, s.Violations)
	}
}

func TestPointerShortened(t *testing.T) {
	for n, want := range map[int]string{
		0: "", 1: "/t0", 8: "/t0/t1/t2/t3/t4/t5/t6/t7",
		9: "/t0/t1/…/t4/t5/t6/t7/t8", 1000: "/t0/t1/…/t995/t996/t997/t998/t999",
	} {
		tokens := make([]string, n)
		for i := range tokens {
			tokens[i] = "t" + strconv.Itoa(i)
		}
		if got := pointer(tokens); got != want {
			t.Errorf("pointer of %d tokens = %q, want %q", n, got, want)
		}
	}
}
