// Package genimpl is the support of the code mcpgen generates, for
// generated code only: nothing here is meant to be called by hand, and it
// has no compatibility promise beyond the version handshake
// (runtime.IsAtLeastVersion0_1_0): a release may change any of it together
// with the generator. People writing or running servers read package
// runtime, whose typed adapters (TypedTool, TypedTemplate, …) do by hand
// what these do for generated code.
//
// What lives here, and why not in runtime:
//   - GeneratedTool, GeneratedToolResult: TypedTool and TypedToolResult for
//     tools whose schemas the generator computed (no reflection at start),
//     generic over pointer types so one adapter serves every tool.
//   - Schemas: the schema sources of a generated tool, for the generator's
//     tests that prove generated schemas and generated types agree.
//   - DecodeDefault, Strings, CompleteList, StaticHTML: one-line helpers the
//     generated ApplyDefaults, Expand, completion and MCP Apps code calls.
//
// Pointers to constants, which runtime.Ptr and runtime.Bool used to make,
// are written new(v) in generated code (Go 1.26).
package genimpl
