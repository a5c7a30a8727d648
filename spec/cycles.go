package spec

import "strings"

// A named type may contain itself only where Go can: through a slice (array
// items), a map value, or a pointer (a nullable schema). Holding itself by
// value, even in an optional property, would be an infinitely large struct.
// cycles finds the loops of named types held by value and reports each once.

// byValue is one way a named type holds another by value: the path through
// its properties ("Node.next"), and where that path starts in the file.
type byValue struct {
	to   *NamedType
	path string
	pos  Pos
	ref  bool // the type is written as a bare $ref, with no property between
}

// edges lists the named types nt holds by value, in file order, one way each.
func (v *validator) edges(nt *NamedType) []byValue {
	var out []byValue
	seenTo := map[*NamedType]bool{}
	seenSchema := map[*Schema]bool{}
	var walk func(s *Schema, path string, start Pos, root bool)
	walk = func(s *Schema, path string, start Pos, root bool) {
		if s == nil || seenSchema[s] || s.Nullable && !root {
			return
		}
		seenSchema[s] = true
		switch s.Kind {
		case KindRef:
			if to := v.types[s.Ref]; to != nil && !seenTo[to] {
				seenTo[to] = true
				out = append(out, byValue{to: to, path: path, pos: orPos(start, s.RefPos), ref: root})
			}
		case KindObject:
			for _, p := range s.Properties {
				if p == nil {
					continue
				}
				walk(p.Schema, path+"."+p.Name, orPos(start, p.Pos), false)
			}
		}
		// Arrays and maps hold their elements through a slice or a map.
	}
	walk(nt.Schema, nt.Name, Pos{}, true)
	return out
}

func (v *validator) cycles() {
	var types []*NamedType // the distinct named types, in file order
	index := map[*NamedType]int{}
	for _, nt := range v.s.Types {
		if nt != nil && v.types[nt.Name] == nt {
			index[nt] = len(types)
			types = append(types, nt)
		}
	}
	edges := make([][]byValue, len(types))
	for i, nt := range types {
		edges[i] = v.edges(nt)
	}

	// Tarjan's strongly connected components, iterating in file order so
	// that the result does not depend on map order.
	var (
		next    int
		order   = make([]int, len(types)) // discovery number + 1; 0 = unseen
		low     = make([]int, len(types))
		onStack = make([]bool, len(types))
		stack   []int
		comps   [][]int
	)
	var strong func(i int)
	strong = func(i int) {
		next++
		order[i], low[i] = next, next
		stack = append(stack, i)
		onStack[i] = true
		for _, e := range edges[i] {
			j := index[e.to]
			switch {
			case order[j] == 0:
				strong(j)
				low[i] = min(low[i], low[j])
			case onStack[j]:
				low[i] = min(low[i], order[j])
			}
		}
		if low[i] == order[i] {
			var comp []int
			for {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[j] = false
				comp = append(comp, j)
				if j == i {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	for i := range types {
		if order[i] == 0 {
			strong(i)
		}
	}

	for _, comp := range comps {
		in := map[int]bool{}
		start := comp[0]
		for _, i := range comp {
			in[i] = true
			start = min(start, i)
		}
		loop := shortestLoop(start, in, edges, index)
		if loop == nil {
			continue // a single type that does not hold itself
		}
		v.reportCycle(types[start], loop)
	}
}

// shortestLoop finds the shortest path of edges from start back to start
// within the component in, by breadth-first search.
func shortestLoop(start int, in map[int]bool, edges [][]byValue, index map[*NamedType]int) []byValue {
	type step struct {
		from int
		e    byValue
	}
	prev := map[int]step{}
	queue := []int{start}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, e := range edges[i] {
			j := index[e.to]
			if !in[j] {
				continue
			}
			if j == start {
				loop := []byValue{e}
				for k := i; k != start; k = prev[k].from {
					loop = append([]byValue{prev[k].e}, loop...)
				}
				return loop
			}
			if _, seen := prev[j]; !seen {
				prev[j] = step{from: i, e: e}
				queue = append(queue, j)
			}
		}
	}
	return nil
}

func (v *validator) reportCycle(nt *NamedType, loop []byValue) {
	paths := make([]string, len(loop))
	onlyRefs := true
	for i, e := range loop {
		paths[i] = e.path
		onlyRefs = onlyRefs && e.ref
	}
	if onlyRefs {
		v.errorf(loop[0].pos, "type %q is defined as itself through %s → %s", nt.Name, strings.Join(paths, " → "), nt.Name)
		return
	}
	v.errorf(loop[0].pos, "type %q contains itself through %s; make the property nullable or an array", nt.Name, strings.Join(paths, " → "))
}
