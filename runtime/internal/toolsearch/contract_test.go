package toolsearch

import (
	"sync"
	"testing"
)

// TestSearchEmptyAndBadLimits: the zero Index, an index of no docs, a
// limit of 0 or below and a query of no words find nothing.
func TestSearchEmptyAndBadLimits(t *testing.T) {
	var zero Index
	if got := zero.Search("issue", 5, nil); len(got) != 0 {
		t.Errorf("the zero Index found %v", got)
	}
	if got := New(nil).Search("issue", 5, nil); len(got) != 0 {
		t.Errorf("an index of no docs found %v", got)
	}
	ix := New(docs)
	for _, limit := range []int{0, -1, -100} {
		if got := ix.Search("issue", limit, nil); len(got) != 0 {
			t.Errorf("limit %d: %v, want nothing", limit, names(got))
		}
	}
	if got := ix.Search("issue", 1, nil); len(got) != 1 {
		t.Errorf("limit 1: %d hits, want 1", len(got))
	}
	for _, q := range []string{"", "   ", "the of a", "?!"} {
		if got := ix.Search(q, 5, nil); len(got) != 0 {
			t.Errorf("Search(%q) = %v, want nothing (no word)", q, names(got))
		}
	}
}

// TestSearchCompoundEdges: a query word of 4 letters or more counts in a
// longer word it starts when that word has 3 letters more, less than the
// word itself; shorter words, and longer words only 2 letters longer, do
// not count.
func TestSearchCompoundEdges(t *testing.T) {
	d := []Doc{
		{Name: "starxyz"}, // star + 3: a compound
		{Name: "starxy"},  // star + 2: not one
		{Name: "bluxyzw"}, // blu (3 letters) + 4: not one
		{Name: "star"},    // the word itself
		{Name: "zzz"},
	}
	ix := New(d)
	hits := ix.Search("star", 10, nil)
	if len(hits) != 2 || hits[0].Doc != 3 || hits[1].Doc != 0 {
		t.Fatalf("Search(star) = %v, want star then starxyz", hits)
	}
	if hits[1].Score >= hits[0].Score {
		t.Errorf("the compound scores %v, not less than the word's %v", hits[1].Score, hits[0].Score)
	}
	if got := ix.Search("blu", 10, nil); len(got) != 0 {
		t.Errorf("a 3-letter word counted in a longer one: %v", got)
	}
	if got := ix.Search("starxyz", 10, nil); len(got) != 1 || got[0].Doc != 0 {
		t.Errorf("a word does not count in a shorter one it is a compound of: %v", got)
	}
}

// TestSearchFieldWeights: one word in a more telling field ranks a doc
// above one with that word in a less telling field, all else equal (each
// pair of docs swaps the two fields' texts, so lengths match): name, title
// and keywords above the description, the description above parameter
// descriptions, parameter names above parameter descriptions.
func TestSearchFieldWeights(t *testing.T) {
	set := func(doc *Doc, field, text string) {
		switch field {
		case "name":
			doc.Name = text
		case "title":
			// The title's first word is the action: keep it apart.
			doc.Title = "zaction " + text
		case "keywords":
			doc.Keywords = text
		case "description":
			doc.Description = text
		case "param name":
			doc.Params = append(doc.Params, Param{Name: text})
		case "param description":
			doc.Params = append(doc.Params, Param{Name: "zparam", Description: text})
		case "param value":
			doc.Params = append(doc.Params, Param{Name: "zvalue", Enum: []string{text}})
		}
	}
	for _, c := range [][2]string{
		{"name", "description"}, {"title", "description"}, {"keywords", "description"},
		{"name", "param name"}, {"description", "param description"}, {"param name", "param description"},
		{"param value", "param description"}, {"title", "param value"},
	} {
		more, less := c[0], c[1]
		var a, b Doc // a has widget in the more telling field, b in the less
		set(&a, more, "widget")
		set(&a, less, "other")
		set(&b, more, "other")
		set(&b, less, "widget")
		filler := Doc{Name: "filler", Description: "filler"}
		for ai, order := range [][]Doc{{a, b, filler}, {b, a, filler}} {
			hits := New(order).Search("widget", 3, nil)
			if len(hits) != 2 {
				t.Fatalf("%s vs %s: %v", more, less, hits)
			}
			if hits[0].Doc != ai {
				t.Errorf("widget in the %s ranks below widget in the %s: %v", more, less, hits)
			}
			if hits[0].Score == hits[1].Score {
				t.Errorf("%s and %s weigh the same", more, less)
			}
		}
	}
}

// TestSearchBM25: a word in a shorter field counts more than in a longer
// one (length normalization), a word said more often in a field counts
// more but less than in proportion (k1), and a rare word counts more than
// a common one (idf).
func TestSearchBM25(t *testing.T) {
	ix := New([]Doc{
		{Name: "widget_alpha_bravo_charlie"},
		{Name: "widget"},
	})
	if hits := ix.Search("widget", 2, nil); len(hits) != 2 || hits[0].Doc != 1 || hits[0].Score == hits[1].Score {
		t.Errorf("the shorter name does not rank first: %v", hits)
	}
	ix = New([]Doc{
		{Name: "widget_other_other_other"},
		{Name: "widget_widget_widget_other"},
		{Name: "other_other_other_other"},
	})
	hits := ix.Search("widget", 3, nil)
	if len(hits) != 2 || hits[0].Doc != 1 {
		t.Fatalf("the name saying widget thrice does not rank first: %v", hits)
	}
	if hits[0].Score >= 2*hits[1].Score {
		t.Errorf("three times the word scores %v, at least twice once's %v: repeats are not bounded", hits[0].Score, hits[1].Score)
	}
	ix = New([]Doc{
		{Name: "common_x"},
		{Name: "rare_y"},
		{Name: "common_z"},
		{Name: "common_w"},
	})
	if hits := ix.Search("common rare", 4, nil); len(hits) != 4 || hits[0].Doc != 1 {
		t.Errorf("the doc with the rare word does not rank first: %v", hits)
	}
}

// TestSearchConcurrent: the index is only read by searches, which may run
// concurrently (go test -race).
func TestSearchConcurrent(t *testing.T) {
	ix := New(docs)
	want := ix.Search("issue repository release", 5, nil)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				got := ix.Search("issue repository release", 5, func(int) bool { return true })
				if len(got) != len(want) {
					t.Errorf("a concurrent search found %v, want %v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestStemEdges: the stemmer's rules at their edges, each form of a word
// meeting the others and words it must leave alone left alone.
func TestStemEdges(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"copied", "copy"}, {"tied", "tied"}, // -ied of a longer word is -y; 4 letters stay
		{"proceed", "proceed"}, {"agreed", "agreed"}, {"blocked", "block"}, // -eed is not -ed
		{"installing", "install"}, {"buzzing", "buzz"}, {"access", "access"}, // ll, zz, ss stay
		{"shipping", "ship"}, {"planned", "plan"}, // a doubled consonant goes
		{"analysis", "analysis"}, {"status", "status"}, {"bus", "bus"}, {"uses", "use"},
		{"policies", "policy"}, {"flies", "fly"}, {"ties", "tie"}, {"dried", "dri"}, {"tapes", "tape"},
		{"owner", "owner"}, {"reviewer", "review"}, {"employee", "employ"}, {"mentor", "mentor"},
		{"code", "code"}, {"commits", "commit"}, {"state", "stat"},
	} {
		got := Words(c.text)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("Words(%q) = %q, want [%s]", c.text, got, c.want)
		}
	}
	// A stray letter goes, a digit stays; stop words go.
	if got := Words("x 7 the with of"); len(got) != 1 || got[0] != "7" {
		t.Errorf("Words(x 7 the with of) = %q, want [7]", got)
	}
}
