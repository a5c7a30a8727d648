package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// stdioDriver speaks newline-delimited JSON-RPC on the server's stdin and
// stdout: one writer keeps at most c requests in flight, one reader matches
// responses to requests by id.
type stdioDriver struct {
	w   io.WriteCloser
	r   *bufio.Reader
	lat []time.Duration
}

func newStdio(w io.WriteCloser, r io.Reader) *stdioDriver {
	return &stdioDriver{w: w, r: bufio.NewReaderSize(r, 1<<20)}
}

func (d *stdioDriver) init(ctx context.Context) error {
	if _, err := d.w.Write([]byte(initRequest + "\n")); err != nil {
		return err
	}
	line, err := d.r.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("reading the initialize response: %w", err)
	}
	if !bytes.Contains(line, []byte(`"result"`)) {
		return fmt.Errorf("initialize failed: %s", line)
	}
	_, err = d.w.Write([]byte(initializedNote + "\n"))
	return err
}

func (d *stdioDriver) calls(ctx context.Context, first, n, c int, req requestFunc, done func(int, []byte)) error {
	d.lat = make([]time.Duration, n)
	sent := make([]atomic.Int64, n) // ns since t0, set before the request is written
	t0 := time.Now()
	sem := make(chan struct{}, c)
	werr := make(chan error, 1)
	go func() {
		buf := make([]byte, 0, 4096)
		for i := range n {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				werr <- ctx.Err()
				return
			}
			buf = append(req(buf[:0], first+i), '\n')
			sent[i].Store(int64(time.Since(t0)))
			if _, err := d.w.Write(buf); err != nil {
				werr <- err
				return
			}
		}
		werr <- nil
	}()
	for got := 0; got < n; {
		line, err := d.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("a response is longer than %d bytes", d.r.Size())
		}
		if err != nil {
			return fmt.Errorf("reading responses (%d of %d answered): %w", got, n, err)
		}
		id, ok := responseID(line)
		if !ok {
			continue // a notification
		}
		i := id - first
		if i < 0 || i >= n {
			return fmt.Errorf("response to an unknown id: %s", line)
		}
		d.lat[i] = time.Since(t0) - time.Duration(sent[i].Load())
		done(i, line)
		got++
		<-sem
	}
	return <-werr
}

func (d *stdioDriver) close() {}

// responseID finds the integer id of a response: the first "id" member of
// the message, which every server writes before the result.
func responseID(msg []byte) (int, bool) {
	i := bytes.Index(msg, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	rest := msg[i+5:]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	id, err := strconv.Atoi(string(rest[:j]))
	return id, err == nil
}
