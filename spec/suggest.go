package spec

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// didYouMean returns `; did you mean "x"?` for the candidate closest to word,
// or "" when none is close. It is appended to messages about unknown names so
// that a typo is fixed without opening the documentation.
func didYouMean(word string, candidates []string) string {
	if c := suggest(word, candidates); c != "" {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}

// suggest returns the candidate that matches word ignoring case, else the one
// nearest by edit distance (at most 2, and less than word's length so that a
// short word is not "corrected" into an unrelated one). Ties go to the earlier
// candidate, so suggestions are deterministic.
func suggest(word string, candidates []string) string {
	for _, c := range candidates {
		if c != word && strings.EqualFold(c, word) {
			return c
		}
	}
	best, bestDist := "", 3
	n := utf8.RuneCountInString(word)
	for _, c := range candidates {
		if c == word {
			continue
		}
		if d := abs(n - utf8.RuneCountInString(c)); d >= bestDist {
			continue // the length difference alone is too far
		}
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d < bestDist && d < n {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent runes each cost 1,
// so "patren" is one edit from "pattern".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: the current one, and the two before it for
	// transpositions.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// quoteList formats names as `"a", "b" or "c"` for messages.
func quoteList(names []string, conj string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return joinList(q, conj)
}

// joinList formats items as `a, b or c`.
func joinList(items []string, conj string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}
