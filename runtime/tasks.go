package runtime

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
	"github.com/mcpgen/mcpgen/runtime/tasks"
)

// Tasks: long-running tool calls. A tool whose Execution allows it runs as
// a task: tools/call answers at once with the task's id, the handler runs
// on in the background, and the client polls tasks/get (and, in
// 2025-11-25, waits on tasks/result) for the outcome. The handler is the
// same typed method as for a plain call; Elicit, CreateMessage and ListRoots
// inside it make the task input_required until the client answers.
//
// The two eras differ on who decides and on the wire:
//   - 2025-11-25 (basic/utilities/tasks.mdx, experimental): the client asks
//     with params.task on tools/call; tasks/get, tasks/result, tasks/list,
//     tasks/cancel; notifications/tasks/status; capabilities.tasks. A tool
//     result with isError makes the task failed.
//   - 2026-07-28, the extension io.modelcontextprotocol/tasks (SEP-2663):
//     the server creates the task when the request declares the extension;
//     a flat CreateTaskResult (resultType "task"); tasks/get inlines the
//     result, error or inputRequests; tasks/update answers inputRequests;
//     tasks/cancel acks; a tool error is completed with isError, failed is
//     for JSON-RPC errors.
//
// Records live in a TaskStore (WithTaskStore); the handlers run in the
// process that created them, which tasks/update and tasks/cancel must
// reach to answer or stop a handler (a shared store lets any replica read).

// A task's record and where it is kept are package runtime/tasks; these
// are their names in this package.
type (
	// TaskStatus is where a task is in its life (tasks.Status).
	TaskStatus = tasks.Status
	// TaskRecord is what a TaskStore keeps of a task (tasks.Record).
	TaskRecord = tasks.Record
	// TaskStore keeps task records until they expire (tasks.Store).
	TaskStore = tasks.Store
)

// The statuses of a task (tasks.Status).
const (
	TaskWorking       = tasks.Working
	TaskInputRequired = tasks.InputRequired
	TaskCompleted     = tasks.Completed
	TaskFailed        = tasks.Failed
	TaskCancelled     = tasks.Cancelled
)

// ErrTaskStoreFull is returned by TaskStore.Create when the store is full
// (tasks.ErrStoreFull).
var ErrTaskStoreFull = tasks.ErrStoreFull

// DefaultMaxTasks is the number of live tasks NewMemoryTaskStore(0) keeps.
const DefaultMaxTasks = tasks.DefaultMaxTasks

// NewMemoryTaskStore returns a TaskStore in this process's memory
// (tasks.NewMemoryStore).
func NewMemoryTaskStore(limit int) TaskStore { return tasks.NewMemoryStore(limit) }

// TasksExtension is the 2026-07-28 extension id of tasks.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskSupport says whether a tool runs as a task (execution.taskSupport).
type TaskSupport string

const (
	TaskForbidden TaskSupport = "forbidden" // never (the default)
	TaskOptional  TaskSupport = "optional"  // when the client can follow a task
	TaskRequired  TaskSupport = "required"  // always; a client that cannot is refused
)

// ToolExecution is how a tool runs (Tool.Execution).
type ToolExecution struct {
	TaskSupport TaskSupport `json:"taskSupport,omitempty"`

	// InputFirst (2026-07-28): a tools/call that carries no answers runs
	// as a plain call, so that input the handler asks for first is
	// gathered with input_required rounds (multi round-trip requests); the
	// retry carrying the answers runs as a task. A handler that asks for
	// nothing then finishes as a plain call.
	InputFirst bool `json:"-"`
}

func (t *Tool) taskSupport() TaskSupport {
	if t.Execution == nil || t.Execution.TaskSupport == "" {
		return TaskForbidden
	}
	return t.Execution.TaskSupport
}

// Defaults and bounds of tasks.
const (
	DefaultTaskTTL          = 30 * time.Minute
	DefaultTaskMaxTTL       = 24 * time.Hour
	DefaultTaskPollInterval = time.Second
)

type taskConfig struct {
	store        TaskStore
	storeSet     bool // WithTaskStore was given: WithStore keeps it
	ttl, maxTTL  time.Duration
	pollInterval time.Duration
}

func (c *taskConfig) setDefaults() {
	if c.store == nil {
		c.store = NewMemoryTaskStore(0)
	}
	if c.ttl <= 0 {
		c.ttl = DefaultTaskTTL
	}
	if c.maxTTL <= 0 {
		c.maxTTL = DefaultTaskMaxTTL
	}
	c.ttl = min(c.ttl, c.maxTTL)
	if c.pollInterval <= 0 {
		c.pollInterval = DefaultTaskPollInterval
	}
}

// WithTaskStore keeps task records in st instead of this process's memory
// (NewMemoryTaskStore(0)).
func WithTaskStore(st TaskStore) Option {
	return func(c *config) {
		if st != nil {
			c.tasks.store, c.tasks.storeSet = st, true
		}
	}
}

// WithTaskTTL sets how long a task is kept after it is created (default
// 30 minutes) and the most a 2025-11-25 client may ask for with
// params.task.ttl (default 24 hours). Zero keeps a default.
func WithTaskTTL(ttl, max time.Duration) Option {
	return func(c *config) { c.tasks.ttl, c.tasks.maxTTL = ttl, max }
}

// WithTaskPollInterval sets the poll interval suggested to clients
// (default 1 s).
func WithTaskPollInterval(d time.Duration) Option {
	return func(c *config) { c.tasks.pollInterval = d }
}

// hasTaskTools reports whether a registered tool may run as a task: then
// the server advertises tasks.
func (s *Server) hasTaskTools() bool {
	for _, te := range s.tools.snapshot().list {
		if te.tool.taskSupport() != TaskForbidden {
			return true
		}
	}
	return false
}

// declaresTasks reports whether a modern request declared the extension.
func declaresTasks(p *peerInfo) bool {
	return p != nil && p.declaresExtension(TasksExtension)
}

// errTasksNotDeclared is -32021 for a modern request that needs the
// extension without declaring it.
func errTasksNotDeclared(what string) *Error {
	return &Error{
		Code:    CodeMissingRequiredClientCapability,
		Message: "missing required client capability: " + what + " needs the extension " + TasksExtension + ", which the request's _meta did not declare",
		Data:    map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: struct{}{}}}},
	}
}

// taskOwner is who a task belongs to: the authorized user; else, in the
// legacy era, the session (a shared one by its id, which every replica
// knows it by); else nobody in particular (a modern request, or
// a stateless HTTP server's, without authorization: the unguessable task
// id is the only key).
func taskOwner(ctx context.Context, ss *Session, modern bool) string {
	if info, ok := AuthFromContext(ctx); ok {
		return info.Owner()
	}
	if !modern && !ss.noRequests {
		if ss.shared != nil { // the same session on every replica
			return "session " + ss.id
		}
		ss.mu.Lock()
		defer ss.mu.Unlock()
		if ss.taskKey == "" {
			ss.taskKey = "session " + rand.Text()
		}
		return ss.taskKey
	}
	return ""
}

// byID is a map of what this process keeps of tasks, by task id (or
// waiter token), safe for concurrent use.
type byID[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

func (b *byID[T]) add(id string, v T) {
	b.mu.Lock()
	if b.m == nil {
		b.m = make(map[string]T)
	}
	b.m[id] = v
	b.mu.Unlock()
}

func (b *byID[T]) remove(id string) {
	b.mu.Lock()
	delete(b.m, id)
	b.mu.Unlock()
}

// get returns the value of id, or the zero value.
func (b *byID[T]) get(id string) T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.m[id]
}

// values returns what the map holds now, in no order.
func (b *byID[T]) values() []T {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]T, 0, len(b.m))
	for _, v := range b.m {
		out = append(out, v)
	}
	return out
}

// taskRun is a task whose handler runs in this process.
type taskRun struct {
	id     string
	srv    *Server
	ss     *Session // legacy: where notifications/tasks/status go
	modern bool
	cancel context.CancelFunc
	done   chan struct{} // closed when the handler returned and the outcome is stored

	streams chan streamOffer // the client's tasks/result requests waiting on the task (legacy)

	mu     sync.Mutex
	rec    TaskRecord
	asks   int                   // input requests numbered so far
	inputs map[string]*taskInput // asked and not answered, by key
	order  []string              // their keys in the order asked
}

type taskInput struct {
	method string
	params []byte
	answer chan json.RawMessage // buffered: one answer
}

// toolTask decides whether a tools/call runs as a task and, if it does,
// starts it and returns the answer of the tools/call. handled is false for
// a plain call.
func (ss *Session) toolTask(ctx context.Context, c *call) (res encoder, e *Error, handled bool) {
	support := c.tool.tool.taskSupport()
	if c.peer != nil && c.peer.modern {
		if support == TaskForbidden {
			return nil, nil, false // a legacy params.task is ignored here
		}
		if !declaresTasks(c.peer) {
			if support == TaskRequired {
				return nil, errTasksNotDeclared("tool " + quote(c.tool.tool.Name)), true
			}
			return nil, nil, false
		}
		if c.tool.tool.Execution.InputFirst && !answersInput(c.mrtr) {
			return nil, nil, false
		}
		created, e := ss.startTask(ctx, c, 0)
		if e != nil {
			return nil, e, true
		}
		return rawResult(created.AppendModern(nil, `{"resultType":"task",`, false)), nil, true
	}
	if c.taskParam == nil {
		if support == TaskRequired {
			return nil, errorf(CodeMethodNotFound, "tool %s runs only as a task: call it with params.task", quote(c.tool.tool.Name)), true
		}
		return nil, nil, false
	}
	if support == TaskForbidden {
		return nil, errorf(CodeMethodNotFound, "tool %s does not run as a task: call it without params.task", quote(c.tool.tool.Name)), true
	}
	var p struct {
		TTL *int64 `json:"ttl"`
	}
	if jsonwire.FirstByte(c.taskParam) != '{' || json.Unmarshal(c.taskParam, &p) != nil {
		return nil, errorf(CodeInvalidParams, `invalid params: "task" must be an object {ttl?: milliseconds}`), true
	}
	var ttl time.Duration
	if p.TTL != nil {
		if *p.TTL <= 0 {
			return nil, errorf(CodeInvalidParams, "invalid params: task.ttl must be a positive number of milliseconds"), true
		}
		ttl = time.Duration(min(*p.TTL, ss.srv.cfg.tasks.maxTTL.Milliseconds())) * time.Millisecond
	}
	created, e := ss.startTask(ctx, c, ttl)
	if e != nil {
		return nil, e, true
	}
	b := append([]byte(`{"task":`), created.AppendLegacy(nil)...)
	return rawResult(append(b, '}')), nil, true
}

// answersInput reports whether a modern request carries answers to input
// requests (inputResponses or a requestState holding some).
func answersInput(m *mrtr) bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.answers) > 0
}

// startTask records a new task for the call c and has its handler start
// once c is answered (c.afterReply); it returns the task as created.
// ttl 0 is the default.
func (ss *Session) startTask(ctx context.Context, c *call, ttl time.Duration) (*TaskRecord, *Error) {
	srv := ss.srv
	cfg := &srv.cfg.tasks
	if ttl <= 0 {
		ttl = cfg.ttl
	}
	modern := c.peer != nil && c.peer.modern
	now := time.Now().UTC()
	run := &taskRun{
		id: rand.Text(), srv: srv, ss: ss, modern: modern, done: make(chan struct{}), streams: make(chan streamOffer, 4),
		inputs: make(map[string]*taskInput),
	}
	run.rec = TaskRecord{
		ID: run.id, Owner: taskOwner(c, ss, modern), Status: TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: ttl, PollInterval: cfg.pollInterval,
	}
	if err := cfg.store.Create(c, &run.rec); err != nil {
		if errors.Is(err, ErrTaskStoreFull) {
			return nil, errorf(CodeInternalError, "the server holds as many tasks as it can; try again when some have finished or expired")
		}
		return nil, errorf(CodeInternalError, "internal error: recording the task: %v", err)
	}
	// The handler outlives the request that started it: its context keeps
	// the request's values (authorization, headers, what interceptors
	// added) but not its end.
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	run.cancel = cancel
	tc := &call{Context: ctx, cancel: cancel, ss: ss, id: c.id, key: c.key, meta: c.meta, peer: c.peer,
		mrtr: c.mrtr, tool: c.tool, req: c.req, task: run}
	created := run.rec.Clone()
	srv.taskRuns.add(run.id, run)
	// The handler starts once the tools/call is answered: its progress,
	// status notifications and requests to the client (Elicit on stdio)
	// name a task the client learns of only from that answer, so they must
	// not overtake it on the wire. Over HTTP the answer also closes the
	// tools/call's stream, and the handler's requests go, as documented in
	// ask, on the stream of the client's tasks/result.
	c.afterReply = func() { go run.execute(tc) }
	return created, nil
}

// execute runs the handler and stores its outcome.
func (r *taskRun) execute(c *call) {
	defer close(r.done)
	defer r.srv.taskRuns.remove(r.id)
	defer c.cancel()
	res, e := c.ss.runTool(c, c.tool, &c.req)
	r.update(func(rec *TaskRecord) {
		rec.InputRequests = nil
		if e == nil {
			b, err := res.appendJSON(nil)
			if err != nil {
				e = errorf(CodeInternalError, "internal error: encoding the result of tool %s", quote(c.tool.tool.Name))
			} else {
				// The last progress report is stale once the task is over.
				rec.Status, rec.Result, rec.StatusMessage = TaskCompleted, b, ""
				// 2025-11-25 makes a tool error a failed task; SEP-2663
				// keeps failed for JSON-RPC errors.
				if !r.modern && string(jsonwire.Member(b, "isError")) == "true" {
					rec.Status, rec.StatusMessage = TaskFailed, "the tool reported an error"
				}
				return
			}
		}
		rec.Status, rec.StatusMessage = TaskFailed, e.Message
		rec.Error = encodeError(e)
	})
}

// encodeError is e as a JSON-RPC error object.
func encodeError(e *Error) json.RawMessage {
	b := append([]byte(`{"code":`), strconv.Itoa(e.Code)...)
	b = append(b, `,"message":`...)
	b = jsonwire.AppendString(b, e.Message)
	if e.Data != nil {
		if d, err := json.Marshal(e.Data); err == nil {
			b = append(b, `,"data":`...)
			b = append(b, d...)
		}
	}
	return append(b, '}')
}

// update changes the task's record and stores it; a record the store holds
// as terminal (cancelled meanwhile) is not overwritten. Status changes are
// announced to a legacy session.
func (r *taskRun) update(change func(*TaskRecord)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rec.Status.Terminal() {
		return
	}
	before := r.rec.Status
	change(&r.rec)
	r.rec.UpdatedAt = time.Now().UTC()
	stored, err := r.srv.cfg.tasks.store.Update(context.Background(), &r.rec)
	if err != nil {
		r.srv.cfg.logger.Error("runtime: storing a task", "task", r.id, "err", err)
		return
	}
	if stored && !r.modern && r.rec.Status != before {
		msg := append([]byte(`{"jsonrpc":"2.0","method":"notifications/tasks/status","params":`), r.rec.AppendLegacy(nil)...)
		r.ss.write("", false, append(msg, '}'))
	}
}

func (r *taskRun) snapshot() *TaskRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rec.Clone()
}

// ask is a request to the client made by a task's handler (Elicit,
// CreateMessage, ListRoots): the task is input_required until it is
// answered. In the legacy era the client is asked on the session, as in a
// plain call; in the modern era the request waits in the task's
// inputRequests for tasks/update.
func (r *taskRun) ask(ctx context.Context, c *call, named, method string, need clientCaps, capName string, params any) (json.RawMessage, error) {
	if !r.modern {
		r.update(func(rec *TaskRecord) { rec.Status = TaskInputRequired })
		defer r.update(func(rec *TaskRecord) { rec.Status = TaskWorking })
		// On the tools/call's stream if it is still open (stdio: the only
		// stream); over HTTP it closed with the CreateTaskResult, and the
		// request goes on the stream of the client's tasks/result
		// (tasks.mdx: the client calls it on seeing input_required).
		answer, err := askSession(ctx, c, c.id, method, need, capName, params)
		if !errors.Is(err, errNoStream) {
			return answer, err
		}
		on, err := r.resultStream(ctx)
		if err != nil {
			return nil, fmt.Errorf("runtime: %s: %w", method, err)
		}
		if on.token == "" {
			return askSession(ctx, c, on.rel, method, need, capName, params)
		}
		// The tasks/result waits on another replica: the request goes
		// there over the bus, and the answer comes back as any answer of
		// the shared session does.
		return askOn(ctx, c, func(msg []byte) bool {
			return r.srv.tellReplicas(busTaskRequest, on.token+"\n"+string(msg))
		}, method, need, capName, params)
	}
	if c.peer.client&need != need {
		return nil, fmt.Errorf("runtime: %s needs the client capability %s: %w", method, capName, ErrCapabilityNotSupported)
	}
	var key string
	if c.mrtr != nil { // answers given before the task was created
		var answer json.RawMessage
		if key, answer = c.mrtr.next(named); answer != nil {
			return answer, nil
		}
	}
	paramsJSON, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("runtime: %s: encoding params: %w", method, err)
	}
	in := &taskInput{method: method, params: paramsJSON, answer: make(chan json.RawMessage, 1)}
	r.update(func(rec *TaskRecord) {
		if key == "" {
			key = named
		}
		if key == "" || r.inputs[key] != nil {
			key = "input-" + strconv.Itoa(r.asks)
		}
		r.asks++
		r.inputs[key] = in
		r.order = append(r.order, key)
		rec.Status, rec.InputRequests = TaskInputRequired, r.inputRequests()
	})
	select {
	case a := <-in.answer:
		return a, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("runtime: %s: %w", method, context.Cause(ctx))
	}
}

// inputRequests encodes the pending input requests (r.mu held).
func (r *taskRun) inputRequests() json.RawMessage {
	if len(r.order) == 0 {
		return nil
	}
	b := []byte{'{'}
	for i, key := range r.order {
		in := r.inputs[key]
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendString(b, key)
		b = append(b, `:{"method":`...)
		b = jsonwire.AppendString(b, in.method)
		b = append(b, `,"params":`...)
		b = append(b, in.params...)
		b = append(b, '}')
	}
	return append(b, '}')
}

// answer delivers the client's answers to pending input requests; keys
// not pending are ignored. The task is working again once none is left.
func (r *taskRun) answer(responses map[string]json.RawMessage) {
	r.update(func(rec *TaskRecord) {
		for key, a := range responses {
			in := r.inputs[key]
			if in == nil {
				continue
			}
			in.answer <- a
			delete(r.inputs, key)
			for i, k := range r.order {
				if k == key {
					r.order = append(r.order[:i], r.order[i+1:]...)
					break
				}
			}
		}
		rec.InputRequests = r.inputRequests()
		if len(r.order) == 0 {
			rec.Status = TaskWorking
		}
	})
}

// withTasksCapability adds capabilities.tasks to an initialize result of
// 2025-11-25 or later when a tool may run as a task.
func (s *Server) withTasksCapability(caps json.RawMessage, version string) json.RawMessage {
	if version < "2025-11-25" || !s.hasTaskTools() {
		return caps
	}
	out := bytes.TrimSuffix(bytes.Clone(caps), []byte("}"))
	if len(out) > 1 {
		out = append(out, ',')
	}
	return append(out, `"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`...)
}

// StopTasks ends the tasks whose handlers run in this process: each is
// recorded failed with reason (never left working for a client to poll
// forever) and its handler's context is cancelled. Serve calls it when it
// returns; a server run otherwise calls it before it exits.
func (s *Server) StopTasks(reason string) {
	runs := s.taskRuns.values()
	e := errorf(CodeInternalError, "%s", reason)
	for _, r := range runs {
		r.update(func(rec *TaskRecord) {
			rec.Status, rec.StatusMessage, rec.InputRequests = TaskFailed, reason, nil
			rec.Result, rec.Error = nil, encodeError(e)
		})
		r.cancel()
	}
}

// offer is called by a tasks/result waiting on the task: its request's
// stream can carry the task's requests to the client. An offer beyond the
// few kept is dropped (the client has one waiting already).
func (r *taskRun) offer(on streamOffer) {
	select {
	case r.streams <- on:
	default:
	}
}

// resultStream waits for a tasks/result of the task and returns where it
// waits. The offer is used once; the tasks/result keeps waiting (until the
// task ends), so it is offered back for the handler's next request. An
// offer of another replica older than two poll intervals is dropped: that
// replica renews it every poll interval while the task waits for input,
// unless its tasks/result has ended.
func (r *taskRun) resultStream(ctx context.Context) (streamOffer, error) {
	for {
		select {
		case on := <-r.streams:
			if on.token != "" && time.Since(on.at) > 2*r.srv.cfg.tasks.pollInterval {
				continue
			}
			r.offer(on)
			return on, nil
		case <-ctx.Done():
			return streamOffer{}, context.Cause(ctx)
		}
	}
}

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
