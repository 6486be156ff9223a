package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunIO serves one session over newline-delimited JSON-RPC on r and w
// (standard input and output) until r ends or ctx does.
//
// Each line is checked before the SDK sees it: a line that is not JSON
// gets a parse error and the session goes on, and a line over the request
// size limit is skipped with an error, never buffered whole. When r ends,
// the requests already read are answered before the session closes (up
// to the request time limit), so a client that writes its requests and
// closes its end still gets every answer.
func (s *Server) RunIO(ctx context.Context, r io.Reader, w io.Writer) error {
	l := &ledger{done: make(chan struct{}, 1)}
	out := &countingWriter{w: w, l: l}
	in := &lineReader{r: r, out: out, l: l, max: s.o.MaxRequestBytes + 4096, wait: s.o.Timeout, ctx: ctx}
	return s.mcp.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}

// ledger counts the requests read and the responses written.
type ledger struct {
	mu        sync.Mutex
	requests  int
	responses int
	done      chan struct{} // signalled when a response is written
}

func (l *ledger) settled() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.responses >= l.requests
}

// lines calls f with each complete line of data added to buf, and keeps
// the incomplete rest in buf.
func lines(buf *bytes.Buffer, data []byte, f func([]byte)) {
	buf.Write(data)
	for {
		i := bytes.IndexByte(buf.Bytes(), '\n')
		if i < 0 {
			return
		}
		f(buf.Next(i + 1))
	}
}

// message is what the ledger reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// lineReader passes on the valid lines of r, counting the requests.
type lineReader struct {
	r       io.Reader
	out     *countingWriter // where parse errors are written
	l       *ledger
	max     int // the longest line passed on
	wait    time.Duration
	ctx     context.Context
	line    []byte       // the line being read
	long    bool         // the line being read is over max: skip to its end
	ready   bytes.Buffer // checked lines, waiting to be read
	chunk   []byte
	eof     bool
	drained bool
}

func (c *lineReader) Read(p []byte) (int, error) {
	for c.ready.Len() == 0 {
		if c.eof {
			if !c.drained {
				c.drain()
				c.drained = true
			}
			return 0, io.EOF
		}
		if c.chunk == nil {
			c.chunk = make([]byte, 64<<10)
		}
		n, err := c.r.Read(c.chunk)
		c.take(c.chunk[:n])
		if err != nil {
			if len(c.line) > 0 || c.long {
				c.end() // a last line without its newline
			}
			c.eof = true
		}
	}
	return c.ready.Read(p)
}

// take adds data to the line being read, ending lines at newlines.
func (c *lineReader) take(data []byte) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		part := data
		if i >= 0 {
			part = data[:i]
		}
		if !c.long {
			if len(c.line)+len(part) > c.max {
				c.long, c.line = true, c.line[:0]
			} else {
				c.line = append(c.line, part...)
			}
		}
		if i < 0 {
			return
		}
		c.end()
		data = data[i+1:]
	}
}

// end checks the line read and passes it on, or answers it with an error.
func (c *lineReader) end() {
	line := bytes.TrimSpace(c.line)
	long := c.long
	c.line, c.long = c.line[:0], false
	switch {
	case long:
		c.out.fail(jsonrpc.CodeInvalidRequest, fmt.Sprintf("ctxpack: a message over the server's limit of %d bytes was skipped: send shorter requests", c.max-4096))
	case len(line) == 0:
	case !json.Valid(line):
		c.out.fail(jsonrpc.CodeParseError, "ctxpack: a line that is not JSON was skipped: send one JSON-RPC message per line")
	default:
		var m message
		if json.Unmarshal(line, &m) == nil && m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			c.l.mu.Lock()
			c.l.requests++
			c.l.mu.Unlock()
		}
		c.ready.Write(line)
		c.ready.WriteByte('\n')
	}
}

// drain waits until every request read has its response, the time limit
// of one request passes without a response, or the server stops.
func (c *lineReader) drain() {
	t := time.NewTimer(c.wait)
	defer t.Stop()
	for !c.l.settled() {
		select {
		case <-c.l.done:
			t.Reset(c.wait) // Go 1.23 timers: Reset needs no drain
		case <-t.C:
			return
		case <-c.ctx.Done():
			return
		}
	}
}

func (c *lineReader) Close() error {
	if rc, ok := c.r.(io.Closer); ok {
		return rc.Close()
	}
	return nil
}

type countingWriter struct {
	mu  sync.Mutex // the SDK and the reader's errors write
	w   io.Writer
	l   *ledger
	buf bytes.Buffer
}

// fail writes a JSON-RPC error response without an id.
func (c *countingWriter) fail(code int64, msg string) {
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	if err == nil {
		c.Write(append(data, '\n'))
	}
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	lines(&c.buf, p[:n], func(line []byte) {
		var m message
		if json.Unmarshal(line, &m) == nil && m.Method == "" && len(m.ID) > 0 && string(m.ID) != "null" {
			c.l.mu.Lock()
			c.l.responses++
			c.l.mu.Unlock()
			select {
			case c.l.done <- struct{}{}:
			default:
			}
		}
	})
	return n, err
}

// Close leaves the writer open: it is standard output, not ours.
func (c *countingWriter) Close() error { return nil }
