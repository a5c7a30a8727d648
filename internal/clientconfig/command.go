package clientconfig

import (
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// DefaultCommand is the stdio command when none is given: the server's
// binary, ./bin/NAME under base (the directory the client starts servers
// from: the project root, where its configuration lives), and build, the
// command that builds it there from the spec's directory. A built binary
// starts at once: `go run` compiles first, which a cold build cache (Codex
// passes few environment variables to a server, GOCACHE not among them)
// stretches past the clients' startup timeouts. It assumes the spec's
// directory is a main package, as `mcpgen init` scaffolds it; ok is false
// when no main package is there, so that the caller can say to pass
// --command.
func DefaultCommand(specDir, base, name string) (cmd, build []string, ok bool) {
	target := specDir
	if absSpec, err := filepath.Abs(specDir); err == nil {
		if absBase, err := filepath.Abs(base); err == nil {
			if rel, err := filepath.Rel(absBase, absSpec); err == nil {
				target = rel
			}
		}
	}
	target = filepath.ToSlash(target)
	if target != "." && !strings.HasPrefix(target, "../") && !strings.HasPrefix(target, "/") {
		target = "./" + target
	}
	bin := "bin/" + SafeName(name)
	return []string{"./" + bin}, []string{"go", "build", "-o", bin, target}, hasMainPackage(specDir)
}

// goEnv are the variables a `go run` command needs from the client's
// environment to find its caches; goStartupTimeout is how long a client
// with a startup timeout waits for it (a cold build of a server takes
// minutes on a small machine).
var goEnv = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "HOME", "PATH"}

const goStartupTimeout = 300 // seconds

// runsGo reports whether cmd is the go command (go run, go tool …), which
// builds before the server starts.
func runsGo(cmd []string) bool {
	return len(cmd) > 0 && (cmd[0] == "go" || strings.HasSuffix(cmd[0], "/go"))
}

func hasMainPackage(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err == nil && f.Name.Name == "main" {
			return true
		}
	}
	return false
}

// SplitCommand splits a command line into words the way a POSIX shell
// would for plain words, '…' and "…" (with \ escapes outside '…'); no
// variables or globs are expanded.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return words, nil
}

// Render prints files for a person to copy: a line naming each file and
// what it is for, then its content.
func Render(w io.Writer, files []File) {
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "# %s: %s\n", f.Path, f.Note)
		w.Write(f.Content)
	}
}
