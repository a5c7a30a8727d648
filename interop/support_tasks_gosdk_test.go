package interop

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSupportReportPlainCallWithGoSDK: build_report may run as a task
// (execution.taskSupport optional), but the official Go SDK client has no
// task API: in either era it declares nothing about tasks and calls the
// tool as usual, so the server runs it as a plain call and answers with
// the report itself, progress on the way.
func TestSupportReportPlainCallWithGoSDK(t *testing.T) {
	endpoint := startHTTP(t, "support", "-report-step", "50ms")
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			progress := make(chan float64, 16)
			session := connectGoSDK(t, "http", endpoint, era, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					progress <- req.Params.Progress
				},
			}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			params := &mcp.CallToolParams{Name: "build_report", Arguments: map[string]any{"customer": "acme"}}
			params.SetProgressToken("report")
			res, err := session.CallTool(ctx, params)
			if err != nil || res.IsError {
				t.Fatalf("build_report: %v %s", err, textOf(res))
			}
			got := jsonOf(t, res.StructuredContent)
			if !strings.Contains(got, `"tickets":2`) || !strings.Contains(got, `"past_sla":["T-1001"]`) {
				t.Errorf("report = %s", got)
			}
			select {
			case p := <-progress:
				if p <= 0 {
					t.Errorf("progress %v", p)
				}
			case <-time.After(5 * time.Second):
				t.Error("no progress notification")
			}
		})
	}
}
