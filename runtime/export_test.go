package runtime

// OpenSubscriptions is how many subscriptions/listen requests s serves now,
// for tests that check that a closed stream leaves nothing behind.
func OpenSubscriptions(s *Server) int { return len(s.subscriptions.snapshot()) }

// TaskCounts is what s holds for tasks now: the handlers running here, and
// the tasks/result requests waiting on tasks run by other replicas.
func TaskCounts(s *Server) (runs, waiters int) {
	return len(s.taskRuns.values()), len(s.taskWaiters.values())
}

// StoredTasks is how many records a NewMemoryTaskStore holds.
func StoredTasks(st TaskStore) int {
	return st.(interface{ Len() int }).Len()
}
