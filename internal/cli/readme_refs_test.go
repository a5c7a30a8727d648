package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeRefRE is how help text cites the README: README.md, "Heading".
var readmeRefRE = regexp.MustCompile(`README\.md, "([^"]+)"`)

// TestHelpNamesReadmeSections: every README section that a command's help
// (or init's local-clone hint) sends the user to exists.
func TestHelpNamesReadmeSections(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			headings[strings.TrimSpace(strings.TrimLeft(line, "#"))] = true
		}
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
			if !headings[m[1]] {
				t.Errorf("%s names the README section %q, which does not exist", where, m[1])
			}
		}
	}
	if refs < 3 { // lint -h, diff -h, the hint
		t.Errorf("found %d README references in the help texts; the pattern %s no longer matches how they cite it", refs, readmeRefRE)
	}
}
