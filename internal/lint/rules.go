package lint

// Rule documents one lint rule. The table of rules in docs/cli.md is checked
// against this list (TestReadmeDocumentsRules), and the IDs against
// spec.LintRuleIDs, which the spec's lint.disable is validated with.
type Rule struct {
	ID   string
	What string // what the rule reports
	Why  string // why it matters to a client or a model
}

// Rules are the lint rules, in the order of the reference.
var Rules = []Rule{
	{
		ID:   "DESCRIPTION_MISSING",
		What: "a resource, resource template, input property or prompt argument without a description (tools and prompts must have one already)",
		Why:  "the model chooses tools and fills arguments from descriptions alone; a bare name makes it guess",
	},
	{
		ID:   "DESCRIPTION_TOO_SHORT",
		What: "a description of fewer than 3 words or 20 characters on a tool, resource, template or prompt; of fewer than 2 words or 8 characters on a property or argument",
		Why:  `"Gets data." does not tell the model when to call a tool, when not to, or what comes back`,
	},
	{
		ID:   "TOOL_NAME_CLIENT_UNSAFE",
		What: "a tool name with a dot or an upper-case letter, or whose Claude Code name mcp__SERVER__TOOL is longer than 64 characters",
		Why:  "model APIs accept tool names matching ^[a-zA-Z0-9_-]{1,64}$; clients drop, rename or refuse other tools",
	},
	{
		ID:   "STRING_UNBOUNDED_ID",
		What: "a string input named like an identifier (id, *_id, key, slug, code, sku, email, url, uri, uuid, and their plurals) with no pattern, enum, format or maxLength",
		Why:  "a tight schema is checked before any call; a free string lets the model send a name, a sentence or a made-up id",
	},
	{
		ID:   "OBJECT_OPEN",
		What: "an input object with additionalProperties: true",
		Why:  "unknown keys are accepted silently, so an argument the model invents or misspells is ignored instead of refused",
	},
	{
		ID:   "DESTRUCTIVE_NOT_IDEMPOTENT",
		What: "a tool with destructiveHint: true, without idempotentHint: true and without an input property named like idempotency_key",
		Why:  "clients and models retry; a retried destructive call must not act twice",
	},
	{
		ID:   "DEFAULT_ON_REQUIRED",
		What: "a required input property with a default",
		Why:  "the default is never applied (a call without the value is refused), yet the schema tells the model it may leave the value out",
	},
	{
		ID:   "TOO_MANY_TOOLS",
		What: "more tools than lint.maxTools (default 20), unless server.exposure is search",
		Why:  "every tool's definition is in the model's context on every turn, and choice degrades as the list grows",
	},
	{
		ID:   "RESOURCE_LIST_LARGE",
		What: "more static resources than lint.maxListItems (default 50)",
		Why:  "resources/list is read whole; a resource template lets the model reach the long tail without listing it",
	},
	{
		ID:   "APP_PERMISSION",
		What: "an MCP App view (a ui:// resource) that asks for a browser permission: camera, microphone, geolocation or clipboardWrite (one finding per permission)",
		Why:  "the host may grant it inside the conversation; a view asks only for what its task needs, never as a precaution",
	},
	{
		ID:   "APP_WRITE_NOT_IDEMPOTENT",
		What: "a tool an MCP App view may call that is not readOnlyHint: true and has no idempotency key (idempotency:, or a required input property such as idempotency_key)",
		Why:  "a view's retries and double clicks must not act twice; if the tool is safe to repeat anyway, opt out with x-lint-disable: [APP_WRITE_NOT_IDEMPOTENT]",
	},
	{
		ID:   "CLIENT_DROPS_TOOL",
		What: "a tool whose advertised input schema a major model API refuses: a root that is not type: object, or allOf/oneOf/anyOf (Anthropic), oneOf/anyOf/allOf/enum/not (OpenAI) at the top level; the finding names the client that drops or rewrites the tool",
		Why:  "Claude Code strips such a root before its model sees it (earlier versions dropped the tool while showing the server connected): either way the model is not told what the server enforces",
	},
	{
		ID:   "SCHEMA_PROFILE",
		What: "with lint --profile gemini|openai-strict|anthropic or server.schemaProfile: what that model API refuses or ignores in a tool's input schema ($ref, unions, open objects, optional properties in OpenAI strict mode, formats, keywords, sizes), citing its documentation; under server.schemaProfile only what the generator cannot rewrite",
		Why:  "a host passes the tool's schema to the model API as it is: one it refuses drops the tool or the whole request, one it ignores in part lets the model send what the server then refuses",
	},
	{
		ID:   "PROMPT_OPTIONAL_PLACEHOLDER",
		What: "a declarative prompt message whose text or resource holds {{.name}} for an optional argument (one finding per message and argument)",
		Why:  `a client may leave the argument out, and the placeholder is then filled with nothing: "Write it in a {{.style}} style." reads "in a  style.", a resource URI loses a part; make the argument required, or write the message so that it reads well without it (and disable the rule on the prompt)`,
	},
}

// Default limits.
const (
	DefaultMaxTools     = 20
	DefaultMaxListItems = 50
)
