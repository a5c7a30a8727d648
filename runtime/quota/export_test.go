package quota

import "time"

// SetClock makes m read the time from now (property tests).
func SetClock(m *MemoryStore, now func() time.Time) { m.now = now }
