// Package scaleout tests generated servers behind a real load balancer:
// three replicas of examples/conformance on loopback behind nginx, which
// the test starts with a configuration it generates into a temporary
// directory (nginx.conf.tmpl, mcp_proxy.conf) and stops at the end.
//
//   - The 2026-07-28 era needs no sessions: requests round-robin across the
//     replicas, and an elicitation's input_required round and its retry are
//     served by different replicas, which share the requestState key.
//   - With MCPGEN_CONFORMANCE_ALPHA set (the alpha conformance suite's
//     entry point), the suite's 2026-07-28 requirements run against one
//     replica and through nginx: whatever passes on one must pass through
//     the balancer.
//   - Legacy sessions need sticky routing: each replica tags its session
//     ids (runtime.WithSessionIDPrefix) and nginx routes on the tag with a
//     map on Mcp-Session-Id. Without it, a session breaks (404), which the
//     test shows too.
//
// nginx comes from Debian's nginx-light (setup.sh installs it when
// missing). Without nginx the tests skip, except under CI (CI set).
package scaleout
