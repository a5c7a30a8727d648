package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/wpsearch/wpsearchmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

func TestBlogData(t *testing.T) {
	if n := len(blog); n < 25 || n > 40 {
		t.Errorf("the blog has %d posts, want about 30", n)
	}
	ids, slugs := map[int64]bool{}, map[string]bool{}
	for _, p := range blog {
		if ids[p.ID] || slugs[p.Slug] {
			t.Errorf("post %d (%s) is not unique", p.ID, p.Slug)
		}
		ids[p.ID], slugs[p.Slug] = true, true
		if n := len(p.Body); n < 2000 || n > 3200 {
			t.Errorf("post %d body is %d bytes, want 2–3 KB", p.ID, n)
		}
		if !strings.HasPrefix(p.Body, "# "+p.Title+"\n") {
			t.Errorf("post %d body does not start with its title", p.ID)
		}
	}
}

func TestSearchPosts(t *testing.T) {
	ctx := context.Background()
	l := library{posts: blog}
	in := &wpsearchmcp.SearchPostsInput{Query: "Redis caching"}
	in.ApplyDefaults() // as the runtime does before calling the handler: limit 5
	res, err := l.SearchPosts(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) < 2 {
		t.Fatalf("got %d blocks, want one text line and links: %v", len(res.Content), res.Content)
	}
	link, ok := res.Content[1].(runtime.ResourceLink)
	if !ok || link.URI != "post://4" || link.Title != "Object caching with Redis: when it helps and when it does not" || link.MimeType != "text/markdown" {
		t.Errorf("best link = %+v, want post 4 (Redis in its title)", res.Content[1])
	}

	res, err = l.SearchPosts(ctx, &wpsearchmcp.SearchPostsInput{Query: "wordpress", Limit: runtime.Some[int64](10)})
	if err != nil || len(res.Content) != 11 {
		t.Fatalf("limit 10: %v, %d blocks", err, len(res.Content))
	}
	// Through the server, as a client calls it: the spec's default limit (5)
	// is applied to the argument the client left out.
	search := wpsearchmcp.NewServer(l).Tools()[0]
	if search.Name != "search_posts" {
		t.Fatalf("the first tool is %q", search.Name)
	}
	res, err = search.Handler(ctx, &runtime.CallToolRequest{Name: search.Name, Arguments: []byte(`{"query":"wordpress"}`)})
	if err != nil || len(res.Content) != 6 {
		t.Fatalf("default limit: %v, %d blocks, want 1 + 5", err, len(res.Content))
	}
	res, err = l.SearchPosts(ctx, &wpsearchmcp.SearchPostsInput{Query: "kubernetes"})
	if err != nil || len(res.Content) != 1 || res.IsError {
		t.Fatalf("no match must be a plain answer: %v %+v", err, res)
	}
	if _, err := l.SearchPosts(ctx, &wpsearchmcp.SearchPostsInput{Query: "!!"}); err == nil {
		t.Error("a query without words must be refused")
	}
}

func TestReadPost(t *testing.T) {
	l := library{posts: blog}
	body, err := l.ReadPost(context.Background(), &wpsearchmcp.PostParams{ID: 43})
	if err != nil || !strings.Contains(body, "resource_link") {
		t.Errorf("post 43: %v %q", err, body)
	}
	if _, err := l.ReadPost(context.Background(), &wpsearchmcp.PostParams{ID: 9999}); !errors.Is(err, runtime.ErrResourceNotFound) {
		t.Errorf("post 9999: %v, want ErrResourceNotFound", err)
	}
}
