package toolsearch

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"list_pull_requests", []string{"list", "pull", "request"}},
		{"listPullRequests", []string{"list", "pull", "request"}},
		// internal/naming's splitting: a word that runs on from digits
		// stays one (v2Beta, as in the Go name V2Beta); digits then a
		// lower case word split (2fa).
		{"HTTPServer v2Beta 2fa", []string{"http", "server", "v2beta", "2", "fa"}},
		{"Fetch the repositories", []string{"get", "repository"}},
		{"closing closed close closes", []string{"clos", "clos", "clos", "clos"}},
		{"created creating create", []string{"creat", "creat", "creat"}},
		{"added starred running", []string{"creat", "star", "run"}},
		{"branches status access", []string{"branch", "status", "access"}},
		{"followers follows following", []string{"follow", "follow", "follow"}},
		{"assignees assigned", []string{"assign", "assign"}},
		{"cloned clones", []string{"clon", "clon"}},
		{"contributors contributed", []string{"contribut", "contribut"}},
		{"remove a label", []string{"delet", "label"}},
		// first person is the authenticated user; a stray letter goes.
		{"open a PR in my repo", []string{"open", "pull", "request", "authenticat", "repository"}},
		{"who follows me? it's me", []string{"follow", "authenticat", "authenticat"}},
		// un- undoes a verb, re- repeats it; other words keep them.
		{"unfollow unstarring rebuild rerun", []string{"delet", "follow", "delet", "star", "build", "run"}},
		{"unread release request", []string{"unread", "releas", "request"}},
		{"stop watching", []string{"delet", "watch"}},
		{"a bug ticket", []string{"issu", "issu"}},
		// two-word verbs are one.
		{"turned on, switch off, set up, look up", []string{"enabl", "disabl", "creat", "get"}},
		// me after show is whom the answer is for.
		{"show me my issues", []string{"get", "authenticat", "issu"}},
	} {
		if got := Words(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestQueryWords: a yes-or-no question asks for a check; a leading
// imperative names the operation.
func TestQueryWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"does octocat follow defunkt", []string{"octocat", "follow", "defunkt", "check"}},
		{"Is the repo starred", []string{"repository", "star", "check"}},
		{"list who is starring it", []string{"list", "star"}},
		// open and close lead as verbs, elsewhere they are states.
		{"open an issue", []string{"creat", "issu"}},
		{"Close issue 9", []string{"updat", "issu", "9"}},
		{"list the open issues", []string{"list", "open", "issu"}},
	} {
		if got := queryWords(c.text); !slices.Equal(got, c.want) {
			t.Errorf("queryWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
