package udiff

import "testing"

func TestUnified(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	b := "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\nnine\nten\neleven\n"
	want := `--- a
+++ b
@@ -1,10 +1,11 @@
 one
 two
 three
-four
+FOUR
 five
 six
 seven
 eight
 nine
 ten
+eleven
`
	if got := Unified("a", "b", a, b); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := Unified("a", "b", a, a); got != "" {
		t.Errorf("equal texts gave %q", got)
	}
	got := Unified("a", "b", "", "x\n")
	if got != "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n" {
		t.Errorf("from empty: %q", got)
	}
	far := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	farB := "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n"
	wantFar := "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -12,4 +12,4 @@\n 12\n 13\n 14\n-15\n+Y\n"
	if got := Unified("a", "b", far, farB); got != wantFar {
		t.Errorf("two hunks:\n%s\nwant:\n%s", got, wantFar)
	}
}
