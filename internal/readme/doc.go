// Package readme holds the test that runs README.md's quick starts: its
// code blocks, extracted and run in a temporary directory against this
// checkout, so that every snippet a new user copies works as written.
//
// A fenced block takes part when its info string says so, after the
// language (GitHub shows only the language):
//
//	```sh test=NAME                 commands of scenario NAME, run in order
//	```go file=PATH test=NAME       a file the scenario writes (PATH from its root)
//	```go fragment-of=PATH          text that must appear verbatim in that file's block
//
// The blocks of one scenario become one shell script, in README order.
package readme
