package toolsearch

import (
	"strings"
	"unicode"
)

// Words splits text into the words the index and queries are made of:
// lower case, split at anything that is not a letter or digit and at
// camelCase boundaries (listPullRequests, HTTPServer → http server),
// without stop words, stemmed, and with common API verbs folded.
func Words(text string) []string {
	var out []string
	for _, raw := range split(text) {
		w := strings.ToLower(raw)
		if stopWords[w] {
			continue
		}
		w = stem(w)
		if v, ok := verbs[w]; ok {
			w = v
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// split cuts text at non-alphanumerics and camelCase boundaries: a lower
// case letter or digit followed by an upper case one, and the last of a
// run of upper case letters followed by a lower case one (HTTPServer).
func split(text string) []string {
	var out []string
	rs := []rune(text)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush(i)
			start = i
		case unicode.IsLower(r) && unicode.IsUpper(prev) && i-1 > start:
			flush(i - 1)
			start = i - 1
		}
	}
	flush(len(rs))
	return out
}

// stem strips the common English inflections, so that "issues", "issue",
// "closing", "closed" and "close" meet: plurals, -ing, -ed, and a doubled
// final consonant they leave (running → run). It is deliberately light: it
// never takes -ing or -ed off a word of four letters or less, and leaves derivations
// (creation, creator) alone.
func stem(w string) string {
	w = plural(w)
	if len(w) <= 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 5:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		return undouble(restoreE(w[:len(w)-3]))
	case strings.HasSuffix(w, "ed") && len(w) > 4 && !strings.HasSuffix(w, "eed"):
		return undouble(restoreE(w[:len(w)-2]))
	}
	return w
}

// plural strips a plural s: repositories → repository, branches → branch,
// issues → issue; not the s of status, access or analysis.
func plural(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// restoreE puts back the e an -ing or -ed took (creat → create, updat →
// update, delet → delete) after the consonant-vowel-consonant-t endings
// and a few others where English drops it; a stem is only a key, so the
// rule need be consistent more than exact.
func restoreE(w string) string {
	for _, end := range []string{"at", "et", "it", "ut", "ov", "iv", "ag", "ur", "ar", "as", "os", "us", "ak", "ok", "ir", "ol", "ul", "ab", "ym", "yn", "nc", "rg", "dg"} {
		if strings.HasSuffix(w, end) {
			return w + "e"
		}
	}
	return w
}

// undouble turns a doubled final consonant into one (runn → run), except
// the ll, ss and zz that end words (install, access, buzz).
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouylsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// stopWords carry no meaning for finding a tool.
var stopWords = set("a an the of to for in on at by from with and or is are be it its this that these those " +
	"i me my we our you your can could would should please how what which who do does did want need " +
	"some any all there here via into about as so if then than also just")

// verbs folds the verbs APIs use for the same operation into one word, so
// "fetch a release" finds get_release. The groups are the usual CRUD
// vocabulary, not a list made for a particular API. The keys are stems.
var verbs = func() map[string]string {
	m := map[string]string{}
	for canonical, others := range map[string]string{
		"get":    "fetch retrieve read show view obtain lookup look",
		"list":   "enumerate browse",
		"create": "add make new post insert",
		"delete": "remove destroy erase drop",
		"update": "edit modify change patch alter",
		"search": "find query",
	} {
		for _, o := range strings.Fields(others) {
			m[stem(o)] = canonical
		}
	}
	return m
}()

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
