package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime/requeststate"
)

// A used requestState is one key, "<prefix>state:<hash of id>", set if absent
// (SET NX) and expiring with the state (PXAT): the first replica to set it
// is the first use, everywhere.

type requestStateStore struct{ s *Store }

var _ requeststate.Store = (*requestStateStore)(nil)

// RequestStates returns the store of used requestStates on this
// connection.
func (s *Store) RequestStates() requeststate.Store { return &requestStateStore{s} }

// FirstUse implements requeststate.Store.
func (st *requestStateStore) FirstUse(ctx context.Context, id string, expires time.Time) (bool, error) {
	if !expires.After(time.Now()) {
		return true, nil // nothing to remember: the state is refused as expired from now on
	}
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	err := s.client.SetArgs(ctx, s.cfg.Prefix+"state:"+hashParts(id), "1", redis.SetArgs{Mode: "NX", ExpireAt: expires}).Err()
	if errors.Is(err, redis.Nil) { // not set: a replica set it first
		return false, nil
	}
	if err != nil {
		return false, storeError("requestState", "recording a use", err)
	}
	return true, nil
}
