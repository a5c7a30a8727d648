package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// A legacy session is one string key, "<prefix>session:<id>", holding the
// runtime's record of it, with the idle timeout as its TTL: GETEX reads it
// and extends the TTL in one round trip.

type sessionStore struct{ s *Store }

func (st *sessionStore) key(id string) string { return st.s.cfg.Prefix + "session:" + id }

// Save implements runtime.SessionStore.
func (st *sessionStore) Save(ctx context.Context, id string, state []byte, ttl time.Duration) error {
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	if err := st.s.client.Set(ctx, st.key(id), state, ttl).Err(); err != nil {
		return storeError("session", "saving a session", err)
	}
	return nil
}

// Load implements runtime.SessionStore.
func (st *sessionStore) Load(ctx context.Context, id string, ttl time.Duration) ([]byte, bool, error) {
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	state, err := st.s.client.GetEx(ctx, st.key(id), ttl).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, storeError("session", "loading a session", err)
	}
	return state, true, nil
}

// Delete implements runtime.SessionStore.
func (st *sessionStore) Delete(ctx context.Context, id string) error {
	ctx, cancel := st.s.op(ctx)
	defer cancel()
	if err := st.s.client.Del(ctx, st.key(id)).Err(); err != nil {
		return storeError("session", "deleting a session", err)
	}
	return nil
}

var _ runtime.SessionStore = (*sessionStore)(nil)
