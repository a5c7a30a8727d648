package runtime

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The checks of a modern request's HTTP headers against its body
// (2026-07-28 basic/transports/streamable-http.mdx): the transport hands
// the header to FullServer.CheckModern, which knows the methods and the
// tools' Mcp-Param-* headers (mcpheader.go).

const (
	headerProtocolVersion = transport.HeaderProtocolVersion
	headerMethod          = transport.HeaderMethod
	headerName            = transport.HeaderName
)

// headerValue is h.Get for a key already in canonical form.
func headerValue(h http.Header, canonicalKey string) string {
	if v := h[canonicalKey]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// checkModern checks a modern POST in this order, and says what status a
// failure is answered with: MCP-Protocol-Version against the _meta version
// (400 with -32020), the _meta (400 with -32602 or -32022), the method
// (404 with -32601), the other headers (400 with -32020).
func (s *Server) checkModern(header http.Header, env *envelope) (*peerInfo, int, *Error) {
	if e := checkMetaVersionHeader(header, env.Params); e != nil {
		return nil, http.StatusBadRequest, e
	}
	peer, e := s.modernPeer(env.Params)
	if e != nil {
		return nil, http.StatusBadRequest, e
	}
	m := lookupMethod(env.method, eraModern)
	if m == nil {
		return nil, http.StatusNotFound, modernMethodNotFound(string(env.method))
	}
	if e := checkModernHeaders(header, m, peer.version, env.Params); e != nil {
		return nil, http.StatusBadRequest, e
	}
	if string(env.method) == methodToolsCall { // x-mcp-header: a tool's own Mcp-Param-* headers
		if e := s.checkParamHeaders(header, env.Params); e != nil {
			return nil, http.StatusBadRequest, e
		}
	}
	return peer, 0, nil
}

// checkMetaVersionHeader: the header must name the version the body names,
// supported or not; a disagreement is a header mismatch before anything
// else.
func checkMetaVersionHeader(header http.Header, params []byte) *Error {
	if jsonwire.FirstByte(params) != '{' {
		return nil
	}
	v, ok := stringMember(member(params, "_meta"), metaProtocolVersion)
	if !ok || v == "" {
		return nil
	}
	if got := headerValue(header, headerProtocolVersion); got != v {
		return headerMismatch(headerProtocolVersion, got, v, "the protocol version in _meta")
	}
	return nil
}

// checkModernHeaders checks the headers a modern POST must carry against
// its body: MCP-Protocol-Version equal to the _meta version, Mcp-Method to
// the method, and Mcp-Name (possibly =?base64?…?=) to params.name or
// params.uri for tools/call, prompts/get and resources/read.
func checkModernHeaders(header http.Header, method *methodInfo, version string, params []byte) *Error {
	if v := headerValue(header, headerProtocolVersion); v != version {
		return headerMismatch(headerProtocolVersion, v, version, "the protocol version in _meta")
	}
	if m := headerValue(header, headerMethod); m != method.name {
		return headerMismatch(headerMethod, m, method.name, "the method in the body")
	}
	key := method.target
	if key == "" {
		return nil
	}
	want, _ := stringMember(params, key)
	got, ok := decodeHeaderValue(headerValue(header, headerName))
	if !ok {
		return errorf(CodeHeaderMismatch, "header mismatch: %s %s is not valid =?base64?…?= text", headerName, quote(headerValue(header, headerName)))
	}
	if _, present := header[headerName]; !present || got != want {
		return headerMismatch(headerName, got, want, "params."+key)
	}
	return nil
}

func headerMismatch(header, got, want, what string) *Error {
	if got == "" {
		return errorf(CodeHeaderMismatch, "header mismatch: the %s header is required and must be %s (%s)", header, quote(want), what)
	}
	return errorf(CodeHeaderMismatch, "header mismatch: %s is %s, but %s is %s", header, quote(got), what, quote(want))
}
