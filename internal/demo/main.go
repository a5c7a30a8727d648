// Command demo plays a scripted MCP session against a server over stdio
// and prints each exchange in order: the request as sent, then its
// response, pretty-printed. demo.sh runs it against examples/orders.
//
//	go run ./internal/demo SERVER [ARGS…] < requests
//
// Each line of stdin is sent as it is (one JSON-RPC message, or anything
// else to show how the server answers garbage). After a request, demo waits
// for the response with its id; after a notification, for nothing; after a
// line that is not JSON, for the error response with a null id. Messages
// the server sends meanwhile (notifications, its own requests) are printed
// where they arrive, labelled as such.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// wait is how long demo waits for one response before giving up.
const wait = 10 * time.Second

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: demo SERVER [ARGS…] < requests")
		os.Exit(2)
	}
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

// message is the part of a JSON-RPC message demo looks at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"` // of the tool or prompt
	} `json:"params"`
}

// title names an exchange: its method, and the tool or prompt it is about.
func (m message) title() string {
	if m.Params.Name != "" {
		return m.Method + " " + m.Params.Name
	}
	return m.Method
}

func run(server []string, script io.Reader, out io.Writer) error {
	cmd := exec.Command(server[0], server[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	replies := make(chan []byte)
	go func() {
		lines := bufio.NewScanner(stdout)
		lines.Buffer(nil, 16<<20)
		for lines.Scan() {
			replies <- bytes.Clone(lines.Bytes())
		}
		close(replies)
	}()

	requests := bufio.NewScanner(script)
	requests.Buffer(nil, 16<<20)
	for n := 1; requests.Scan(); n++ {
		line := bytes.TrimSpace(requests.Bytes())
		if len(line) == 0 {
			n--
			continue
		}
		var req message
		isJSON := json.Unmarshal(line, &req) == nil
		var want string // the id of the response to wait for; "" for none
		switch {
		case !isJSON:
			fmt.Fprintf(out, "\n%d. a line that is not JSON\n→ %s\n", n, line)
			want = "null"
		case len(req.ID) == 0:
			fmt.Fprintf(out, "\n%d. %s (a notification: no response)\n→ %s\n", n, req.title(), line)
		default:
			fmt.Fprintf(out, "\n%d. %s\n→ %s\n", n, req.title(), line)
			want = string(req.ID)
		}
		if _, err := in.Write(append(bytes.Clone(line), '\n')); err != nil {
			return fmt.Errorf("sending request %d: %w", n, err)
		}
		if want == "" {
			continue
		}
		if err := awaitResponse(replies, want, out); err != nil {
			return fmt.Errorf("request %d: %w", n, err)
		}
	}
	in.Close()
	// Whatever the server still says before it exits at end of input.
	for reply := range replies {
		fmt.Fprintf(out, "← (unsolicited) %s\n", indent(reply))
	}
	return cmd.Wait()
}

// awaitResponse prints what the server sends until the response whose id
// is want, which it prints as the answer.
func awaitResponse(replies <-chan []byte, want string, out io.Writer) error {
	timeout := time.After(wait)
	for {
		select {
		case reply, ok := <-replies:
			if !ok {
				return fmt.Errorf("the server closed its output before responding")
			}
			var msg message
			json.Unmarshal(reply, &msg)
			id := string(msg.ID)
			if id == "" {
				id = "null"
			}
			if msg.Method == "" && id == want {
				fmt.Fprintf(out, "← %s\n", indent(reply))
				return nil
			}
			label := "a notification from the server"
			if msg.Method != "" && len(msg.ID) > 0 {
				label = "a request from the server"
			}
			fmt.Fprintf(out, "← (%s) %s\n", label, indent(reply))
		case <-timeout:
			return fmt.Errorf("no response with id %s within %s", want, wait)
		}
	}
}

// indent pretty-prints JSON, keeping numbers as written (an id of
// 9007199254740993 stays exact), and indents continuation lines under the
// arrow.
func indent(msg []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, msg, "  ", "  "); err != nil {
		return string(msg)
	}
	return strings.TrimRight(b.String(), "\n")
}
