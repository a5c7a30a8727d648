package jsonwire

// Width counts what building valid JSON data into maps and slices would
// cost: its values (objects, arrays, strings, numbers and literals; each
// member of an object and each item of an array counts), and the members of
// its widest object. It allocates nothing for nesting up to 64 levels, and
// stops counting once values passes maxValues or an object passes
// maxMembers: a hostile message costs one pass over its bytes at most.
// data must be valid JSON (ScanObject checked it): it is not checked again.
func Width(data []byte, maxValues, maxMembers int) (values, widest int) {
	// The containers on the path: an object's members so far, or -1 for
	// an array (items count as values, but only objects are bounded by
	// maxMembers).
	var buf [64]int
	open := buf[:0]
	values = 1 // the top-level value
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++ // the escaped byte
				}
			}
		case '{', '[':
			n := -1
			if c == '{' {
				n = 0
			}
			if j := SkipSpace(data, i+1); j < len(data) && data[j] != '}' && data[j] != ']' {
				values++ // the first member or item
				if n == 0 {
					n = 1
				}
			}
			open = append(open, n)
			widest = max(widest, n)
		case ',':
			values++
			if top := len(open) - 1; top >= 0 && open[top] >= 0 {
				open[top]++
				widest = max(widest, open[top])
			}
		case '}', ']':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
		if values > maxValues || widest > maxMembers {
			return values, widest
		}
	}
	return values, widest
}
