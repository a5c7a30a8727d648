package spec

import (
	"encoding/json"
	"regexp"
	"testing"
)

// TestFormatMappingsAreWhole: every fragment of the tables is JSON, every
// #/$defs/Name it refers to is described, and every description is used.
func TestFormatMappingsAreWhole(t *testing.T) {
	mappings := FormatMappings()
	if mappings[0].Name != "" {
		t.Fatalf("the first mapping is %q, want the document (\"\")", mappings[0].Name)
	}
	named := map[string]bool{}
	for _, m := range mappings[1:] {
		if m.Name == "" || named[m.Name] {
			t.Errorf("mapping name %q is empty or listed twice", m.Name)
		}
		named[m.Name] = true
	}
	refPattern := regexp.MustCompile(`"#/\$defs/([A-Za-z]+)"`)
	used := map[string]bool{}
	check := func(where, fragment string) {
		if fragment == "" {
			return
		}
		if !json.Valid([]byte(fragment)) {
			t.Errorf("%s: the JSON Schema %s is not JSON", where, fragment)
		}
		for _, m := range refPattern.FindAllStringSubmatch(fragment, -1) {
			used[m[1]] = true
			if !named[m[1]] {
				t.Errorf("%s refers to #/$defs/%s, which FormatMappings does not describe", where, m[1])
			}
		}
	}
	for _, m := range mappings {
		check(m.Name, m.Schema)
		seen := map[string]bool{}
		for _, k := range m.Keys {
			if seen[k.Name] {
				t.Errorf("%s: key %q is listed twice", m.Name, k.Name)
			}
			seen[k.Name] = true
			if k.Doc == "" {
				t.Errorf("%s.%s has no doc", m.Name, k.Name)
			}
			check(m.Name+"."+k.Name, k.Schema)
		}
	}
	for name := range named {
		if !used[name] {
			t.Errorf("mapping %q is described but nothing refers to it", name)
		}
	}
}

// TestSchemaKeysSayWhereTheyApply: a key that only some kinds of schema
// accept names them in words, for the message about a misplaced key.
func TestSchemaKeysSayWhereTheyApply(t *testing.T) {
	for _, sk := range schemaKeys {
		if (sk.kinds == nil) != (sk.words == "") {
			t.Errorf("schema key %q applies to %v, described as %q", sk.Name, sk.kinds, sk.words)
		}
	}
	if len(schemaFields) != len(schemaKeys) {
		t.Errorf("schemaFields has %d keys, schemaKeys %d", len(schemaFields), len(schemaKeys))
	}
}
