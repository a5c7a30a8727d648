//go:build race

package main

// raceEnabled: TestSample's imports are the importer's, tested under -race
// in internal/openapi; here they would only be slow.
const raceEnabled = true
