package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// A task is one hash, "<prefix>task:<id>", with the fields "owner",
// "status" and "rec" (the runtime.TaskRecord as JSON), expiring when the
// task does (PEXPIREAT). The tasks of an owner are a sorted set,
// "<prefix>tasks:<hash of owner>", of ids scored by a counter, so that
// List pages them in creation order; ids whose hash expired are dropped
// from it when the owner's bound is reached.

// createTaskScript stores a new task unless its owner holds as many live
// tasks as allowed: 1 stored, 0 full, -1 the id exists.
// KEYS: task, owner's set, counter. ARGV: owner, status, record, expiry
// (Unix ms), bound, key prefix of tasks, ms until expiry (the set lives as
// long as its last task).
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
return 1
`)

// updateTaskScript replaces a task's record unless it is gone or terminal:
// 1 replaced, 0 not. KEYS: task. ARGV: status, record.
var updateTaskScript = redis.NewScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'completed' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'rec', ARGV[2])
return 1
`)

// DefaultMaxTasksPerOwner is Config.MaxTasksPerOwner when 0.
const DefaultMaxTasksPerOwner = 1000

type taskStore struct{ s *Store }

var _ runtime.TaskStore = (*taskStore)(nil)

func (st *taskStore) key(id string) string { return st.s.cfg.Prefix + "task:" + id }

func (st *taskStore) ownerKey(owner string) string {
	return st.s.cfg.Prefix + "tasks:" + hashParts(owner)
}

// Create implements runtime.TaskStore.
func (st *taskStore) Create(ctx context.Context, t *runtime.TaskRecord) error {
	rec, err := json.Marshal(t)
	if err != nil {
		return err
	}
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	keys := []string{st.key(t.ID), st.ownerKey(t.Owner), s.cfg.Prefix + "tasks:counter"}
	n, err := createTaskScript.Run(ctx, s.client, keys, t.Owner, string(t.Status), rec,
		t.Expires().UnixMilli(), s.cfg.MaxTasksPerOwner, s.cfg.Prefix+"task:", time.Until(t.Expires()).Milliseconds()).Int()
	switch {
	case err != nil:
		return storeError("task", "creating a task", err)
	case n == 0:
		return runtime.ErrTaskStoreFull
	case n < 0:
		return errors.New("redisstore: task store: creating a task: task " + strconv.Quote(t.ID) + " exists")
	}
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
	n, err := updateTaskScript.Run(ctx, st.s.client, []string{st.key(t.ID)}, string(t.Status), rec).Int()
	if err != nil {
		return false, storeError("task", "updating a task", err)
	}
	return n == 1, nil
}

// Get implements runtime.TaskStore.
func (st *taskStore) Get(ctx context.Context, owner, id string) (*runtime.TaskRecord, error) {
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	v, err := st.s.client.HMGet(ctx, st.key(id), "owner", "rec").Result()
	if err != nil {
		return nil, storeError("task", "reading a task", err)
	}
	return decodeTask(owner, v)
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
		pipe := s.client.Pipeline()
		reads := make([]*redis.SliceCmd, len(ids))
		for i, id := range ids {
			reads[i] = pipe.HMGet(ctx, st.key(id), "owner", "rec")
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, storeError("task", "listing tasks", err)
		}
		for _, r := range reads {
			t, err := decodeTask(owner, r.Val())
			if err != nil {
				return nil, err
			}
			if t != nil {
				out = append(out, t)
			}
		}
	}
	return out, nil
}
