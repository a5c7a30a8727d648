package toolsearch

import (
	"slices"
	"testing"
)

// The limit counts the docs keep accepts: hidden docs that rank first do
// not use up the limit, so a caller still gets limit hits from those it may
// see (docs/runtime.md search_tools: limit), ranked as without keep.
func TestSearchLimitAfterKeep(t *testing.T) {
	ix := New(docs)
	const query = "issue repository release"
	all := ix.Search(query, len(docs), nil)
	if len(all) < 3 {
		t.Fatalf("the query matches %d docs, want at least 3: %v", len(all), names(all))
	}
	for hidden := 1; hidden < len(all); hidden++ {
		top := map[int]bool{}
		for _, h := range all[:hidden] {
			top[h.Doc] = true
		}
		keep := func(d int) bool { return !top[d] }
		for limit := 1; limit <= len(all)-hidden; limit++ {
			got := ix.Search(query, limit, keep)
			if want := all[hidden : hidden+limit]; !slices.Equal(got, want) {
				t.Errorf("the %d best hidden, limit %d: %v, want %v", hidden, limit, names(got), names(want))
			}
		}
	}
}
