package redisstore

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime"
)

// The notification bus is one Redis pub/sub channel, "<prefix>bus": Redis
// hands each message to every subscribed connection once, in the order
// published. go-redis reconnects and subscribes again by itself after
// Redis comes back; what was published meanwhile is not delivered (pub/sub
// keeps nothing), so a change made while Redis was down notifies the
// clients of its own replica only.
//
// On Redis Cluster the channel is a sharded one (SPUBLISH/SSUBSCRIBE,
// Redis 7): a message goes to the one primary (and its replicas) that owns
// the channel's slot, instead of being copied to every node of the
// cluster, as plain PUBLISH is.

type bus struct{ s *Store }

// sharded reports whether the bus uses sharded pub/sub: on a cluster.
func (b *bus) sharded() bool {
	_, ok := b.s.client.(*redis.ClusterClient)
	return ok
}

func (b *bus) channel() string { return b.s.cfg.Prefix + "bus" }

// Publish implements runtime.NotificationBus.
func (b *bus) Publish(ctx context.Context, msg []byte) error {
	ctx, cancel := b.s.op(ctx)
	defer cancel()
	publish := b.s.client.Publish
	if b.sharded() {
		publish = b.s.client.SPublish
	}
	if err := publish(ctx, b.channel(), msg).Err(); err != nil {
		return storeError("notification bus", "publishing", err)
	}
	return nil
}

// Subscribe implements runtime.NotificationBus: it returns once Redis
// confirmed the subscription, so that nothing published after it is
// missed.
func (b *bus) Subscribe(ctx context.Context, deliver func([]byte)) (func(), error) {
	subscribe := b.s.client.Subscribe
	if b.sharded() {
		subscribe = b.s.client.SSubscribe
	}
	ps := subscribe(ctx, b.channel())
	octx, cancel := b.s.op(ctx)
	defer cancel()
	if _, err := ps.Receive(octx); err != nil {
		ps.Close()
		return nil, storeError("notification bus", "subscribing", err)
	}
	go func() {
		for m := range ps.Channel() {
			deliver([]byte(m.Payload))
		}
	}()
	return func() { ps.Close() }, nil
}

var _ runtime.NotificationBus = (*bus)(nil)
