package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official TypeScript SDK v2 client (@modelcontextprotocol/client,
// pinned in node/package-lock.json) in both eras, over stdio and
// Streamable HTTP, driven by node/sdk2-eras.mjs, against
// examples/conformance. The SDK picks the era from
// ClientOptions.versionNegotiation: 'legacy' (its default) initializes;
// { pin: '2026-07-28' } probes with server/discover and requires that
// revision; 'auto', what a client that speaks both eras sets, probes and
// must find the server modern.

// ts2Summary is the JSON line node/sdk2-eras.mjs prints.
type ts2Summary struct {
	Era        string `json:"era"`
	Transport  string `json:"transport"`
	Negotiated struct {
		Era     string `json:"era"`
		Version string `json:"version"`
	} `json:"negotiated"`
	ServerInfo     *mcp.Implementation `json:"serverInfo"`
	Steps          map[string]tsStep   `json:"steps"`
	ElicitRequests []*mcp.ElicitParams `json:"elicitRequests"`
	Sent           []json.RawMessage   `json:"sent"`
	Received       []json.RawMessage   `json:"received"`
	SessionID      *string             `json:"sessionId"`
	ClientErrors   []string            `json:"clientErrors"`
}

// needTSSDK2 returns the node that runs the v2 client, or skips.
func needTSSDK2(t *testing.T) string {
	t.Helper()
	node := needNode(t)
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", "client", "package.json")); err != nil {
		unavailable(t, "interop/node/node_modules has no @modelcontextprotocol/client")
	}
	return node
}

// TestTypeScriptSDK2BothEras: in each era and over each transport, the v2
// client negotiates the era asked for, lists the tools, calls one, and
// runs an elicitation round trip (accepted, then declined) through its one
// elicitation/create handler against one server handler (test_elicitation,
// which calls runtime.Elicit once): a server request in the legacy era, an
// input_required result and a retry in the modern one, with the same
// answers.
func TestTypeScriptSDK2BothEras(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		for _, mode := range []string{eraLegacy, eraModern, "auto"} {
			t.Run(transport+"/"+mode, func(t *testing.T) {
				node := needTSSDK2(t)
				out := runNode(t, node, 90*time.Second, nil, "sdk2-eras.mjs", mode, transport, exampleTarget(t, "conformance", transport))
				var s ts2Summary
				lastJSONLine(t, out, &s)
				if s.Era != mode || s.Transport != transport {
					t.Fatalf("summary is for %s over %s, want %s over %s", s.Era, s.Transport, mode, transport)
				}
				era := mode
				if mode == "auto" {
					era = eraModern // a dual-era server is found modern
				}
				if wantVersion := eraVersion(era); s.Negotiated.Era != era || s.Negotiated.Version != wantVersion {
					t.Errorf("negotiated %+v, want era %s at %s", s.Negotiated, era, wantVersion)
				}
				if s.ServerInfo == nil || s.ServerInfo.Name != "mcpgen-conformance" {
					t.Errorf("serverInfo = %s", jsonOf(t, s.ServerInfo))
				}
				ts := &tsSummary{Transport: transport + "/" + mode, Steps: s.Steps}
				var tools mcp.ListToolsResult
				if ts.result(t, "listTools", &tools) {
					checkHasTool(t, &tools, "test_elicitation")
				}
				checkText(t, ts, "callSimpleText", "This is a simple text response for testing.")
				checkText(t, ts, "callElicitationAccept", elicitAcceptedText)
				checkText(t, ts, "callElicitationDecline", elicitDeclinedText)
				checkElicitRequests(t, "the client's elicitation/create handler", s.ElicitRequests)

				w := &wireLog{}
				for _, m := range s.Sent {
					w.add(true, m)
				}
				for _, m := range s.Received {
					w.add(false, m)
				}
				checkElicitationPath(t, w, era, "test_elicitation", 2)
				if transport == "http" {
					if hasSession := s.SessionID != nil && *s.SessionID != ""; hasSession != (era == eraLegacy) {
						t.Errorf("%s era over HTTP: session id %v, want one only in the legacy era", era, s.SessionID)
					}
				}
				if len(s.ClientErrors) > 0 {
					t.Errorf("the SDK client reported errors: %q", s.ClientErrors)
				}
			})
		}
	}
}
