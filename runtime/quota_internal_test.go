package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"
)

// The HTTP transport finds a rate-limited response by its encoding: the
// head streamhttp looks for (its rateLimitedHead, TestRateLimited there)
// and data.retryAfterSeconds.
func TestRateLimitedHead(t *testing.T) {
	e := (&Server{cfg: config{quotaStore: NewMemoryQuotaStore()}}).take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	if e != nil {
		t.Fatal("the first call was refused")
	}
	srv := &Server{cfg: config{quotaStore: NewMemoryQuotaStore()}}
	srv.take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	e = srv.take(context.Background(), "k", RateLimit{Requests: 1, Per: time.Hour}, "x")
	msg := appendErrorResponse(nil, "7", e)
	if !bytes.Contains(msg, []byte(`,"error":{"code":-32005,`)) {
		t.Fatalf("%s: not the head streamhttp looks for", msg)
	}
	var r struct {
		Error struct {
			Code int
			Data struct {
				RetryAfterSeconds int `json:"retryAfterSeconds"`
			}
		}
	}
	if json.Unmarshal(msg, &r) != nil || r.Error.Code != CodeRateLimited || r.Error.Data.RetryAfterSeconds != 3600 {
		t.Fatalf("%s", msg)
	}
}
