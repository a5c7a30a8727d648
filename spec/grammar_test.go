package spec

import (
	"encoding/json"
	"regexp"
	"slices"
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

// TestKindKeysAreSchemaKeys: the keys each kind of schema accepts are keys
// of the schema table, so that the decoder reads them.
func TestKindKeysAreSchemaKeys(t *testing.T) {
	keys := schemaFields.keys()
	for _, k := range typeNames {
		for _, key := range validKeys(Kind(k)) {
			if !slices.Contains(keys, key) {
				t.Errorf("%s schemas accept %q, which schemaFields lacks", k, key)
			}
		}
	}
	for _, k := range []Kind{KindRef, KindGoType} {
		for _, key := range validKeys(k) {
			if !slices.Contains(keys, key) {
				t.Errorf("%s schemas accept %q, which schemaFields lacks", k, key)
			}
		}
	}
}
