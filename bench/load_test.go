package bench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/load"
)

// TestHarness builds the three servers and drives each briefly with the load
// generator over stdio and Streamable HTTP (with both HTTP clients: raw and
// net/http), and reads their tools/list: the harness of cmd/compare, in
// small. The raw client refuses a response that is not the result for its
// request's id, so a pass also checks every answer's id.
func TestHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binaries")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+"/", "./cmd/mcpgen-server", "./cmd/gosdk-server", "./cmd/mcpgo-server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx := context.Background()
	for _, s := range []string{"mcpgen", "gosdk", "mcpgo"} {
		cmd := []string{filepath.Join(bin, s+"-server")}
		st, err := load.ListTools(ctx, cmd)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(st.ToolsList, &list); err != nil || len(list.Result.Tools) != 3 {
			t.Errorf("%s: tools/list: %s", s, st.ToolsList)
		}
		for _, transport := range []string{"stdio", "http raw", "http nethttp"} {
			for _, tool := range load.Tools {
				cfg := load.Config{Cmd: cmd, Tool: tool, Args: load.Arguments[tool], N: 200, C: 4, Warmup: 10, Timeout: 30 * time.Second}
				if client, ok := strings.CutPrefix(transport, "http "); ok {
					cfg.Client = client
					if cfg.HTTPAddr, err = load.FreeAddr(); err != nil {
						t.Fatal(err)
					}
				}
				r, err := load.Run(ctx, cfg)
				if err != nil {
					t.Errorf("%s %s %s: %v", s, transport, tool, err)
					continue
				}
				if r.Calls != 200 || r.Errors != 0 || r.RPS <= 0 || r.P99 < r.P50 || r.CPUPerCall <= 0 || r.MaxRSSKB <= 0 {
					t.Errorf("%s %s %s: %+v", s, transport, tool, r)
				}
				if !bytes.Contains(r.Sample, []byte(`"result"`)) {
					t.Errorf("%s %s %s: sample %s", s, transport, tool, r.Sample)
				}
				if wantFormat := map[string]string{"gosdk": "sse"}[s]; transport != "stdio" && r.Format != cmp.Or(wantFormat, "json") {
					t.Errorf("%s %s %s: format %q", s, transport, tool, r.Format)
				}
			}
		}
	}
}
