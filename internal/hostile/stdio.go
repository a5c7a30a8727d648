package hostile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Stdio is a client of Server.ServeStdio over io.Pipe, as a host would
// be: it writes lines and reads lines, and checks every line the server
// writes with Parse.
type Stdio struct {
	in     *io.PipeWriter
	msgs   chan *Message
	bad    chan error // lines that are not well-formed messages (*BadMessage)
	done   chan error // what ServeStdio returned
	cancel context.CancelFunc

	wmu sync.Mutex
}

// ServeStdio starts srv.ServeStdio on pipes; Close stops it.
func ServeStdio(srv *runtime.Server) *Stdio {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Stdio{in: inW, msgs: make(chan *Message, 4096), bad: make(chan error, 4096), done: make(chan error, 1), cancel: cancel}
	go func() {
		err := srv.ServeStdio(ctx, inR, outW)
		inR.Close() // a writer blocked on a message the server no longer reads lets go
		outW.Close()
		c.done <- err
	}()
	go func() {
		defer close(c.msgs)
		br := bufio.NewReaderSize(outR, 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				if line[len(line)-1] != '\n' {
					c.problem(fmt.Errorf("the output ends with an unterminated line: %s", clip(line)))
				} else if m, perr := Parse(line[:len(line)-1]); perr != nil {
					c.problem(&BadMessage{perr})
				} else {
					c.msgs <- m
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *Stdio) problem(err error) {
	select {
	case c.bad <- err:
	default:
	}
}

// Send writes msg and a newline. It is safe for concurrent use.
func (c *Stdio) Send(msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	_, err := c.in.Write(buf)
	return err
}

// Next returns the next message the server wrote, a *BadMessage for a line
// that is not a well-formed message (reading can go on), ErrTimeout, or
// io.EOF once the output is closed.
func (c *Stdio) Next(timeout time.Duration) (*Message, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-c.bad:
		return nil, err
	default:
	}
	select {
	case m, ok := <-c.msgs:
		if !ok {
			return nil, io.EOF
		}
		return m, nil
	case err := <-c.bad:
		return nil, err
	case <-t.C:
		return nil, ErrTimeout
	}
}

// Close ends the input and waits for ServeStdio to return what it
// returns; after timeout it cancels its context.
func (c *Stdio) Close(timeout time.Duration) error {
	c.in.Close()
	select {
	case err := <-c.done:
		return err
	case <-time.After(timeout):
	}
	c.cancel()
	select {
	case err := <-c.done:
		return errors.Join(errors.New("ServeStdio did not return after end of input"), err)
	case <-time.After(timeout):
		return errors.New("ServeStdio did not return after end of input nor after its context was cancelled")
	}
}

// Drain returns the messages still to be read after Close.
func (c *Stdio) Drain() ([]*Message, error) {
	var out []*Message
	for m := range c.msgs {
		out = append(out, m)
	}
	select {
	case err := <-c.bad:
		return out, err
	default:
	}
	return out, nil
}
