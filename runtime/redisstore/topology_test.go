package redisstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/runtime/internal/storetest"
)

// The deployments teams run instead of one Redis, started from Debian's
// redis-server on loopback ports: a cluster of three primaries with a
// replica each, and a primary with a replica watched by three sentinels.

// redisCluster is a Redis Cluster of 3 primaries and 3 replicas, its
// slots spread by redis-cli --cluster create.
type redisCluster struct{ nodes []*redisServer }

func startCluster(t testing.TB) *redisCluster {
	t.Helper()
	c := &redisCluster{}
	var addrs []string
	for range 6 {
		n := startRedis(t, "--repl-diskless-sync-delay", "0", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000")
		c.nodes = append(c.nodes, n)
		addrs = append(addrs, n.Addr)
	}
	out, err := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.waitOK(t)
	return c
}

// waitOK waits until every live node says the cluster is ok and knows all
// slots, and every replica has its primary's data.
func (c *redisCluster) waitOK(t testing.TB) {
	t.Helper()
	waitFor(t, "the Redis cluster to be ok", func() bool {
		for _, n := range c.nodes {
			if n.cmd == nil {
				continue
			}
			info, err := n.client(t).ClusterInfo(context.Background()).Result()
			if err != nil || !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_slots_ok:16384") || !replicating(t, n) {
				return false
			}
		}
		return true
	})
}

// replicating reports whether n is a primary, or a replica whose link to
// its primary is up (its first full copy made: until then a failover loses
// everything).
func replicating(t testing.TB, n *redisServer) bool {
	info, err := n.client(t).Info(context.Background(), "replication").Result()
	return err == nil && (strings.Contains(info, "role:master") || strings.Contains(info, "master_link_status:up"))
}

// waitFor polls ready for a minute, failing the test then.
func waitFor(t testing.TB, what string, ready func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ready(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

func (c *redisCluster) url() string {
	u := "redis+cluster://" + c.nodes[0].Addr + "?"
	for _, n := range c.nodes[1:] {
		u += "addr=" + n.Addr + "&"
	}
	return strings.TrimSuffix(u, "&")
}

// redisSentinel is a primary, its replica and three sentinels that watch
// the primary as "mcpgen" (quorum 2), failing over after 1 s down.
type redisSentinel struct {
	primary, replica *redisServer
	sentinels        []*redisServer
}

const sentinelMaster = "mcpgen"

func startSentinel(t testing.TB) *redisSentinel {
	t.Helper()
	s := &redisSentinel{primary: startRedis(t, "--repl-diskless-sync-delay", "0")}
	host, port, _ := strings.Cut(s.primary.Addr, ":")
	s.replica = startRedis(t, "--replicaof", host, port)
	for range 3 {
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		// A sentinel rewrites its own configuration file: it must be
		// writable, and apart from the others'.
		body := fmt.Sprintf("sentinel monitor %s %s %s 2\nsentinel down-after-milliseconds %[1]s 1000\nsentinel failover-timeout %[1]s 10000\nsentinel parallel-syncs %[1]s 1\n", sentinelMaster, host, port)
		if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		s.sentinels = append(s.sentinels, startRedis(t, conf, "--sentinel"))
	}
	s.waitReady(t)
	return s
}

// waitReady waits until each sentinel knows the replica and the two other
// sentinels (only then can they agree on a failover), and the replica has
// its primary's data.
func (s *redisSentinel) waitReady(t testing.TB) {
	t.Helper()
	waitFor(t, "the sentinels to know the replica and each other", func() bool {
		for _, sn := range s.sentinels {
			c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr})
			replicas, err1 := c.Replicas(context.Background(), sentinelMaster).Result()
			others, err2 := c.Sentinels(context.Background(), sentinelMaster).Result()
			c.Close()
			if err1 != nil || err2 != nil || len(replicas) != 1 || len(others) != 2 {
				return false
			}
		}
		return replicating(t, s.replica)
	})
}

func (s *redisSentinel) url() string {
	u := "redis+sentinel://" + s.sentinels[0].Addr + "?master_name=" + sentinelMaster
	for _, sn := range s.sentinels[1:] {
		u += "&addr=" + sn.Addr
	}
	return u
}

// TestTopologies runs the stores' behaviour on a cluster and on Sentinel:
// every script, transaction and multi-key command must find its keys in
// one slot (Redis Cluster refuses CROSSSLOT otherwise), and the bus must
// reach every replica.
func TestTopologies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 6 + 5 redis-server processes")
	}
	for name, start := range map[string]func(testing.TB) backend{
		"cluster":  func(t testing.TB) backend { return startCluster(t) },
		"sentinel": func(t testing.TB) backend { return startSentinel(t) },
	} {
		t.Run(name, func(t *testing.T) {
			b := start(t)
			storeBehaviour(t, b)
		})
	}
}

// storeBehaviour is what every store promises, on backend b, each part
// on an empty database.
func storeBehaviour(t *testing.T, b backend) {
	for _, part := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"tasks", func(t *testing.T) { storetest.TaskStore(t, openStore(t, b, Config{MaxTasksPerOwner: 2}).Tasks()) }},
		{"tasks bound", func(t *testing.T) { tasksBoundAcrossReplicas(t, b) }},
		{"quotas", func(t *testing.T) { storetest.QuotaStore(t, openStore(t, b, Config{}).Quotas()) }},
		{"request states", func(t *testing.T) { storetest.RequestStateStore(t, openStore(t, b, Config{}).RequestStates()) }},
		{"events", func(t *testing.T) { eventsReplayedByAnotherReplica(t, b) }},
		{"sessions", func(t *testing.T) { sessionsSharedExpireAndDelete(t, b) }},
		{"idempotency", func(t *testing.T) { idempotencyOneRunAcrossReplicas(t, b) }},
		{"bus", func(t *testing.T) { busEveryReplicaOnceInOrder(t, b) }},
	} {
		flush(t, b)
		t.Run(part.name, part.run)
	}
}

// flush empties every primary of b.
func flush(t *testing.T, b backend) {
	t.Helper()
	s := openStore(t, b, Config{})
	ctx := context.Background()
	var err error
	if c, ok := s.client.(*redis.ClusterClient); ok {
		err = c.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return n.FlushAll(ctx).Err() })
	} else {
		err = s.client.FlushAll(ctx).Err()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// An ACL user's credentials in the URL open the store; wrong ones fail
// with an error that names the server and never shows the password; a
// URL of an unknown form says which forms there are.
func TestOpenACLUserAndURLForms(t *testing.T) {
	r := startRedis(t, "--user", "default", "off", "--user", "app", "on", ">s3cret-pw", "~*", "&*", "+@all")
	s, err := Open(context.Background(), "redis://app:s3cret-pw@"+r.Addr+"/0", Config{})
	if err != nil {
		t.Fatalf("Open with the ACL user: %v", err)
	}
	s.Close()
	for _, u := range []string{
		"redis://app:wrong-pw@" + r.Addr + "/0",
		"redis+sentinel://app:wrong-pw@" + r.Addr + "?addr=" + r.Addr,
		"redis+ring://app:wrong-pw@" + r.Addr,
		"redis+cluster://app:wrong-pw@" + r.Addr + "?bogus=1",
	} {
		_, err := Open(context.Background(), u, Config{Timeout: time.Second})
		if err == nil {
			t.Errorf("Open(%s) succeeded", u)
			continue
		}
		if strings.Contains(err.Error(), "wrong-pw") {
			t.Errorf("Open(%s)'s error shows the password: %v", u, err)
		}
		t.Logf("%s: %v", u, err)
	}
	if _, err := Open(context.Background(), "redis+ring://"+r.Addr, Config{}); err == nil || !strings.Contains(err.Error(), "redis+cluster") {
		t.Errorf("an unknown topology: %v, want the forms named", err)
	}
	if _, err := Open(context.Background(), "redis+sentinel://"+r.Addr, Config{}); err == nil || !strings.Contains(err.Error(), "master_name") {
		t.Errorf("a sentinel URL without master_name: %v, want master_name named", err)
	}
	if _, err := Open(context.Background(), r.url(), Config{Prefix: "app{1}:"}); err == nil || !strings.Contains(err.Error(), "brace") {
		t.Errorf("a prefix with a brace: %v, want it refused", err)
	}
}
