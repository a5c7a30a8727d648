package redistest

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
)

// The deployments teams run instead of one Redis: a cluster of three
// primaries with a replica each, and a primary with a replica watched by
// three sentinels.

// Cluster is a Redis Cluster of 3 primaries and 3 replicas, its slots
// spread by redis-cli --cluster create.
type Cluster struct{ Nodes []*Server }

// StartCluster starts the six nodes, joins them and waits until the
// cluster is ok.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	Need(t)
	c := &Cluster{}
	var addrs []string
	for range 6 {
		n := Start(t, "--repl-diskless-sync-delay", "0", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000")
		c.Nodes = append(c.Nodes, n)
		addrs = append(addrs, n.Addr)
	}
	out, err := exec.Command("redis-cli", append(append([]string{"--cluster", "create"}, addrs...),
		"--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	c.WaitOK(t)
	return c
}

// URL is the cluster's, all six nodes as seeds.
func (c *Cluster) URL() string {
	u := "redis+cluster://" + c.Nodes[0].Addr + "?"
	for _, n := range c.Nodes[1:] {
		u += "addr=" + n.Addr + "&"
	}
	return strings.TrimSuffix(u, "&")
}

// WaitOK waits until every live node says the cluster is ok and knows all
// slots, and every replica has its primary's data.
func (c *Cluster) WaitOK(t testing.TB) {
	t.Helper()
	WaitFor(t, "the Redis cluster to be ok", func() bool {
		for _, n := range c.Nodes {
			if !n.Running() {
				continue
			}
			var info string
			var err error
			n.with(func(c *redis.Client) { info, err = c.ClusterInfo(context.Background()).Result() })
			if err != nil || !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_slots_ok:16384") || !n.replicating() {
				return false
			}
		}
		return true
	})
}

// Failover hands the slots of a primary to its replica (a coordinated
// CLUSTER FAILOVER, which waits for the replica to catch up), then kills
// the old primary and waits until the cluster is ok without it. It returns
// the new primary.
func (c *Cluster) Failover(t testing.TB) *Server {
	t.Helper()
	for _, replica := range c.Nodes {
		if primary := c.primaryOf(t, replica); primary != nil {
			return c.failover(t, primary, replica)
		}
	}
	t.Fatal("found no replica and its live primary in the cluster")
	return nil
}

// FailoverOwnerOf is Failover of the primary that owns key's slot, which
// must hold key.
func (c *Cluster) FailoverOwnerOf(t testing.TB, key string) *Server {
	t.Helper()
	for _, replica := range c.Nodes {
		primary := c.primaryOf(t, replica)
		if primary == nil {
			continue
		}
		var n int64
		var err error
		primary.with(func(c *redis.Client) { n, err = c.Exists(context.Background(), key).Result() })
		if err == nil && n == 1 {
			return c.failover(t, primary, replica)
		}
	}
	t.Fatalf("no primary with a replica holds key %s", key)
	return nil
}

// primaryOf is the live primary of replica, or nil when replica is none.
func (c *Cluster) primaryOf(t testing.TB, replica *Server) *Server {
	if !replica.Running() {
		return nil
	}
	var role []any
	var err error
	replica.with(func(c *redis.Client) { role, err = c.Do(context.Background(), "ROLE").Slice() })
	if err != nil || role[0] != "slave" {
		return nil
	}
	addr := fmt.Sprintf("%v:%v", role[1], role[2])
	for _, p := range c.Nodes {
		if p.Addr == addr && p.Running() {
			return p
		}
	}
	return nil
}

func (c *Cluster) failover(t testing.TB, primary, replica *Server) *Server {
	t.Helper()
	var err error
	replica.with(func(c *redis.Client) { err = c.ClusterFailover(context.Background()).Err() })
	if err != nil {
		t.Fatalf("CLUSTER FAILOVER on %s: %v", replica.Addr, err)
	}
	WaitFor(t, "the replica to become a primary", func() bool { return replica.role() == "master" })
	primary.Kill()
	c.WaitOK(t)
	return replica
}

// Sentinel is a primary, its replica and three sentinels that watch the
// primary as SentinelMaster (quorum 2), failing over after 1 s down.
type Sentinel struct {
	Primary, Replica *Server
	Sentinels        []*Server
}

// SentinelMaster is the name the sentinels know the primary by.
const SentinelMaster = "mcpgen"

// StartSentinel starts the primary, the replica and the sentinels, and
// waits until the sentinels could fail over.
func StartSentinel(t testing.TB) *Sentinel {
	t.Helper()
	s := &Sentinel{Primary: Start(t, "--repl-diskless-sync-delay", "0")}
	host, port, _ := strings.Cut(s.Primary.Addr, ":")
	s.Replica = Start(t, "--replicaof", host, port)
	for range 3 {
		dir := t.TempDir()
		conf := filepath.Join(dir, "sentinel.conf")
		// A sentinel rewrites its own configuration file: it must be
		// writable, and apart from the others'.
		body := fmt.Sprintf("sentinel monitor %s %s %s 2\nsentinel down-after-milliseconds %[1]s 1000\nsentinel failover-timeout %[1]s 10000\nsentinel parallel-syncs %[1]s 1\n", SentinelMaster, host, port)
		if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		s.Sentinels = append(s.Sentinels, Start(t, conf, "--sentinel"))
	}
	s.waitReady(t)
	return s
}

// waitReady waits until each sentinel knows the replica and the two other
// sentinels (only then can they agree on a failover), and the replica has
// its primary's data.
func (s *Sentinel) waitReady(t testing.TB) {
	t.Helper()
	WaitFor(t, "the sentinels to know the replica and each other", func() bool {
		for _, sn := range s.Sentinels {
			c := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr})
			replicas, err1 := c.Replicas(context.Background(), SentinelMaster).Result()
			others, err2 := c.Sentinels(context.Background(), SentinelMaster).Result()
			c.Close()
			if err1 != nil || err2 != nil || len(replicas) != 1 || len(others) != 2 {
				return false
			}
		}
		return s.Replica.replicating()
	})
}

// URL is the Sentinel set's: the master name and the three sentinels.
func (s *Sentinel) URL() string {
	u := "redis+sentinel://" + s.Sentinels[0].Addr + "?master_name=" + SentinelMaster
	for _, sn := range s.Sentinels[1:] {
		u += "&addr=" + sn.Addr
	}
	return u
}

// KillPrimary kills the primary (SIGKILL) and waits until the sentinels
// name its replica the primary.
func (s *Sentinel) KillPrimary(t testing.TB) {
	t.Helper()
	s.Primary.Kill()
	WaitFor(t, "the sentinels to promote the replica", func() bool {
		c := redis.NewSentinelClient(&redis.Options{Addr: s.Sentinels[0].Addr})
		defer c.Close()
		addr, err := c.GetMasterAddrByName(context.Background(), SentinelMaster).Result()
		return err == nil && strings.Join(addr, ":") == s.Replica.Addr
	})
}

// WaitFor polls ready for a minute, failing the test then.
func WaitFor(t testing.TB, what string, ready func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ready(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// with runs f on a client of r, closed after.
func (r *Server) with(f func(*redis.Client)) {
	c := redis.NewClient(&redis.Options{Addr: r.Addr})
	defer c.Close()
	f(c)
}

// role is what ROLE says first ("master", "slave", "sentinel"), or "".
func (r *Server) role() string {
	var role []any
	var err error
	r.with(func(c *redis.Client) { role, err = c.Do(context.Background(), "ROLE").Slice() })
	if err != nil || len(role) == 0 {
		return ""
	}
	s, _ := role[0].(string)
	return s
}

// replicating reports whether r is a primary, or a replica whose link to
// its primary is up (its first full copy made: until then a failover
// loses everything).
func (r *Server) replicating() bool {
	var info string
	var err error
	r.with(func(c *redis.Client) { info, err = c.Info(context.Background(), "replication").Result() })
	return err == nil && (strings.Contains(info, "role:master") || strings.Contains(info, "master_link_status:up"))
}
