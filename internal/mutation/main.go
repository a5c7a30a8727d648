// Command mutation plants the mutants of its catalogue, one at a time, in a
// scratch copy of the module, runs the tests that should catch each, and
// prints the score and the survivors. A surviving mutant is a bug the
// tests would let through.
//
// It is slow (each mutant recompiles and runs whole test packages), so it
// is not part of CI. A mutant whose entry names the tests known to kill it
// (KilledBy) runs those first; the whole packages run only if they pass,
// and each line says which decided ("named" or "whole"). On a shared machine, run it at low priority, in parts
// if need be:
//
//	nice -n 19 go run ./internal/mutation                 # every mutant
//	nice -n 19 go run ./internal/mutation -run '^spec/'   # one package's
//	go run ./internal/mutation -list                      # the catalogue
//
// The real work tree is never modified: the copy is made from the files
// git knows (tracked, and untracked but not ignored) and removed at the end.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

func main() {
	run := flag.String("run", "", "plant only the mutants whose ID matches this regular expression")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of the tests of one mutant; a mutant that hits it counts as killed")
	list := flag.Bool("list", false, "print the catalogue and exit")
	flag.Parse()

	mutants, err := selectMutants(Catalogue, *run)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(2)
	}
	if *list {
		for _, m := range mutants {
			fmt.Printf("%-36s %-48s %s  %s\n", m.ID, m.File, strings.Join(m.Packages, " "), strings.Join(m.KilledBy, ","))
		}
		fmt.Printf("%d mutants\n", len(mutants))
		return
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(1)
	}
	scratch, err := os.MkdirTemp("", "mcpgen-mutation-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(scratch)
	// Stopped with ^C or kill: the copy goes too (the go commands, in the
	// same process group, get the signal themselves).
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-stop
		os.RemoveAll(scratch)
		os.Exit(130)
	}()
	if err := copyTree(root, scratch); err != nil {
		fmt.Fprintln(os.Stderr, "mutation: copying the module:", err)
		os.Exit(1)
	}
	fmt.Printf("mutation: %d mutants, tests in a copy at %s, %s each at most\n", len(mutants), scratch, *timeout)
	var results []result
	for _, m := range mutants {
		r := plant(scratch, m, *timeout)
		fmt.Printf("%-9s %-36s %6.1fs %-5s %s\n", r.outcome, m.ID, r.took.Seconds(), r.path, r.detail)
		results = append(results, r)
	}
	fmt.Print(report(results, time.Now()))
}

// selectMutants returns the mutants whose ID matches pattern (all when it
// is empty).
func selectMutants(all []Mutant, pattern string) ([]Mutant, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("-run: %w", err)
	}
	var out []Mutant
	for _, m := range all {
		if re.MatchString(m.ID) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no mutant matches %q", pattern)
	}
	return out, nil
}

// The outcomes of planting a mutant.
const (
	killed   = "killed"   // a test failed (or did not compile)
	timedOut = "timeout"  // the tests hit the time limit: counts as killed
	survived = "SURVIVED" // every test passed
	invalid  = "INVALID"  // the catalogue entry is wrong: not counted
)

type result struct {
	mutant  Mutant
	outcome string
	detail  string
	took    time.Duration
	path    string // which tests decided: "named" (KilledBy), "whole" (the packages), "" (no test ran)
}

// plant applies m in the copy at root, runs its tests, and restores the
// file whatever happens.
func plant(root string, m Mutant, timeout time.Duration) (r result) {
	start := time.Now()
	r.mutant = m
	defer func() { r.took = time.Since(start) }()
	path := filepath.Join(root, filepath.FromSlash(m.File))
	orig, err := os.ReadFile(path)
	if err != nil {
		r.outcome, r.detail = invalid, err.Error()
		return r
	}
	mutated, err := apply(orig, m)
	if err != nil {
		r.outcome, r.detail = invalid, err.Error()
		return r
	}
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		r.outcome, r.detail = invalid, err.Error()
		return r
	}
	defer os.WriteFile(path, orig, 0o644)

	// A mutant that breaks the build of its own package is a mistake in
	// the catalogue, not a bug the tests caught. The first build in the
	// copy compiles the whole module: on a loaded machine it gets the
	// tests' time limit, and running out of it is told as such.
	pkg := "./" + filepath.ToSlash(filepath.Dir(m.File))
	if out, err := goCommand(root, timeout, "build", pkg); err != nil {
		r.outcome, r.detail = invalid, "does not compile: "+firstLine(out)
		if errors.Is(err, context.DeadlineExceeded) {
			r.detail = fmt.Sprintf("the build did not finish within %s (not a verdict: run it again)", timeout)
		}
		return r
	}
	// The tests known to kill it first: when one fails the verdict is
	// the same as the whole packages' (a test failed), at a fraction of
	// the time. Only when they all pass do the whole packages decide.
	if len(m.KilledBy) > 0 {
		r.path = "named"
		if r.outcome, r.detail = runTests(root, m, timeout, namedTests(m.KilledBy)); r.outcome != survived {
			return r
		}
	}
	r.path = "whole"
	r.outcome, r.detail = runTests(root, m, timeout, "")
	return r
}

// namedTests is the -run pattern of exactly these top-level tests.
func namedTests(names []string) string {
	return "^(" + strings.Join(names, "|") + ")$"
}

// runTests runs m's test packages, only the tests matching pattern when it
// is not empty, and says what became of the mutant.
func runTests(root string, m Mutant, timeout time.Duration, pattern string) (outcome, detail string) {
	args := []string{"test", "-count=1", "-failfast", "-timeout", timeout.String()}
	if pattern != "" {
		args = append(args, "-run", pattern)
	}
	out, err := goCommand(root, timeout+time.Minute, append(args, m.Packages...)...)
	switch {
	case err == nil:
		return survived, m.Why
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(out, "test timed out"):
		return timedOut, "the tests hit the time limit"
	default:
		return killed, firstFailure(out)
	}
}

// apply returns src with m's Original replaced, which must occur once.
func apply(src []byte, m Mutant) ([]byte, error) {
	switch n := bytes.Count(src, []byte(m.Original)); n {
	case 1:
		return bytes.Replace(src, []byte(m.Original), []byte(m.Mutated), 1), nil
	case 0:
		return nil, fmt.Errorf("%s: the original snippet is gone (re-anchor the mutant)", m.File)
	default:
		return nil, fmt.Errorf("%s: the original snippet occurs %d times (make it unique)", m.File, n)
	}
}

// goCommand runs the go command in dir with a time limit and returns its
// combined output.
func goCommand(dir string, limit time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return out.String(), err
}

// firstFailure picks the line that says what failed: the first failing
// test or panic (a watchdog's, or one off a test's goroutine, comes with
// no --- FAIL line), else the first line.
func firstFailure(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l := strings.TrimSpace(l)
		if strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "panic: ") || strings.Contains(l, "[build failed]") || strings.Contains(l, "[setup failed]") {
			return strings.TrimSpace(l)
		}
	}
	return firstLine(out)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// report is the score and the mutants that were not killed.
func report(results []result, now time.Time) string {
	var b strings.Builder
	count := map[string]int{}
	for _, r := range results {
		count[r.outcome]++
	}
	caught := count[killed] + count[timedOut]
	scored := caught + count[survived]
	fmt.Fprintf(&b, "\n%s: %d mutants, %d killed (%d by timeout), %d survived, %d invalid\n",
		now.UTC().Format("2006-01-02"), len(results), caught, count[timedOut], count[survived], count[invalid])
	if scored > 0 {
		fmt.Fprintf(&b, "score: %.1f %% (%d/%d)\n", 100*float64(caught)/float64(scored), caught, scored)
	}
	paths := map[string]int{}
	for _, r := range results {
		if r.outcome != invalid {
			paths[r.path]++
		}
	}
	if paths["named"] > 0 {
		fmt.Fprintf(&b, "decided by the named tests (KilledBy): %d; by the whole packages: %d\n", paths["named"], paths["whole"])
	}
	for _, r := range results {
		if r.outcome == survived || r.outcome == invalid {
			fmt.Fprintf(&b, "%s %s (%s): %s\n", r.outcome, r.mutant.ID, r.mutant.File, r.detail)
		}
	}
	return b.String()
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside the mcpgen module (go env GOMOD: %q, %v)", gomod, err)
	}
	return filepath.Dir(gomod), nil
}

// copyTree copies the files git lists in root (tracked, and untracked but
// not ignored, so that uncommitted work is tested too) to dst.
func copyTree(root, dst string) error {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		if err := copyFile(filepath.Join(root, name), filepath.Join(dst, name)); err != nil {
			if errors.Is(err, os.ErrNotExist) { // deleted but not yet committed
				continue
			}
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil || info.IsDir() {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
