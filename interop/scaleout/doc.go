// Package scaleout tests generated servers behind a real load balancer:
// three replicas of examples/conformance on loopback behind nginx, which
// the test starts with a configuration it generates into a temporary
// directory (nginx.conf.tmpl, mcp_proxy.conf) and stops at the end.
//
//   - The 2026-07-28 era needs no sessions: requests round-robin across the
//     replicas, and an elicitation's input_required round and its retry are
//     served by different replicas, which share the requestState key.
//   - When the alpha conformance suite (0.2.0-alpha) is installed under
//     conformance/, or MCPGEN_CONFORMANCE_ALPHA names its entry point,
//     every scenario its 2026-07-28 requirements name must pass through
//     nginx (a failure is also run against one replica, to tell the
//     balancer's fault from the server's).
//   - Legacy sessions need sticky routing: each replica tags its session
//     ids (runtime.WithSessionIDPrefix) and nginx routes on the tag with a
//     map on Mcp-Session-Id. Without it, a session breaks (404), which the
//     test shows too.
//   - The official Go SDK client and TypeScript SDK v2 client both work
//     through the balancer in both eras, elicitation included.
//   - When a replica stops, its sessions get 404 (nginx's 502 turned into
//     "session not found", so that clients initialize again), and the
//     other replicas serve new sessions and 2026-07-28 requests.
//   - With -redis, the replicas share state through one redis-server, a
//     Redis Cluster or a Sentinel set (internal/redistest starts them):
//     plain round robin then serves both eras, and a Redis failover under
//     load loses no acknowledged write.
//
// nginx comes from Debian's nginx-light (setup.sh installs it when
// missing). Without nginx the tests skip, except under CI (CI set).
package scaleout
