package main

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/readme/readmemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// recordingFS records every name opened through it.
type recordingFS struct {
	fs.FS
	opened []string
}

func (r *recordingFS) Open(name string) (fs.File, error) {
	r.opened = append(r.opened, name)
	return r.FS.Open(name)
}

func TestReadFileKinds(t *testing.T) {
	s := shelf{repos: knownRepos, files: sharedFolder()}
	ctx := context.Background()
	for _, c := range []struct {
		path, mime string
		blob       bool
	}{
		{"notes.txt", "text/plain", false},
		{"CHANGELOG.md", "text/markdown", false},
		{"docs/guide.md", "text/markdown", false},
		{"docs/examples/config.json", "application/json", false},
		{"logo.png", "image/png", true},
		{"", "text/uri-list", false},
		{"docs", "text/uri-list", false},
	} {
		got, err := s.ReadFile(ctx, &readmemcp.FileParams{Path: c.path})
		if err != nil {
			t.Errorf("%q: %v", c.path, err)
			continue
		}
		if len(got) != 1 || got[0].MimeType != c.mime || (got[0].Blob != nil) != c.blob {
			t.Errorf("%q: %+v, want %s (blob %v)", c.path, got, c.mime, c.blob)
		}
	}
	got, _ := s.ReadFile(ctx, &readmemcp.FileParams{Path: "logo.png"})
	if !strings.HasPrefix(string(got[0].Blob), "\x89PNG\r\n\x1a\n") {
		t.Error("logo.png is not a PNG")
	}
}

func TestReadFileRefusesTraversalWithoutOpening(t *testing.T) {
	rec := &recordingFS{FS: sharedFolder()}
	s := shelf{files: rec}
	for _, p := range []string{"../../etc/passwd", "a/../../x", "..", "./notes.txt", "/etc/passwd", `..\..\x`, "docs/", "docs//guide.md"} {
		_, err := s.ReadFile(context.Background(), &readmemcp.FileParams{Path: p})
		if !errors.Is(err, runtime.ErrResourceNotFound) {
			t.Errorf("%q: %v, want not found", p, err)
		}
	}
	if len(rec.opened) != 0 {
		t.Errorf("refused paths reached the file system: %q", rec.opened)
	}
	if _, err := s.ReadFile(context.Background(), &readmemcp.FileParams{Path: "missing.txt"}); !errors.Is(err, runtime.ErrResourceNotFound) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadmesAndCompletion(t *testing.T) {
	s := shelf{repos: knownRepos, files: sharedFolder()}
	ctx := context.Background()
	if md, err := s.ReadReadme(ctx, &readmemcp.ReadmeParams{Owner: "MCPGen", Repo: "mcpgen"}); err != nil || !strings.HasPrefix(md, "# mcpgen") {
		t.Errorf("mcpgen/mcpgen: %v %q", err, md)
	}
	if _, err := s.ReadReadme(ctx, &readmemcp.ReadmeParams{Owner: "golang", Repo: "nope"}); !errors.Is(err, runtime.ErrResourceNotFound) {
		t.Errorf("unknown repo: %v", err)
	}
	index, _ := s.ReadIndex(ctx)
	for _, r := range knownRepos {
		if !strings.Contains(index, "(github://"+r.Owner+"/"+r.Name+"/readme)") {
			t.Errorf("index does not link %s/%s:\n%s", r.Owner, r.Name, index)
		}
	}
	owners, _ := s.CompleteReadmeOwner(ctx, "M", nil)
	if !slices.Equal(owners, []string{"modelcontextprotocol", "mcpgen"}) {
		t.Errorf("owners for M = %q", owners)
	}
	repos, _ := s.CompleteReadmeRepo(ctx, "", map[string]string{"owner": "golang"})
	if !slices.Equal(repos, []string{"go", "tools"}) {
		t.Errorf("repos of golang = %q", repos)
	}
	paths, _ := s.CompleteFilePath(ctx, "docs/", nil)
	if !slices.Equal(paths, []string{"docs/examples", "docs/examples/config.json", "docs/guide.md"}) {
		t.Errorf("paths under docs/ = %q", paths)
	}
}
