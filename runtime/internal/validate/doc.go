// Package validate checks tool arguments, outputs and template variables
// against their JSON Schemas (github.com/santhosh-tekuri/jsonschema, draft
// 2020-12, formats asserted, no external references) and words what is
// wrong for a model to act on: every Violation at once, each with a JSON
// pointer and a sentence. Screen runs first and catches what the validator
// would get wrong or pay too much for (deep nesting, huge numbers).
package validate
