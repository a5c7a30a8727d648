package interop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/conformance/conformancemcp"
	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/examples/readme/readmemcp"
	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/examples/wpsearch/wpsearchmcp"
	"github.com/mcpgen/mcpgen/interop/clients/conformanceclient"
	"github.com/mcpgen/mcpgen/interop/clients/expensesclient"
	"github.com/mcpgen/mcpgen/interop/clients/ordersclient"
	"github.com/mcpgen/mcpgen/interop/clients/readmeclient"
	"github.com/mcpgen/mcpgen/interop/clients/supportclient"
	"github.com/mcpgen/mcpgen/interop/clients/wpsearchclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The typed clients mcpgen generates (go: {client: …} in each example's
// spec) against the example servers, started as binaries over stdio and
// reached through the official Go SDK's client session: one typed call per
// kind of method the client has (tool, template read, prompt get), and a
// tool error surfacing as *ToolError.

func TestTypedClientOrders(t *testing.T) {
	c := ordersclient.New(connectGoSDK(t, "stdio", exampleBin(t, "orders"), eraLegacy, nil, nil))
	ctx := context.Background()
	order, err := c.LookupOrder(ctx, &ordersmcp.LookupOrderInput{OrderID: "A-1042"})
	if err != nil {
		t.Fatal(err)
	}
	if order.OrderID != "A-1042" || order.Status != ordersmcp.OrderStatusPaid {
		t.Errorf("LookupOrder = %+v", order)
	}
	// The server refuses an id that breaks the pattern: a *ToolError.
	_, err = c.LookupOrder(ctx, &ordersmcp.LookupOrderInput{OrderID: "a-1"})
	var te *ordersclient.ToolError
	if !errors.As(err, &te) || te.Tool != "lookup_order" || !strings.Contains(te.Error(), "pattern") {
		t.Errorf("LookupOrder(a-1) = %v, want a *ToolError about the pattern", err)
	}
}

// TestTypedClientInProcess: Connect serves a runtime.Server in memory and
// the generated client calls its handler through the Go SDK's client, the
// one-line test setup the client package offers.
func TestTypedClientInProcess(t *testing.T) {
	ctx := context.Background()
	c, err := ordersclient.Connect(ctx, ordersmcp.NewServer(fakeDesk{}))
	if err != nil {
		t.Fatal(err)
	}
	order, err := c.LookupOrder(ctx, &ordersmcp.LookupOrderInput{OrderID: "B-2001"})
	if err != nil {
		t.Fatal(err)
	}
	if order.OrderID != "B-2001" || order.Status != ordersmcp.OrderStatusRefunded {
		t.Errorf("LookupOrder = %+v", order)
	}
	// A method the handler leaves unimplemented is a tool error, typed.
	_, err = c.CreateNote(ctx, &ordersmcp.CreateNoteInput{OrderID: "B-2001", Text: "hello"})
	var te *ordersclient.ToolError
	if !errors.As(err, &te) {
		t.Errorf("CreateNote on an unimplemented handler = %v, want a *ToolError", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// fakeDesk answers lookup_order from memory; the rest is unimplemented.
type fakeDesk struct{ ordersmcp.UnimplementedHandler }

func (fakeDesk) LookupOrder(ctx context.Context, in *ordersmcp.LookupOrderInput) (*ordersmcp.Order, error) {
	return &ordersmcp.Order{OrderID: in.OrderID, Status: ordersmcp.OrderStatusRefunded, CustomerEmail: "ada@example.com",
		Lines: []ordersmcp.OrderLine{{Sku: "SKU-1", Quantity: 1, Price: ordersmcp.Money{Amount: 100, Currency: "EUR"}}},
		Total: ordersmcp.Money{Amount: 100, Currency: "EUR"}}, nil
}

var _ ordersmcp.Handler = fakeDesk{}

func TestTypedClientWPSearch(t *testing.T) {
	c := wpsearchclient.New(connectGoSDK(t, "stdio", exampleBin(t, "wpsearch"), eraLegacy, nil, nil))
	ctx := context.Background()
	res, err := c.SearchPosts(ctx, &wpsearchmcp.SearchPostsInput{Query: "Redis caching"})
	if err != nil || len(res.Content) < 2 {
		t.Fatalf("SearchPosts: %v, %+v", err, res)
	}
	// The best match links post 4; the typed read builds its URI from the
	// template's parameters.
	link, ok := res.Content[1].(*mcp.ResourceLink)
	if !ok || link.URI != "post://4" {
		t.Fatalf("SearchPosts: content %#v, want a summary, then a link to post://4", res.Content)
	}
	post, err := c.ReadPost(ctx, wpsearchmcp.PostParams{ID: 4})
	if err != nil || len(post.Contents) == 0 || post.Contents[0].URI != "post://4" {
		t.Errorf("ReadPost(4): %v, %+v", err, post)
	}
}

func TestTypedClientReadme(t *testing.T) {
	c := readmeclient.New(connectGoSDK(t, "stdio", exampleBin(t, "readme"), eraLegacy, nil, nil))
	ctx := context.Background()
	res, err := c.ReadReadme(ctx, readmemcp.ReadmeParams{Owner: "golang", Repo: "tools"})
	if err != nil || len(res.Contents) == 0 || !strings.Contains(res.Contents[0].Text, "tools") {
		t.Errorf("ReadReadme: %v, %+v", err, res)
	}
	file, err := c.ReadFile(ctx, readmemcp.FileParams{Path: "logo.png"})
	if err != nil || len(file.Contents) == 0 || len(file.Contents[0].Blob) == 0 {
		t.Errorf("ReadFile(logo.png): %v, %+v", err, file)
	}
}

func TestTypedClientSupport(t *testing.T) {
	c := supportclient.New(connectGoSDK(t, "stdio", exampleBin(t, "support"), eraLegacy, nil, nil))
	ctx := context.Background()
	ticket, err := c.ReadTicket(ctx, supportmcp.TicketParams{ID: "T-1001"})
	if err != nil {
		t.Fatal(err)
	}
	if ticket.ID != "T-1001" || ticket.Customer == "" {
		t.Errorf("ReadTicket = %+v", ticket)
	}
	prompt, err := c.GetTriageTicket(ctx, &supportmcp.TriageTicketArgs{TicketID: "T-1001", Customer: "acme"})
	if err != nil || len(prompt.Messages) == 0 {
		t.Errorf("GetTriageTicket: %v, %+v", err, prompt)
	}
}

func TestTypedClientExpenses(t *testing.T) {
	c := expensesclient.New(connectGoSDK(t, "stdio", exampleBin(t, "expenses"), eraLegacy, nil, nil))
	snap, err := c.ExploreExpenses(context.Background(), &expensesmcp.ExploreExpensesInput{Month: "2026-10"})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Month != "2026-10" || len(snap.Rows) == 0 || !strings.HasPrefix(snap.SnapshotID, "snap-") {
		t.Errorf("ExploreExpenses = %+v", snap)
	}
}

func TestTypedClientConformance(t *testing.T) {
	c := conformanceclient.New(connectGoSDK(t, "stdio", exampleBin(t, "conformance"), eraLegacy, nil, nil))
	ctx := context.Background()
	res, err := c.TestSimpleText(ctx)
	if err != nil || len(res.Content) == 0 {
		t.Errorf("TestSimpleText: %v, %+v", err, res)
	}
	data, err := c.ReadTemplateData(ctx, conformancemcp.TemplateDataParams{ID: "42"})
	if err != nil || data.ID != "42" || !data.TemplateTest {
		t.Errorf("ReadTemplateData: %v, %+v", err, data)
	}
	prompt, err := c.GetTestPromptWithArguments(ctx, &conformancemcp.TestPromptWithArgumentsArgs{Arg1: "one", Arg2: "two"})
	if err != nil || len(prompt.Messages) == 0 {
		t.Errorf("GetTestPromptWithArguments: %v, %+v", err, prompt)
	}
}
