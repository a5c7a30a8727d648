package jsonwire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzScanObject checks the request-path scanner against encoding/json:
// same verdict on validity, same members.
func FuzzScanObject(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1} `, `{"a":{"b":[1,2,{"c":null}]},"d":"e\"\u00e9","a":2}`, `[1]`, `"x"`, `{`, `{"a"}`,
		`{"a":1,}`, `{"a":01}`, `{"\u0061":true}`, `{"a":"\x"}`, `{"a":"` + "\x1f" + `"}`, `{"a":tru}`, `{} {}`, "{\"a\":\"\xff\"}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := map[string]string{}
		notObject, err := ScanObject([]byte(s), func(k, v []byte) { got[string(k)] = string(v) })
		valid := json.Valid([]byte(s))
		if (err == nil) != valid {
			t.Fatalf("%q: ScanObject error %v, json.Valid %v", s, err, valid)
		}
		if err != nil || notObject {
			if notObject && FirstByte([]byte(s)) == '{' {
				t.Fatalf("%q: an object reported as not one", s)
			}
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for k, v := range want {
			// encoding/json folds case between duplicate keys; compare only
			// keys it kept verbatim.
			if g, ok := got[k]; ok && g != string(v) {
				t.Fatalf("%q: member %q = %s, encoding/json %s", s, k, g, v)
			}
		}
	})
}

// FuzzParseValue checks the validator's JSON decoder against encoding/json
// with UseNumber: same acceptance, same value.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,-2.5e+3,"x\u00e9\n",true,false,null,{}]}`, `"\ud83d\ude00"`, `"bad\xff"`,
		`01`, `1.`, `-`, `{"a":1,}`, `[1 2]`, `"` + "\x01" + `"`, `{"a":1,"a":2}`, ` 0 `, `1e`, `{"a"}`, `nul`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseValue([]byte(s))
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var want any
		werr := d.Decode(&want)
		if werr == nil {
			if _, e := d.Token(); e == nil || e.Error() != "EOF" {
				werr = e
				if werr == nil {
					werr = ErrSyntax
				}
			}
		}
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: ParseValue error %v, encoding/json error %v", s, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: ParseValue %#v, encoding/json %#v", s, got, want)
		}
	})
}
