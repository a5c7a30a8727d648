package interop

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReadmeOverStdioWithGoSDK reads every kind of resource of seed 001's
// API through the official client: a static resource, a typed template, a
// {+path} template serving text and binary files, the refusal of paths that
// would leave the shared folder, and completion.
func TestReadmeOverStdioWithGoSDK(t *testing.T) {
	session := connectGoSDK(t, "stdio", exampleBin(t, "readme"), eraLegacy, nil, nil)
	ctx := context.Background()

	caps := session.InitializeResult().Capabilities
	if caps.Resources == nil || caps.Completions == nil || caps.Tools != nil {
		t.Errorf("capabilities = %s, want resources and completions, no tools", jsonOf(t, caps))
	}

	resources, err := session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resources.Resources) != 1 || resources.Resources[0].URI != "readme://index" || resources.Resources[0].MIMEType != "text/markdown" {
		t.Errorf("resources = %s", jsonOf(t, resources.Resources))
	}
	templates, err := session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uriTemplates []string
	for _, tmpl := range templates.ResourceTemplates {
		uriTemplates = append(uriTemplates, tmpl.URITemplate)
	}
	if diff := cmp.Diff([]string{"github://{owner}/{repo}/readme", "files://{+path}"}, uriTemplates); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}

	// The static index links to READMEs the template serves.
	index := readOne(t, session, "readme://index")
	if index.MIMEType != "text/markdown" || !strings.Contains(index.Text, "(github://golang/tools/readme)") {
		t.Errorf("index = %s %q", index.MIMEType, index.Text)
	}
	readme := readOne(t, session, "github://golang/tools/readme")
	if readme.MIMEType != "text/markdown" || !strings.HasPrefix(readme.Text, "# Go Tools") || readme.Blob != nil {
		t.Errorf("README = %s %q", readme.MIMEType, readme.Text)
	}
	// A value that fails its variable's pattern, and a repository that is
	// not known: both name no resource.
	for uri, why := range map[string]string{
		"github://golang/nope/readme":  "no README for golang/nope",
		"github://go_lang/go/readme":   "variable owner: must match",
		"github://golang/a%20b/readme": "variable repo: must match",
	} {
		_, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if e := rpcError(err); e == nil || e.Code != -32002 || !strings.Contains(e.Message, why) {
			t.Errorf("%s: %v, want -32002 saying %q", uri, err, why)
		}
	}

	// files://{+path}: text as text with the media type of its extension,
	// binary as a blob, a directory as the list of its entries.
	for _, c := range []struct{ uri, mime, prefix string }{
		{"files://notes.txt", "text/plain", "Release notes"},
		{"files://CHANGELOG.md", "text/markdown", "# Changelog"},
		{"files://docs/guide.md", "text/markdown", "# Guide"},
		{"files://docs/examples/config.json", "application/json", "{"},
		{"files://docs", "text/uri-list", "files://docs/examples\r\nfiles://docs/guide.md\r\n"},
	} {
		got := readOne(t, session, c.uri)
		if got.URI != c.uri || got.MIMEType != c.mime || got.Blob != nil || !strings.HasPrefix(got.Text, c.prefix) {
			t.Errorf("%s = {uri %s, mimeType %s, blob %d bytes, text %.40q}, want text %s starting %q", c.uri, got.URI, got.MIMEType, len(got.Blob), got.Text, c.mime, c.prefix)
		}
	}
	logo := readOne(t, session, "files://logo.png")
	if logo.MIMEType != "image/png" || logo.Text != "" || !bytes.HasPrefix(logo.Blob, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("logo = {mimeType %s, text %q, blob %.8q}, want a PNG blob", logo.MIMEType, logo.Text, logo.Blob)
	}
	root := readOne(t, session, "files://")
	if lines := strings.Fields(root.Text); !slices.Equal(lines, []string{"files://CHANGELOG.md", "files://docs", "files://logo.png", "files://notes.txt"}) {
		t.Errorf("files:// lists %q", lines)
	}

	// Paths that would leave the folder name nothing, percent-encoded or not.
	for _, uri := range []string{
		"files://../../etc/passwd",
		"files://a/../../x",
		"files://%2e%2e/%2e%2e/etc/passwd",
		"files://docs/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
		"files:///etc/passwd",
		"files://docs/../notes.txt",
	} {
		_, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if e := rpcError(err); e == nil || e.Code != -32002 || !strings.Contains(e.Message, "is not a path inside the shared folder") {
			t.Errorf("%s: %v, want -32002 refusing the path", uri, err)
		}
	}
	_, err = session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "files://missing.txt"})
	if e := rpcError(err); e == nil || e.Code != -32002 {
		t.Errorf("files://missing.txt: %v, want -32002", err)
	}

	// Completion: owners by prefix, repositories of the owner in context,
	// paths of the folder.
	ref := &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/readme"}
	for _, c := range []struct {
		arg, value string
		context    map[string]string
		want       []string
	}{
		{"owner", "m", nil, []string{"modelcontextprotocol", "mcpgen"}},
		{"owner", "gO", nil, []string{"golang"}},
		{"owner", "x", nil, []string{}},
		{"repo", "", map[string]string{"owner": "modelcontextprotocol"}, []string{"go-sdk", "modelcontextprotocol"}},
	} {
		params := &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: c.arg, Value: c.value}}
		if c.context != nil {
			params.Context = &mcp.CompleteContext{Arguments: c.context}
		}
		got, err := session.Complete(ctx, params)
		if err != nil {
			t.Errorf("complete %s=%q: %v", c.arg, c.value, err)
			continue
		}
		if diff := cmp.Diff(c.want, got.Completion.Values); diff != "" {
			t.Errorf("complete %s=%q (-want +got):\n%s", c.arg, c.value, diff)
		}
		if got.Completion.Total != len(c.want) || got.Completion.HasMore {
			t.Errorf("complete %s=%q: total %d hasMore %v", c.arg, c.value, got.Completion.Total, got.Completion.HasMore)
		}
	}
	paths, err := session.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "files://{+path}"},
		Argument: mcp.CompleteParamsArgument{Name: "path", Value: "docs/g"},
	})
	if err != nil || !slices.Equal(paths.Completion.Values, []string{"docs/guide.md"}) {
		t.Errorf("complete path docs/g: %v %v", err, paths)
	}
}

// readOne reads uri and returns its single contents.
func readOne(t *testing.T, session *mcp.ClientSession, uri string) *mcp.ResourceContents {
	t.Helper()
	res, err := session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("reading %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("reading %s: %d contents, want 1", uri, len(res.Contents))
	}
	return res.Contents[0]
}
