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
		{"HTTPServer v2Beta", []string{"http", "server", "v2", "beta"}},
		{"Fetch the repositories", []string{"get", "repository"}},
		{"closing closed close", []string{"close", "close", "close"}},
		{"created creating", []string{"create", "create"}},
		{"added starred running", []string{"create", "star", "run"}},
		{"branches status access", []string{"branch", "status", "access"}},
		{"remove a label", []string{"delete", "label"}},
	} {
		if got := Words(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
