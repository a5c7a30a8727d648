package redisstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/internal/redistest"
	"github.com/mcpgen/mcpgen/internal/storetest"
)

// TestTopologies runs the stores' behaviour on a cluster and on Sentinel:
// every script, transaction and multi-key command must find its keys in
// one slot (Redis Cluster refuses CROSSSLOT otherwise), and the bus must
// reach every replica.
func TestTopologies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 6 + 5 redis-server processes")
	}
	for name, start := range map[string]func(testing.TB) redistest.Deployment{
		"cluster":  func(t testing.TB) redistest.Deployment { return redistest.StartCluster(t) },
		"sentinel": func(t testing.TB) redistest.Deployment { return redistest.StartSentinel(t) },
	} {
		t.Run(name, func(t *testing.T) {
			b := start(t)
			storeBehaviour(t, b)
		})
	}
}

// storeBehaviour is what every store promises, on backend b, each part
// on an empty database.
func storeBehaviour(t *testing.T, b redistest.Deployment) {
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
func flush(t *testing.T, b redistest.Deployment) {
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
	r := redistest.Start(t, "--user", "default", "off", "--user", "app", "on", ">s3cret-pw", "~*", "&*", "+@all")
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
	if _, err := Open(context.Background(), r.URL(), Config{Prefix: "app{1}:"}); err == nil || !strings.Contains(err.Error(), "brace") {
		t.Errorf("a prefix with a brace: %v, want it refused", err)
	}
}
