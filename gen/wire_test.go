package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestWireSnapshots records, for every golden case and example, what a
// client sees: the initialize result and every list, exactly as the runtime
// sends them (golden/<case>/wire.json, gen/testdata/wire/<example>.json;
// `go test ./gen -update` rewrites them). A reviewer reads a spec change's
// effect on the wire in this file; a change to the generator that must not
// change the wire proves it here (json.Indent changes whitespace only, so
// equal snapshots are equal bytes on the wire).
func TestWireSnapshots(t *testing.T) {
	paths := make([]string, 0, len(compiledCases))
	for p := range compiledCases {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, specPath := range paths {
		register := compiledCases[specPath]
		name := filepath.Base(filepath.Dir(specPath))
		path := filepath.Join(filepath.Dir(specPath), "wire.json")
		if strings.HasPrefix(specPath, "../examples/") {
			// An example's directory is what its users copy: its
			// snapshot lives here instead.
			path = filepath.Join("testdata", "wire", name+".json")
		}
		t.Run(name, func(t *testing.T) {
			got := wireSnapshot(t, register)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./gen -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("what clients see changed (-want +got):\n%s", diff)
			}
		})
	}
}

// wireSnapshot drives a server in process through an initialize and the
// four lists, and returns the results as indented JSON.
func wireSnapshot(t *testing.T, register func(*runtime.Server)) []byte {
	t.Helper()
	srv := runtime.NewServer(runtime.Implementation{Name: "snapshot", Version: "1"})
	register(srv)
	var mu sync.Mutex
	responses := map[string]json.RawMessage{}
	ss := srv.NewSession(func(msg []byte) {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(msg, &resp); err != nil {
			t.Errorf("undecodable response %s", msg)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if resp.Error != nil {
			responses[string(resp.ID)] = resp.Error
		} else {
			responses[string(resp.ID)] = resp.Result
		}
	})
	defer ss.Close()
	ctx := context.Background()
	steps := []struct{ id, method string }{
		{"1", "initialize"}, {"2", "tools/list"}, {"3", "resources/list"}, {"4", "resources/templates/list"}, {"5", "prompts/list"},
	}
	for _, s := range steps {
		params := `{}`
		if s.method == "initialize" {
			params = `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"snapshot","version":"1"}}`
		}
		ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":`+s.id+`,"method":"`+s.method+`","params":`+params+`}`))
		if s.method == "initialize" {
			ss.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		}
	}
	ss.Wait()
	var out bytes.Buffer
	out.WriteString("{\n")
	for i, s := range steps {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, responses[s.id], "  ", "  "); err != nil {
			t.Fatalf("%s: %v", s.method, err)
		}
		sep := ","
		if i == len(steps)-1 {
			sep = ""
		}
		out.WriteString("  \"" + s.method + "\": " + pretty.String() + sep + "\n")
	}
	out.WriteString("}\n")
	return out.Bytes()
}
