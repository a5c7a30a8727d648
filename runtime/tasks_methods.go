package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// The tasks/* methods of both eras (see tasks.go). Each reads the task
// from the store, as the caller's: another caller's task is unknown.

// Names of the tasks methods.
const (
	methodTasksGet    = "tasks/get"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
	methodTasksResult = "tasks/result"
	methodTasksList   = "tasks/list"
)

// taskMethod adapts a tasks method to the method table: it answers at once,
// with the context (for the caller's identity) and the era in hand.
func taskMethod(name string, serve func(ss *Session, ctx context.Context, modern *peerInfo, params json.RawMessage) (encoder, *Error)) func(*Session, context.Context, string, json.RawMessage) {
	return func(ss *Session, ctx context.Context, id string, params json.RawMessage) {
		var peer *peerInfo
		if mc, ok := ctx.(*modernCtx); ok {
			peer = mc.peer
			if !declaresTasks(peer) {
				ss.sendError(id, errTasksNotDeclared(name))
				return
			}
		}
		res, e := serve(ss, ctx, peer, params)
		if peer != nil && e == nil {
			res = ss.srv.modernResult(name, res)
		}
		ss.reply(id, res, e)
	}
}

// lookupTask reads params.taskId and the caller's task of that id.
func (ss *Session) lookupTask(ctx context.Context, modern bool, params json.RawMessage) (*TaskRecord, *Error) {
	id, ok := jsonwire.StringMember(params, "taskId")
	if !ok || id == "" {
		return nil, errorf(CodeInvalidParams, `invalid params: "taskId" must be the id of a task`)
	}
	if len(id) > 128 {
		return nil, errorf(CodeInvalidParams, "invalid params: unknown task %s", sanitize(id, maxQuoted))
	}
	rec, err := ss.srv.cfg.tasks.store.Get(ctx, taskOwner(ctx, ss, modern), id)
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: reading the task: %v", err)
	}
	if rec == nil {
		return nil, errorf(CodeInvalidParams, "invalid params: unknown task %s (it never existed, expired, or is not yours)", quote(id))
	}
	return rec, nil
}

func (ss *Session) tasksGet(ctx context.Context, peer *peerInfo, params json.RawMessage) (encoder, *Error) {
	rec, e := ss.lookupTask(ctx, peer != nil, params)
	if e != nil {
		return nil, e
	}
	if peer != nil {
		return rawResult(rec.AppendModern(nil, "{", true)), nil
	}
	return rawResult(rec.AppendLegacy(nil)), nil
}

// tasksUpdate answers input requests of a task (2026-07-28).
func (ss *Session) tasksUpdate(ctx context.Context, peer *peerInfo, params json.RawMessage) (encoder, *Error) {
	rec, e := ss.lookupTask(ctx, true, params)
	if e != nil {
		return nil, e
	}
	var responses map[string]json.RawMessage
	raw := jsonwire.Member(params, "inputResponses")
	if jsonwire.FirstByte(raw) != '{' || json.Unmarshal(raw, &responses) != nil {
		return nil, errorf(CodeInvalidParams, `invalid params: "inputResponses" must be an object of results by key`)
	}
	for k, v := range responses {
		if jsonwire.FirstByte(v) != '{' {
			return nil, errorf(CodeInvalidParams, "invalid params: inputResponses[%s] must be a result object", quote(k))
		}
	}
	if rec.Status.Terminal() {
		return rawResult(`{}`), nil
	}
	if run := ss.srv.taskRuns.get(rec.ID); run != nil {
		run.answer(responses)
		return rawResult(`{}`), nil
	}
	// The handler runs on another replica: the answers go there, and the
	// client hears back once that replica stored them, so that its next
	// tasks/get, wherever it lands, sees them taken.
	if !ss.srv.tellReplicas(busTaskUpdate, rec.ID+"\n"+string(raw)) {
		return nil, errorf(CodeInternalError, "task %s runs in another server process, which this one cannot reach (no notification bus); retry later", quote(rec.ID))
	}
	after, err := ss.awaitTaskChange(ctx, rec)
	switch {
	case err != nil:
		return nil, errorf(CodeInternalError, "internal error: reading the task: %v", err)
	case after == nil:
		return nil, errorf(CodeInternalError, "task %s runs in another server process, which did not take the answers within %v; retry", quote(rec.ID), busTimeout)
	}
	return rawResult(`{}`), nil
}

// tasksCancel cancels a task: its record becomes cancelled and its
// handler's context is cancelled. 2026-07-28 acks with an empty result,
// terminal tasks included; 2025-11-25 returns the task, and refuses a
// terminal one.
func (ss *Session) tasksCancel(ctx context.Context, peer *peerInfo, params json.RawMessage) (encoder, *Error) {
	rec, e := ss.lookupTask(ctx, peer != nil, params)
	if e != nil {
		return nil, e
	}
	if !rec.Status.Terminal() {
		if run := ss.srv.taskRuns.get(rec.ID); run != nil {
			run.stop(taskCancelledMessage)
			rec = run.snapshot()
		} else {
			// The handler runs on another replica: the record is
			// cancelled here, and the handler's context there.
			rec.Status, rec.StatusMessage, rec.InputRequests = TaskCancelled, taskCancelledMessage, nil
			rec.UpdatedAt = time.Now().UTC()
			stored, err := ss.srv.cfg.tasks.store.Update(ctx, rec)
			if err != nil {
				return nil, errorf(CodeInternalError, "internal error: storing the task: %v", err)
			}
			if !stored { // it ended meanwhile
				if rec, e = ss.lookupTask(ctx, peer != nil, params); e != nil {
					return nil, e
				}
				if peer == nil && rec.Status != TaskCancelled {
					return nil, errorf(CodeInvalidParams, "invalid params: task %s is already %s", quote(rec.ID), rec.Status)
				}
			}
			ss.srv.tellReplicas(busTaskCancel, rec.ID)
		}
	} else if peer == nil {
		return nil, errorf(CodeInvalidParams, "invalid params: task %s is already %s", quote(rec.ID), rec.Status)
	}
	if peer != nil {
		return rawResult(`{}`), nil
	}
	return rawResult(rec.AppendLegacy(nil)), nil
}

// startTasksResult runs tasks/result on a worker, since it waits: a
// notifications/cancelled for it ends the wait.
func (ss *Session) startTasksResult(ctx context.Context, id string, params json.RawMessage) {
	params = bytes.Clone(params) // the message is gone when the call runs
	ss.start(ctx, id, &call{exec: func(ctx context.Context, _ *call) (encoder, *Error) { return ss.tasksResult(ctx, nil, params) }})
}

// tasksResult (2025-11-25) waits until the task is terminal and answers
// with exactly what the tools/call would have: its result, or its JSON-RPC
// error, tagged with the task's id.
func (ss *Session) tasksResult(ctx context.Context, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
	rec, e := ss.lookupTask(ctx, false, params)
	if e != nil {
		return nil, e
	}
	c := reqFrom(ctx)
	var token string // this tasks/result's waiter, for a task run on another replica
	defer func() {
		if token != "" {
			ss.srv.taskWaiters.remove(token)
		}
	}()
	for first := true; !rec.Status.Terminal(); first = false {
		wait := time.After(rec.PollInterval) // a task run elsewhere: poll the store
		var done chan struct{}
		switch run := ss.srv.taskRuns.get(rec.ID); {
		case c == nil:
		case run != nil:
			done = run.done
			run.offer(streamOffer{rel: c.id}) // the task's requests to the client may go on this stream
		case first || rec.Status == TaskInputRequired:
			// The task's replica may need this stream: tell it (again,
			// while the task waits for input: it may have missed it).
			if token == "" {
				token = rand.Text()
				ss.srv.taskWaiters.add(token, &taskWaiter{ss: ss, rel: c.id})
			}
			ss.srv.tellReplicas(busTaskWaiting, rec.ID+"\n"+token)
		}
		select {
		case <-done:
		case <-wait:
		case <-ctx.Done():
			return nil, errorf(CodeInternalError, "tasks/result was cancelled before task %s finished", quote(rec.ID))
		}
		if rec, e = ss.lookupTask(ctx, false, params); e != nil {
			return nil, e
		}
	}
	related := `{"io.modelcontextprotocol/related-task":{"taskId":` + string(jsonwire.AppendString(nil, rec.ID)) + `}}`
	switch {
	case rec.Result != nil:
		return rawResult(withMeta(rec.Result, related)), nil
	case rec.Error != nil:
		var je struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(rec.Error, &je)
		out := &Error{Code: je.Code, Message: je.Message}
		if je.Data != nil {
			out.Data = je.Data
		}
		return nil, out
	}
	return nil, errorf(CodeInternalError, "task %s was %s: %s", quote(rec.ID), rec.Status, rec.StatusMessage)
}

// withMeta returns the result object res with _meta set to meta (a
// result's own _meta is replaced: tool results rarely carry one).
func withMeta(res []byte, meta string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(res, &m) != nil {
		return res
	}
	m["_meta"] = json.RawMessage(meta)
	b, err := json.Marshal(m)
	if err != nil {
		return res
	}
	return b
}

// tasksList (2025-11-25) lists the caller's tasks, a page at a time, in
// the order of their key (creation time, then id). The cursor is the key
// of the last task of the previous page (taskCursor), and the next page is
// the tasks after that key: whether that task still lives or has expired
// (or was dropped) by then, no task is skipped, not even one created in
// the same instant, and none is repeated.
func (ss *Session) tasksList(ctx context.Context, _ *peerInfo, params json.RawMessage) (encoder, *Error) {
	var cursor string
	if raw := jsonwire.Member(params, "cursor"); !jsonwire.IsNull(raw) {
		var ok bool
		if cursor, ok = jsonwire.StringMember(params, "cursor"); !ok {
			return nil, errorf(CodeInvalidParams, `invalid params: "cursor" must be a string`)
		}
	}
	after, created, ok := parseTaskCursor(cursor)
	if !ok {
		return nil, errorf(CodeInvalidParams, "invalid params: invalid cursor")
	}
	page := ss.srv.cfg.pageSize
	store, owner := ss.srv.cfg.tasks.store, taskOwner(ctx, ss, false)
	// Every live task of the owner (a store bounds them per owner), by key.
	all, err := store.List(ctx, owner, "", math.MaxInt32)
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: listing tasks: %v", err)
	}
	slices.SortFunc(all, compareTaskKeys)
	start := 0
	if after != "" {
		if created.IsZero() { // a bare id: its key is its task's, while it lives
			i := slices.IndexFunc(all, func(r *TaskRecord) bool { return r.ID == after })
			if i < 0 {
				return nil, errorf(CodeInvalidParams, "invalid params: invalid cursor")
			}
			created = all[i].CreatedAt
		}
		var found bool
		start, found = slices.BinarySearchFunc(all, &TaskRecord{ID: after, CreatedAt: created}, compareTaskKeys)
		if found {
			start++
		}
	}
	recs := all[start:]
	b := []byte(`{"tasks":[`)
	for i, rec := range recs[:min(len(recs), page)] {
		if i > 0 {
			b = append(b, ',')
		}
		b = rec.AppendLegacy(b)
	}
	b = append(b, ']')
	if len(recs) > page {
		b = append(b, `,"nextCursor":`...)
		b = jsonwire.AppendString(b, taskCursor(recs[page-1]))
	}
	return rawResult(append(b, '}')), nil
}

// compareTaskKeys orders tasks by their key: creation time, then id.
func compareTaskKeys(a, b *TaskRecord) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// taskCursor is the cursor of the page that ends with t: its id and its
// creation time (Unix nanoseconds), "id.time".
func taskCursor(t *TaskRecord) string {
	return t.ID + "." + strconv.FormatInt(t.CreatedAt.UnixNano(), 10)
}

// parseTaskCursor reads a taskCursor ("": from the start). A bare task id
// (the cursor of a replica of an earlier version, during a rolling
// upgrade) has no time: it is valid while its task lives.
func parseTaskCursor(c string) (id string, created time.Time, ok bool) {
	if c == "" {
		return "", time.Time{}, true
	}
	i := strings.LastIndexByte(c, '.')
	if i < 0 {
		return c, time.Time{}, true
	}
	if i == 0 {
		return "", time.Time{}, false
	}
	ns, err := strconv.ParseInt(c[i+1:], 10, 64)
	if err != nil {
		return "", time.Time{}, false
	}
	return c[:i], time.Unix(0, ns), true
}
