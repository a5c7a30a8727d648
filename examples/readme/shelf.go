package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/examples/readme/readmemcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// shelf implements readmemcp.Handler: READMEs from knownRepos, files from an
// fs.FS (the embedded testdata folder). It is read-only, so it needs no lock.
type shelf struct {
	repos []repo
	files fs.FS // only ever opened through io/fs: never the OS filesystem
}

var _ readmemcp.Handler = shelf{}

// ReadIndex lists the known repositories as Markdown links to their README.
func (s shelf) ReadIndex(ctx context.Context) (string, error) {
	var b strings.Builder
	b.WriteString("# Known repositories\n\n")
	for _, r := range s.repos {
		fmt.Fprintf(&b, "- [%s/%s](%s): %s\n", r.Owner, r.Name, readmemcp.ReadmeParams{Owner: r.Owner, Repo: r.Name}.Expand(), r.Summary)
	}
	return b.String(), nil
}

// ReadReadme serves github://{owner}/{repo}/readme. The runtime has already
// checked both variables against their patterns.
func (s shelf) ReadReadme(ctx context.Context, p *readmemcp.ReadmeParams) (string, error) {
	for _, r := range s.repos {
		if strings.EqualFold(r.Owner, p.Owner) && strings.EqualFold(r.Name, p.Repo) { // GitHub names ignore case
			return r.Readme, nil
		}
	}
	return "", fmt.Errorf("%w: no README for %s/%s here; readme://index lists the repositories this server knows", runtime.ErrResourceNotFound, p.Owner, p.Repo)
}

// CompleteReadmeOwner offers the known owners that start with prefix.
func (s shelf) CompleteReadmeOwner(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	var out []string
	for _, r := range s.repos {
		if hasPrefixFold(r.Owner, prefix) && !slices.Contains(out, r.Owner) {
			out = append(out, r.Owner)
		}
	}
	return out, nil
}

// CompleteReadmeRepo offers the repositories of the owner already filled in
// (all of them when there is none) that start with prefix.
func (s shelf) CompleteReadmeRepo(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	owner, byOwner := filled["owner"]
	var out []string
	for _, r := range s.repos {
		if (!byOwner || strings.EqualFold(r.Owner, owner)) && hasPrefixFold(r.Name, prefix) && !slices.Contains(out, r.Name) {
			out = append(out, r.Name)
		}
	}
	return out, nil
}

// mimeTypes are the media types of the file extensions the folder holds;
// text says whether the file is sent as text (else as a base64 blob).
var mimeTypes = map[string]struct {
	mime string
	text bool
}{
	".md":   {"text/markdown", true},
	".txt":  {"text/plain", true},
	".json": {"application/json", true},
	".png":  {"image/png", false},
	".jpg":  {"image/jpeg", false},
	".pdf":  {"application/pdf", false},
}

// ReadFile serves files://{+path}. The runtime hands over the path
// percent-decoded (files://%2e%2e/x gives ".."), so the path is checked
// here: fs.ValidPath refuses "..", ".", empty elements, a leading or
// trailing slash, and backslashes are refused as well, so that the path
// cannot leave the folder whatever fs.FS serves it. Nothing here touches
// the OS filesystem.
func (s shelf) ReadFile(ctx context.Context, p *readmemcp.FileParams) ([]runtime.ResourceContents, error) {
	name := p.Path
	if name == "" {
		name = "." // files:// is the folder itself
	}
	if !fs.ValidPath(name) || strings.Contains(name, `\`) {
		return nil, fmt.Errorf("%w: %q is not a path inside the shared folder (paths are relative, slash-separated, without . or .. elements)", runtime.ErrResourceNotFound, p.Path)
	}
	info, err := fs.Stat(s.files, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no file %q in the shared folder; files:// lists it", runtime.ErrResourceNotFound, p.Path)
	}
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return s.listing(name)
	}
	data, err := fs.ReadFile(s.files, name)
	if err != nil {
		return nil, err
	}
	kind, known := mimeTypes[path.Ext(name)]
	switch {
	case known && kind.text, !known && utf8.Valid(data):
		mime := kind.mime
		if !known {
			mime = "text/plain"
		}
		return []runtime.ResourceContents{{MimeType: mime, Text: string(data)}}, nil
	case known:
		return []runtime.ResourceContents{{MimeType: kind.mime, Blob: data}}, nil
	default:
		return []runtime.ResourceContents{{MimeType: "application/octet-stream", Blob: data}}, nil
	}
}

// listing is a directory as text/uri-list (RFC 2483): the files:// URI of
// each entry, one per line, in name order.
func (s shelf) listing(dir string) ([]runtime.ResourceContents, error) {
	entries, err := fs.ReadDir(s.files, dir)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(readmemcp.FileParams{Path: path.Join(dir, e.Name())}.Expand())
		b.WriteString("\r\n")
	}
	return []runtime.ResourceContents{{MimeType: "text/uri-list", Text: b.String()}}, nil
}

// CompleteFilePath offers the paths in the folder (files and directories)
// that start with prefix, in walk order.
func (s shelf) CompleteFilePath(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	var out []string
	err := fs.WalkDir(s.files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || name == "." {
			return err
		}
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
		return nil
	})
	return out, err
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
