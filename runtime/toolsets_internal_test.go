package runtime

import "testing"

// TestToolsetKinds: enabling a toolset announces the lists it changes; a
// toolset of resource templates only changes the resource list
// (resources/templates/list has no notification of its own: clients
// re-read both on notifications/resources/list_changed).
func TestToolsetKinds(t *testing.T) {
	x := &toolsetIndex{sets: []Toolset{
		{Name: "templates", Templates: []string{"file"}},
		{Name: "tools", Tools: []string{"a"}},
		{Name: "prompts", Prompts: []string{"p"}},
		{Name: "resources", Resources: []string{"mem://r"}},
	}}
	for i, want := range []capSet{capResources, capTools, capPrompts, capResources} {
		if got := x.kinds(1 << i); got != want {
			t.Errorf("toolset %s: kinds %b, want %b", x.sets[i].Name, got, want)
		}
	}
}
