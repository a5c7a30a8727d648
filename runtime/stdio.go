package runtime

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
)

// ServeStdio serves one session over newline-delimited JSON-RPC: messages are
// read from r one per line (\r\n tolerated, blank lines skipped) and responses
// written to w one per line, each flushed whole. Nothing but MCP messages is
// ever written to w.
//
// Malformed input is answered and skipped, never fatal; a line longer than the
// maximum message size (WithMaxMessageSize) gets an invalid-request error and
// reading goes on with the next line.
//
// At end of input ServeStdio waits for the requests in flight to be answered
// and returns nil. When ctx is cancelled it cancels the handlers' contexts and
// returns ctx.Err() at once, without waiting for them; after it returns
// nothing more is written to w. If writing fails, it stops the same way and
// returns the write error. The goroutine reading r exits when its pending Read
// returns (a reader that cannot be interrupted, like os.Stdin, is left to the
// process exit).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	bw := bufio.NewWriterSize(w, 32<<10)
	var werr error // guarded by the session's send lock
	ss := s.NewSession(func(msg []byte) {
		if werr != nil || ctx.Err() != nil {
			return // stopping: answers to cancelled handlers go nowhere
		}
		bw.Write(msg)
		bw.WriteByte('\n')
		if err := bw.Flush(); err != nil {
			werr = fmt.Errorf("runtime: writing to the client: %w", err)
			cancel(werr)
		}
	})
	defer ss.Close()

	readDone := make(chan error, 1)
	go func() { readDone <- s.readLines(ctx, r, ss) }()

	select {
	case err := <-readDone:
		if err != nil {
			return err
		}
		// End of input: answer what is in flight, unless told to stop.
		idle := make(chan struct{})
		go func() { ss.Wait(); close(idle) }()
		select {
		case <-idle:
		case <-ctx.Done():
		}
	case <-ctx.Done():
	}
	ss.Close() // after this, werr is stable and w is no longer written
	if werr != nil {
		return werr
	}
	return ctx.Err()
}

// readLines feeds each line of r to ss until end of input (nil) or a read
// error. Lines are handed over without copying: HandleMessage does not retain
// them.
func (s *Server) readLines(ctx context.Context, r io.Reader, ss *Session) error {
	limit := s.cfg.maxMessageSize
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte  // a line longer than br's buffer, assembled
	tooLong := false // the current line exceeds limit: skip to its end
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				if len(long)+len(chunk) > limit+2 { // +2: the line ending
					tooLong, long = true, long[:0]
				} else {
					long = append(long, chunk...)
				}
			}
			continue
		}
		line := chunk
		if len(long) > 0 && !tooLong {
			long = append(long, chunk...)
			line = long
		}
		line = bytes.TrimRight(line, "\r\n")
		if ctx.Err() != nil {
			return nil
		}
		switch {
		case tooLong || len(line) > limit:
			ss.sendError("", errorf(CodeInvalidRequest, "invalid request: message exceeds the maximum size of %d bytes", limit))
		case len(bytes.TrimSpace(line)) > 0:
			ss.HandleMessage(ctx, line)
		}
		tooLong = false
		long = long[:0]
		if cap(long) > 1<<20 {
			long = nil // do not keep a big buffer for the rest of the session
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("runtime: reading from the client: %w", err)
		}
	}
}
