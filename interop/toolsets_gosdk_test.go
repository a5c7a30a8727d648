package interop

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/runtime"
)

// toolsetsServer serves "always" (in no toolset), "read" and "write" (each
// in the toolset of its name) in dynamic mode, over HTTP in process.
func toolsetsServer(t *testing.T) string { return toolsetsServerExposing(t, runtime.ExposeAll) }

// toolsetsServerExposing is toolsetsServer with the toolset "read" shown
// with exposure read.
func toolsetsServerExposing(t *testing.T, read runtime.ToolExposure) string {
	srv := runtime.NewServer(runtime.Implementation{Name: "toolsets", Version: "1"},
		runtime.WithToolsets(runtime.Toolset{Name: "read", Tools: []string{"read"}, Exposure: read}, runtime.Toolset{Name: "write", Tools: []string{"write"}}),
		runtime.WithDynamicToolsets(runtime.DynamicToolsets{}))
	for _, name := range []string{"always", "read", "write"} {
		srv.AddTool(runtime.Tool{Name: name, Description: "Says its name.",
			Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				return runtime.TextResult(name), nil
			}})
	}
	ts := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(ts.Close)
	return ts.URL
}

func toolNames(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// TestDynamicToolsetsGoSDK: the official Go SDK client, in a legacy
// session, enables a toolset with enable_toolset; it hears
// tools/list_changed and lists the toolset's tool.
func TestDynamicToolsetsGoSDK(t *testing.T) {
	changed := make(chan struct{}, 4)
	opts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
	session := connectGoSDK(t, "http", toolsetsServer(t), eraLegacy, opts, nil)
	if got := toolNames(t, session); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always"}) {
		t.Fatalf("tools/list at first: %v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "enable_toolset", Arguments: map[string]any{"toolset": "write"}})
	if err != nil || res.IsError {
		t.Fatalf("enable_toolset: %v %s", err, textOf(res))
	}
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no notifications/tools/list_changed after enable_toolset")
	}
	if got := toolNames(t, session); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always", "write"}) {
		t.Errorf("tools/list after enabling write: %v", got)
	}
}

// headerTransport adds the Mcp-Toolsets header to every request.
type headerTransport struct{ toolsets string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(runtime.HeaderToolsets, h.toolsets)
	return http.DefaultTransport.RoundTrip(r)
}

// connectWithToolsets connects the Go SDK client to url in era, sending
// Mcp-Toolsets: toolsets with every request.
func connectWithToolsets(t *testing.T, url, era, toolsets string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerTransport{toolsets}}, MaxRetries: 2}
	return connectGoSDKOver(t, tr, url, era, nil)
}

// TestToolsetsHeaderGoSDK: a Go SDK client configured with the
// Mcp-Toolsets header sees that toolset, in both eras.
func TestToolsetsHeaderGoSDK(t *testing.T) {
	url := toolsetsServer(t)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			session := connectWithToolsets(t, url, era, "read")
			if got := toolNames(t, session); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always", "read"}) {
				t.Errorf("tools/list with Mcp-Toolsets: read: %v", got)
			}
		})
	}
}

// TestToolsetSearchGoSDK: with the toolset "read" behind search, the
// official Go SDK client sees the three search tools once "read" is served
// (enabled in a legacy session, with list_changed; or chosen with the
// Mcp-Toolsets header, in both eras), finds "read" with search_tools and
// runs it with call_tool; while "read" is not served, call_tool cannot
// reach it.
func TestToolsetSearchGoSDK(t *testing.T) {
	url := toolsetsServerExposing(t, runtime.ExposeSearch)
	withSearch := []string{"list_toolsets", "enable_toolset", "always", "search_tools", "describe_tools", "call_tool"}
	useRead := func(t *testing.T, session *mcp.ClientSession) {
		t.Helper()
		if got := toolNames(t, session); !slices.Equal(got, withSearch) {
			t.Errorf("tools/list serving read: %v", got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if found := callText(ctx, t, session, "search_tools", map[string]any{"query": "read"}); found != `{"tools":[{"name":"read","description":"Says its name."}]}` {
			t.Errorf("search_tools read: %s", found)
		}
		if got := callText(ctx, t, session, "call_tool", map[string]any{"name": "read"}); got != "read" {
			t.Errorf("call_tool read: %s", got)
		}
	}
	t.Run("enabled", func(t *testing.T) {
		changed := make(chan struct{}, 4)
		opts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
		session := connectGoSDK(t, "http", url, eraLegacy, opts, nil)
		if got := toolNames(t, session); !slices.Equal(got, []string{"list_toolsets", "enable_toolset", "always"}) {
			t.Fatalf("tools/list at first: %v", got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "read"}})
		if err == nil && !res.IsError {
			t.Errorf("call_tool read before read is enabled: %s", textOf(res))
		}
		if res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "enable_toolset", Arguments: map[string]any{"toolset": "read"}}); err != nil || res.IsError {
			t.Fatalf("enable_toolset: %v %s", err, textOf(res))
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("no notifications/tools/list_changed after enable_toolset")
		}
		useRead(t, session)
	})
	for _, era := range eras {
		t.Run("header/"+era, func(t *testing.T) {
			session := connectWithToolsets(t, url, era, "read")
			useRead(t, session)
		})
	}
}
