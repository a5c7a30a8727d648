package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Tasks across replicas. A task's record is in the shared TaskStore, so
// any replica answers tasks/get; but its handler runs in the process that
// created it, and what must reach the handler goes over the bus
// (NotificationBus, as the answers of legacy sessions do):
//
//   - tasks/update (2026-07-28) received elsewhere: "U<task id>\n<inputResponses>";
//     the owning replica answers the handler's input requests, and the
//     receiving one answers the client once the stored record shows it;
//   - tasks/cancel received elsewhere: the record is stored cancelled, and
//     "C<task id>" cancels the handler's context where it runs;
//   - a 2025-11-25 handler's request to the client (Elicit, CreateMessage)
//     goes on the stream of a tasks/result the client is waiting on, which
//     may be held by another replica: that replica announces its waiting
//     tasks/result with "W<task id>\n<token>", and the owner sends the
//     request back with "Q<token>\n<message>" for it to write on its
//     stream. The client's answer reaches the owner as every answer of a
//     shared session does (runtime/streamhttp/shared.go).
//
// A replica killed mid-task cannot be reached; its task's lease in the
// store lapses, and the store records it failed (redisstore).
const (
	busTaskUpdate  = 'U'
	busTaskCancel  = 'C'
	busTaskWaiting = 'W'
	busTaskRequest = 'Q'
)

// tellReplicas publishes msg to the other replicas and reports whether it
// went out: false without a bus (then no other replica can be reached).
func (s *Server) tellReplicas(kind byte, body string) bool {
	return s.sendOnBus(string(kind)+body, "cannot publish a task's message to the other replicas")
}

// fromBusTask handles a task message of any replica (this one included:
// each acts only on the tasks it runs, or the waiters it holds).
func (s *Server) fromBusTask(kind byte, body string) {
	id, rest, _ := strings.Cut(body, "\n")
	switch kind {
	case busTaskUpdate:
		if run := s.taskRuns.get(id); run != nil && run.modern {
			var responses map[string]json.RawMessage
			if json.Unmarshal([]byte(rest), &responses) == nil {
				run.answer(responses)
			}
		}
	case busTaskCancel:
		if run := s.taskRuns.get(id); run != nil {
			run.stop(rest)
		}
	case busTaskWaiting:
		if run := s.taskRuns.get(id); run != nil && !run.modern {
			run.offer(streamOffer{token: rest, at: time.Now()})
		}
	case busTaskRequest: // id is the waiter's token
		if w := s.taskWaiters.get(id); w != nil {
			w.ss.write(w.rel, false, []byte(rest))
		}
	}
}

// stop records the task cancelled (unless it ended meanwhile) and cancels
// its handler's context.
func (r *taskRun) stop(reason string) {
	if reason == "" {
		reason = taskCancelledMessage
	}
	r.update(func(rec *TaskRecord) {
		rec.Status, rec.StatusMessage, rec.InputRequests = TaskCancelled, reason, nil
	})
	r.cancel()
}

// taskCancelledMessage is the status message of a task the client
// cancelled.
const taskCancelledMessage = "cancelled by the client"

// awaitTaskChange waits until the stored record of the task changed since
// before (the replica running it took a message) or is terminal, and
// returns it; nil if nothing changed within busTimeout.
func (ss *Session) awaitTaskChange(ctx context.Context, before *TaskRecord) (*TaskRecord, error) {
	store := ss.srv.cfg.tasks.store
	deadline := time.Now().Add(busTimeout)
	for pause := 2 * time.Millisecond; time.Now().Before(deadline); pause = min(2*pause, 100*time.Millisecond) {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, context.Cause(ctx)
		case <-t.C:
		}
		rec, err := store.Get(ctx, before.Owner, before.ID)
		if err != nil {
			return nil, err
		}
		if rec == nil || rec.Status.Terminal() || !rec.UpdatedAt.Equal(before.UpdatedAt) {
			return rec, nil
		}
	}
	return nil, nil
}

// streamOffer is a stream a 2025-11-25 task's requests to the client can
// go on: that of a tasks/result of this process (rel, its request id), or
// of another replica's (token, its waiter there, announced at at).
type streamOffer struct {
	rel   string
	token string
	at    time.Time
}

// taskWaiter is a tasks/result request of this process waiting on a task
// run by another replica (Server.taskWaiters, by a random token): the
// owner's requests to the client come back for its stream.
type taskWaiter struct {
	ss  *Session
	rel string // the tasks/result's request id
}
