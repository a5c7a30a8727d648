package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
)

// selfCommand is the command line that runs this mcpgen again, in a form
// that works where the user is, so that advice such as "run '… generate'"
// works when pasted: `go tool mcpgen` in a module that pins mcpgen as a
// tool, `go run github.com/mcpgen/mcpgen/cmd/mcpgen[@version]` for other
// builds of the go command, else the binary's name (or path, when PATH
// finds another one under that name).
func selfCommand() string {
	bi, _ := debug.ReadBuildInfo()
	exe, _ := os.Executable()
	onPath, _ := exec.LookPath(filepath.Base(os.Args[0]))
	wd, _ := os.Getwd()
	return commandFor(bi, exe, os.Args[0], onPath, pinnedAsTool(wd))
}

// commandFor is selfCommand with its inputs spelled out: the build info,
// the running executable, argv[0], what PATH finds under argv[0]'s name,
// and whether the current module pins mcpgen as a tool.
func commandFor(bi *debug.BuildInfo, exe, arg0, onPath string, pinned bool) string {
	const pkg = mcpgenModule + "/cmd/mcpgen"
	// go run and go tool build into go-build directories (the build cache,
	// or a temporary one); neither tells the program which of them ran it.
	if strings.Contains(filepath.ToSlash(exe), "/go-build") && bi != nil {
		v := bi.Main.Version
		switch {
		case pinned:
			return "go tool mcpgen"
		case v == "" || v == "(devel)" || v == zeroVersion:
			return "go run " + pkg // in a clone, or a module that replaces mcpgen
		default:
			return "go run " + pkg + "@" + v
		}
	}
	if onPath != "" && sameFile(onPath, exe) {
		return filepath.Base(arg0)
	}
	if arg0 == "" {
		return "mcpgen"
	}
	return arg0
}

// toolLineRE matches mcpgen in a go.mod's tool directive: `tool PKG`, or
// PKG alone on a line of a tool ( … ) block (require lines have versions).
var toolLineRE = regexp.MustCompile(`(?m)^\s*(tool\s+)?github\.com/mcpgen/mcpgen/cmd/mcpgen\s*(//.*)?$`)

// pinnedAsTool reports whether the module around dir pins mcpgen as a
// tool, so that `go tool mcpgen` works there.
func pinnedAsTool(dir string) bool {
	root, ok := moduleRoot(dir)
	if !ok {
		return false
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	return err == nil && toolLineRE.Match(data)
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// shellQuote quotes an argument for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
