package main

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/examples/books/booksmcp"
)

// book is one entry of the catalogue; year 0 is unknown.
type book struct {
	title, author string
	year          int64
}

func sampleBooks() []book {
	return []book{
		{"The Go Programming Language", "Alan Donovan", 2015},
		{"The C Programming Language", "Brian Kernighan", 1978},
		{"Structure and Interpretation of Computer Programs", "Harold Abelson", 1985},
		{"Notes on the Synthesis of Form", "Christopher Alexander", 0},
	}
}

// catalogue serves find_books.
type catalogue struct{ books []book }

var _ booksmcp.Handler = catalogue{}

// FindBooks matches free text against titles and authors, or a filter
// against one field; the union says which the client sent.
func (c catalogue) FindBooks(_ context.Context, in *booksmcp.FindBooksInput) (*booksmcp.FindBooksOutput, error) {
	matches := func(b book) bool {
		if text := in.Query.String; text != nil {
			t := strings.ToLower(*text)
			return strings.Contains(strings.ToLower(b.title), t) || strings.Contains(strings.ToLower(b.author), t)
		}
		f := in.Query.Filter
		if f.Field == booksmcp.FilterFieldAuthor {
			return b.author == f.Equals
		}
		return b.title == f.Equals
	}
	out := &booksmcp.FindBooksOutput{Items: []booksmcp.Item{}}
	limit := int64(len(c.books))
	if l, ok := in.Limit.Get(); ok && l != nil {
		limit = *l
	}
	for _, b := range c.books {
		if int64(len(out.Items)) == limit {
			break
		}
		if !matches(b) {
			continue
		}
		item := &booksmcp.ItemBook{Kind: booksmcp.ItemBookKindBook, Title: b.title, Author: b.author}
		if b.year != 0 {
			item.Year = &b.year
		}
		out.Items = append(out.Items, booksmcp.Item{Book: item})
	}
	if len(out.Items) == 0 {
		out.Items = append(out.Items, booksmcp.Item{Note: &booksmcp.ItemNote{Kind: booksmcp.ItemNoteKindNote, Text: "no book matches"}})
	}
	return out, nil
}
