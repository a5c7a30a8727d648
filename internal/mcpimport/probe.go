package mcpimport

import (
	"context"
	"encoding/json"
	"slices"
)

// FullCapabilities is every client capability a server may list more
// items for, as a client that has them all declares them.
var FullCapabilities = map[string]any{
	"roots":       map[string]any{"listChanged": true},
	"sampling":    map[string]any{},
	"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
	"tasks": map[string]any{"requests": map[string]any{
		"sampling":    map[string]any{"createMessage": map[string]any{}},
		"elicitation": map[string]any{"create": map[string]any{}},
	}},
}

// Probe reads the lists as a client with every capability, and finds the
// items a bare client is not shown: servers list some tools only to
// clients that can serve them (sampling, elicitation, roots, tasks). For
// each such item, the capabilities it needs are those without which it
// is no longer listed, each left out in turn; Lists.Requires holds them.
// Over stdio every listing starts the server anew (a session each): 2
// sessions when every client is shown the same lists, 2 + 4 otherwise.
func Probe(ctx context.Context, opts Options) (*Lists, error) {
	bare, err := ListAs(ctx, opts, nil)
	if err != nil {
		return nil, err
	}
	full, err := ListAs(ctx, opts, FullCapabilities)
	if err != nil {
		return nil, err
	}
	extra := map[string]bool{}
	for key, names := range full.names() {
		shown := bare.names()[key]
		for _, n := range names {
			if !slices.Contains(shown, n) {
				extra[key+"/"+n] = true
			}
		}
	}
	if len(extra) == 0 {
		return bare, nil
	}
	full.Requires = map[string][]string{}
	caps := make([]string, 0, len(FullCapabilities))
	for c := range FullCapabilities {
		caps = append(caps, c)
	}
	slices.Sort(caps)
	for _, c := range caps {
		without := map[string]any{}
		for k, v := range FullCapabilities {
			if k != c {
				without[k] = v
			}
		}
		l, err := ListAs(ctx, opts, without)
		if err != nil {
			return nil, err
		}
		listed := l.names()
		for item := range extra {
			key, name, _ := cutKey(item)
			if !slices.Contains(listed[key], name) {
				full.Requires[item] = append(full.Requires[item], c)
			}
		}
	}
	return full, nil
}

func cutKey(item string) (key, name string, ok bool) {
	for _, k := range []string{"tools", "resources", "resourceTemplates", "prompts"} {
		if len(item) > len(k) && item[:len(k)+1] == k+"/" {
			return k, item[len(k)+1:], true
		}
	}
	return "", item, false
}

// names is the names in each list.
func (l *Lists) names() map[string][]string {
	out := map[string][]string{}
	for key, items := range map[string][]json.RawMessage{"tools": l.Tools, "resources": l.Resources, "resourceTemplates": l.Templates, "prompts": l.Prompts} {
		for _, it := range items {
			var head struct{ Name string }
			json.Unmarshal(it, &head)
			out[key] = append(out[key], head.Name)
		}
	}
	return out
}
