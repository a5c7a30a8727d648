package runtime

// IsAtLeastVersion0_1_0 is a compile-time handshake between generated code and
// this package: every file mcpgen generates contains
//
//	const _ = runtime.IsAtLeastVersion0_1_0
//
// If this constant is undefined when you build, the generated code is newer
// than the runtime it is compiled against: upgrade the module
// (go get github.com/mcpgen/mcpgen@latest). Later releases add a constant per
// version and keep the old ones, so older generated code keeps compiling.
const IsAtLeastVersion0_1_0 = true
