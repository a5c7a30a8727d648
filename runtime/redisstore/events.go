package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// Each SSE stream is a Redis stream whose entry ids are "0-<index>", so
// that XRANGE answers "the events after index" directly, and XADD's MAXLEN
// keeps the last MaxEventsPerStream. A set per session lists its streams,
// for SessionClosed. Both expire EventTTL after the last event: a session
// whose replica died without ending it does not stay in Redis for ever.
// Both keys carry the session id as their hash tag: on Redis Cluster the
// transaction of Append and the DEL of SessionClosed stay in one slot.

type eventStore struct{ s *Store }

func (st *eventStore) streamKey(sessionID, streamID string) string {
	return st.s.cfg.Prefix + "ev:" + tag(sessionID) + ":" + streamID
}

func (st *eventStore) sessionKey(sessionID string) string {
	return st.s.cfg.Prefix + "evs:" + tag(sessionID)
}

// Append implements runtime.EventStore, in one round trip.
func (st *eventStore) Append(ctx context.Context, sessionID, streamID string, index int, data []byte) error {
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	key, set := st.streamKey(sessionID, streamID), st.sessionKey(sessionID)
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: key, ID: "0-" + strconv.Itoa(index), MaxLen: int64(s.cfg.MaxEventsPerStream), Values: []any{"d", data}})
		p.PExpire(ctx, key, s.cfg.EventTTL)
		p.SAdd(ctx, set, key)
		p.PExpire(ctx, set, s.cfg.EventTTL)
		return nil
	})
	if err != nil {
		return storeError("event", "appending an event", err)
	}
	return nil
}

// After implements runtime.EventStore.
func (st *eventStore) After(ctx context.Context, sessionID, streamID string, index int) ([]runtime.StoredEvent, error) {
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	msgs, err := s.client.XRange(ctx, st.streamKey(sessionID, streamID), "(0-"+strconv.Itoa(index), "+").Result()
	if err != nil {
		return nil, storeError("event", "reading events", err)
	}
	out := make([]runtime.StoredEvent, 0, len(msgs))
	for _, m := range msgs {
		seq, ok := strings.CutPrefix(m.ID, "0-")
		i, err := strconv.Atoi(seq)
		data, isString := m.Values["d"].(string)
		if !ok || err != nil || !isString {
			return nil, fmt.Errorf("redisstore: event store: entry %s of stream %s is not an event of this store", m.ID, st.streamKey(sessionID, streamID))
		}
		out = append(out, runtime.StoredEvent{Index: i, Data: []byte(data)})
	}
	return out, nil
}

// SessionClosed implements runtime.EventStore.
func (st *eventStore) SessionClosed(ctx context.Context, sessionID string) error {
	s := st.s
	ctx, cancel := s.op(ctx)
	defer cancel()
	set := st.sessionKey(sessionID)
	keys, err := s.client.SMembers(ctx, set).Result()
	if err == nil {
		err = s.client.Del(ctx, append(keys, set)...).Err()
	}
	if err != nil {
		return storeError("event", "dropping a session's events", err)
	}
	return nil
}
