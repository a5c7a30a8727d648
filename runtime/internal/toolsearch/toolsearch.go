// Package toolsearch ranks tools for a natural-language query: BM25F over
// a tool's name, title, description and parameters, with words split at
// snake_case and camelCase boundaries, lightly stemmed, and common API verbs
// folded into one word each (fetch and retrieve are get). It runs in
// memory, with no network and no model: the index is built once from the
// tools and only read afterwards, so searches may run concurrently.
package toolsearch

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
)

// Doc is what a tool offers to be found by.
type Doc struct {
	Name        string
	Title       string
	Description string
	Params      []Param // the input's properties
	Keywords    string  // words users say for it that the rest does not use
}

// Param is one property of a tool's input.
type Param struct {
	Name        string
	Description string
	Enum        []string // the values it takes, if it has a list of them
}

// Hit is one ranked tool: its index in the docs given to New.
type Hit struct {
	Doc   int
	Score float64
}

// The fields of a document. A query word in a tool's name says more than
// one in a parameter's description; each field's length is normalized
// against that field's average (BM25F).
const (
	fieldName   = iota
	fieldAction // the first word of the title (or name): the operation
	fieldTitle
	fieldDescription
	fieldKeywords
	fieldParamNames
	fieldParamDescriptions
	fieldParamValues // the values of enumerated parameters
	numFields
)

// weights are the fields' weights, chosen on bench/search/queries.tsv
// (its tuning half until issue 33, all of it since; BENCHMARKS.md reports
// it and the held-out bench/search/heldout.tsv): the name and its leading
// verb count most, the description, long and full of boilerplate in
// imported APIs, little, as do the values of enumerated parameters
// (approve is a review's event).
var weights = [numFields]float64{
	fieldName:              3.0,
	fieldAction:            2.0,
	fieldTitle:             2.0,
	fieldDescription:       0.3,
	fieldKeywords:          2.0, // the author's words for the tool, weighed as its title
	fieldParamNames:        0.3,
	fieldParamDescriptions: 0.15,
	fieldParamValues:       0.3,
}

// BM25 parameters: k1 bounds how much repeating a word helps; b how much
// a long field is discounted.
const (
	k1 = 1.2
	b  = 0.75
)

// Index is a built index. The zero value finds nothing.
type Index struct {
	n       int
	terms   map[string]*postings
	sorted  []string // the terms, sorted
	avgLen  [numFields]float64
	lengths [][numFields]float64 // per doc
}

// postings lists the docs a term occurs in, with its count per field.
type postings struct {
	docs   []int
	counts [][numFields]float64
}

// New builds the index of docs.
func New(docs []Doc) *Index {
	ix := &Index{n: len(docs), terms: map[string]*postings{}, lengths: make([][numFields]float64, len(docs))}
	var total [numFields]float64
	for d, doc := range docs {
		var fields [numFields][]string
		fields[fieldName] = Words(doc.Name)
		fields[fieldTitle] = Words(doc.Title)
		fields[fieldAction] = action(fields[fieldTitle], fields[fieldName])
		fields[fieldDescription] = Words(doc.Description)
		fields[fieldKeywords] = Words(doc.Keywords)
		for _, p := range doc.Params {
			fields[fieldParamNames] = append(fields[fieldParamNames], Words(p.Name)...)
			fields[fieldParamDescriptions] = append(fields[fieldParamDescriptions], Words(p.Description)...)
			for _, v := range p.Enum {
				fields[fieldParamValues] = append(fields[fieldParamValues], Words(v)...)
			}
		}
		counts := map[string]*[numFields]float64{}
		for f, words := range fields {
			ix.lengths[d][f] = float64(len(words))
			total[f] += float64(len(words))
			for _, w := range words {
				c := counts[w]
				if c == nil {
					c = new([numFields]float64)
					counts[w] = c
				}
				c[f]++
			}
		}
		for w, c := range counts {
			p := ix.terms[w]
			if p == nil {
				p = &postings{}
				ix.terms[w] = p
			}
			p.docs = append(p.docs, d)
			p.counts = append(p.counts, *c)
		}
	}
	for t := range ix.terms {
		ix.sorted = append(ix.sorted, t)
	}
	slices.Sort(ix.sorted)
	for f := range total {
		if ix.n > 0 {
			ix.avgLen[f] = total[f] / float64(ix.n)
		}
	}
	return ix
}

// action is the operation a tool performs: the first word of its title,
// or of its name without a title. Titles and names of API operations lead
// with their verb (Create a release, list_issues), and a request names the
// operation it wants: weighing the match of that one word apart tells
// "star a repository" from "list starred repositories".
func action(title, name []string) []string {
	if len(title) > 0 {
		return title[:1]
	}
	if len(name) > 0 {
		return name[:1]
	}
	return nil
}

// compoundWeight is how much a query word counts in a longer word it
// starts (star in stargazers, user in username, creat in creation): a
// compound or a derivation, worth less than the word itself. The word must
// have 4 letters and the longer one 3 more, so that short words and
// inflections the stemmer left (issu, issuer) do not spread.
const compoundWeight = 0.35

// compound reports whether term is a longer word that w starts.
func compound(w, term string) bool {
	return len(w) >= 4 && len(term) >= len(w)+3 && strings.HasPrefix(term, w)
}

// score adds the scores of the docs in p, times weight, to scores.
func (ix *Index) score(p *postings, weight float64, scores []float64) {
	df := float64(len(p.docs))
	idf := math.Log(1 + (float64(ix.n)-df+0.5)/(df+0.5))
	for i, d := range p.docs {
		tf := 0.0
		for f := range numFields {
			if p.counts[i][f] == 0 {
				continue
			}
			norm := 1.0
			if ix.avgLen[f] > 0 {
				norm = 1 - b + b*ix.lengths[d][f]/ix.avgLen[f]
			}
			tf += weights[f] * p.counts[i][f] / norm
		}
		scores[d] += weight * idf * tf / (k1 + tf)
	}
}

// Search returns at most limit docs ranked for query, best first, among
// those keep accepts (nil: all). Docs that share no word with the query,
// nor have a compound of one, are not returned; ties keep the docs' order.
func (ix *Index) Search(query string, limit int, keep func(doc int) bool) []Hit {
	if ix == nil || ix.n == 0 || limit <= 0 {
		return nil
	}
	scores := make([]float64, ix.n) // a doc's is above 0 once it matched
	// Each word once (a word said twice is not twice as wanted), in one
	// order whatever the query's: floating-point sums depend on their
	// order, and two tools that tie for "a b" must tie for "b a" too.
	words := queryWords(query)
	slices.Sort(words)
	for _, w := range slices.Compact(words) {
		if p := ix.terms[w]; p != nil {
			ix.score(p, 1, scores)
		}
		if len(w) < 4 {
			continue
		}
		for i := sort.SearchStrings(ix.sorted, w); i < len(ix.sorted) && strings.HasPrefix(ix.sorted[i], w); i++ {
			if compound(w, ix.sorted[i]) {
				ix.score(ix.terms[ix.sorted[i]], compoundWeight, scores)
			}
		}
	}
	matched := 0
	for _, s := range scores {
		if s > 0 {
			matched++
		}
	}
	hits := make([]Hit, 0, matched)
	for d, s := range scores {
		if s > 0 && (keep == nil || keep(d)) {
			hits = append(hits, Hit{Doc: d, Score: s})
		}
	}
	slices.SortFunc(hits, func(x, y Hit) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		return cmp.Compare(x.Doc, y.Doc)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}
