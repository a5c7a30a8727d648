package bench

import (
	"bytes"
	"io"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bench/servers"
)

// payloadSize is the size of the large tool argument, echoed back as the
// result: 1 MiB of text that needs no escaping.
const payloadSize = 1 << 20

// BenchmarkLargePayload calls echo with a 1 MiB text over each server's own
// stdio transport (in-memory pipes, one call at a time) and reports, besides
// time and allocations per call, how many copies of the payload the server
// holds at once, measured after a collection at two moments of the first
// call: while the handler runs (the arguments decoded) and while the server
// writes the response (the result encoded). Both are the live heap above
// what it was before the request was sent, divided by the payload size:
//
//	go test -run '^$' -bench LargePayload -count 5 .
func BenchmarkLargePayload(b *testing.B) {
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` +
		strings.Repeat("abcdefgh", payloadSize/8) + `"}}}` + "\n")
	for _, s := range pipeServers {
		if s.name == "mcpgo-novalidate" {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			var probe heapProbe
			// The reader holds a response of the payload's size.
			w, r := startPipeWith(b, s.serve, func(w io.WriteCloser) io.WriteCloser { return probeWriter{w, &probe} }, 4*payloadSize)
			call := func() {
				if _, err := w.Write(req); err != nil {
					b.Fatal(err)
				}
				line, err := r.ReadSlice('\n')
				if err != nil {
					b.Fatal(err)
				}
				if len(line) < payloadSize || !bytes.Contains(line[:min(len(line), 200)], []byte(`"result"`)) {
					b.Fatalf("response: %.200s", line)
				}
			}
			call() // warm up: buffers that live as long as the session
			probe.start()
			servers.OnEcho = probe.handler
			call()
			servers.OnEcho = nil
			probe.armed = false
			b.ReportAllocs()
			b.SetBytes(payloadSize)
			for b.Loop() {
				call()
			}
			b.ReportMetric(probe.copies(probe.atHandler), "copies-in-handler")
			b.ReportMetric(probe.copies(probe.atWrite), "copies-at-write")
		})
	}
}

// heapProbe measures the live heap, after a collection, against a baseline.
type heapProbe struct {
	armed              bool
	base               uint64
	atHandler, atWrite uint64 // the highest live heap seen at each point
}

func (p *heapProbe) live() uint64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

func (p *heapProbe) start() {
	p.base = p.live()
	p.atHandler, p.atWrite = 0, 0
	p.armed = true
}

func (p *heapProbe) handler() { p.atHandler = max(p.atHandler, p.live()) }

func (p *heapProbe) copies(v uint64) float64 {
	if v < p.base {
		return 0
	}
	return float64(v-p.base) / payloadSize
}

// probeWriter is the server's end of the output pipe: a large write is
// measured before it is passed on (the response is still held then).
type probeWriter struct {
	io.WriteCloser
	p *heapProbe
}

func (w probeWriter) Write(b []byte) (int, error) {
	if w.p.armed && len(b) >= payloadSize {
		w.p.atWrite = max(w.p.atWrite, w.p.live())
	}
	return w.WriteCloser.Write(b)
}
