package load

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"time"
)

// Startup is what ListTools measured.
type Startup struct {
	Initialized time.Duration // from starting the process to the initialize response
	ToolsList   []byte        // the tools/list response, as sent
}

// ListTools starts the server (stdio), initializes, asks for tools/list and
// stops it.
func ListTools(ctx context.Context, command []string) (*Startup, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	var tail tailBuffer
	cmd.Stderr = &tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	d := newStdio(stdin, stdout)
	if err := d.init(ctx); err != nil {
		return nil, fmt.Errorf("%s: initialize: %w (stderr: %s)", command[0], err, tail.String())
	}
	st := &Startup{Initialized: time.Since(t0)}
	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n")); err != nil {
		return nil, err
	}
	line, err := d.r.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: tools/list: %w", command[0], err)
	}
	st.ToolsList = bytes.TrimRight(line, "\r\n")
	return st, nil
}
