package stdio

import "time"

// SetInlineBudget sets inlineBudget for a test and returns what restores it.
func SetInlineBudget(d time.Duration) (restore func()) {
	old := inlineBudget
	inlineBudget = d
	return func() { inlineBudget = old }
}
