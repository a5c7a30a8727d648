package interop

// What the tests share about the two eras a client can open a connection
// in, and the one way the Go SDK client is connected in either: legacy
// opens with initialize (and keeps a session), modern probes with
// server/discover and puts its version and capabilities in every
// request's _meta. Generated servers serve both, 2026-07-28 by default.

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	eraLegacy = "legacy"
	eraModern = "modern"

	legacyVersion = "2025-11-25"
	modernVersion = "2026-07-28"
)

var eras = []string{eraLegacy, eraModern}

// eraVersion is the protocol version a client in era negotiates.
func eraVersion(era string) string {
	if era == eraModern {
		return modernVersion
	}
	return legacyVersion
}

// goSDKSessionOptions makes the Go SDK client (v1.8) open a connection in
// era: legacy asks for 2025-11-25, so that it initializes instead of
// probing; modern is the client left to its default, 2026-07-28, which
// probes with server/discover and stays modern when the server offers it.
func goSDKSessionOptions(era string) *mcp.ClientSessionOptions {
	if era == eraModern {
		return nil
	}
	return &mcp.ClientSessionOptions{ProtocolVersion: legacyVersion}
}

// connectGoSDK connects the Go SDK client over transport (target: the
// binary for stdio, the endpoint for HTTP; see exampleTarget) in era,
// recording the wire in w (nil: no record), and checks that the era
// negotiated is the one asked for. Cleanup closes the session.
func connectGoSDK(t *testing.T, transport, target, era string, opts *mcp.ClientOptions, w *wireLog) *mcp.ClientSession {
	t.Helper()
	var tr mcp.Transport
	if transport == "stdio" {
		tr = &mcp.CommandTransport{Command: exec.Command(target)}
		if w != nil {
			tr = &mcp.LoggingTransport{Transport: tr, Writer: w}
		}
	} else {
		// The HTTP exchange is recorded below the SDK, so that its
		// connection keeps what the SDK needs of it. No client timeout:
		// streams last, and every call has its own deadline.
		var rt http.RoundTripper = http.DefaultTransport
		if w != nil {
			rt = &recordingTransport{base: rt, log: w}
		}
		tr = &mcp.StreamableClientTransport{Endpoint: target, HTTPClient: &http.Client{Transport: rt}, MaxRetries: 2}
	}
	return connectGoSDKOver(t, tr, target, era, opts)
}

// connectGoSDKOver is connectGoSDK over a transport of the caller's (what
// names its far end in a failure).
func connectGoSDKOver(t *testing.T, tr mcp.Transport, what, era string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "interop-test", Version: "1.0.0"}, opts)
	session, err := client.Connect(ctx, tr, goSDKSessionOptions(era))
	if err != nil {
		t.Fatalf("connect (%s era) to %s: %v", era, what, err)
	}
	t.Cleanup(func() { session.Close() })
	if got, want := session.InitializeResult().ProtocolVersion, eraVersion(era); got != want {
		t.Fatalf("%s era: negotiated protocol version %q, want %q", era, got, want)
	}
	return session
}

// checkHasTool checks that tools/list listed the tool name.
func checkHasTool(t *testing.T, tools *mcp.ListToolsResult, name string) {
	t.Helper()
	if !slices.ContainsFunc(tools.Tools, func(tool *mcp.Tool) bool { return tool.Name == name }) {
		t.Errorf("tools/list has no %s: %s", name, jsonOf(t, tools))
	}
}

// The elicitation round trip every client runs against examples/conformance's
// test_elicitation (which calls runtime.Elicit once with the call's
// message): accepted with a username and an email, then declined.
const (
	elicitAcceptMessage  = "Please provide your username and email"
	elicitDeclineMessage = "Once more, please"
	elicitAcceptedText   = `User response: <action: accept, content: {"email":"alice@example.com","username":"alice"}>`
	elicitDeclinedText   = `User response: <action: decline, content: null>`
)

// elicitAnswers is a Go SDK elicitation handler that accepts the first
// request (as alice) and declines the others, keeping what it was asked.
type elicitAnswers struct {
	mu    sync.Mutex
	asked []*mcp.ElicitParams
}

func (e *elicitAnswers) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, req.Params)
	if len(e.asked) == 1 {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "alice", "email": "alice@example.com"}}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func (e *elicitAnswers) params() []*mcp.ElicitParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*mcp.ElicitParams(nil), e.asked...)
}

// checkElicitRequests checks what a client's elicitation handler saw of
// the accept-then-decline round trip: the two messages, and the fields
// the first one requires.
func checkElicitRequests(t *testing.T, who string, asked []*mcp.ElicitParams) {
	t.Helper()
	if len(asked) != 2 || asked[0].Message != elicitAcceptMessage || asked[1].Message != elicitDeclineMessage {
		t.Errorf("%s saw %s, want the two messages", who, jsonOf(t, asked))
	} else if diff := cmp.Diff([]any{"username", "email"}, asMap(t, asked[0].RequestedSchema)["required"]); diff != "" {
		t.Errorf("requestedSchema.required (-want +got):\n%s", diff)
	}
}
