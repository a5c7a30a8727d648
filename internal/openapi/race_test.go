//go:build race

package openapi

// raceEnabled: under -race, TestRealDescriptions loads the large imported
// specs but does not generate them (generating Kubernetes' 845 tools takes
// minutes there); the selection build still runs.
const raceEnabled = true
