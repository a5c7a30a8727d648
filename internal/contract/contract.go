// Package contract declares, once, the facts that both the spec's checks
// and the runtime's behaviour depend on: the media type of MCP App views,
// how many toolsets a server can have, and the tools search exposure lists
// in place of a server's own. Package spec validates against them, package
// runtime serves them, and internal/lint counts them, so the three cannot
// drift apart; the runtime re-exports what its users need
// (runtime.AppMIMEType, runtime.SearchToolsName, ...).
//
// It is plain data (no imports beyond the standard library), so that the
// runtime can depend on it without depending on the spec, and lint without
// depending on the runtime.
package contract

// AppMIMEType is the media type of every MCP App view (the
// io.modelcontextprotocol/ui extension), on its resources/list entry and on
// every content item resources/read returns.
const AppMIMEType = "text/html;profile=mcp-app"

// MaxToolsets is the most toolsets a server can have: the runtime keeps a
// set of toolsets in one 64-bit word.
const MaxToolsets = 64

// Names of the tools search exposure lists. A server with search exposure
// cannot have tools of these names.
const (
	SearchToolsName   = "search_tools"
	DescribeToolsName = "describe_tools"
	CallToolName      = "call_tool"
)

// SearchToolNames are the three names, in the order tools/list shows them.
var SearchToolNames = []string{SearchToolsName, DescribeToolsName, CallToolName}

// SearchTool is a tool search exposure lists, as tools/list shows it.
type SearchTool struct {
	Name        string
	Title       string
	Description string
	InputSchema string // compact JSON
	Annotations Annotations
}

// Annotations are a search tool's annotations, with the JSON of MCP's
// ToolAnnotations.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// IsZero reports whether a says nothing: such a tool lists no annotations.
func (a Annotations) IsZero() bool { return a == Annotations{} }

// SearchTools returns the three search tools, in list order; their
// descriptions are what the model reads to learn how to find and call the
// server's tools. Each call returns new values.
func SearchTools() []SearchTool {
	// Short on purpose (issue 33): every session's tools/list carries them.
	// The property descriptions are left out where the tool's description
	// says it; the hints only where they differ from MCP's defaults
	// (readOnlyHint false, openWorldHint true; the other two mean nothing
	// for a tool that only reads).
	yes, no := true, false
	readOnly := Annotations{ReadOnlyHint: &yes, OpenWorldHint: &no}
	return []SearchTool{
		{
			Name: SearchToolsName,
			Description: "Find this server's tools (it has more than it lists) by what you want to do, in a few words " +
				"(\"close an issue\"): names and summaries, best first. Then describe_tools, then call_tool.",
			InputSchema: `{"type":"object","properties":{` +
				`"query":{"type":"string","minLength":1,"maxLength":500},` +
				`"limit":{"type":"integer","minimum":1,"maximum":50,"default":8}` +
				`},"required":["query"]}`,
			Annotations: readOnly,
		},
		{
			Name:        DescribeToolsName,
			Description: "Input schema (call_tool's arguments), output schema and annotations of tools search_tools found.",
			InputSchema: `{"type":"object","properties":{` +
				`"names":{"type":"array","minItems":1,"maxItems":20,"uniqueItems":true,"items":{"type":"string","minLength":1}}` +
				`},"required":["names"]}`,
			Annotations: readOnly,
		},
		{
			Name:        CallToolName,
			Description: "Run a tool by name with arguments per its input schema (describe_tools): same as a direct call.",
			InputSchema: `{"type":"object","properties":{` +
				`"name":{"type":"string","minLength":1},` +
				`"arguments":{"type":"object"}` +
				`},"required":["name"]}`,
			// It may run any tool: MCP's defaults (may change things, may
			// reach outside, not safe to repeat) are its hints.
		},
	}
}
