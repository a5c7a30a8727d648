package runtime

// OpenSubscriptions is how many subscriptions/listen requests s serves now,
// for tests that check that a closed stream leaves nothing behind.
func OpenSubscriptions(s *Server) int { return len(s.subscriptions.snapshot()) }
