package readme

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// linkRE is a Markdown link or image: [text](target).
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinks: every relative link of the documentation names a file that
// exists and, with #anchor, a heading of that file (GitHub's anchors).
func TestLinks(t *testing.T) {
	t.Parallel()
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := map[string]bool{}
		data, _ := os.ReadFile(filepath.Join(checkout, file))
		inBlock := false
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inBlock = !inBlock
			}
			if !inBlock && strings.HasPrefix(line, "#") {
				a[anchor(strings.TrimLeft(line, "#"))] = true
			}
		}
		anchors[file] = a
		return a
	}
	links := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(checkout, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			ref, frag, _ := strings.Cut(target, "#")
			to := file
			if ref != "" {
				to = path.Join(path.Dir(file), ref)
			}
			if _, err := os.Stat(filepath.Join(checkout, to)); err != nil {
				t.Errorf("%s: the link %s names %s, which does not exist", file, target, to)
				continue
			}
			if frag != "" && strings.HasSuffix(to, ".md") && !anchorsOf(to)[frag] {
				t.Errorf("%s: the link %s names no heading of %s", file, target, to)
			}
		}
	}
	if links < 50 {
		t.Errorf("found %d relative links; the pattern %s no longer finds them", links, linkRE)
	}
}

// anchor is GitHub's anchor of a heading: lower case, spaces to hyphens,
// punctuation other than - and _ dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isLetter(r rune) bool { return strings.ToUpper(string(r)) != strings.ToLower(string(r)) }
