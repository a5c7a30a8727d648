package toolsearch

import (
	"strings"

	"github.com/mcpgen/mcpgen/internal/naming"
)

// Words splits text into the words the index and queries are made of:
// lower case, split at anything that is not a letter or digit and at
// camelCase boundaries (listPullRequests, HTTPServer → http server) as
// internal/naming splits spec names into Go names (one splitter for both),
// without stop words, stemmed, and with common API verbs folded.
func Words(text string) []string {
	out, _ := words(text)
	return out
}

// words is Words, and the first word of text, in lower case.
func words(text string) (out []string, lead string) {
	raws := naming.Words(text)
	for i := 0; i < len(raws); i++ {
		w := strings.ToLower(raws[i])
		if i == 0 {
			lead = w
		}
		if second := phrases[stem(w)]; second != nil && i+1 < len(raws) {
			if v, ok := second[strings.ToLower(raws[i+1])]; ok {
				w = v // turn on: enable
				i++
			}
		}
		if stopWords[w] {
			continue
		}
		if long, ok := abbreviations[w]; ok {
			out = append(out, Words(long)...)
			continue
		}
		if len(w) == 1 && (w[0] < '0' || w[0] > '9') {
			continue // the s of it's, a stray letter
		}
		w = stem(w)
		if strings.HasPrefix(w, "un") && reversible[w[2:]] {
			out = append(out, deleteWord) // unfollow: delete follow, as "stop following" is
			w = w[2:]
		} else if strings.HasPrefix(w, "re") && repeatable[w[2:]] {
			w = w[2:] // rebuild: build
		}
		if v, ok := verbs[w]; ok {
			w = v
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out, lead
}

// abbreviations are the short forms software people write for common
// words (a repo is a repository, a PR a pull request).
var abbreviations = map[string]string{
	"repo": "repository", "repos": "repositories",
	"pr": "pull request", "prs": "pull requests",
	"org": "organization", "orgs": "organizations",
	"config": "configuration", "configs": "configurations",
	"env": "environment", "envs": "environments",
	"info": "information", "dir": "directory", "dirs": "directories",
	"ref": "reference", "refs": "references",
	"auth": "authentication", "msg": "message", "msgs": "messages",
	"me": "authenticated", "my": "authenticated", "i": "authenticated", "mine": "authenticated", "myself": "authenticated",
	"stats": "statistics", "desc": "description", "admin": "administrator", "admins": "administrators",
}

// stem reduces a word to a key that its inflections and a few
// derivations share, so that "issues", "issue", "closing", "closed" and
// "close" meet, and "followers" meets "follow": it strips a plural s, -ing
// and -ed (and the doubled consonant they leave: running → run), -er, -or
// and -ee of a longer word (reviewer → review, contributor → contribut,
// assignee → assign), and a final
// e. The keys are not always words (create → creat); they need only be the
// same for the forms of a word. Words of four letters or less are kept.
func stem(w string) string {
	if len(w) <= 4 {
		return plural(w)
	}
	w = plural(w)
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 5:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4 && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) >= 7 && (strings.HasSuffix(w, "er") || strings.HasSuffix(w, "ee") || strings.HasSuffix(w, "or")) {
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// plural strips a plural s: repositories → repository, issues → issue;
// not the s of status, access or analysis.
func plural(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
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
	"we our you your can could would should please how what which who do does did want need " +
	"some any all there here via into about as so if then than also just " +
	"has have had was were been am will let up")

// phrases are two words (the first one's stem, the second) that mean one.
var phrases = map[string]map[string]string{
	"turn": {"on": "enable", "off": "disable"}, "switch": {"on": "enable", "off": "disable"},
	"set": {"up": "create"}, "look": {"up": "get", "for": "search"},
	// me after these is whom the answer is for, not the authenticated
	// user the request is about (show me the issue, find me a repository).
	"show": {"me": "show"}, "give": {"me": "get"}, "tell": {"me": "get"}, "get": {"me": "get"},
	"find": {"me": "find"}, "list": {"me": "list"},
}

// reversible are the stems of verbs that un- undoes (unfollow, unstar,
// unlock): un-X is searched as delete X. Other words that start with un
// (unread, unique, until) are kept whole.
var reversible = stems("follow star watch block pin lock archive assign subscribe install publish link suspend mute stack")

// repeatable are the stems of verbs that re- repeats (rebuild, rerun,
// reopen): re-X is searched as X. Other words that start with re
// (release, request, review) are kept whole.
var repeatable = stems("build run open deliver send deploy start try sync install generate")

// verbs folds the verbs APIs use for the same operation into one word, so
// "fetch a release" finds get_release, and a few nouns people use for
// the same thing (a bug is an issue, a project a repository). The groups
// are the usual CRUD and issue-tracker vocabulary, not a list made for a
// particular API. Keys and values are stems.
var verbs = func() map[string]string {
	m := map[string]string{}
	for canonical, others := range map[string]string{
		"get":     "fetch retrieve read show view obtain lookup look see display inspect describe",
		"list":    "enumerate browse",
		"create":  "add make new post insert",
		"delete":  "remove destroy erase drop stop clear purge wipe discard revoke",
		"update":  "edit modify change patch alter",
		"search":  "find query",
		"enable":  "activate",
		"disable": "deactivate",
		"check":   "verify whether",
		// nouns
		"issue":      "bug ticket",
		"latest":     "newest recent recently",
		"star":       "favorite favourite bookmark",
		"email":      "mail",
		"transfer":   "move",
		"user":       "people person",
		"repository": "project",
	} {
		for _, o := range strings.Fields(others) {
			m[stem(o)] = stem(canonical)
		}
	}
	return m
}()

func stems(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[stem(w)] = true
	}
	return m
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// queryWords are the words of a query: its Words, and check when it is a
// yes-or-no question (is, does, has … first), which an API answers with
// its check operations (check whether a user follows another); a leading
// imperative is read as the operation it names.
func queryWords(query string) []string {
	words, lead := words(query)
	if questions[lead] {
		words = append(words, checkWord)
	}
	if v, ok := imperatives[lead]; ok && len(words) > 0 {
		words[0] = v
	}
	return words
}

// imperatives are verbs that name an operation when a request opens with
// them ("open an issue": create one) and a state elsewhere ("list the open
// issues"). Values are stems.
var imperatives = map[string]string{"open": stem("create"), "close": stem("update")}

// The stems that un- and a yes-or-no question add to a query.
var deleteWord, checkWord = stem("delete"), stem("check")

// questions are the words that open a yes-or-no question.
var questions = set("is are does do did has have was were am")
