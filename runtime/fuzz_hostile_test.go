package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/hostile"
	"github.com/mcpgen/mcpgen/runtime"
)

// Fuzz targets over the protocol surface, each with a seed corpus in
// testdata/fuzz (written from the hostile table by TestFuzzCorpus, which
// checks them in every run).
// Run one with, e.g.:
//
//	go test ./runtime -run '^$' -fuzz '^FuzzHandleMessage$' -fuzztime 60s
//
// Every target fails on a panic, on anything the runtime logs at level
// Error (a recovered panic, a handler that received arguments its schema
// forbids), and on any message that hostile.Parse refuses.

// session drives one in-process Session and collects what it sends.
type fuzzSession struct {
	ss  *runtime.Session
	mu  sync.Mutex
	out [][]byte
}

const initializeMsg = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`

func newFuzzSession(srv *runtime.Server, initialized bool) *fuzzSession {
	fs := &fuzzSession{}
	fs.ss = srv.NewSession(func(msg []byte) {
		fs.mu.Lock()
		fs.out = append(fs.out, bytes.Clone(msg))
		fs.mu.Unlock()
	})
	if initialized {
		fs.handle([]byte(initializeMsg))
		fs.handle([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		fs.take()
	}
	return fs
}

// handle hands msg to the session and waits for what it started.
func (fs *fuzzSession) handle(msg []byte) {
	fs.ss.HandleMessage(context.Background(), msg)
	fs.ss.Wait()
}

func (fs *fuzzSession) take() [][]byte {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := fs.out
	fs.out = nil
	return out
}

// checkSent parses what the session sent for in and checks it against
// hostile.Expect; it returns the responses.
func checkSent(t *testing.T, in []byte, sent [][]byte) []*hostile.Message {
	t.Helper()
	var resps []*hostile.Message
	for _, raw := range sent {
		m, err := hostile.Parse(raw)
		if err != nil {
			t.Fatalf("for %.300q: %v", in, err)
		}
		if m.IsResponse() {
			resps = append(resps, m)
		}
	}
	n, id := hostile.Expect(in)
	if len(resps) != n {
		t.Fatalf("for %.300q: %d responses, want %d: %v", in, len(resps), n, resps)
	}
	if n == 1 {
		want := []byte(id)
		if id == nil {
			want = []byte("null")
		}
		got := resps[0].ID
		if !bytes.Equal(got, want) {
			t.Fatalf("for %.300q: response id %.100q, want %.100q: %v", in, got, want, resps[0])
		}
	}
	return resps
}

func noErrorsLogged(t *testing.T, w *hostile.Watch, in []byte) {
	t.Helper()
	if errs := w.Take(); len(errs) > 0 {
		t.Fatalf("for %.300q the runtime logged at level Error: %q", in, errs)
	}
}

// seedMessages are the hostile table's messages small enough for a corpus.
func seedMessages() []hostile.Case {
	var out []hostile.Case
	for _, tc := range hostile.Cases() {
		if len(tc.Send) <= 64<<10 {
			out = append(out, tc)
		}
	}
	return out
}

// FuzzHandleMessage: Session.HandleMessage with arbitrary bytes, on a
// session that initialized or not. No panic; every request gets exactly
// one well-formed response with its id (byte for byte), every notification
// and response none, and malformed input one error with a null id.
func FuzzHandleMessage(f *testing.F) {
	for _, tc := range seedMessages() {
		f.Add([]byte(tc.Send), !tc.Fresh)
	}
	watch := &hostile.Watch{}
	srv, _ := hostile.NewServer(hostile.Options{Runtime: []runtime.Option{runtime.WithLogger(watch.Logger())}})
	f.Fuzz(func(t *testing.T, msg []byte, initialized bool) {
		fs := newFuzzSession(srv, initialized)
		defer fs.ss.Close()
		fs.handle(msg)
		checkSent(t, msg, fs.take())
		noErrorsLogged(t, watch, msg)
	})
}

// FuzzTemplateRead: resources/read of an arbitrary URI on golden/templates'
// server (six templates: simple, {+reserved}, {/path*}, {.label},
// {?query}). The answer is a result or resource-not-found / invalid params,
// never anything else. When the URI matched, the contents name it, and the
// generated Expand of the variables the handler received gives a URI that
// reads back the same variables.
func FuzzTemplateRead(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add(s)
	}
	watch := &hostile.Watch{}
	srv := hostile.NewTemplateServer(runtime.WithLogger(watch.Logger()))
	read := func(t *testing.T, fs *fuzzSession, uri string) *hostile.Message {
		t.Helper()
		b, _ := json.Marshal(uri)
		msg := []byte(`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":` + string(b) + `}}`)
		fs.handle(msg)
		resps := checkSent(t, msg, fs.take())
		noErrorsLogged(t, watch, msg)
		r := resps[0]
		if r.Error != nil && r.Error.Code != hostile.ResourceNotFound && r.Error.Code != hostile.InvalidParams {
			t.Fatalf("read %q: %v", uri, r)
		}
		return r
	}
	f.Fuzz(func(t *testing.T, uri string) {
		fs := newFuzzSession(srv, true)
		defer fs.ss.Close()
		r := read(t, fs, uri)
		if r.Error != nil {
			return
		}
		tr, curi, err := hostile.ParseTemplateRead(r.Result)
		if err != nil {
			t.Fatalf("read %q: %v: %v", uri, err, r)
		}
		if want := strings.ToValidUTF8(uri, "\uFFFD"); curi != want {
			t.Fatalf("read %q: the contents name %q", uri, curi)
		}
		again, err := tr.Expand()
		if err != nil {
			t.Fatalf("read %q: %v", uri, err)
		}
		r2 := read(t, fs, again)
		if r2.Error != nil {
			t.Fatalf("read %q gave %s %s; its Expand %q does not read back: %v", uri, tr.Template, tr.Params, again, r2)
		}
		tr2, _, err := hostile.ParseTemplateRead(r2.Result)
		if err != nil || tr2.Template != tr.Template || !jsonSame(tr2.Params, tr.Params) {
			t.Fatalf("read %q gave %s %s; its Expand %q reads back %s %s (%v)", uri, tr.Template, tr.Params, again, tr2.Template, tr2.Params, err)
		}
	})
}

func jsonSame(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

var templateSeeds = []string{
	"github://mcpgen/mcpgen/readme", "github://a-b/c%20d/readme", "github://own%2Fer/repo/readme", "github:///readme",
	"post://1", "post://0", "post://-5", "post://9223372036854775808", "post://1e3", "post://01", "post://%31",
	"files://a/b/c.txt", "files://../../etc/passwd", "files://%00", "files://a%2Fb", "files://", "files://?x#y",
	"tree://root", "tree://root/a/b/c", "tree://root/a%2Fb", "tree://root//", "tree://rootx",
	"doc://readme.md", "doc://a.b.md", "doc://readme.pdf", "doc://.md", "doc://readme",
	"search://posts", "search://posts?q=go&lang=en", "search://posts?lang=de", "search://posts?q=a%26b", "search://posts?q=&lang=",
	"search://posts?lang=en&q=x", "search://posts?q=1&q=2", "nope://x", "", "post://\x00", "post://\xff",
}

// FuzzToolArguments: tools/call with arbitrary arguments on the tools of
// the golden packages that exercise input schemas. The handlers check that
// what they receive obeys their schema (they panic otherwise). Arguments
// that are not an object are invalid params; anything about their content
// is an isError result, never an internal error.
func FuzzToolArguments(f *testing.F) {
	for _, s := range toolSeeds {
		f.Add(s.tool, []byte(s.args))
	}
	watch := &hostile.Watch{}
	srv := hostile.NewToolServer(runtime.WithLogger(watch.Logger()))
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		name := hostile.ToolNames[int(tool)%len(hostile.ToolNames)]
		msg := slices.Concat([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+name+`","arguments":`), args, []byte(`}}`))
		fs := newFuzzSession(srv, true)
		defer fs.ss.Close()
		fs.handle(msg)
		resps := checkSent(t, msg, fs.take())
		noErrorsLogged(t, watch, msg)
		if len(resps) == 1 && resps[0].Error != nil {
			switch resps[0].Error.Code {
			case hostile.ParseError, hostile.InvalidRequest, hostile.InvalidParams:
			default:
				t.Fatalf("%s with %.300q: %v", name, args, resps[0])
			}
		}
	})
}

var toolSeeds = []struct {
	tool uint8
	args string
}{
	{0, `{"count":5,"percent":50}`}, {0, `{"count":1e2,"percent":5}`}, {0, `{"count":5,"percent":5,"ratio":1e-400}`},
	{0, `{"count":5,"percent":5,"big":9007199254740993,"step":10,"fine":-2.25,"priority":2,"weight":2.5}`},
	{0, `{"count":1000.0,"percent":100,"big":-9223372036854775809}`},
	{1, `{"ids":[1,2,3],"tags":["a","b"],"codes":["AB"],"levels":["low"],"points":[{"x":1,"y":2}],"matrix":[[1.5]],"entries":[{"key":"k","value":1}],"labels":{"a":"b"},"counters":{"c":0},"groups":{"g":[{"x":0,"y":0}]}}`},
	{1, `{"ids":[1],"tags":["é","e\u0301"]}`}, {1, `{"ids":[1],"tags":["a","a"]}`}, {1, `{"ids":[1.0,1e0]}`},
	{2, `{"name":"n","nickname":null,"home":{"street":"s","city":"c","zip":null},"extra":{"a":[1,{"b":null}]},"settings":{"theme":"dark","x":1}}`},
	{2, `{"name":"n","nickname":"k","age":null,"home":{"street":"s","city":"c","zip":"z"},"work":null,"contact":{"email":"a@b.c"}}`},
	{3, `{"slug":"hello-world","plain":"p","color":"red","code":"FR","email":"a@b.c","when":"2026-11-29T12:00:00Z","short":"abcde","size":"XL","quoted":"\"q\""}`},
	{3, `{"slug":"ü","plain":"","color":"light-blue","short":"ééééé"}`}, {3, `{"slug":"a\n","plain":"","color":"red"}`},
	{4, `{"root":{"name":"r","children":[{"name":"c","parent":null}]},"schedule":{"at":"2026-11-29T12:00:00Z","every":5,"addr":"::1"}}`},
	{5, `{"name":"n","children":[{"name":"c"}]}`},
	{6, `{"name":"n","address":{"street":"s","city":"c"}}`}, {7, `{"kind":"circle","radius":1}`}, {7, `{"kind":"square","side":1e400}`},
	{7, `{"kind":"circle"}`}, {8, `{}`}, {9, `{"id":"x"}`}, {10, `null`}, {11, `{"format":"image"}`},
	{0, `[]`}, {1, `"x"`}, {2, `{`}, {3, `{"slug":"\ud800"}`},
}

// FuzzHTTPHandler: the Streamable HTTP handler with an arbitrary method,
// headers and body, through httptest (a session is kept initialized). No
// panic; a known status; every body is what its Content-Type says (one
// JSON-RPC message, an event stream of them, or nothing for 202 and 204);
// a POSTed request answered with 200 gets exactly one response with its
// id.
func FuzzHTTPHandler(f *testing.F) {
	for _, tc := range seedMessages() {
		f.Add(uint8(0), uint8(0), "", "", []byte(tc.Send))
	}
	f.Add(uint8(1), uint8(0), "", "", []byte(nil))
	f.Add(uint8(2), uint8(0), "", "", []byte(nil))
	f.Add(uint8(3), uint8(0), "", "", []byte(`{}`))
	f.Add(uint8(0), uint8(1<<2), "1999-01-01", "", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Add(uint8(0), uint8(2), "", "http://evil.example", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	f.Add(uint8(0), uint8(3<<4), "", "", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	watch := &hostile.Watch{}
	srv, _ := hostile.NewServer(hostile.Options{Runtime: []runtime.Option{runtime.WithLogger(watch.Logger())}})
	h := srv.HTTPHandler()
	var sid string
	serve := func(req *http.Request) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	newSession := func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(initializeMsg))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		rec := serve(req)
		if sid = rec.Header().Get("Mcp-Session-Id"); rec.Code != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d %s", rec.Code, rec.Body)
		}
	}
	statuses := []int{200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415, 429}
	methods := []string{http.MethodPost, http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodOptions, http.MethodHead}
	f.Fuzz(func(t *testing.T, method, flags uint8, version, origin string, body []byte) {
		if sid == "" {
			newSession(t)
		}
		m := methods[int(method)%len(methods)]
		ctx := context.Background()
		if m == http.MethodGet { // a GET stream ends with its request
			c, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
			defer cancel()
			ctx = c
		}
		req := httptest.NewRequestWithContext(ctx, m, "http://localhost/mcp", bytes.NewReader(body))
		switch flags & 3 { // Accept
		case 0:
			req.Header.Set("Accept", "application/json, text/event-stream")
		case 1:
			req.Header.Set("Accept", "application/json")
		case 2:
			req.Header.Set("Accept", "text/event-stream")
		}
		if flags&4 == 0 {
			req.Header.Set("Content-Type", "application/json")
		} else if flags&8 == 0 {
			req.Header.Set("Content-Type", version)
		}
		switch flags >> 4 & 3 { // session
		case 0:
			req.Header.Set("Mcp-Session-Id", sid)
		case 1:
			req.Header.Set("Mcp-Session-Id", origin)
		}
		if flags&64 != 0 {
			req.Host = "evil.example"
		}
		if version != "" {
			req.Header["Mcp-Protocol-Version"] = []string{version}
		}
		if origin != "" && flags&128 != 0 {
			req.Header["Origin"] = []string{origin}
		}
		rec := serve(req)
		res := rec.Result()
		if !slices.Contains(statuses, res.StatusCode) {
			t.Fatalf("%s %.200q: status %d", m, body, res.StatusCode)
		}
		var msgs []*hostile.Message
		ct := res.Header.Get("Content-Type")
		data := rec.Body.Bytes()
		switch {
		case m == http.MethodHead:
		case ct == "application/json":
			msg, err := hostile.Parse(data)
			if err != nil {
				t.Fatalf("%s %.200q: status %d: %v", m, body, res.StatusCode, err)
			}
			msgs = append(msgs, msg)
		case ct == "text/event-stream":
			for _, ev := range strings.Split(string(data), "\n\n") {
				for _, line := range strings.Split(ev, "\n") {
					if d, ok := strings.CutPrefix(line, "data: "); ok && d != "" {
						msg, err := hostile.Parse([]byte(d))
						if err != nil {
							t.Fatalf("%s %.200q: event %v", m, body, err)
						}
						msgs = append(msgs, msg)
					}
				}
			}
		case res.StatusCode == 202 || res.StatusCode == 204:
			if len(data) != 0 {
				t.Fatalf("%s %.200q: status %d with a body %q", m, body, res.StatusCode, data)
			}
		default:
			t.Fatalf("%s %.200q: status %d with Content-Type %q", m, body, res.StatusCode, ct)
		}
		if m == http.MethodPost && res.StatusCode == 200 {
			var resps []*hostile.Message
			for _, msg := range msgs {
				if msg.IsResponse() {
					resps = append(resps, msg)
				}
			}
			n, id := hostile.Expect(body)
			if n != 1 || len(resps) != 1 || id != nil && !bytes.Equal(resps[0].ID, id) {
				t.Fatalf("POST %.300q: status 200 with %v; want one response with id %s", body, resps, id)
			}
		}
		if res.StatusCode >= 400 {
			for _, msg := range msgs {
				if msg.Error == nil {
					t.Fatalf("%s %.200q: status %d with %v", m, body, res.StatusCode, msg)
				}
			}
		}
		// Sessions the input opened are closed; the one kept is reopened
		// when the input ended it.
		if other := res.Header.Get("Mcp-Session-Id"); other != "" && other != sid {
			del := httptest.NewRequest(http.MethodDelete, "http://localhost/mcp", nil)
			del.Header.Set("Mcp-Session-Id", other)
			serve(del)
		}
		if m == http.MethodDelete && res.StatusCode == http.StatusNoContent {
			sid = ""
		}
		noErrorsLogged(t, watch, body)
		_, _ = io.Copy(io.Discard, res.Body)
	})
}

// TestFuzzCorpus checks that the committed seed corpora of the fuzz targets
// above, testdata/fuzz/<target>/seed-*, are exactly what the hostile table
// and the seed lists give: no file missing, stale or left over. After
// changing them, rewrite the files (and commit them) with
//
//	HOSTILE_WRITE_CORPUS=1 go test ./runtime -run TestFuzzCorpus
//
// Files that are not seed-* (inputs the fuzzer found and saved) are left
// alone.
func TestFuzzCorpus(t *testing.T) {
	want := fuzzCorpus(t)
	write := os.Getenv("HOSTILE_WRITE_CORPUS") == "1"
	for _, target := range []string{"FuzzHandleMessage", "FuzzHTTPHandler", "FuzzTemplateRead", "FuzzToolArguments"} {
		dir := filepath.Join("testdata", "fuzz", target)
		if write {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		have, err := filepath.Glob(filepath.Join(dir, "seed-*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range have {
			if _, ok := want[f]; ok {
				continue
			}
			if write {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s is no seed of the table any more (run HOSTILE_WRITE_CORPUS=1 go test ./runtime -run TestFuzzCorpus)", f)
		}
	}
	for f, content := range want {
		if write {
			if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("%v (run HOSTILE_WRITE_CORPUS=1 go test ./runtime -run TestFuzzCorpus)", err)
		} else if string(got) != content {
			t.Errorf("%s differs from the table:\n%s\nwant\n%s(run HOSTILE_WRITE_CORPUS=1 go test ./runtime -run TestFuzzCorpus)", f, got, content)
		}
	}
}

// fuzzCorpus returns the seed files of the fuzz targets, by path: one per
// case of the hostile table (for both message targets) and per entry of
// the seed lists.
func fuzzCorpus(t *testing.T) map[string]string {
	files := map[string]string{}
	add := func(target, name string, vals ...any) {
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, v := range vals {
			switch v := v.(type) {
			case []byte:
				b.WriteString("[]byte(" + strconv.Quote(string(v)) + ")\n")
			case string:
				b.WriteString("string(" + strconv.Quote(v) + ")\n")
			case bool:
				b.WriteString("bool(" + strconv.FormatBool(v) + ")\n")
			case uint8:
				b.WriteString("byte(" + strconv.QuoteRune(rune(v)) + ")\n")
			default:
				t.Fatalf("%T", v)
			}
		}
		files[filepath.Join("testdata", "fuzz", target, "seed-"+corpusName(name))] = b.String()
	}
	for _, tc := range seedMessages() {
		add("FuzzHandleMessage", tc.Name, []byte(tc.Send), !tc.Fresh)
		add("FuzzHTTPHandler", tc.Name, uint8(0), uint8(0), "", "", []byte(tc.Send))
	}
	for i, s := range templateSeeds {
		add("FuzzTemplateRead", fmt.Sprintf("%02d-%s", i, s), s)
	}
	for i, s := range toolSeeds {
		add("FuzzToolArguments", fmt.Sprintf("%02d-%s", i, hostile.ToolNames[int(s.tool)%len(hostile.ToolNames)]), s.tool, []byte(s.args))
	}
	return files
}

// corpusName makes a file name of a case name.
func corpusName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}
