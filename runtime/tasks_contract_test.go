package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// droppingStore is a TaskStore in creation order whose tasks a test can
// drop at any moment (as a store forgets expired ones): List skips them,
// and a List after a dropped task's id finds nothing, as the memory
// store's does.
type droppingStore struct {
	mu      sync.Mutex
	recs    []*runtime.TaskRecord
	dropped map[string]bool
	at      time.Time // when set, every task's creation time (a stopped clock)
}

func (s *droppingStore) Create(_ context.Context, t *runtime.TaskRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs = append(s.recs, s.stamped(t))
	return nil
}

func (s *droppingStore) stamped(t *runtime.TaskRecord) *runtime.TaskRecord {
	t = t.Clone()
	if !s.at.IsZero() {
		t.CreatedAt = s.at
	}
	return t
}

func (s *droppingStore) find(id string) *runtime.TaskRecord {
	for _, r := range s.recs {
		if r.ID == id && !s.dropped[id] {
			return r
		}
	}
	return nil
}

func (s *droppingStore) Update(_ context.Context, t *runtime.TaskRecord) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.find(t.ID)
	if r == nil || r.Status.Terminal() {
		return false, nil
	}
	*r = *s.stamped(t)
	return true, nil
}

func (s *droppingStore) Get(_ context.Context, owner, id string) (*runtime.TaskRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.find(id); r != nil && r.Owner == owner {
		return r.Clone(), nil
	}
	return nil, nil
}

func (s *droppingStore) List(_ context.Context, owner, after string, limit int) ([]*runtime.TaskRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*runtime.TaskRecord
	seen := after == ""
	for _, r := range s.recs {
		if s.dropped[r.ID] || r.Owner != owner {
			continue
		}
		if !seen {
			seen = r.ID == after
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, r.Clone())
	}
	return out, nil
}

func (s *droppingStore) drop(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped[id] = true
}

// TestTasksListPagesProperty: under random page sizes, with random tasks
// dropped (expired) between pages, the cursor of one page always leads to
// the next: every task never dropped is listed exactly once, in creation
// order, no task is listed on a page asked for after it was dropped, a
// page holds at most the page size, and the last page has no nextCursor.
func TestTasksListPagesProperty(t *testing.T) {
	for seed := range uint64(25) {
		rng := rand.New(rand.NewPCG(seed, 12))
		page := 1 + rng.IntN(4)
		st := &droppingStore{dropped: map[string]bool{}}
		srv, release, _ := taskServer(t, runtime.WithTaskStore(st), runtime.WithPageSize(page))
		c := newTaskClient(t, srv, `{}`)
		other := newTaskClient(t, srv, `{}`) // another owner's tasks interleave
		n := rng.IntN(11)
		var all []string
		for i := range n {
			if rng.IntN(3) == 0 {
				other.startJob(fmt.Sprint(100+i), `{}`)
			}
			all = append(all, c.startJob(fmt.Sprint(200+i), `{}`).TaskID)
		}
		order := map[string]int{}
		for i, id := range all {
			order[id] = i
		}
		droppedAt := map[string]int{} // the page before which a task was dropped
		var listed []string
		cursor, pages := "", 0
		for {
			for _, id := range all {
				if _, ok := droppedAt[id]; !ok && rng.IntN(5) == 0 {
					st.drop(id)
					droppedAt[id] = pages
				}
			}
			params := `{}`
			if cursor != "" {
				params = `{"cursor":"` + cursor + `"}`
			}
			r := c.call(fmt.Sprint(1000+pages), "tasks/list", params)
			if r.Error != nil {
				t.Fatalf("seed %d: tasks/list %s: %s", seed, params, errorJSON(r))
			}
			var p struct {
				Tasks      []wireTask
				NextCursor *string
			}
			if err := json.Unmarshal(r.Result, &p); err != nil {
				t.Fatal(err)
			}
			if len(p.Tasks) > page {
				t.Fatalf("seed %d: a page of %d tasks, the page size is %d", seed, len(p.Tasks), page)
			}
			for _, tk := range p.Tasks {
				if at, ok := droppedAt[tk.TaskID]; ok && at <= pages {
					t.Errorf("seed %d: task %d listed on page %d, dropped before page %d", seed, order[tk.TaskID], pages, at)
				}
				listed = append(listed, tk.TaskID)
			}
			pages++
			if p.NextCursor == nil {
				break
			}
			if pages > n+2 {
				t.Fatalf("seed %d: paging does not end", seed)
			}
			cursor = *p.NextCursor
		}
		var want, got []int
		for _, id := range listed {
			i, ok := order[id]
			if !ok {
				t.Fatalf("seed %d: listed %s, not the caller's", seed, id)
			}
			got = append(got, i)
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("seed %d (page %d): listed %v: not once each in creation order", seed, page, got)
		}
		for i, id := range all {
			if _, ok := droppedAt[id]; !ok && !slices.Contains(got, i) {
				want = append(want, i)
			}
		}
		if len(want) > 0 {
			t.Errorf("seed %d (page %d): tasks %v never dropped and never listed (listed %v, dropped %v)", seed, page, want, got, droppedAt)
		}
		close(release)
	}
}

// TestTasksListCursorTaskGoneSameInstant: tasks created in one instant
// (a stopped clock), paged two at a time, the last task of each page
// expiring before the next page is asked for: every task is listed
// exactly once, none skipped for sharing the gone task's creation time,
// none repeated.
func TestTasksListCursorTaskGoneSameInstant(t *testing.T) {
	st := &droppingStore{dropped: map[string]bool{}, at: time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)}
	srv, release, _ := taskServer(t, runtime.WithTaskStore(st), runtime.WithPageSize(2))
	defer close(release)
	c := newTaskClient(t, srv, `{}`)
	var all []string
	for i := range 7 {
		all = append(all, c.startJob(fmt.Sprint(10+i), `{}`).TaskID)
	}
	seen := map[string]int{}
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > len(all) {
			t.Fatal("paging does not end")
		}
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		r := c.call(fmt.Sprint(100+pages), "tasks/list", params)
		if r.Error != nil {
			t.Fatalf("tasks/list %s: %s", params, errorJSON(r))
		}
		var p struct {
			Tasks      []wireTask
			NextCursor *string
		}
		if err := json.Unmarshal(r.Result, &p); err != nil {
			t.Fatal(err)
		}
		for _, tk := range p.Tasks {
			seen[tk.TaskID]++
		}
		if p.NextCursor == nil {
			break
		}
		cursor = *p.NextCursor
		st.drop(p.Tasks[len(p.Tasks)-1].TaskID) // the cursor's task expires
	}
	for i, id := range all {
		if seen[id] != 1 {
			t.Errorf("task %d listed %d times, want once (listed %v)", i, seen[id], seen)
		}
	}
}

// TestTasksTTLClamps: the ttl a task is kept (as created and as tasks/get
// reports it) is the client's task.ttl clamped to WithTaskTTL's max, or
// WithTaskTTL's ttl without one (itself at most the max); zero keeps a
// default; a ttl of 0 or below, a fraction or not a number is invalid
// params. A 2026-07-28 task is kept WithTaskTTL's ttl.
func TestTasksTTLClamps(t *testing.T) {
	const hour, day = int64(3_600_000), int64(86_400_000)
	for _, c := range []struct {
		ttl, max time.Duration
		asked    string // params.task
		want     int64  // ms; 0: invalid params
	}{
		{0, 0, `{}`, 30 * 60_000},
		{0, 0, `{"ttl":1}`, 1},
		{0, 0, `{"ttl":86400000}`, day},
		{0, 0, `{"ttl":86400001}`, day},
		{time.Minute, time.Hour, `{}`, 60_000},
		{time.Minute, time.Hour, `{"ttl":3599999}`, hour - 1},
		{time.Minute, time.Hour, `{"ttl":3600000}`, hour},
		{time.Minute, time.Hour, `{"ttl":3600001}`, hour},
		{2 * time.Hour, time.Hour, `{}`, hour},
		{0, 10 * time.Minute, `{}`, 10 * 60_000},
		{time.Minute, 0, `{"ttl":172800000}`, day},
		{0, 0, `{"ttl":0}`, 0},
		{0, 0, `{"ttl":-1}`, 0},
		{0, 0, `{"ttl":1.5}`, 0},
		{0, 0, `{"ttl":"60000"}`, 0},
		{0, 0, `{"ttl":null}`, 30 * 60_000},
	} {
		t.Run(fmt.Sprintf("%v,%v,%s", c.ttl, c.max, c.asked), func(t *testing.T) {
			srv, release, _ := taskServer(t, runtime.WithTaskTTL(c.ttl, c.max))
			defer close(release)
			cl := newTaskClient(t, srv, `{}`)
			r := cl.call("1", "tools/call", `{"name":"job","arguments":{},"task":`+c.asked+`}`)
			if c.want == 0 {
				wantCode(t, r, -32602, "task "+c.asked)
				if !strings.Contains(r.Error.Message, "ttl") && !strings.Contains(r.Error.Message, `"task"`) {
					t.Errorf("the error does not say what is wrong: %s", r.Error.Message)
				}
				return
			}
			var res struct{ Task wireTask }
			if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
				t.Fatalf("tools/call: %s %s", r.Result, errorJSON(r))
			}
			if res.Task.TTL != c.want {
				t.Errorf("created with ttl %d, want %d", res.Task.TTL, c.want)
			}
			if got := cl.get("2", res.Task.TaskID); got.TTL != c.want {
				t.Errorf("tasks/get ttl %d, want %d", got.TTL, c.want)
			}
			if c.asked != `{}` {
				return
			}
			ts := httptest.NewServer(srv.HTTPHandler())
			defer ts.Close()
			m := &modernTasks{t: t, url: ts.URL}
			if d := m.task(m.post("tools/call", `"name":"job","arguments":{}`, tasksMeta)); d.TTLMs != c.want {
				t.Errorf("2026-07-28 task ttlMs %d, want %d", d.TTLMs, c.want)
			}
		})
	}
}

// TestTasksLegacyOwnerIsTheUser: with authorization a 2025-11-25 task is
// its user's, not its session's: another session of the same user gets
// and lists it; another user's session, as one without that task, gets
// -32602 and does not list it.
func TestTasksLegacyOwnerIsTheUser(t *testing.T) {
	k := jwttest.TheKeys(t)
	srv, release, _ := taskServer(t)
	defer close(release)
	p := serveHTTP(t, srv, runtime.WithAuthorization(authConfig(t)))
	token := func(sub string) string {
		return "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims(sub, "mcp:access"))
	}
	session := func(tok string) *httpPeer {
		s := &httpPeer{t: t, url: p.url}
		resp := s.do(http.MethodPost, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "Authorization", tok)
		readAll(t, resp)
		if s.session = resp.Header.Get("Mcp-Session-Id"); s.session == "" {
			t.Fatalf("initialize: %d, no session", resp.StatusCode)
		}
		s.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Authorization", tok).Body.Close()
		return s
	}
	call := func(s *httpPeer, tok, method, params string) response {
		t.Helper()
		resp, _ := s.call(method, params, "Authorization", tok)
		msgs := readAll(t, resp)
		if len(msgs) == 0 {
			t.Fatalf("%s: %d, no message", method, resp.StatusCode)
		}
		return parse(t, msgs[len(msgs)-1].Data)
	}
	dave, erin := token("dave"), token("erin")
	d1, d2, e := session(dave), session(dave), session(erin)
	r := call(d1, dave, "tools/call", `{"name":"job","arguments":{},"task":{}}`)
	var res struct{ Task wireTask }
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.Task.TaskID == "" {
		t.Fatalf("tools/call: %s %s", r.Result, errorJSON(r))
	}
	id := `{"taskId":"` + res.Task.TaskID + `"}`
	if r := call(d2, dave, "tasks/get", id); r.Error != nil {
		t.Errorf("dave's other session: tasks/get %s", errorJSON(r))
	}
	if r := call(d2, dave, "tasks/list", `{}`); !strings.Contains(string(r.Result), res.Task.TaskID) {
		t.Errorf("dave's other session does not list his task: %s %s", r.Result, errorJSON(r))
	}
	wantCode(t, call(e, erin, "tasks/get", id), -32602, "erin's tasks/get of dave's task")
	wantCode(t, call(e, erin, "tasks/cancel", id), -32602, "erin's tasks/cancel of dave's task")
	if r := call(e, erin, "tasks/list", `{}`); strings.Contains(string(r.Result), res.Task.TaskID) {
		t.Errorf("erin lists dave's task: %s", r.Result)
	}
	if got := call(d1, dave, "tasks/get", id); got.Error != nil || !strings.Contains(string(got.Result), `"working"`) {
		t.Errorf("dave's task after erin's attempts: %s %s", got.Result, errorJSON(got))
	}
}
