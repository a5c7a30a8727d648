package toolsearch

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// vocabulary is what the random docs and queries are made of: a few words
// shared by many docs, so that scores tie, differ and interleave.
var vocabulary = []string{"list", "create", "delete", "issue", "release", "repository", "user", "comment", "label", "star", "file", "branch", "stargazer", "username"}

func randomWords(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	return out
}

func randomDocs(rng *rand.Rand) []Doc {
	docs := make([]Doc, 3+rng.IntN(15))
	for i := range docs {
		docs[i] = Doc{Name: strings.Join(randomWords(rng, 1+rng.IntN(3)), "_"), Description: strings.Join(randomWords(rng, rng.IntN(8)), " ")}
		if rng.IntN(2) == 0 {
			docs[i].Title = strings.Join(randomWords(rng, 1+rng.IntN(3)), " ")
		}
		if rng.IntN(3) == 0 {
			docs[i].Params = []Param{{Name: vocabulary[rng.IntN(len(vocabulary))], Description: strings.Join(randomWords(rng, 2), " "), Enum: randomWords(rng, rng.IntN(3))}}
		}
	}
	return docs
}

// TestSearchInvariants: on random docs and queries, Search's promises
// hold: hits are best first, ties in the docs' order; a smaller limit is a
// prefix of a larger one; keep filters without reordering; a hit shares a
// word with the query (or has a compound of one) and every doc that does
// is a hit; the query's word
// order, and a word said again, change nothing (but for a question word
// or an imperative leading it, queryWords, which the vocabulary does not
// have); one more query word never
// lowers a doc's score; a doc's score does not depend on where it is in
// the list given to New.
func TestSearchInvariants(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		docs := randomDocs(rng)
		ix := New(docs)
		q := randomWords(rng, 1+rng.IntN(4))
		query := strings.Join(q, " ")
		all := ix.Search(query, len(docs)+1, nil)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d, query %q: "+format, append([]any{seed, query}, args...)...)
		}
		for i := 1; i < len(all); i++ {
			if a, b := all[i-1], all[i]; a.Score < b.Score || a.Score == b.Score && a.Doc > b.Doc {
				fail("hits %v then %v: not best first, ties in the docs' order", a, b)
			}
		}
		for k := 0; k <= len(all); k++ {
			if got := ix.Search(query, k, nil); !slices.Equal(got, all[:k]) {
				fail("limit %d: %v, want the first %d of %v", k, got, k, all)
			}
		}
		keep := func(d int) bool { return d%2 == 0 }
		var want []Hit
		for _, h := range all {
			if keep(h.Doc) {
				want = append(want, h)
			}
		}
		if got := ix.Search(query, len(docs), keep); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			fail("with keep: %v, want %v", got, want)
		}
		hit := map[int]float64{}
		for _, h := range all {
			if h.Score <= 0 {
				fail("hit %v has no score", h)
			}
			hit[h.Doc] = h.Score
		}
		qw := map[string]bool{}
		for _, w := range queryWords(query) {
			qw[w] = true
		}
		for d, doc := range docs {
			text := doc.Name + " " + doc.Title + " " + doc.Description
			for _, p := range doc.Params {
				text += " " + p.Name + " " + p.Description + " " + strings.Join(p.Enum, " ")
			}
			shares := slices.ContainsFunc(Words(text), func(w string) bool {
				return qw[w] || slices.ContainsFunc(slices.Collect(maps.Keys(qw)), func(q string) bool { return compound(q, w) })
			})
			if _, ok := hit[d]; ok != shares {
				fail("doc %d (%q) shares a query word: %v, is a hit: %v", d, text, shares, ok)
			}
		}
		shuffled := slices.Clone(q)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again := append(shuffled, q[rng.IntN(len(q))])
		if got := ix.Search(strings.Join(again, " "), len(docs)+1, nil); !slices.Equal(got, all) {
			fail("the query reordered with a word again (%q): %v, want %v", strings.Join(again, " "), got, all)
		}
		more := query + " " + vocabulary[rng.IntN(len(vocabulary))]
		for _, h := range ix.Search(more, len(docs)+1, nil) {
			delete(hit, h.Doc)
			if s, ok := hitScore(all, h.Doc); ok && h.Score < s-1e-12 {
				fail("%q scores doc %d %v, lower than %v without the last word", more, h.Doc, h.Score, s)
			}
		}
		if len(hit) > 0 {
			fail("%q loses docs %v", more, hit)
		}
		perm := rng.Perm(len(docs))
		moved := make([]Doc, len(docs))
		for i, p := range perm {
			moved[p] = docs[i]
		}
		for _, h := range New(moved).Search(query, len(docs)+1, nil) {
			orig := slices.Index(perm, h.Doc)
			if s, _ := hitScore(all, orig); math.Abs(s-h.Score) > 1e-9 {
				fail("doc %d scores %v, and %v once moved to %d", orig, s, h.Score, h.Doc)
			}
		}
	}
}

func hitScore(hits []Hit, doc int) (float64, bool) {
	for _, h := range hits {
		if h.Doc == doc {
			return h.Score, true
		}
	}
	return 0, false
}
