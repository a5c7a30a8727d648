package hostile

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/golden/templates"
	"github.com/mcpgen/mcpgen/runtime"
)

// NewTemplateServer returns golden/templates' server: six resource
// templates of every RFC 6570 level the runtime matches (simple, reserved
// {+path}, path segments {/segments*}, label {.format}, query {?q,lang}),
// with typed variables. Each read answers with the variables the handler
// received (see TemplateRead), so that a match can be checked against the
// generated Expand.
func NewTemplateServer(opts ...runtime.Option) *runtime.Server {
	return templates.NewServer(templateEcho{}, append([]runtime.Option{runtime.WithLogger(Quiet())}, opts...)...)
}

// TemplateRead is what a read of NewTemplateServer's resources says: the
// template that served it and the variables its handler received.
type TemplateRead struct {
	Template string          `json:"t"`
	Params   json.RawMessage `json:"p"`
}

func echoOf(name string, p any) string {
	b, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(TemplateRead{Template: name, Params: b})
	return string(out)
}

// Expand decodes the variables of r and expands them with the generated
// Expand method of their template: the URI the server itself would give
// for the resource it just served.
func (r TemplateRead) Expand() (string, error) {
	var err error
	switch r.Template {
	case "readme":
		var p templates.ReadmeParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	case "post":
		var p templates.PostParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	case "file":
		var p templates.FileParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	case "tree":
		var p templates.TreeParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	case "doc":
		var p templates.DocParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	case "search":
		var p templates.SearchParams
		if err = json.Unmarshal(r.Params, &p); err == nil {
			return p.Expand(), nil
		}
	default:
		err = fmt.Errorf("unknown template %q", r.Template)
	}
	return "", err
}

type templateEcho struct{}

func (templateEcho) ReadReadme(ctx context.Context, p *templates.ReadmeParams) (string, error) {
	return echoOf("readme", p), nil
}

func (templateEcho) CompleteReadmeOwner(ctx context.Context, prefix string, filled map[string]string) ([]string, error) {
	return []string{"mcpgen", "golang"}, nil
}

func (templateEcho) ReadPost(ctx context.Context, p *templates.PostParams) (*templates.Post, error) {
	return &templates.Post{ID: p.ID, Title: echoOf("post", p)}, nil
}

func (templateEcho) ReadFile(ctx context.Context, p *templates.FileParams) ([]byte, error) {
	return []byte(echoOf("file", p)), nil
}

func (templateEcho) ReadTree(ctx context.Context, p *templates.TreeParams) ([]runtime.ResourceContents, error) {
	return []runtime.ResourceContents{{Text: echoOf("tree", p)}}, nil
}

func (templateEcho) ReadDoc(ctx context.Context, p *templates.DocParams) (string, error) {
	return echoOf("doc", p), nil
}

func (templateEcho) ReadSearch(ctx context.Context, p *templates.SearchParams) (string, error) {
	return echoOf("search", p), nil
}

// ParseTemplateRead extracts the TemplateRead from a resources/read result
// of NewTemplateServer, and the URI the contents name.
func ParseTemplateRead(result json.RawMessage) (TemplateRead, string, error) {
	var r struct {
		Contents []struct {
			URI  string  `json:"uri"`
			Text *string `json:"text"`
			Blob []byte  `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return TemplateRead{}, "", err
	}
	if len(r.Contents) != 1 {
		return TemplateRead{}, "", fmt.Errorf("%d contents", len(r.Contents))
	}
	c := r.Contents[0]
	text := []byte(nil)
	switch {
	case c.Text != nil:
		text = []byte(*c.Text)
	default:
		text = c.Blob
	}
	var post struct { // post://{id} answers with a Post whose title is the echo
		Title *string `json:"title"`
	}
	if json.Unmarshal(text, &post) == nil && post.Title != nil {
		text = []byte(*post.Title)
	}
	var tr TemplateRead
	if err := json.Unmarshal(text, &tr); err != nil || tr.Template == "" {
		return TemplateRead{}, "", fmt.Errorf("contents %q are not an echo: %v", text, err)
	}
	return tr, c.URI, nil
}
