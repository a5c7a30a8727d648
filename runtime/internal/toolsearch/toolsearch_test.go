package toolsearch

import "testing"

var docs = []Doc{
	{Name: "list_issues", Title: "List repository issues", Description: "Lists the issues of a repository.", Params: []Param{{Name: "owner", Description: "The account owner"}, {Name: "repo", Description: "The repository name"}, {Name: "state", Description: "open or closed"}}},
	{Name: "create_issue", Title: "Create an issue", Description: "Opens a new issue in a repository.", Params: []Param{{Name: "title", Description: "The issue's title"}, {Name: "body", Description: "Its text"}}},
	{Name: "get_release", Title: "Get a release", Description: "Returns one release of a repository.", Params: []Param{{Name: "release_id", Description: "The release's id"}}},
	{Name: "delete_branch_protection", Title: "Delete branch protection", Description: "Removes the protection of a branch."},
	{Name: "getUserProfile", Description: "The profile of a user."},
}

func TestSearchRanks(t *testing.T) {
	ix := New(docs)
	for _, c := range []struct {
		query, want string
	}{
		{"open a new bug report in the repo", "create_issue"},
		{"which issues does the repository have", "list_issues"},
		{"fetch a release", "get_release"},
		{"stop protecting the main branch", "delete_branch_protection"},
		{"user profile", "getUserProfile"},
	} {
		hits := ix.Search(c.query, 3, nil)
		if len(hits) == 0 || docs[hits[0].Doc].Name != c.want {
			t.Errorf("Search(%q) = %v, want %s first", c.query, names(hits), c.want)
		}
	}
}

func TestSearchKeepAndLimit(t *testing.T) {
	ix := New(docs)
	hits := ix.Search("issue repository", 10, func(d int) bool { return docs[d].Name != "list_issues" })
	for _, h := range hits {
		if docs[h.Doc].Name == "list_issues" {
			t.Fatalf("keep refused list_issues, but it was returned: %v", names(hits))
		}
	}
	if got := ix.Search("issue repository release", 1, nil); len(got) != 1 {
		t.Fatalf("limit 1 returned %d hits", len(got))
	}
	if got := ix.Search("zebra", 5, nil); len(got) != 0 {
		t.Fatalf("a query sharing no word returned %v", names(got))
	}
	if got := (*Index)(nil).Search("issue", 5, nil); got != nil {
		t.Fatalf("nil index returned %v", got)
	}
}

func TestSearchKeywords(t *testing.T) {
	with := append([]Doc(nil), docs...)
	with[1].Keywords = "defect complaint"
	for _, d := range [][]Doc{docs, with} {
		hits := New(d).Search("file a defect complaint", 1, nil)
		found := len(hits) == 1 && d[hits[0].Doc].Name == "create_issue"
		if found != (d[1].Keywords != "") {
			t.Errorf("keywords %q: found create_issue: %v", d[1].Keywords, found)
		}
	}
}

func names(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, docs[h.Doc].Name)
	}
	return out
}

// TestSearchRepeatedWord: a word said twice (or in two forms of one stem)
// is not twice as wanted: the scores are those of the query saying it once,
// so "release release release issue" does not put the release first.
func TestSearchRepeatedWord(t *testing.T) {
	ix := New(docs)
	once := ix.Search("release issue", 5, nil)
	for _, q := range []string{"release release release issue", "releases release issue", "release issue issue"} {
		got := ix.Search(q, 5, nil)
		if len(got) != len(once) {
			t.Fatalf("Search(%q) = %v, want %v", q, got, once)
		}
		for i := range got {
			if got[i] != once[i] {
				t.Errorf("Search(%q) = %v, want %v (the query with each word once)", q, got, once)
				break
			}
		}
	}
}

// TestSearchTiesKeepOrder: docs of equal score come in the order given to
// New (the spec's declaration order), whatever order the map of postings
// visits them in.
func TestSearchTiesKeepOrder(t *testing.T) {
	var same []Doc
	for _, n := range []string{"alpha_widget", "bravo_widget", "charlie_widget", "delta_widget", "echo_widget"} {
		same = append(same, Doc{Name: n, Description: "A widget."})
	}
	for range 5 { // the postings come from a map: look more than once
		hits := New(same).Search("widget", 10, nil)
		if len(hits) != len(same) {
			t.Fatalf("Search found %d of %d widgets", len(hits), len(same))
		}
		for i, h := range hits {
			if h.Score != hits[0].Score {
				t.Fatalf("the docs do not tie: %v", hits)
			}
			if h.Doc != i {
				t.Fatalf("ties in the order %v, want the docs' order", hits)
			}
		}
	}
}

// TestSearchActionWord: the first word of the title (else the name) is the
// operation, weighed apart: "star repository" finds the tool that stars,
// although the name of another, which lists stars, holds both words (the
// scores are close: without the action word, list_stars_repository wins).
// TestSearchActionFromTitle: the action word is the title's first word
// when there is a title, the name's only without one.
func TestSearchActionFromTitle(t *testing.T) {
	d := []Doc{
		{Name: "stars_list_repository", Title: "List stars of a repository"},
		{Name: "add_star_to_repo", Title: "Star a repository"},
		{Name: "star_gist"},
		{Name: "gist_list"},
	}
	ix := New(d)
	if hits := ix.Search("star repository", 4, nil); len(hits) == 0 || d[hits[0].Doc].Name != d[1].Name {
		t.Errorf("Search(star repository) = %v, want %s first (its title's action)", hits, d[1].Name)
	}
	if hits := ix.Search("list repository stars", 4, nil); len(hits) == 0 || d[hits[0].Doc].Name != d[0].Name {
		t.Errorf("Search(list repository stars) = %v, want %s first", hits, d[0].Name)
	}
	if hits := ix.Search("star gist", 4, nil); len(hits) == 0 || d[hits[0].Doc].Name != d[2].Name {
		t.Errorf("Search(star gist) = %v, want %s first (no title: its name's action)", hits, d[2].Name)
	}
}

func TestSearchActionWord(t *testing.T) {
	d := []Doc{
		{Name: "list_stars_repository", Title: "List stars repository"},
		{Name: "star_it", Title: "Star a repository"},
	}
	ix := New(d)
	if hits := ix.Search("star repository", 2, nil); len(hits) == 0 || d[hits[0].Doc].Name != d[1].Name {
		t.Errorf("Search(star repository) = %v, want %s first", hits, d[1].Name)
	}
	if hits := ix.Search("list stars", 2, nil); len(hits) == 0 || d[hits[0].Doc].Name != d[0].Name {
		t.Errorf("Search(list stars) = %v, want %s first", hits, d[0].Name)
	}
}
