package interop

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOrdersRateLimitWithGoSDK: examples/orders limits refund_order to 5
// calls a minute per caller (rateLimit: in its spec). The official Go SDK
// client, over both transports and in both eras, makes 5 refunds and sees
// the 6th refused with the runtime's rate-limit error (over HTTP the
// response is 429 with Retry-After); another tool still works after it.
func TestOrdersRateLimitWithGoSDK(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, era := range eras {
			t.Run(transport+"/"+era, func(t *testing.T) {
				session := connectGoSDK(t, transport, exampleTarget(t, "orders", transport), era, nil, nil)
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				refund := func(i int) (*mcp.CallToolResult, error) {
					return session.CallTool(ctx, &mcp.CallToolParams{Name: "refund_order", Arguments: map[string]any{
						"order_id": "A-1042", "reason": "damaged", "idempotency_key": "0b6f5d1e-9a43-4c1b-8f6e-2d9c7a1b3e5" + string(rune('0'+i)),
					}})
				}
				for i := range 5 {
					if res, err := refund(i); err != nil {
						t.Fatalf("refund %d: %v %v", i+1, err, res)
					}
				}
				// Over stdio the SDK returns the JSON-RPC error; over HTTP it
				// stops at the status (429) and does not read the body.
				want := `rate limited: 5 requests per 1m0s to tool "refund_order"`
				if transport == "http" {
					want = "Too Many Requests"
				}
				if _, err := refund(5); err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("6th refund: %v, want %q", err, want)
				}
				res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_order", Arguments: map[string]any{"order_id": "A-1042"}})
				if err != nil || res.IsError {
					t.Errorf("lookup after the refusal: %v %v", err, res)
				}
			})
		}
	}
}
