package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/examples/wpsearch/wpsearchmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// library implements wpsearchmcp.Handler over the posts of blog. It is
// read-only, so it needs no lock.
type library struct {
	posts []post
}

var _ wpsearchmcp.Handler = library{}

// SearchPosts answers with one resource_link per matching post, best first,
// after one line of text saying what was found. The links are built by the
// generated PostParams.Link, so each names a URI that ReadPost serves.
func (l library) SearchPosts(ctx context.Context, in *wpsearchmcp.SearchPostsInput) (*runtime.CallToolResult, error) {
	words := queryWords(in.Query)
	if len(words) == 0 {
		return nil, fmt.Errorf("the query %q has no words to look for; use letters or digits", in.Query)
	}
	type hit struct {
		p     *post
		score int
	}
	var hits []hit
	for i := range l.posts {
		if s := score(&l.posts[i], words); s > 0 {
			hits = append(hits, hit{&l.posts[i], s})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score }) // ties keep id order
	if len(hits) == 0 {
		return runtime.TextResult(fmt.Sprintf("No post matches %q; try fewer or other words.", in.Query)), nil
	}
	limit := int(in.Limit.Value) // 5 when the client left it out: the runtime applies the spec's default
	shown := hits[:min(limit, len(hits))]
	res := &runtime.CallToolResult{Content: make([]runtime.Content, 0, len(shown)+1)}
	res.Content = append(res.Content, runtime.Text(fmt.Sprintf(
		"%d of %d posts matching %q, best first. Read the ones you need with resources/read on their post:// URI.",
		len(shown), len(hits), in.Query)))
	for _, h := range shown {
		link := wpsearchmcp.PostParams{ID: h.p.ID}.Link()
		link.Title = h.p.Title
		link.Description = fmt.Sprintf("%s (%s, %s)", h.p.Summary, h.p.Category, h.p.Published)
		link.Size = new(int64(len(h.p.Body)))
		res.Content = append(res.Content, link)
	}
	return res, nil
}

// ReadPost serves post://{id}. The runtime has already refused ids that are
// not integers ≥ 1; an id that names no post is not found either.
func (l library) ReadPost(ctx context.Context, p *wpsearchmcp.PostParams) (string, error) {
	for i := range l.posts {
		if l.posts[i].ID == p.ID {
			return l.posts[i].Body, nil
		}
	}
	return "", fmt.Errorf("%w: no post %d on this blog; search_posts gives the ids of existing posts", runtime.ErrResourceNotFound, p.ID)
}

// queryWords splits a query into lowercase words of letters and digits
// (a hyphen stays inside a word: wp-cli, core-web-vitals).
func queryWords(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}

// score is 0 unless every word occurs in the post; then a match in the title
// counts ten, in a tag five, and each one in the body one.
func score(p *post, words []string) int {
	title, body := strings.ToLower(p.Title), strings.ToLower(p.Body)
	total := 0
	for _, w := range words {
		s := 10*strings.Count(title, w) + strings.Count(body, w)
		for _, t := range p.Tags {
			if strings.Contains(t, w) {
				s += 5
			}
		}
		if s == 0 {
			return 0
		}
		total += s
	}
	return total
}
