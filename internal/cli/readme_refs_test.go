package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeRefRE is how help text cites the documentation: README.md,
// "Heading", or docs/PAGE.md, "Heading".
var readmeRefRE = regexp.MustCompile(`((?:README|docs/[a-z-]+)\.md), "([^"]+)"`)

// TestHelpNamesReadmeSections: every section of the README or of a docs/
// page that a command's help (or init's local-clone hint) sends the user
// to exists.
func TestHelpNamesReadmeSections(t *testing.T) {
	headings := map[string]map[string]bool{} // file -> heading
	headingsOf := func(file string) map[string]bool {
		if h, ok := headings[file]; ok {
			return h
		}
		h := map[string]bool{}
		data, err := os.ReadFile("../../" + file)
		if err != nil {
			t.Error(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "#") {
				h[strings.TrimSpace(strings.TrimLeft(line, "#"))] = true
			}
		}
		headings[file] = h
		return h
	}
	texts := map[string]string{"init's local-clone hint": localCloneHint(), "mcpgen help": usage}
	for _, cmd := range []string{"generate", "check", "init", "docs", "schema", "lint", "diff", "config", "registry", "version"} {
		_, stdout, _ := run(t, t.TempDir(), cmd, "-h")
		texts[cmd+" -h"] = stdout
	}
	refs := 0
	for where, text := range texts {
		for _, m := range readmeRefRE.FindAllStringSubmatch(text, -1) {
			refs++
			if !headingsOf(m[1])[m[2]] {
				t.Errorf("%s names the section %q of %s, which does not exist", where, m[2], m[1])
			}
		}
	}
	if refs < 3 { // lint -h, diff -h, the hint
		t.Errorf("found %d references to the documentation in the help texts; the pattern %s no longer matches how they cite it", refs, readmeRefRE)
	}
}
