// Package genimpl is the support of the code mcpgen generates, for
// generated code only: nothing here is meant to be called by hand, and it
// has no compatibility promise beyond the version handshake
// (runtime.IsAtLeastVersion0_1_0): a release may change any of it together
// with the generator. People writing or running servers read package
// runtime, whose typed adapters (TypedTool, TypedTemplate, …) do by hand
// what these do for generated code.
//
// What lives here, and why here rather than in runtime or inline in the
// generated files:
//   - GeneratedTool, GeneratedToolResult: TypedTool and TypedToolResult for
//     tools whose schemas the generator computed (no reflection at start),
//     generic over pointer types so that one adapter serves every tool. They
//     need runtime's unexported validation and encoding, which stay in
//     runtime: runtime hands its adapter to this package through
//     runtime/internal/gensupport at init, so nothing of it is exported.
//   - GeneratedTemplate, GeneratedPrompt: TypedTemplate and TypedPrompt for
//     templates and prompts whose params schema or argument list the
//     generator computed, in the same way and for the same reasons.
//   - Schemas, SchemaSources, TemplateSchemas, PromptArguments: what a
//     generated tool, template or prompt was registered with and what
//     reflection derives from its Go types, for the generator's test that
//     the two agree.
//   - DecodeDefault, Strings, CompleteList, StaticHTML: small helpers that
//     generated ApplyDefaults, Expand, completion and MCP Apps code calls;
//     written once here rather than repeated in every generated file
//     (CompleteList shares runtime's cap of 100 values).
//   - Object, Field, Value and the rules (StringRule, IntRule, NumberRule,
//     ArrayRule): the tables of the validating decoders generated for tool
//     inputs, one line per property, read by one decoder (table.go, over
//     the scanner of decode.go) rather than compiled as a method per type.
//
// runtime.Ptr and runtime.Bool are gone without a replacement here: since
// Go 1.26 generated code writes a pointer to a constant as new(v).
package genimpl
