package redisstore

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
)

// What each Redis-backed piece adds to a call, against the in-memory
// default, with redis-server on loopback (BENCHMARKS.md, "Shared state on
// Redis"): go test -run '^$' -bench . ./runtime/redisstore

// reportCPU reports the CPU time this process spent per operation (user
// and system, all goroutines: the client's side, not redis-server's) from
// now until the returned function is called.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchIdempotency(b *testing.B, st runtime.IdempotencyStore, sameKey bool) {
	defer reportCPU(b)()
	result := []byte(`{"content":[{"type":"text","text":"refunded"}]}`)
	k := runtime.IdempotencyKey{Tool: "refund_order", Fingerprint: "fp"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k.Key = "k"
		if !sameKey {
			k.Key = strconv.Itoa(i)
		}
		if _, err := st.Do(context.Background(), k, time.Hour, func() ([]byte, bool) { return result, true }); err != nil {
			b.Fatal(err)
		}
	}
}

// A new key: the call runs (claim, then keep the result: two round trips).
func BenchmarkIdempotencyNewKey(b *testing.B) {
	b.Run("memory", func(b *testing.B) { benchIdempotency(b, runtime.NewMemoryIdempotencyStore(0), false) })
	b.Run("redis", func(b *testing.B) {
		benchIdempotency(b, openStore(b, redistest.Start(b), Config{}).Idempotency(), false)
	})
}

// A retry: the result is there (one round trip).
func BenchmarkIdempotencyRetry(b *testing.B) {
	b.Run("memory", func(b *testing.B) { benchIdempotency(b, runtime.NewMemoryIdempotencyStore(0), true) })
	b.Run("redis", func(b *testing.B) {
		benchIdempotency(b, openStore(b, redistest.Start(b), Config{}).Idempotency(), true)
	})
}

// One SSE event stored (a response on a resumable stream).
func BenchmarkEventAppend(b *testing.B) {
	event := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hello"}]}}`)
	run := func(b *testing.B, st runtime.EventStore) {
		defer reportCPU(b)()
		b.ReportAllocs()
		for i := 1; b.Loop(); i++ {
			if err := st.Append(context.Background(), "session", strconv.Itoa(i/100), i%100+1, event); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, runtime.NewMemoryEventStore(1000)) })
	b.Run("redis", func(b *testing.B) { run(b, openStore(b, redistest.Start(b), Config{}).Events()) })
}

// One change notification published and received by a subscriber.
func BenchmarkBusRoundTrip(b *testing.B) {
	run := func(b *testing.B, bus runtime.NotificationBus) {
		got := make(chan struct{}, 1)
		stop, err := bus.Subscribe(context.Background(), func([]byte) { got <- struct{}{} })
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		defer reportCPU(b)()
		msg := []byte("uticket://T-1001")
		b.ReportAllocs()
		for b.Loop() {
			if err := bus.Publish(context.Background(), msg); err != nil {
				b.Fatal(err)
			}
			<-got
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, runtime.NewMemoryBus()) })
	b.Run("redis", func(b *testing.B) { run(b, openStore(b, redistest.Start(b), Config{}).Bus()) })
}

// One request of a shared legacy session: its record loaded (and its TTL
// extended).
func BenchmarkSessionLoad(b *testing.B) {
	st := openStore(b, redistest.Start(b), Config{}).Sessions()
	record := []byte(`{"version":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"},"logRank":1}`)
	if err := st.Save(context.Background(), "r1.session", record, time.Hour); err != nil {
		b.Fatal(err)
	}
	defer reportCPU(b)()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := st.Load(context.Background(), "r1.session", time.Hour); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// A task's life as the runtime stores it: created, completed, read once
// by a poll.
func BenchmarkTaskCreateCompleteGet(b *testing.B) {
	run := func(b *testing.B, st runtime.TaskStore) {
		defer reportCPU(b)()
		result := []byte(`{"content":[{"type":"text","text":"the report"}]}`)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			t := &runtime.TaskRecord{ID: "task-" + strconv.Itoa(i), Owner: "owner-" + strconv.Itoa(i%100), Status: runtime.TaskWorking,
				CreatedAt: time.Now(), TTL: time.Minute, PollInterval: time.Second}
			if err := st.Create(context.Background(), t); err != nil {
				b.Fatal(err)
			}
			t.Status, t.Result = runtime.TaskCompleted, result
			if ok, err := st.Update(context.Background(), t); !ok || err != nil {
				b.Fatal(ok, err)
			}
			if got, err := st.Get(context.Background(), t.Owner, t.ID); got == nil || err != nil {
				b.Fatal(got, err)
			}
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, runtime.NewMemoryTaskStore(1_000_000)) })
	b.Run("redis", func(b *testing.B) {
		run(b, openStore(b, redistest.Start(b), Config{MaxTasksPerOwner: 1_000_000}).Tasks())
	})
}

// One token taken from a caller's bucket (a rate-limited call).
func BenchmarkQuotaTake(b *testing.B) {
	run := func(b *testing.B, st runtime.QuotaStore) {
		defer reportCPU(b)()
		limit := runtime.RateLimit{Requests: 1 << 30, Per: time.Second}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if ok, _, err := st.Take(context.Background(), "sub:iss|user-"+strconv.Itoa(i%100), limit); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, runtime.NewMemoryQuotaStore()) })
	b.Run("redis", func(b *testing.B) { run(b, openStore(b, redistest.Start(b), Config{}).Quotas()) })
}

// One requestState's first use recorded (a multi round-trip retry).
func BenchmarkRequestStateFirstUse(b *testing.B) {
	run := func(b *testing.B, st runtime.RequestStateStore) {
		defer reportCPU(b)()
		until := time.Now().Add(time.Hour)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if first, err := st.FirstUse(context.Background(), "state-"+strconv.Itoa(i), until); !first || err != nil {
				b.Fatal(first, err)
			}
		}
	}
	b.Run("memory", func(b *testing.B) { run(b, runtime.NewMemoryRequestStateStore(0)) })
	b.Run("redis", func(b *testing.B) { run(b, openStore(b, redistest.Start(b), Config{}).RequestStates()) })
}
