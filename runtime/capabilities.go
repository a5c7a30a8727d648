package runtime

import "fmt"

// WithCapabilities advertises capabilities at initialize even when
// nothing of theirs is registered: "tools", "resources", "prompts",
// "completions" (their lists answer empty, completion/complete no values).
// Without it a capability is advertised once something of it is
// registered. Other names panic: they are a programming error.
func WithCapabilities(names ...string) Option {
	var set capSet
	for _, n := range names {
		c, ok := map[string]capSet{"tools": capTools, "resources": capResources, "prompts": capPrompts, "completions": capCompletions}[n]
		if !ok {
			panic(fmt.Sprintf("runtime.WithCapabilities: unknown capability %q (tools, resources, prompts or completions)", n))
		}
		set |= c
	}
	return func(c *config) { c.advertise |= set }
}
