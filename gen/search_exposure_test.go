package gen_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	library "github.com/mcpgen/mcpgen/golden/search_exposure"
)

type lender struct{ library.UnimplementedHandler }

func (lender) LendBook(_ context.Context, in *library.LendBookInput) (*library.LendBookOutput, error) {
	return &library.LendBookOutput{Due: "in three weeks, " + in.Reader}, nil
}

// TestGeneratedSearchExposure: the server of a spec with exposure: search
// lists the three search tools; search_tools finds a tool by what it does,
// and call_tool runs it with the generated validation, answering exactly
// what a direct call answers.
func TestGeneratedSearchExposure(t *testing.T) {
	srv := library.NewServer(lender{})
	out := make(chan string, 10)
	ss := srv.NewSession(func(msg []byte) { out <- string(msg) })
	defer ss.Close()
	send := func(method, params string) string {
		ss.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
		select {
		case msg := <-out:
			return msg
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s %s", method, params)
			return ""
		}
	}
	send("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)

	var list struct {
		Result struct{ Tools []struct{ Name string } }
	}
	if err := json.Unmarshal([]byte(send("tools/list", `{}`)), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Result.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "search_tools describe_tools call_tool" {
		t.Fatalf("tools/list: %q", names)
	}
	if got := send("tools/call", `{"name":"search_tools","arguments":{"query":"lend a book to a reader","limit":1}}`); !strings.Contains(got, `"structuredContent":{"tools":[{"name":"lend_book"`) {
		t.Errorf("search_tools: %s", got)
	}
	// "borrow" is only in lend_book's keywords.
	if got := send("tools/call", `{"name":"search_tools","arguments":{"query":"borrow something","limit":1}}`); !strings.Contains(got, `"structuredContent":{"tools":[{"name":"lend_book"`) {
		t.Errorf("search_tools by a keyword: %s", got)
	}
	for _, args := range []string{`{"isbn":"0140449132","reader":"R-7"}`, `{"isbn":"short","reader":"R-7"}`, `{"reader":"R-7"}`} {
		direct := send("tools/call", `{"name":"lend_book","arguments":`+args+`}`)
		via := send("tools/call", `{"name":"call_tool","arguments":{"name":"lend_book","arguments":`+args+`}}`)
		if direct != via {
			t.Errorf("lend_book %s:\ndirect:        %s\nvia call_tool: %s", args, direct, via)
		}
	}
}
