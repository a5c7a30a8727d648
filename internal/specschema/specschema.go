// Package specschema computes, straight from a spec, the JSON Schema a value
// must have on the wire (Wire): the one place that maps the spec's schema
// language to JSON Schema, read by the generator, lint's context budget and
// diff's wire rules. Normalize and Decode let tests and diff compare two
// schema documents whatever their layout.
package specschema
