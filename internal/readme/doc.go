// Package readme holds the tests of the documentation: README.md,
// CONTRIBUTING.md and every page of docs/. Every fenced code block is
// checked, so that every snippet a user copies works as written:
//
//   - the blocks of a scenario (`test=NAME` in the info string) become one
//     shell script, run in a temporary directory beside a copy of this
//     checkout (TestScenariosBuilds; test.sh's builds stage);
//   - a `fragment-of=PATH` block must appear verbatim in the scenario file
//     PATH, or in the repository's file PATH (whose own tests run it); a
//     line of only "…" stands for lines left out;
//   - a go block compiles (TestGoBlocksCompileBuilds: go/types against
//     the packages' export data): as a file, as declarations or as
//     statements, with the imports and values of compile_test.go, or with
//     `package=DIR` as one more file of that package;
//   - a yaml block parses, and one whose keys are a spec's loads as a spec
//     (a part of one inside a minimal spec), unless it is an excerpt
//     (`yaml excerpt`: names what the rest of its spec declares), which
//     then must not load on its own;
//   - sh passes `sh -n`, nginx is balanced; a block without a language is
//     shown output.
//
// Info strings, after the language (GitHub shows only the language):
//
//	```sh test=NAME                 commands of scenario NAME, run in order
//	```go file=PATH test=NAME       a file the scenario writes (PATH from its root)
//	```go fragment-of=PATH          text that must appear verbatim in that file
//	```go package=DIR               compiled as a file of the package in DIR
//	```yaml excerpt                 a part of a spec that does not load alone
//
// The blocks of one scenario become one shell script, in the order of the
// files (README.md first) and of the blocks in them. Links between the
// pages are checked too: the file exists, and so does the heading an
// anchor names.
package readme
