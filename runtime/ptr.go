package runtime

// Ptr returns a pointer to v. Generated JSONSchemaExtend methods use it to
// set the pointer-typed bounds of a schema (MinLength, MaxItems, …).
func Ptr[T any](v T) *T { return &v }
