// Command compare runs the comparison of issue 8: the same three tools
// (echo, order, stats) served by mcpgen's generated server, the official Go
// SDK and mcp-go, each a separate process driven by the load generator over
// stdio and Streamable HTTP, in alternation for several rounds; then the
// tools/list payloads, and the generator's cost on a spec of 1,000 tools. It
// prints Markdown: medians per server, and ratios of mcpgen against the
// others. Run it from bench/ (./run.sh does):
//
//	go run ./cmd/compare -rounds 5 -n 20000 -c 16
//
// Everything stays on loopback; every run is bounded in calls and time.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/bigspec"
	"github.com/mcpgen/mcpgen/bench/load"
)

type server struct {
	name  string // column name
	label string
	cmd   []string
}

type key struct{ transport, tool, server string }

func main() {
	rounds := flag.Int("rounds", 5, "rounds; each measures every server on every tool and transport once, in rotating order (0: only tools/list and the generator's cost)")
	n := flag.Int("n", 20000, "measured calls per run")
	c := flag.Int("c", 16, "calls in flight")
	warmup := flag.Int("warmup", 2000, "calls before measuring, per run")
	timeout := flag.Duration("timeout", 2*time.Minute, "limit for one run")
	transports := flag.String("transports", "stdio,http", "transports to measure")
	tools := flag.String("tools", strings.Join(load.Tools, ","), "tools to measure")
	only := flag.String("servers", "floor,mcpgen,gosdk,mcpgo,mcpgo-novalidate", "servers to measure (floor: the minimal JSON-RPC responder every figure is also divided by)")
	genN := flag.Int("gen", 1000, "tools in the generator-cost spec (0 skips it)")
	client := flag.String("client", "raw", "HTTP load generator: raw (hand-written HTTP/1.1, cheap) or nethttp (net/http's client)")
	out := flag.String("out", "", "also write the raw results and the tools/list payloads to this directory")
	flag.Parse()

	if err := run(*rounds, *n, *c, *warmup, *timeout, split(*transports), split(*tools), split(*only), *genN, *out, *client); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func run(rounds, n, c, warmup int, timeout time.Duration, transports, tools, only []string, genN int, out, client string) error {
	ctx := context.Background()
	if _, err := os.Stat("go.mod"); err != nil || !bytes.Contains(must(os.ReadFile("go.mod")), []byte("module github.com/mcpgen/mcpgen/bench")) {
		return errors.New("run me from bench/ (the benchmark's module)")
	}
	bin, err := os.MkdirTemp("", "mcpgen-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	logf("building the servers, the load generator and mcpgen into %s", bin)
	if err := goCmd(ctx, "", nil, "build", "-o", bin+"/", "./cmd/floor-server", "./cmd/mcpgen-server", "./cmd/gosdk-server", "./cmd/mcpgo-server", "github.com/mcpgen/mcpgen/cmd/mcpgen"); err != nil {
		return err
	}
	all := []server{
		{"floor", "floor (encoding/json, canned results)", []string{filepath.Join(bin, "floor-server")}},
		{"mcpgen", "mcpgen", []string{filepath.Join(bin, "mcpgen-server")}},
		{"gosdk", "go-sdk v1.8.0", []string{filepath.Join(bin, "gosdk-server")}},
		{"mcpgo", "mcp-go v1.2.1", []string{filepath.Join(bin, "mcpgo-server")}},
		{"mcpgo-novalidate", "mcp-go v1.2.1, no validation", []string{filepath.Join(bin, "mcpgo-server"), "-novalidate"}},
	}
	var servers []server
	for _, s := range all {
		if slices.Contains(only, s.name) {
			servers = append(servers, s)
		}
	}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
	}

	fmt.Printf("# mcpgen vs go-sdk vs mcp-go\n\n")
	fmt.Printf("%s, %s/%s, %d CPUs (GOMAXPROCS %d), %s.\n\n", time.Now().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())

	// tools/list first: it also checks that every server starts.
	if err := toolsList(ctx, servers, out); err != nil {
		return err
	}

	results := map[key][]*load.Result{}
	var loads []float64 // the machine's 1-minute load average before each run
	total := rounds * len(transports) * len(tools) * len(servers)
	done := 0
	t0 := time.Now()
	for r := range rounds {
		for _, tr := range transports {
			for _, tool := range tools {
				for i := range servers {
					s := servers[(i+r)%len(servers)] // rotate who goes first
					done++
					cfg := load.Config{Cmd: s.cmd, Tool: tool, Args: load.Arguments[tool], N: n, C: c, Warmup: warmup, Timeout: timeout, Client: client}
					if tr == "http" {
						if cfg.HTTPAddr, err = load.FreeAddr(); err != nil {
							return err
						}
					}
					loads = append(loads, loadAvg())
					res, err := load.Run(ctx, cfg)
					if err != nil {
						return fmt.Errorf("%s %s %s: %w", tr, tool, s.name, err)
					}
					if res.Errors > 0 {
						return fmt.Errorf("%s %s %s: %d error responses, e.g. %s", tr, tool, s.name, res.Errors, res.Sample)
					}
					k := key{tr, tool, s.name}
					results[k] = append(results[k], res)
					logf("[%d/%d] round %d %s %s %-16s %7.0f req/s  p50 %-9v p99 %-9v CPU %v/call  RSS %.1f MiB  (%v elapsed)",
						done, total, r+1, tr, tool, s.name, res.RPS, res.P50.Round(time.Microsecond), res.P99.Round(time.Microsecond),
						res.CPUPerCall.Round(100*time.Nanosecond), mib(res.MaxRSSKB), time.Since(t0).Round(time.Second))
				}
			}
		}
	}
	if rounds > 0 {
		printThroughput(results, servers, transports, tools, rounds, n, c, loads, client)
	}
	if out != "" {
		raw := map[string][]*load.Result{}
		for k, v := range results {
			raw[k.transport+"/"+k.tool+"/"+k.server] = v
		}
		b, _ := json.MarshalIndent(raw, "", "  ")
		if err := os.WriteFile(filepath.Join(out, "results.json"), b, 0o644); err != nil {
			return err
		}
	}
	if genN > 0 {
		if err := generatorCost(ctx, bin, genN, out); err != nil {
			return err
		}
	}
	return nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mib(kb int64) float64 { return float64(kb) / 1024 }

func median[T any](rs []*load.Result, f func(*load.Result) T, less func(a, b T) bool) T {
	vs := make([]T, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	slices.SortFunc(vs, func(a, b T) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	return vs[len(vs)/2]
}

type summary struct {
	rps      float64
	p50, p99 time.Duration
	cpu      time.Duration
	rss      int64
	client   time.Duration
}

func summarize(rs []*load.Result) summary {
	lessF := func(a, b float64) bool { return a < b }
	lessD := func(a, b time.Duration) bool { return a < b }
	return summary{
		rps:    median(rs, func(r *load.Result) float64 { return r.RPS }, lessF),
		p50:    median(rs, func(r *load.Result) time.Duration { return r.P50 }, lessD),
		p99:    median(rs, func(r *load.Result) time.Duration { return r.P99 }, lessD),
		cpu:    median(rs, func(r *load.Result) time.Duration { return r.CPUPerCall }, lessD),
		rss:    median(rs, func(r *load.Result) int64 { return r.MaxRSSKB }, func(a, b int64) bool { return a < b }),
		client: median(rs, func(r *load.Result) time.Duration { return r.ClientCPU }, lessD),
	}
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

func printThroughput(results map[key][]*load.Result, servers []server, transports, tools []string, rounds, n, c int, loads []float64, client string) {
	fmt.Printf("## tools/call\n\n")
	fmt.Printf("Each server is a separate process; each cell is the median of %d runs of %d calls with %d in flight (after a warmup), "+
		"the servers measured in alternation. CPU is the server's user+sys time per call (rusage), RSS its peak resident set; "+
		"the load generator's own CPU per call is shown too, since it shares the machine's cores with the server. HTTP load generator: %s.\n\n", rounds, n, c, client)
	if len(loads) > 0 {
		s := slices.Clone(loads)
		slices.Sort(s)
		fmt.Printf("The machine's 1-minute load average before a run: min %.2f, median %.2f, max %.2f (%d CPUs; anything above the benchmark's own ~2 is other work on the machine).\n\n",
			s[0], s[len(s)/2], s[len(s)-1], runtime.NumCPU())
	}
	fmt.Printf("| transport | tool | server | req/s | p50 | p99 | server CPU/call | peak RSS | load generator CPU/call |\n|---|---|---|--:|--:|--:|--:|--:|--:|\n")
	for _, tr := range transports {
		for _, tool := range tools {
			for _, s := range servers {
				rs := results[key{tr, tool, s.name}]
				if len(rs) == 0 {
					continue
				}
				m := summarize(rs)
				fmt.Printf("| %s | %s | %s | %.0f | %s | %s | %s | %.1f MiB | %s |\n", tr, tool, s.label, m.rps, us(m.p50), us(m.p99), us(m.cpu), mib(m.rss), us(m.client))
			}
		}
	}
	fmt.Printf("\n### mcpgen against the others (same runs)\n\n")
	fmt.Printf("Throughput: mcpgen's req/s ÷ theirs (higher is better for mcpgen). p99 and CPU/call: mcpgen's ÷ theirs (lower is better).\n\n")
	fmt.Printf("| transport | tool | against | throughput | p99 | CPU/call |\n|---|---|---|--:|--:|--:|\n")
	for _, tr := range transports {
		for _, tool := range tools {
			mine := results[key{tr, tool, "mcpgen"}]
			if len(mine) == 0 {
				continue
			}
			m := summarize(mine)
			for _, s := range servers {
				if s.name == "mcpgen" || s.name == "floor" {
					continue // the floor has its own table
				}
				rs := results[key{tr, tool, s.name}]
				if len(rs) == 0 {
					continue
				}
				o := summarize(rs)
				fmt.Printf("| %s | %s | %s | %.2f× | %.2f× | %.2f× |\n", tr, tool, s.label, m.rps/o.rps, float64(m.p99)/float64(o.p99), float64(m.cpu)/float64(o.cpu))
			}
		}
	}
	fmt.Println()
	printFloorRatios(results, servers, transports, tools)
}

// printFloorRatios divides every server's figures by the floor's, from the
// same runs: how far each is from the least a Go server can do per call.
func printFloorRatios(results map[key][]*load.Result, servers []server, transports, tools []string) {
	fmt.Printf("### Every server against the floor (same runs)\n\n")
	fmt.Printf("The floor (`bench/servers/floor.go`) decodes each message with encoding/json and answers a canned result: net/http for HTTP, a bufio line loop for stdio. " +
		"Server CPU/call and p99: the server's ÷ the floor's (1.00× is the floor; lower is better). Throughput: the server's ÷ the floor's.\n\n")
	fmt.Printf("| transport | tool | server | server CPU/call | throughput | p99 |\n|---|---|---|--:|--:|--:|\n")
	for _, tr := range transports {
		for _, tool := range tools {
			fl := results[key{tr, tool, "floor"}]
			if len(fl) == 0 {
				continue
			}
			f := summarize(fl)
			for _, s := range servers {
				rs := results[key{tr, tool, s.name}]
				if s.name == "floor" || len(rs) == 0 {
					continue
				}
				m := summarize(rs)
				fmt.Printf("| %s | %s | %s | %.2f× | %.2f× | %.2f× |\n", tr, tool, s.label, float64(m.cpu)/float64(f.cpu), m.rps/f.rps, float64(m.p99)/float64(f.p99))
			}
		}
	}
	fmt.Println()
}

func toolsList(ctx context.Context, servers []server, out string) error {
	fmt.Printf("## tools/list\n\n")
	fmt.Printf("The `tools/list` response of each server for the same three tools, in bytes as sent (compact JSON), and per tool entry.\n\n")
	type sizes struct {
		total int
		tools map[string]int
	}
	got := map[string]sizes{}
	var names []string
	for _, s := range servers {
		if s.name == "mcpgo-novalidate" || s.name == "floor" {
			continue // the same tools/list as mcpgo; the floor has none
		}
		st, err := load.ListTools(ctx, s.cmd)
		if err != nil {
			return err
		}
		var resp struct {
			Result struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(st.ToolsList, &resp); err != nil {
			return fmt.Errorf("%s: tools/list: %v: %s", s.name, err, st.ToolsList)
		}
		sz := sizes{total: len(st.ToolsList), tools: map[string]int{}}
		for _, t := range resp.Result.Tools {
			var nm struct{ Name string }
			json.Unmarshal(t, &nm)
			sz.tools[nm.Name] = len(t)
			if !slices.Contains(names, nm.Name) {
				names = append(names, nm.Name)
			}
		}
		got[s.name] = sz
		if out != "" {
			if err := os.WriteFile(filepath.Join(out, "tools-list."+s.name+".json"), append(st.ToolsList, '\n'), 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Printf("| | ")
	var cols []server
	for _, s := range servers {
		if _, ok := got[s.name]; ok {
			cols = append(cols, s)
			fmt.Printf("%s | ", s.label)
		}
	}
	fmt.Printf("\n|---|%s\n", strings.Repeat("--:|", len(cols)))
	fmt.Printf("| whole response | ")
	for _, s := range cols {
		fmt.Printf("%d | ", got[s.name].total)
	}
	fmt.Println()
	slices.Sort(names)
	for _, nm := range names {
		fmt.Printf("| `%s` | ", nm)
		for _, s := range cols {
			fmt.Printf("%d | ", got[s.name].tools[nm])
		}
		fmt.Println()
	}
	fmt.Println()
	return nil
}

// generatorCost times mcpgen generate on a spec of n tools and go build of
// a server made of its output, in a temporary module that uses this
// checkout's runtime.
func generatorCost(ctx context.Context, bin string, n int, out string) error {
	mainDir, err := goOutput(ctx, "list", "-m", "-f", "{{.Dir}}", "github.com/mcpgen/mcpgen")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "mcpgen-big-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	logf("generator cost: %d tools in %s", n, dir)
	gomod := fmt.Sprintf("module example.com/big\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => %s\n", mainDir)
	mainGo := "package main\n\nimport (\n\t\"context\"\n\t\"os\"\n\n\t\"example.com/big/bigmcp\"\n)\n\n" +
		"func main() {\n\tbigmcp.NewServer(bigmcp.UnimplementedHandler{}).ServeStdio(context.Background(), os.Stdin, os.Stdout)\n}\n"
	spec := bigspec.Spec(n, "bigmcp")
	files := map[string][]byte{"go.mod": []byte(gomod), "main.go": []byte(mainGo), "mcpgen.yaml": spec}
	if files["go.sum"], err = os.ReadFile(filepath.Join(mainDir, "go.sum")); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	var gens, genCPUs []time.Duration
	for range 3 {
		os.RemoveAll(filepath.Join(dir, "bigmcp"))
		cmd := exec.CommandContext(ctx, filepath.Join(bin, "mcpgen"), "generate", "-f", "mcpgen.yaml")
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		t := time.Now()
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("mcpgen generate: %w", err)
		}
		gens = append(gens, time.Since(t))
		genCPUs = append(genCPUs, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	slices.Sort(gens)
	slices.Sort(genCPUs)
	var genBytes, genLines int
	entries, _ := os.ReadDir(filepath.Join(dir, "bigmcp"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, "bigmcp", e.Name()))
		genBytes += len(b)
		genLines += bytes.Count(b, []byte("\n"))
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod")
	// Compile what the output depends on first, untimed: the runtime may have
	// changed since the servers were built, and its build is not the
	// generator's cost.
	if err := goCmd(ctx, dir, env, "build", "github.com/mcpgen/mcpgen/runtime"); err != nil {
		return err
	}
	buildLoad := loadAvg()
	t := time.Now()
	buildCPU, err := goCmdCPU(ctx, dir, env, "build", "-o", "big", ".")
	if err != nil {
		return err
	}
	build := time.Since(t)
	st, err := load.ListTools(ctx, []string{filepath.Join(dir, "big")})
	if err != nil {
		return err
	}
	fmt.Printf("## Generator cost\n\n")
	fmt.Printf("A spec of %d tools (`bench/cmd/genspec`: five arguments each, with bounds, an enum and a description; an output on every other tool), %d bytes of YAML.\n\n", n, len(spec))
	fmt.Printf("| step | wall time | CPU time (user+sys, with child processes) |\n|---|--:|--:|\n")
	fmt.Printf("| `mcpgen generate` (median of 3; %d files, %d lines, %.1f MB) | %v | %v |\n", len(entries), genLines, float64(genBytes)/1e6,
		gens[1].Round(time.Millisecond), genCPUs[1].Round(time.Millisecond))
	fmt.Printf("| `go build` of a server of the output (its dependencies already built; load average %.2f when it started) | %v | %v |\n",
		buildLoad, build.Round(100*time.Millisecond), buildCPU.Round(100*time.Millisecond))
	fmt.Printf("| that server's start: exec to the `initialize` response (registers the %d tools) | %v | |\n", n, st.Initialized.Round(time.Millisecond))
	fmt.Printf("| its `tools/list` response | %d bytes | |\n\n", len(st.ToolsList))
	if out != "" {
		os.WriteFile(filepath.Join(out, "big.mcpgen.yaml"), spec, 0o644)
	}
	return nil
}

func goCmd(ctx context.Context, dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// goCmdCPU is goCmd, and returns the CPU time of the go command and the
// processes it waited for (compile, link).
func goCmdCPU(ctx context.Context, dir string, env []string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func goOutput(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(b)), nil
}

// loadAvg is the machine's 1-minute load average (Linux), or -1.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var l float64
	if _, err := fmt.Sscan(string(b), &l); err != nil {
		return -1
	}
	return l
}
