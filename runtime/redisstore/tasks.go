package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// A task is one hash, "<prefix>task:{<hash of owner>}:<id>", with the
// fields "owner", "status" and "rec" (the runtime.TaskRecord as JSON),
// expiring when the task does (PEXPIREAT). The tasks of an owner are a
// sorted set, "<prefix>tasks:{<hash of owner>}", of ids scored by the
// owner's counter "<prefix>tasks-counter:{<hash of owner>}", so that List
// pages them in creation order; ids whose hash expired are dropped from it
// when the owner's bound is reached. Every key of an owner's tasks carries
// the owner's hash as its hash tag: on Redis Cluster the scripts that read
// and write several of them run in one slot.
//
// A task that is not over also has a lease,
// "<prefix>task-lease:{<hash of owner>}:<id>",
// expiring after Config.LockTTL, which the process running its handler
// renews (taskLeases). A process killed mid-task (SIGKILL, a lost
// machine) cannot record the task failed, as a stopping one does
// (runtime.Server.StopTasks); its lease lapses instead, and the next read
// of the task through any replica records it failed, so that no client
// polls a task that will never end.

// createTaskScript stores a new task unless its owner holds as many live
// tasks as allowed: 1 stored, 0 full, -1 the id exists.
// KEYS: task, owner's set, counter, lease. ARGV: owner, status, record,
// expiry (Unix ms), bound, key prefix of tasks, ms until expiry (the set
// lives as long as its last task), lease ms.
var createTaskScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local bound = tonumber(ARGV[5])
if redis.call('ZCARD', KEYS[2]) >= bound then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    if redis.call('EXISTS', ARGV[6] .. id) == 0 then redis.call('ZREM', KEYS[2], id) end
  end
  if redis.call('ZCARD', KEYS[2]) >= bound then return 0 end
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'status', ARGV[2], 'rec', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
local id = string.sub(KEYS[1], string.len(ARGV[6]) + 1)
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), id)
local ttl = tonumber(ARGV[7])
if ttl > 0 and redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('SET', KEYS[4], '1', 'PX', ARGV[8])
return 1
`)

// updateTaskScript replaces a task's record unless it is gone or terminal
// (or, with ARGV[3] = "orphan", unless its lease is alive): 1 replaced, 0
// not. A terminal task needs no lease. KEYS: task, lease. ARGV: status,
// record, mode.
var updateTaskScript = redis.NewScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
if ARGV[3] == 'orphan' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'rec', ARGV[2])
if ARGV[1] == 'completed' or ARGV[1] == 'failed' or ARGV[1] == 'cancelled' then redis.call('DEL', KEYS[2]) end
return 1
`)

// OrphanedTaskMessage is the status message of a task whose process
// stopped without recording its end (its lease lapsed).
const OrphanedTaskMessage = "the server process running this task stopped before it finished"

// DefaultMaxTasksPerOwner is Config.MaxTasksPerOwner when 0.
const DefaultMaxTasksPerOwner = 1000

type taskStore struct {
	s      *Store
	leases *taskLeases // nil once the Store is closed: Create refuses
}

var _ runtime.TaskStore = (*taskStore)(nil)

// ownerTag is the hash tag of owner's keys.
func ownerTag(owner string) string { return tag(hashParts(owner)) }

func (st *taskStore) keyPrefix(owner string) string {
	return st.s.cfg.Prefix + "task:" + ownerTag(owner) + ":"
}
func (st *taskStore) key(owner, id string) string { return st.keyPrefix(owner) + id }
func (st *taskStore) lease(owner, id string) string {
	return st.s.cfg.Prefix + "task-lease:" + ownerTag(owner) + ":" + id
}

func (st *taskStore) ownerKey(owner string) string {
	return st.s.cfg.Prefix + "tasks:" + ownerTag(owner)
}

// Create implements runtime.TaskStore.
func (st *taskStore) Create(ctx context.Context, t *runtime.TaskRecord) error {
	rec, err := json.Marshal(t)
	if err != nil {
		return err
	}
	s := st.s
	if st.leases == nil {
		return errors.New("redisstore: task store: creating a task: the store is closed")
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	keys := []string{st.key(t.Owner, t.ID), st.ownerKey(t.Owner), s.cfg.Prefix + "tasks-counter:" + ownerTag(t.Owner), st.lease(t.Owner, t.ID)}
	n, err := createTaskScript.Run(ctx, s.client, keys, t.Owner, string(t.Status), rec,
		t.Expires().UnixMilli(), s.cfg.MaxTasksPerOwner, st.keyPrefix(t.Owner), time.Until(t.Expires()).Milliseconds(),
		s.cfg.LockTTL.Milliseconds()).Int()
	switch {
	case err != nil:
		return storeError("task", "creating a task", err)
	case n == 0:
		return runtime.ErrTaskStoreFull
	case n < 0:
		return errors.New("redisstore: task store: creating a task: task " + strconv.Quote(t.ID) + " exists")
	}
	st.leases.hold(st.lease(t.Owner, t.ID), t.Expires())
	return nil
}

// Update implements runtime.TaskStore.
func (st *taskStore) Update(ctx context.Context, t *runtime.TaskRecord) (bool, error) {
	rec, err := json.Marshal(t)
	if err != nil {
		return false, err
	}
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	n, err := updateTaskScript.Run(ctx, st.s.client, []string{st.key(t.Owner, t.ID), st.lease(t.Owner, t.ID)}, string(t.Status), rec, "").Int()
	if err != nil {
		return false, storeError("task", "updating a task", err)
	}
	if (n == 0 || t.Status.Terminal()) && st.leases != nil {
		st.leases.release(st.lease(t.Owner, t.ID))
	}
	return n == 1, nil
}

// Get implements runtime.TaskStore.
func (st *taskStore) Get(ctx context.Context, owner, id string) (*runtime.TaskRecord, error) {
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	ts, err := st.read(ctx, owner, []string{id})
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	return ts[0], nil
}

// read returns owner's live tasks among ids, in one round trip, recording
// failed those whose lease lapsed.
func (st *taskStore) read(ctx context.Context, owner string, ids []string) ([]*runtime.TaskRecord, error) {
	pipe := st.s.client.Pipeline()
	recs := make([]*redis.SliceCmd, len(ids))
	leases := make([]*redis.IntCmd, len(ids))
	for i, id := range ids {
		recs[i] = pipe.HMGet(ctx, st.key(owner, id), "owner", "rec")
		leases[i] = pipe.Exists(ctx, st.lease(owner, id))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, storeError("task", "reading tasks", err)
	}
	var out []*runtime.TaskRecord
	for i := range ids {
		t, err := decodeTask(owner, recs[i].Val())
		if err != nil {
			return nil, err
		}
		if t == nil {
			continue
		}
		if !t.Status.Terminal() && leases[i].Val() == 0 {
			if t, err = st.failOrphan(ctx, owner, t); err != nil {
				return nil, err
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// failOrphan records failed the task t whose lease lapsed, unless it
// changed meanwhile, and returns it as stored.
func (st *taskStore) failOrphan(ctx context.Context, owner string, t *runtime.TaskRecord) (*runtime.TaskRecord, error) {
	failed := *t
	failed.Status, failed.StatusMessage, failed.InputRequests = runtime.TaskFailed, OrphanedTaskMessage, nil
	failed.Result, failed.Error = nil, json.RawMessage(`{"code":-32603,"message":"`+OrphanedTaskMessage+`"}`)
	failed.UpdatedAt = time.Now().UTC()
	rec, err := json.Marshal(&failed)
	if err != nil {
		return nil, err
	}
	n, err := updateTaskScript.Run(ctx, st.s.client, []string{st.key(owner, t.ID), st.lease(owner, t.ID)}, string(failed.Status), rec, "orphan").Int()
	if err != nil {
		return nil, storeError("task", "recording an orphaned task failed", err)
	}
	if n == 1 {
		return &failed, nil
	}
	v, err := st.s.client.HMGet(ctx, st.key(owner, t.ID), "owner", "rec").Result() // it changed: read it again
	if err != nil {
		return nil, storeError("task", "reading a task", err)
	}
	if t, err = decodeTask(owner, v); t == nil && err == nil {
		return nil, errors.New("redisstore: task store: task " + strconv.Quote(failed.ID) + " expired while being read")
	}
	return t, err
}

// decodeTask is the record of an HMGET of owner and rec, if owner owns it
// and it has not expired.
func decodeTask(owner string, v []any) (*runtime.TaskRecord, error) {
	if len(v) != 2 || v[0] != owner {
		return nil, nil
	}
	rec, _ := v[1].(string)
	var t runtime.TaskRecord
	if err := json.Unmarshal([]byte(rec), &t); err != nil {
		return nil, errors.New("redisstore: task store: a stored task does not decode: " + err.Error())
	}
	if time.Now().After(t.Expires()) { // Redis's expiry is to the millisecond
		return nil, nil
	}
	// A nil json.RawMessage is stored as null: give it back as nil, as
	// it was, since the runtime tells "none" by length.
	for _, m := range []*json.RawMessage{&t.Result, &t.Error, &t.InputRequests} {
		if string(*m) == "null" {
			*m = nil
		}
	}
	return &t, nil
}

// List implements runtime.TaskStore: it walks the owner's set from the
// task after, reading the records a page at a time, and skips those that
// expired.
func (st *taskStore) List(ctx context.Context, owner, after string, limit int) ([]*runtime.TaskRecord, error) {
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	set := st.ownerKey(owner)
	var start int64
	if after != "" {
		rank, err := s.client.ZRank(ctx, set, after).Result()
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		if err != nil {
			return nil, storeError("task", "listing tasks", err)
		}
		start = rank + 1
	}
	var out []*runtime.TaskRecord
	for len(out) < limit {
		ids, err := s.client.ZRange(ctx, set, start, start+int64(limit-len(out))-1).Result()
		if err != nil {
			return nil, storeError("task", "listing tasks", err)
		}
		if len(ids) == 0 {
			break
		}
		start += int64(len(ids))
		ts, err := st.read(ctx, owner, ids)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}

// taskLeases are the leases of the tasks whose handlers run in this
// process: renewed every third of Config.LockTTL while the process lives,
// until the task ends or expires.
type taskLeases struct {
	s    *Store
	mu   sync.Mutex
	held map[string]time.Time // lease key → when its task expires
	done chan struct{}
	once sync.Once
}

func newTaskLeases(s *Store) *taskLeases {
	l := &taskLeases{s: s, held: make(map[string]time.Time), done: make(chan struct{})}
	go l.renew()
	return l
}

func (l *taskLeases) hold(lease string, expires time.Time) {
	l.mu.Lock()
	l.held[lease] = expires
	l.mu.Unlock()
}

func (l *taskLeases) release(lease string) {
	l.mu.Lock()
	delete(l.held, lease)
	l.mu.Unlock()
}

func (l *taskLeases) stop() { l.once.Do(func() { close(l.done) }) }

func (l *taskLeases) renew() {
	s := l.s
	tick := time.NewTicker(s.cfg.LockTTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-l.done:
			return
		case <-tick.C:
		}
		now := time.Now()
		var leases []string
		l.mu.Lock()
		for lease, expires := range l.held {
			if now.After(expires) {
				delete(l.held, lease)
			} else {
				leases = append(leases, lease)
			}
		}
		l.mu.Unlock()
		for len(leases) > 0 { // a pipeline of up to 1000 at a time
			batch := leases[:min(len(leases), 1000)]
			leases = leases[len(batch):]
			ctx, cancel := s.op(context.Background())
			pipe := s.client.Pipeline()
			renewed := make([]*redis.BoolCmd, len(batch))
			for i, lease := range batch {
				renewed[i] = pipe.PExpire(ctx, lease, s.cfg.LockTTL)
			}
			_, err := pipe.Exec(ctx)
			cancel()
			if err != nil && !errors.Is(err, redis.Nil) {
				continue // Redis unreachable: the next tick tries again
			}
			for i, lease := range batch {
				if !renewed[i].Val() { // ended through another replica
					l.release(lease)
				}
			}
		}
	}
}
