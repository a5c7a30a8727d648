package runtime_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// bigTool answers n bytes of text; its result is over a budget of 200.
func bigTool(name string, overflow runtime.Overflow, ttl time.Duration) runtime.Tool {
	return runtime.Tool{Name: name, Description: "Answers a lot.", MaxResultBytes: 200, Overflow: overflow, ResultTTL: ttl,
		Handler: func(_ context.Context, req *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
			var args struct{ N int }
			json.Unmarshal(req.Arguments, &args)
			return runtime.TextResult(strings.Repeat("é", args.N/2)), nil
		}}
}

type toolResult struct {
	Content []struct {
		Type, Text, URI, Name, MimeType string
		Size                            int64
	}
	IsError bool
}

func TestResultBudgetError(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(bigTool("dump", runtime.OverflowError, 0))
	c := serve(t, srv)
	c.initialize()
	var small, big toolResult
	jsonUnmarshal(c.callTool("dump", map[string]any{"n": 100}), &small)
	if small.IsError || len(small.Content[0].Text) != 100 {
		t.Errorf("a result within budget: %+v", small)
	}
	jsonUnmarshal(c.callTool("dump", map[string]any{"n": 1000}), &big)
	if !big.IsError || len(big.Content) != 1 || !strings.Contains(big.Content[0].Text, "the result of tool dump is 1039 bytes, over its limit of 200 bytes (maxResultBytes)") {
		t.Errorf("a result over budget: %+v", big)
	}
}

func TestResultBudgetLink(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(bigTool("dump", runtime.OverflowLink, 0))
	p := serveHTTP(t, srv)
	p.initialize(`{}`)
	if caps := string(p.result("tools/list", "")); caps == "" {
		t.Fatal("no tools/list")
	}
	var res toolResult
	jsonUnmarshal(p.result("tools/call", `{"name":"dump","arguments":{"n":1000}}`), &res)
	if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "resource_link" || res.Content[1].Size != 1039 {
		t.Fatalf("a result over budget: %+v", res)
	}
	summary, link := res.Content[0].Text, res.Content[1].URI
	if !strings.Contains(summary, "1039 bytes, over this tool's limit of 200 bytes") || !strings.Contains(summary, link) ||
		!strings.Contains(summary, "It begins: éé") || !strings.HasSuffix(summary, "…") || len(summary) > 600 {
		t.Errorf("summary: %q", summary)
	}
	var read struct {
		Contents []struct{ URI, MimeType, Text string }
	}
	jsonUnmarshal(p.result("resources/read", `{"uri":"`+link+`"}`), &read)
	var full toolResult
	if len(read.Contents) != 1 || json.Unmarshal([]byte(read.Contents[0].Text), &full) != nil || full.Content[0].Text != strings.Repeat("é", 500) {
		t.Fatalf("resources/read of the link: %+v", read)
	}

	// Another session is another caller: the link is not found there.
	other := &httpPeer{t: t, url: p.url}
	other.initialize(`{}`)
	resp, _ := other.call("resources/read", `{"uri":"`+link+`"}`)
	msgs := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(msgs[0].Data, "resource not found") {
		t.Errorf("another session reads the link: %d %v", resp.StatusCode, msgs)
	}
}

// TestResultBudgetLinkExpires: a kept result is readable until its
// ResultTTL and gone after. Whether the first read comes within the TTL
// depends on the machine's speed, so a read that finds the result gone
// when the TTL has already passed tries again with a ten times longer one,
// instead of failing; only expiry, which waiting longer cannot break, is
// asserted after the sleep.
func TestResultBudgetLinkExpires(t *testing.T) {
	for ttl := 50 * time.Millisecond; ; ttl *= 10 {
		srv := runtime.NewServer(testInfo())
		srv.AddTool(bigTool("dump", runtime.OverflowLink, ttl))
		c := serve(t, srv)
		c.initialize()
		start := time.Now()
		var res toolResult
		jsonUnmarshal(c.callTool("dump", map[string]any{"n": 1000}), &res)
		link := res.Content[1].URI
		if r := c.request("resources/read", map[string]any{"uri": link}); r.Error != nil {
			if time.Since(start) >= ttl && ttl < time.Minute {
				continue // too slow to tell: the TTL passed before the read
			}
			t.Fatalf("read within the TTL of %v: %s", ttl, errorJSON(r))
		}
		time.Sleep(4 * ttl)
		if r := c.request("resources/read", map[string]any{"uri": link}); r.Error == nil || !strings.Contains(r.Error.Message, "resource not found") {
			t.Errorf("read after the TTL of %v: %s", ttl, errorJSON(r))
		}
		return
	}
}

// TestResultBudgetLinkOwner: with authorization, the kept result belongs to
// the verified caller in both eras: another user with the URI is answered
// as for a link that never was, and the caller still reads it.
func TestResultBudgetLinkOwner(t *testing.T) {
	k := jwttest.TheKeys(t)
	srv := runtime.NewServer(testInfo())
	srv.AddTool(bigTool("dump", runtime.OverflowLink, 0))
	cfg := authConfig(t)
	cfg.Scopes = nil
	// A second issuer, whose alice is another identity than the first's.
	const other = "https://other-issuer.test"
	cfg.AuthorizationServers = append(cfg.AuthorizationServers, other)
	cfg.Verifier = eitherVerifier{cfg.Verifier, jwttest.NewVerifier(t, jwtauth.Config{Issuer: other, JWKS: jwttest.TrustedJWKS(t)})}
	p := serveAuth(t, srv, cfg)
	alice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice", "")))
	bob := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("bob", "")))
	otherClaims := jwttest.Claims("alice", "")
	otherClaims["iss"] = other
	otherAlice := bearer(jwttest.Sign(t, "RS256", "rsa-1", k.RSA, otherClaims))

	eras := map[string]func(token []string, method, params string) *response{
		"legacy": func(token []string, method, params string) *response {
			s := &httpPeer{t: t, url: p.url}
			resp := s.do(http.MethodPost, initializeV2, token...)
			readAll(t, resp)
			s.session = resp.Header.Get("Mcp-Session-Id")
			mustStatus(t, s.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, token...), 202)
			resp, _ = s.call(method, params, token...)
			msgs := readAll(t, resp)
			r := parse(t, msgs[len(msgs)-1].Data)
			return &r
		},
		"2026-07-28": func(token []string, method, params string) *response {
			status, _, body := modernPost(t, p.url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+strings.TrimSuffix(params, "}")+`,`+modernMeta+`}}`,
				map[string]string{"Authorization": token[1]})
			if status != http.StatusOK {
				t.Fatalf("%s: %d %s", method, status, body)
			}
			r := parse(t, body)
			return &r
		},
	}
	for era, rpc := range eras {
		t.Run(era, func(t *testing.T) {
			var res toolResult
			jsonUnmarshal(rpc(alice, "tools/call", `{"name":"dump","arguments":{"n":1000}}`).Result, &res)
			if len(res.Content) != 2 || res.Content[1].Type != "resource_link" {
				t.Fatalf("a result over budget: %+v", res)
			}
			read := `{"uri":"` + res.Content[1].URI + `"}`
			if r := rpc(bob, "resources/read", read); r.Error == nil || !strings.Contains(r.Error.Message, "resource not found") {
				t.Errorf("another user reads alice's result: %s %s", r.Result, errorJSON(*r))
			}
			if r := rpc(otherAlice, "resources/read", read); r.Error == nil || !strings.Contains(r.Error.Message, "resource not found") {
				t.Errorf("alice of another issuer reads alice's result: %s %s", r.Result, errorJSON(*r))
			}
			if r := rpc(alice, "resources/read", read); r.Error != nil || !strings.Contains(string(r.Result), "éé") {
				t.Errorf("alice reads her result: %s %s", r.Result, errorJSON(*r))
			}
		})
	}
}

// TestResultBudgetBoundary: a result of exactly maxResultBytes is inlined,
// one byte more is over. The size is the server's own count, read from the
// refusal of a budget of 1.
// TestResultBudgetLinkIDIsUnguessable: the id of a result link carries at
// least 128 bits (docs: a stateless caller's link is readable by whoever
// has its 128-bit random URI), and no two calls get the same one.
func TestResultBudgetLinkIDIsUnguessable(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	srv.AddTool(bigTool("dump", runtime.OverflowLink, 0))
	c := serve(t, srv)
	c.initialize()
	seen := map[string]bool{}
	for range 32 {
		var res toolResult
		jsonUnmarshal(c.callTool("dump", map[string]any{"n": 1000}), &res)
		if len(res.Content) != 2 {
			t.Fatalf("a result over budget: %+v", res)
		}
		uri := res.Content[1].URI
		id, ok := strings.CutPrefix(uri, "mcpgen-result://dump/")
		if !ok || id == "" {
			t.Fatalf("link %q is not mcpgen-result://dump/ID", uri)
		}
		raw, err := hex.DecodeString(id)
		if err != nil {
			raw, err = base64.RawURLEncoding.DecodeString(id)
		}
		if err != nil || len(raw) < 16 {
			t.Fatalf("link %q: its id decodes to %d bytes (%v), want at least 16 (128 bits)", uri, len(raw), err)
		}
		if seen[id] {
			t.Fatalf("link %q given twice", uri)
		}
		seen[id] = true
	}
}

func TestResultBudgetBoundary(t *testing.T) {
	sized := func(limit int) *client {
		srv := runtime.NewServer(testInfo())
		tool := bigTool("dump", runtime.OverflowError, 0)
		tool.MaxResultBytes = limit
		srv.AddTool(tool)
		c := serve(t, srv)
		c.initialize()
		return c
	}
	var probe toolResult
	jsonUnmarshal(sized(1).callTool("dump", map[string]any{"n": 300}), &probe)
	var size int
	if len(probe.Content) == 0 {
		t.Fatalf("no refusal: %+v", probe)
	}
	if _, err := fmt.Sscanf(probe.Content[0].Text, "the result of tool dump is %d bytes", &size); err != nil || size < 300 {
		t.Fatalf("the refusal does not give the size: %q", probe.Content[0].Text)
	}
	for _, c := range []struct {
		limit   int
		inlined bool
	}{{size, true}, {size + 1, true}, {size - 1, false}} {
		var res toolResult
		jsonUnmarshal(sized(c.limit).callTool("dump", map[string]any{"n": 300}), &res)
		if res.IsError == c.inlined {
			t.Errorf("a result of %d bytes under maxResultBytes %d: isError %v, want %v", size, c.limit, res.IsError, !c.inlined)
		}
	}
}

// TestResultPreviewWholeCharacters: the preview of a result over budget is
// cut at a character's start, never inside one (é is two bytes; a budget
// of 202 cuts at 101).
func TestResultPreviewWholeCharacters(t *testing.T) {
	srv := runtime.NewServer(testInfo())
	tool := bigTool("dump", runtime.OverflowLink, 0)
	tool.MaxResultBytes = 202
	srv.AddTool(tool)
	c := serve(t, srv)
	c.initialize()
	var res toolResult
	jsonUnmarshal(c.callTool("dump", map[string]any{"n": 1000}), &res)
	if len(res.Content) != 2 {
		t.Fatalf("a result over budget: %+v", res)
	}
	summary := res.Content[0].Text
	if !utf8.ValidString(summary) || !strings.HasSuffix(summary, "It begins: "+strings.Repeat("é", 50)+"…") {
		t.Errorf("summary %q: want the preview cut before the 51st é", summary)
	}
}

// eitherVerifier accepts what one of its verifiers accepts (tokens of two
// issuers).
type eitherVerifier [2]runtime.TokenVerifier

func (v eitherVerifier) VerifyToken(ctx context.Context, token string) (*runtime.AuthInfo, error) {
	info, err := v[0].VerifyToken(ctx, token)
	if err != nil {
		return v[1].VerifyToken(ctx, token)
	}
	return info, nil
}

// TestResultBudgetStoreFails: when the result over budget cannot be kept,
// the call answers an isError result saying so (and the store's failure is
// logged): the result is neither inlined nor linked to a result no read
// would find.
func TestResultBudgetStoreFails(t *testing.T) {
	logs, logOpt := newLog()
	store := &spyIdempotencyStore{inner: runtime.NewMemoryIdempotencyStore(0), fail: errors.New("the store is down")}
	srv := runtime.NewServer(testInfo(), runtime.WithIdempotencyStore(store), logOpt)
	srv.AddTool(bigTool("dump", runtime.OverflowLink, 0))
	c := serve(t, srv)
	c.initialize()
	raw := c.callTool("dump", map[string]any{"n": 1000})
	var res toolResult
	jsonUnmarshal(raw, &res)
	if !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "over its limit of 200 bytes, and could not be kept for reading") {
		t.Errorf("a result over budget that could not be kept: %s", raw)
	}
	if len(raw) > 400 || strings.Contains(string(raw), "éé") {
		t.Errorf("the result was inlined (%d bytes): %.300s", len(raw), raw)
	}
	if !strings.Contains(logs.String(), "keeping a result over budget failed") {
		t.Errorf("the store's failure is not logged:\n%s", logs)
	}
}

// TestResultPreviewAtItsLength: a first text block exactly as long as the
// preview (half the budget) is shown whole, with no mark of a cut; one byte
// longer is cut and marked.
func TestResultPreviewAtItsLength(t *testing.T) {
	for _, c := range []struct {
		first string
		want  string
	}{
		{strings.Repeat("a", 100), "It begins: " + strings.Repeat("a", 100)},
		{strings.Repeat("a", 101), "It begins: " + strings.Repeat("a", 100) + "…"},
	} {
		srv := runtime.NewServer(testInfo())
		srv.AddTool(runtime.Tool{Name: "two", Description: "Answers two texts.", MaxResultBytes: 200, Overflow: runtime.OverflowLink,
			Handler: func(context.Context, *runtime.CallToolRequest) (*runtime.CallToolResult, error) {
				return &runtime.CallToolResult{Content: []runtime.Content{runtime.TextContent{Text: c.first}, runtime.TextContent{Text: strings.Repeat("b", 500)}}}, nil
			}})
		cl := serve(t, srv)
		cl.initialize()
		var res toolResult
		jsonUnmarshal(cl.callTool("two", nil), &res)
		if len(res.Content) != 2 || !strings.HasSuffix(res.Content[0].Text, c.want) {
			t.Errorf("a first text of %d bytes: %+v, want the summary to end %q", len(c.first), res.Content, c.want)
		}
	}
}
