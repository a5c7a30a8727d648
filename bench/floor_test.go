package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench/load"
	"github.com/mcpgen/mcpgen/bench/servers"
)

// TestFloorAgrees: the floor's canned answers are the ones mcpgen computes,
// over stdio and over HTTP, so that dividing by its figures compares the
// same bytes on the wire.
func TestFloorAgrees(t *testing.T) {
	floor := func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return servers.NewFloor().ServeStdio(in, out)
	}
	h := httptest.NewServer(servers.NewFloor())
	defer h.Close()
	post := func(body string) (int, string) {
		resp, err := http.Post(h.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tool := range load.Tools {
		want := result(t, oneCall(t, pipeServers[0].serve, tool)) // mcpgen
		if got := result(t, oneCall(t, floor, tool)); got != want {
			t.Errorf("stdio %s:\n got %s\nwant %s", tool, got, want)
		}
		code, body := post(string(callLine(tool, 7)))
		if got := result(t, []byte(body)); code != http.StatusOK || got != want || !strings.Contains(body, `"id":7`) {
			t.Errorf("HTTP %s: %d %s\nwant %s", tool, code, body, want)
		}
	}
	if code, body := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted || body != "" {
		t.Errorf("notification: %d %q, want 202 and no body", code, body)
	}
	if _, body := post(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"nope"}}`); !strings.Contains(body, `"error":{"code":-32602`) {
		t.Errorf("unknown tool: %s", body)
	}
	if _, body := post(`{"jsonrpc":`); !strings.Contains(body, `"code":-32700`) {
		t.Errorf("malformed: %s", body)
	}
}

func result(t *testing.T, msg []byte) string {
	t.Helper()
	var res struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal(msg, &res); err != nil || res.Result == nil {
		t.Fatalf("not a result: %s", msg)
	}
	return fmt.Sprint(normalize(res.Result))
}
