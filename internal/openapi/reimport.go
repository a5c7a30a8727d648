package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// provenance starts the comment the importer writes above each tool: the
// operation it came from. It is how a re-import finds a renamed tool.
const provenance = "openapi: "

// Lock is what the last import wrote, kept beside the spec
// (NAME.openapi-lock.json): for each operation imported, its tool name
// then and a hash of the text a person curates (title, description,
// annotations) as imported; and the names of the types the import wrote.
// Against it a re-import tells a person's edit from an upstream change.
type Lock struct {
	Operations map[string]LockEntry `json:"operations"`
	Types      []string             `json:"types"`
}

// LockEntry is one imported operation.
type LockEntry struct {
	Tool string `json:"tool"`
	Text string `json:"text"`
}

// curated are the keys of a tool a person edits and a re-import keeps.
var curated = []string{"title", "description", "annotations"}

// textHash hashes a tool's curated keys as values (not as formatted YAML,
// so that re-indenting is no edit).
func textHash(tool *yaml.Node) string {
	v := map[string]any{}
	for _, k := range curated {
		if n := (ymap{N: tool}).Get(k); n != nil {
			var x any
			n.Decode(&x)
			v[k] = x
		}
	}
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// lockOf is the lock of a fresh import.
func lockOf(doc *yaml.Node) *Lock {
	l := &Lock{Operations: map[string]LockEntry{}}
	root := ymap{N: doc.Content[0]}
	if tools := root.Get("tools"); tools != nil {
		for i := 0; i+1 < len(tools.Content); i += 2 {
			if op, ok := strings.CutPrefix(strings.TrimPrefix(tools.Content[i].HeadComment, "# "), provenance); ok {
				l.Operations[op] = LockEntry{Tool: tools.Content[i].Value, Text: textHash(tools.Content[i+1])}
			}
		}
	}
	if types := root.Get("types"); types != nil {
		for i := 0; i < len(types.Content); i += 2 {
			l.Types = append(l.Types, types.Content[i].Value)
		}
	}
	return l
}

// Lock returns the lock of this import, to write beside the spec.
func (r *Result) Lock() (*Lock, error) {
	if r.lock != nil {
		return r.lock, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(r.YAML, &doc); err != nil {
		return nil, err
	}
	return lockOf(&doc), nil
}

// Reimport imports a newer description into a spec a person has curated
// since the import that wrote lock. It keeps what the person changed:
// renamed tools (found by the operation in the comment above each), edited
// titles, descriptions and annotations, removed tools, and tools and types
// they added; everything else (inputs, outputs, the imported types, new
// and removed operations) comes from the description. Result.Changes says
// what changed upstream and what was kept.
func Reimport(spec []byte, lock *Lock, data []byte, opts Options) (*Result, error) {
	res, err := Import(data, opts)
	if err != nil {
		return nil, err
	}
	var fresh, old yaml.Node
	if err := yaml.Unmarshal(res.YAML, &fresh); err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(spec, &old); err != nil || old.Kind != yaml.DocumentNode || old.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("reading the spec to re-import into: not a YAML mapping (%v)", err)
	}
	freshRoot, oldRoot := ymap{N: fresh.Content[0]}, ymap{N: old.Content[0]}
	oldTools := oldRoot.Get("tools")
	if oldTools == nil {
		oldTools = newMap().N
	}
	// The person's tools by the operation they came from.
	type curatedTool struct{ key, value *yaml.Node }
	byOp := map[string]curatedTool{}
	var own []curatedTool // tools a person added (no operation)
	for i := 0; i+1 < len(oldTools.Content); i += 2 {
		k := oldTools.Content[i]
		if op, ok := strings.CutPrefix(strings.TrimPrefix(k.HeadComment, "# "), provenance); ok {
			byOp[op] = curatedTool{k, oldTools.Content[i+1]}
		} else {
			own = append(own, curatedTool{k, oldTools.Content[i+1]})
		}
	}
	changes := &notes{}
	tools := newMap()
	freshTools := freshRoot.Get("tools")
	newLock := &Lock{Operations: map[string]LockEntry{}}
	var renamed, edited, removed int
	for i := 0; i+1 < len(freshTools.Content); i += 2 {
		k, v := freshTools.Content[i], freshTools.Content[i+1]
		op := res.Tools[k.Value]
		entry := LockEntry{Tool: k.Value, Text: textHash(v)}
		newLock.Operations[op] = entry
		was, kept := byOp[op]
		prev, imported := lock.Operations[op]
		switch {
		case kept:
			if was.key.Value != k.Value {
				renamed++
			}
			k = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: was.key.Value, HeadComment: k.HeadComment}
			if textHash(was.value) != prev.Text {
				edited++
				if entry.Text != prev.Text {
					changes.add("%s (%s): upstream changed its title, description or annotations; kept yours", was.key.Value, op)
				}
				for _, key := range curated {
					ymap{N: v}.Del(key)
					if n := (ymap{N: was.value}).Get(key); n != nil {
						ymap{N: v}.Set(key, n)
					}
				}
				// Keep the order a tool is written in: title, description, annotations first.
				v.Content = reorder(v.Content)
			} else if entry.Text != prev.Text {
				changes.add("%s (%s): upstream changed its title, description or annotations", was.key.Value, op)
			}
			for _, key := range []string{"input", "output", "http"} {
				if key == "http" && (ymap{N: was.value}).Get(key) == nil {
					continue // written by this mcpgen for the first time, not changed upstream
				}
				if !sameValue(ymap{N: was.value}.Get(key), ymap{N: v}.Get(key)) {
					changes.add("%s (%s): upstream changed its %s", was.key.Value, op, key)
				}
			}
			// What a person added to a tool (scopes, permission, idempotency…) stays.
			for j := 0; j+1 < len(was.value.Content); j += 2 {
				key := was.value.Content[j].Value
				if (ymap{N: v}).Get(key) == nil && key != "input" && key != "output" && key != "http" {
					ymap{N: v}.Set(key, was.value.Content[j+1])
				}
			}
		case imported:
			removed++
			continue // the person removed it; it stays removed
		default:
			changes.add("%s (%s): new upstream; added", k.Value, op)
		}
		tools.N.Content = append(tools.N.Content, k, v)
	}
	for op, t := range byOp {
		if _, ok := newLock.Operations[op]; !ok {
			changes.add("%s (%s): gone upstream (or no longer selected); removed", t.key.Value, op)
		}
	}
	// Operations the person removed stay in the lock, so that they stay removed.
	for op, e := range lock.Operations {
		if _, ok := newLock.Operations[op]; !ok {
			if _, there := byOp[op]; !there {
				newLock.Operations[op] = e
			}
		}
	}
	for _, t := range own {
		tools.N.Content = append(tools.N.Content, t.key, t.value)
	}
	// Types: the description's, then those the person added.
	types := freshRoot.Get("types")
	if types == nil {
		types = newMap().N
	}
	newLock.Types = lockOf(&fresh).Types
	addedTypes := 0
	if oldTypes := oldRoot.Get("types"); oldTypes != nil {
		for i := 0; i+1 < len(oldTypes.Content); i += 2 {
			name := oldTypes.Content[i].Value
			if now := (ymap{N: types}).Get(name); now != nil && slices.Contains(lock.Types, name) && !sameValue(now, oldTypes.Content[i+1]) {
				changes.add("type %s: upstream changed it", name)
			}
			if !slices.Contains(lock.Types, name) && (ymap{N: types}).Get(name) == nil {
				types.Content = append(types.Content, oldTypes.Content[i], oldTypes.Content[i+1])
				addedTypes++
			}
		}
	}
	if len(types.Content) > 0 {
		oldRoot.Set("types", types)
	}
	oldRoot.Set("tools", tools.N)
	// The upstream section is the person's once written; a spec imported
	// before mcpgen wrote one gets it now.
	if oldRoot.Get("upstream") == nil {
		if up := freshRoot.Get("upstream"); up != nil {
			oldRoot.Set("upstream", up)
			changes.add("upstream: added (base URL and auth from the description)")
		}
	}
	slices.Sort(changes.list)
	changes.add("kept your curation: tools renamed %d, edited %d, removed %d, added %d; types added %d", renamed, edited, removed, len(own), addedTypes)
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&old); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	res.YAML = []byte(b.String())
	res.Changes = changes.list
	res.lock = newLock
	return res, nil
}

// reorder puts a tool's curated keys first, in their order, after title.
func reorder(c []*yaml.Node) []*yaml.Node {
	var first, rest []*yaml.Node
	for i := 0; i+1 < len(c); i += 2 {
		if slices.Contains(curated, c[i].Value) {
			first = append(first, c[i], c[i+1])
		} else {
			rest = append(rest, c[i], c[i+1])
		}
	}
	return append(first, rest...)
}

func sameValue(a, b *yaml.Node) bool {
	var x, y any
	if a != nil {
		a.Decode(&x)
	}
	if b != nil {
		b.Decode(&y)
	}
	xj, _ := json.Marshal(x)
	yj, _ := json.Marshal(y)
	return string(xj) == string(yj)
}
