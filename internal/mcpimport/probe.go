package mcpimport

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
)

// uiExtension is the MCP Apps extension: servers list their app tools only
// to clients that declare it.
const uiExtension = "io.modelcontextprotocol/ui"

// FullCapabilities is every client capability (and the extension) a
// server may list more items for, as a client that has them all declares
// them.
var FullCapabilities = map[string]any{
	"roots":       map[string]any{"listChanged": true},
	"sampling":    map[string]any{},
	"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
	"tasks": map[string]any{"requests": map[string]any{
		"sampling":    map[string]any{"createMessage": map[string]any{}},
		"elicitation": map[string]any{"create": map[string]any{}},
	}},
	"extensions": map[string]any{uiExtension: map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}},
}

// Requirement is what a client must declare to be shown an item.
type Requirement struct {
	Capabilities []string `json:"capabilities,omitempty"`
	Extensions   []string `json:"extensions,omitempty"`
}

// probeUnits are what Probe leaves out one at a time: each capability,
// then each extension.
func probeUnits() (caps, exts []string) {
	for c := range FullCapabilities {
		if c != "extensions" {
			caps = append(caps, c)
		}
	}
	slices.Sort(caps)
	for e := range FullCapabilities["extensions"].(map[string]any) {
		exts = append(exts, e)
	}
	slices.Sort(exts)
	return caps, exts
}

// without is FullCapabilities less one capability or one extension.
func without(capability, extension string) map[string]any {
	out := maps.Clone(FullCapabilities)
	delete(out, capability)
	if extension != "" {
		ext := maps.Clone(out["extensions"].(map[string]any))
		delete(ext, extension)
		out["extensions"] = ext
		if len(ext) == 0 {
			delete(out, "extensions")
		}
	}
	return out
}

// Probe reads the lists as a client with every capability, and finds the
// items a bare client is not shown: servers list some tools only to
// clients that can serve them (sampling, elicitation, roots, tasks, MCP
// Apps). For each such item, what it needs is what without which it is no
// longer listed, each capability and extension left out in turn;
// Lists.Requires holds it. Over stdio every listing starts the server
// anew (a session each): 2 sessions when every client is shown the same
// lists, 7 otherwise.
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
	shown := bare.names()
	for key, names := range full.names() {
		for _, n := range names {
			if !slices.Contains(shown[key], n) {
				extra[key+"/"+n] = true
			}
		}
	}
	if len(extra) == 0 {
		return bare, nil
	}
	full.Requires = map[string]*Requirement{}
	for item := range extra {
		full.Requires[item] = &Requirement{}
	}
	caps, exts := probeUnits()
	check := func(caps map[string]any, add func(r *Requirement)) error {
		l, err := ListAs(ctx, opts, caps)
		if err != nil {
			return err
		}
		listed := l.names()
		for item := range extra {
			key, name := cutKey(item)
			if !slices.Contains(listed[key], name) {
				add(full.Requires[item])
			}
		}
		return nil
	}
	for _, c := range caps {
		if err := check(without(c, ""), func(r *Requirement) { r.Capabilities = append(r.Capabilities, c) }); err != nil {
			return nil, err
		}
	}
	for _, e := range exts {
		if err := check(without("", e), func(r *Requirement) { r.Extensions = append(r.Extensions, e) }); err != nil {
			return nil, err
		}
	}
	return full, nil
}

// cutKey splits "tools/NAME" (resources/, resourceTemplates/, prompts/).
func cutKey(item string) (key, name string) {
	for _, k := range []string{"tools", "resources", "resourceTemplates", "prompts"} {
		if len(item) > len(k) && item[:len(k)+1] == k+"/" {
			return k, item[len(k)+1:]
		}
	}
	return "", item
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
