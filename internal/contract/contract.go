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

// SearchTools returns the three search tools, in list order; their
// descriptions are what the model reads to learn how to find and call the
// server's tools. Each call returns new values.
func SearchTools() []SearchTool {
	yes, no := true, false
	readOnly := func(title string) Annotations {
		return Annotations{Title: title, ReadOnlyHint: &yes, DestructiveHint: &no, IdempotentHint: &yes, OpenWorldHint: &no}
	}
	return []SearchTool{
		{
			Name:  SearchToolsName,
			Title: "Search tools",
			Description: "Find this server's tools for a task. The server has more tools than it lists: describe what you want to do in a few words " +
				"(\"close an issue\", \"list the releases of a repository\") and get the best-matching tools' names and summaries, best first. " +
				"Then call describe_tools for their input schemas, and call_tool to run one.",
			InputSchema: `{"type":"object","properties":{` +
				`"query":{"type":"string","minLength":1,"maxLength":500,"description":"What you want to do, in plain words."},` +
				`"limit":{"type":"integer","minimum":1,"maximum":50,"default":8,"description":"How many tools to return at most."}` +
				`},"required":["query"],"additionalProperties":false}`,
			Annotations: readOnly("Search tools"),
		},
		{
			Name:  DescribeToolsName,
			Title: "Describe tools",
			Description: "Get the full definitions of tools found with search_tools: description, input schema (the arguments call_tool needs), " +
				"output schema and annotations (whether the tool only reads, or changes or deletes something).",
			InputSchema: `{"type":"object","properties":{` +
				`"names":{"type":"array","minItems":1,"maxItems":20,"uniqueItems":true,"items":{"type":"string","minLength":1},"description":"The tools' names, as search_tools returned them."}` +
				`},"required":["names"],"additionalProperties":false}`,
			Annotations: readOnly("Describe tools"),
		},
		{
			Name:  CallToolName,
			Title: "Call a tool",
			Description: "Run one of this server's tools by name, with arguments matching the input schema describe_tools gave. " +
				"The call is exactly a direct call of that tool: same checks, same result. What it reads or changes is that tool's: see its annotations.",
			InputSchema: `{"type":"object","properties":{` +
				`"name":{"type":"string","minLength":1,"description":"The tool's name."},` +
				`"arguments":{"type":"object","description":"The tool's arguments, as its input schema says."}` +
				`},"required":["name"],"additionalProperties":false}`,
			// It may run any tool: no hint that it only reads, or is safe to repeat.
			Annotations: Annotations{Title: "Call a tool", ReadOnlyHint: &no, OpenWorldHint: &yes},
		},
	}
}
