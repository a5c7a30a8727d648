package specschema

import "github.com/mcpgen/mcpgen/spec"

// Reachable is a schema with, as `$defs`, only the named types it reaches
// through $refs (directly or through other named types): close to the shape
// of an inputSchema or outputSchema as a client receives it. A root $ref is
// inlined, as the runtime sends it. A schema that reaches no named type has
// no `$defs`.
func Reachable(s *spec.Spec, sch *spec.Schema) map[string]any {
	byName := map[string]*spec.NamedType{}
	for _, nt := range s.Types {
		if nt != nil {
			byName[nt.Name] = nt
		}
	}
	for i := 0; sch != nil && sch.Kind == spec.KindRef && !sch.Nullable && i < len(byName); i++ {
		nt := byName[sch.Ref]
		if nt == nil {
			break
		}
		sch = nt.Schema
	}
	seen := map[string]bool{}
	var order []string
	var walk func(x *spec.Schema)
	walk = func(x *spec.Schema) {
		if x == nil {
			return
		}
		if x.Kind == spec.KindRef {
			if nt := byName[x.Ref]; nt != nil && !seen[x.Ref] {
				seen[x.Ref] = true
				order = append(order, x.Ref)
				walk(nt.Schema)
			}
			return
		}
		walk(x.Items)
		walk(x.Values)
		for _, p := range x.Properties {
			walk(p.Schema)
		}
	}
	walk(sch)
	doc := Of(sch)
	if len(order) > 0 {
		defs := map[string]any{}
		for _, name := range order {
			defs[name] = Of(byName[name].Schema)
		}
		doc["$defs"] = defs
	}
	return doc
}
