package redisstore

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/runtime"
)

var refund = runtime.IdempotencyKey{Owner: "iss|alice", Tool: "refund_order", Key: "k-1", Fingerprint: "fp-1"}

// Three replicas (three Stores, three connection pools) receive the same
// call at once, ten times each: the handler runs once and all thirty get
// its result.
func TestIdempotencyOneRunAcrossReplicas(t *testing.T) {
	idempotencyOneRunAcrossReplicas(t, redistest.Start(t))
}

func idempotencyOneRunAcrossReplicas(t *testing.T, r redistest.Deployment) {
	replicas := []runtime.IdempotencyStore{
		openStore(t, r, Config{}).Idempotency(),
		openStore(t, r, Config{}).Idempotency(),
		openStore(t, r, Config{}).Idempotency(),
	}
	var runs atomic.Int32
	var wg sync.WaitGroup
	results := make(chan string, 30)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := replicas[i%3].Do(context.Background(), refund, time.Minute, func() ([]byte, bool) {
				n := runs.Add(1)
				time.Sleep(200 * time.Millisecond) // the others arrive meanwhile
				return []byte(`{"run":` + string(rune('0'+n)) + `}`), true
			})
			if err != nil {
				t.Error(err)
			}
			results <- string(res)
		}()
	}
	wg.Wait()
	close(results)
	if n := runs.Load(); n != 1 {
		t.Fatalf("the call ran %d times, want once", n)
	}
	for res := range results {
		if res != `{"run":1}` {
			t.Errorf("a retry got %q, want the first result", res)
		}
	}
}

func TestIdempotencyConflictOwnerAndFailure(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{}).Idempotency()
	ctx := context.Background()
	keep := func(v string) func() ([]byte, bool) { return func() ([]byte, bool) { return []byte(v), true } }
	if _, err := st.Do(ctx, refund, time.Minute, keep("a")); err != nil {
		t.Fatal(err)
	}
	other := refund
	other.Fingerprint = "fp-2"
	if _, err := st.Do(ctx, other, time.Minute, keep("b")); !errors.Is(err, runtime.ErrIdempotencyConflict) {
		t.Errorf("same key, other arguments: %v, want ErrIdempotencyConflict", err)
	}
	bob := refund
	bob.Owner = "iss|bob"
	if res, err := st.Do(ctx, bob, time.Minute, keep("bob's")); err != nil || string(res) != "bob's" {
		t.Errorf("another owner's call with the same key got %q, %v; want its own run", res, err)
	}
	// A failed call keeps nothing: its retry runs.
	failing := refund
	failing.Key = "k-failing"
	runs := 0
	for range 2 {
		st.Do(ctx, failing, time.Minute, func() ([]byte, bool) { runs++; return nil, false })
	}
	if runs != 2 {
		t.Errorf("a failed call's retry ran %d times in all, want 2", runs)
	}
	// A panic frees the key too.
	panicking := refund
	panicking.Key = "k-panic"
	func() {
		defer func() { recover() }()
		st.Do(ctx, panicking, time.Minute, func() ([]byte, bool) { panic("handler bug") })
	}()
	if res, err := st.Do(ctx, panicking, time.Minute, keep("after panic")); err != nil || string(res) != "after panic" {
		t.Errorf("after a panic: %q, %v; want a new run", res, err)
	}
}

func TestIdempotencyResultExpires(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{}).Idempotency()
	ctx := context.Background()
	st.Do(ctx, refund, 100*time.Millisecond, func() ([]byte, bool) { return []byte("first"), true })
	time.Sleep(200 * time.Millisecond)
	res, err := st.Do(ctx, refund, time.Minute, func() ([]byte, bool) { return []byte("second"), true })
	if err != nil || string(res) != "second" {
		t.Errorf("after the TTL: %q, %v; want a new run", res, err)
	}
}

// A replica that dies while running the call leaves its lock, which
// expires after LockTTL; a retry then runs the call.
func TestIdempotencyLockOfDeadReplicaExpires(t *testing.T) {
	r := redistest.Start(t)
	s := openStore(t, r, Config{LockTTL: 300 * time.Millisecond})
	key := s.cfg.Prefix + "idem:" + entryName(refund)
	// What a replica does before it dies in the handler: take the lock.
	if err := claimScript.Run(context.Background(), s.client, []string{key}, refund.Fingerprint, "dead-replica", 300).Err(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := s.Idempotency().Do(context.Background(), refund, time.Minute, func() ([]byte, bool) { return []byte("retry"), true })
	if err != nil || string(res) != "retry" {
		t.Fatalf("retry after a dead replica: %q, %v", res, err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Errorf("the retry ran after %v, before the dead replica's lock expired", waited)
	}
}

// A live replica renews its lock: a call longer than LockTTL is not run a
// second time by a retry.
func TestIdempotencyLongCallKeepsItsLock(t *testing.T) {
	r := redistest.Start(t)
	// The call outlives its lock's TTL three times over, so without the
	// renewal the lock lapses and the retry runs it again; the TTL is long
	// enough that a renewal delayed by a busy machine still comes in time.
	a := openStore(t, r, Config{LockTTL: time.Second}).Idempotency()
	b := openStore(t, r, Config{LockTTL: time.Second}).Idempotency()
	var runs atomic.Int32
	call := func() ([]byte, bool) { runs.Add(1); time.Sleep(3 * time.Second); return []byte("done"), true }
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a.Do(context.Background(), refund, time.Minute, call) }()
	time.Sleep(50 * time.Millisecond)
	res, err := b.Do(context.Background(), refund, time.Minute, call)
	wg.Wait()
	if err != nil || string(res) != "done" || runs.Load() != 1 {
		t.Errorf("retry during a long call: %q, %v, %d runs; want the first result and one run", res, err, runs.Load())
	}
}

// Redis that answers nothing: Do fails within the timeout, with an error
// naming the store, and works again once Redis is back.
func TestIdempotencyRedisUnresponsive(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{Timeout: 300 * time.Millisecond}).Idempotency()
	r.Pause()
	start := time.Now()
	ran := false
	_, err := st.Do(context.Background(), refund, time.Minute, func() ([]byte, bool) { ran = true; return []byte("x"), true })
	took := time.Since(start)
	r.Resume()
	if err == nil || ran {
		t.Fatalf("with Redis paused: ran=%v err=%v; want an error and no run", ran, err)
	}
	if !strings.Contains(err.Error(), "idempotency store") || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("error %q does not name the store and the timeout", err)
	}
	if took > 15*time.Second { // without the timeout it waits for Resume, i.e. forever; the margin is for a busy machine
		t.Errorf("Do took %v with a 300ms timeout", took)
	}
	res, err := st.Do(context.Background(), refund, time.Minute, func() ([]byte, bool) { return []byte("back"), true })
	if err != nil || string(res) != "back" {
		t.Errorf("after Redis came back: %q, %v", res, err)
	}
}

// finishFault is a go-redis hook that fails the idempotency store's final
// write (the finish script) as a Redis that does not answer it in time
// would, while fail says so; fail is asked once per attempt. done gets a
// value after each attempt let through.
type finishFault struct {
	fail func() bool
	done chan struct{}
}

func (f *finishFault) DialHook(next redis.DialHook) redis.DialHook { return next }
func (f *finishFault) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (f *finishFault) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !isScript(cmd, finishScript) {
			return next(ctx, cmd)
		}
		if f.fail() {
			err := fmt.Errorf("injected: %w", context.DeadlineExceeded)
			cmd.SetErr(err)
			return err
		}
		err := next(ctx, cmd)
		if err == nil || !redis.HasErrorPrefix(err, "NOSCRIPT") { // else go-redis sends it again with EVAL
			select {
			case f.done <- struct{}{}:
			default:
			}
		}
		return err
	}
}

// isScript reports whether cmd runs script: EVALSHA of its hash, or EVAL
// of its source (go-redis's fallback when Redis has not seen it yet).
func isScript(cmd redis.Cmder, script *redis.Script) bool {
	a := cmd.Args()
	if len(a) < 2 {
		return false
	}
	switch strings.ToLower(fmt.Sprint(a[0])) {
	case "evalsha":
		return a[1] == script.Hash()
	case "eval":
		return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(a[1])))) == script.Hash()
	}
	return false
}

// faultyStore is a store on its own client of r, with fault's hook.
func faultyStore(t *testing.T, r *redistest.Server, cfg Config, fault *finishFault) *Store {
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	c.AddHook(fault)
	t.Cleanup(func() { c.Close() })
	return New(c, cfg)
}

// The final write fails and, meanwhile, the key expires (here: deleted at
// the failure, as an outage longer than the lock's life would leave it):
// the retried write records the result again, so that a retry on another
// replica gets it instead of running the call a second time.
func TestIdempotencyFinalWriteAfterKeyExpired(t *testing.T) {
	r := redistest.Start(t)
	key := "mcpgen:idem:" + entryName(refund)
	peek := r.Client(t)
	var failed atomic.Bool
	fault := &finishFault{done: make(chan struct{}, 1), fail: func() bool {
		if failed.Swap(true) {
			return false
		}
		peek.Del(context.Background(), key) // the lock expired during the outage
		return true
	}}
	a := faultyStore(t, r, Config{Timeout: 200 * time.Millisecond}, fault).Idempotency()
	b := openStore(t, r, Config{}).Idempotency()
	var runs atomic.Int32
	call := func() ([]byte, bool) { return []byte("run " + strconv.Itoa(int(runs.Add(1)))), true }
	if res, err := a.Do(context.Background(), refund, time.Minute, call); err != nil || string(res) != "run 1" {
		t.Fatalf("the first call: %q, %v", res, err)
	}
	select {
	case <-fault.done: // the retried final write ran
	case <-time.After(10 * time.Second):
		t.Fatal("the final write was not retried")
	}
	res, err := b.Do(context.Background(), refund, time.Minute, call)
	if err != nil || string(res) != "run 1" || runs.Load() != 1 {
		t.Errorf("a retry after the final write was retried: %q, %v, %d runs; want the first result and one run", res, err, runs.Load())
	}
}

// The final write fails for longer than a third of LockTTL (until the lock
// was renewed after the call ended): the lock is renewed meanwhile, so a
// retry on another replica waits for the result instead of taking the
// expired key and running the call again.
func TestIdempotencyLockRenewedThroughFinalWrite(t *testing.T) {
	r := redistest.Start(t)
	const lockTTL = 1500 * time.Millisecond
	var ended atomic.Bool
	var renewedAfter atomic.Int32
	fault := &finishFault{done: make(chan struct{}, 1), fail: func() bool { return renewedAfter.Load() == 0 }}
	st := faultyStore(t, r, Config{Timeout: 200 * time.Millisecond, LockTTL: lockTTL}, fault)
	st.client.AddHook(renewSpy{func() {
		if ended.Load() {
			renewedAfter.Add(1)
		}
	}})
	a := st.Idempotency()
	b := openStore(t, r, Config{LockTTL: lockTTL}).Idempotency()
	var runs atomic.Int32
	call := func() ([]byte, bool) {
		n := runs.Add(1)
		ended.Store(true)
		return []byte("run " + strconv.Itoa(int(n))), true
	}
	if res, err := a.Do(context.Background(), refund, time.Minute, call); err != nil || string(res) != "run 1" {
		t.Fatalf("the first call: %q, %v", res, err)
	}
	res, err := b.Do(context.Background(), refund, time.Minute, call)
	if err != nil || string(res) != "run 1" || runs.Load() != 1 {
		t.Errorf("a retry while the final write is retried: %q, %v, %d runs; want the first result and one run", res, err, runs.Load())
	}
}

// renewSpy calls renewed after each run of the renew script.
type renewSpy struct{ renewed func() }

func (h renewSpy) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h renewSpy) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h renewSpy) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if isScript(cmd, renewScript) && err == nil {
			h.renewed()
		}
		return err
	}
}

// TestIdempotencyPartsDoNotRunTogether: the owner, the tool and the key are
// chosen apart (the key by the client), and a record is named by all three:
// tool "refund" with key "_all-1" is not tool "refund_all" with key "-1",
// nor is owner "a" with tool "bc" owner "ab" with tool "c". Were the parts
// hashed end to end, the second call would get the first one's result (or
// a conflict) instead of running.
func TestIdempotencyPartsDoNotRunTogether(t *testing.T) {
	st := openStore(t, redistest.Start(t), Config{}).Idempotency()
	ctx := context.Background()
	for _, pair := range [][2]runtime.IdempotencyKey{
		{{Tool: "refund", Key: "_all-1", Fingerprint: "f"}, {Tool: "refund_all", Key: "-1", Fingerprint: "f"}},
		{{Owner: "a", Tool: "bc", Key: "k", Fingerprint: "f"}, {Owner: "ab", Tool: "c", Key: "k", Fingerprint: "f"}},
	} {
		if _, err := st.Do(ctx, pair[0], time.Minute, func() ([]byte, bool) { return []byte("first"), true }); err != nil {
			t.Fatal(err)
		}
		ran := false
		res, err := st.Do(ctx, pair[1], time.Minute, func() ([]byte, bool) { ran = true; return []byte("second"), true })
		if err != nil || !ran || string(res) != "second" {
			t.Errorf("%+v after %+v: %q, %v (ran %v); want its own run", pair[1], pair[0], res, err, ran)
		}
	}
}

// TestIdempotencyFinishLeavesAnotherReplicasKey: a replica whose lock
// lapsed (a long pause) while another replica took the key finishes
// without touching it: neither its result nor its freeing the key may
// reach the record the other replica is running under, or a third call
// would get a result of the wrong run, or run the call while the other
// replica still does.
func TestIdempotencyFinishLeavesAnotherReplicasKey(t *testing.T) {
	s := openStore(t, redistest.Start(t), Config{})
	ctx := context.Background()
	key := s.cfg.Prefix + "idem:" + entryName(refund)
	if err := claimScript.Run(ctx, s.client, []string{key}, refund.Fingerprint, "replica-b", 60000).Err(); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"0", "1"} {
		n, err := finishScript.Run(ctx, s.client, []string{key}, "replica-a", keep, "a's result", 60000, refund.Fingerprint).Int()
		if err != nil || n != 0 {
			t.Errorf("finish (keep %s) by a replica whose lock lapsed: %d, %v; want 0, nothing done", keep, n, err)
		}
		v, err := s.client.HGetAll(ctx, key).Result()
		if err != nil || v["lock"] != "replica-b" || v["result"] != "" {
			t.Fatalf("after finish (keep %s) by the replica whose lock lapsed, the key holds %v (%v); want replica-b's lock and no result", keep, v, err)
		}
	}
}

// A failed call frees its key at once: the same key with other arguments
// runs (no conflict with a call that kept nothing), and the retry of the
// failed call runs too, without waiting for a lock to expire.
func TestIdempotencyFailureFreesKey(t *testing.T) {
	r := redistest.Start(t)
	st := openStore(t, r, Config{LockTTL: time.Hour}).Idempotency()
	// The deadline only ends a retry that waits for a lock left behind.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	failing := refund
	failing.Key = "k-failed"
	if _, err := st.Do(ctx, failing, time.Minute, func() ([]byte, bool) { return nil, false }); err != nil {
		t.Fatal(err)
	}
	other := failing
	other.Fingerprint = "fp-other"
	if res, err := st.Do(ctx, other, time.Minute, func() ([]byte, bool) { return []byte("other"), true }); err != nil || string(res) != "other" {
		t.Errorf("the key of a failed call with other arguments: %q, %v; want a run", res, err)
	}
	failing.Key = "k-failed-again"
	st.Do(ctx, failing, time.Minute, func() ([]byte, bool) { return nil, false })
	if res, err := st.Do(ctx, failing, time.Minute, func() ([]byte, bool) { return []byte("retry"), true }); err != nil || string(res) != "retry" {
		t.Errorf("the retry of a failed call: %q, %v; want a run", res, err)
	}
}
