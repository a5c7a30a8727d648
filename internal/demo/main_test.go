package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSessionInOrder plays demo.sh's kind of session against the real
// examples/orders server: every request is followed by its own response
// (numbered, in order), the garbage line by the -32700 error, and the
// large id comes back exact.
func TestSessionInOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/orders")
	}
	bin := filepath.Join(t.TempDir(), "orders")
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/orders").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_order","arguments":{"order_id":"A-1042"}}}`,
		`not JSON`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
	}, "\n")
	var out strings.Builder
	if err := run([]string{bin}, strings.NewReader(script), &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	got := out.String()
	// The numbered titles, and after each request its response's id.
	titles := regexp.MustCompile(`(?m)^\d+\. .*$`).FindAllString(got, -1)
	want := []string{"1. initialize", "2. notifications/initialized (a notification: no response)", "3. tools/list",
		"4. tools/call lookup_order", "5. a line that is not JSON", "6. ping"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Errorf("titles:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
	ids := regexp.MustCompile(`(?m)^← \{\n    "jsonrpc": "2.0",\n    "id": ([^,]+),`).FindAllStringSubmatch(got, -1)
	var order []string
	for _, m := range ids {
		order = append(order, m[1])
	}
	if strings.Join(order, " ") != "1 2 3 null 9007199254740993" {
		t.Errorf("response ids in order: %q, want 1 2 3 null 9007199254740993\n%s", order, got)
	}
	if strings.Count(got, "\n") < 100 {
		t.Errorf("tools/list is not pretty-printed (%d lines in all)", strings.Count(got, "\n"))
	}
}
