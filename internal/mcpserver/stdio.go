package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunIO serves one session over newline-delimited JSON-RPC on r and w
// (standard input and output) until r ends or ctx does.
//
// Each line is checked before the SDK sees it: a line that is not JSON
// gets a parse error, one that is JSON but no JSON-RPC 2.0 message
// ([], null, 123, {}) an invalid-request error, and the session goes on;
// a line over the request size limit is skipped with an error, never
// buffered whole. Batches (arrays of messages) are passed on only in
// sessions of MCP versions that have them (before 2025-06-18).
//
// When r ends, the requests already read are answered before the session
// closes (up to the request time limit), so a client that writes its
// requests and closes its end still gets every answer. When ctx ends,
// no more is read from r, and the requests in flight get up to
// Options.ShutdownTimeout to finish and answer; those still running then
// are answered with an error, and RunIO returns nil.
func (s *Server) RunIO(ctx context.Context, r io.Reader, w io.Writer) error {
	l := &ledger{done: make(chan struct{}, 1), pending: map[string]json.RawMessage{}}
	out := &countingWriter{w: w, l: l}
	in := &lineReader{r: r, out: out, l: l, max: s.o.MaxRequestBytes + 4096, wait: s.o.Timeout,
		stop: ctx.Done(), grace: s.o.ShutdownTimeout, abort: s.stopRequests}
	// The session's context does not end with ctx: the SDK would close the
	// session at once, and drop the answers of the requests in flight.
	// The reader ends it instead, once they are answered.
	run := make(chan error, 1)
	go func() { run <- s.mcp.Run(context.WithoutCancel(ctx), &mcp.IOTransport{Reader: in, Writer: out}) }()
	select {
	case err := <-run:
		return err
	case <-ctx.Done():
	}
	// The reader gives the requests in flight the grace, then answers the
	// rest itself; the margin is for the SDK to close the session.
	select {
	case err := <-run:
		return err
	case <-time.After(s.o.ShutdownTimeout + abortWait + 5*time.Second):
		return errors.New("mcpserver: the session did not close after the shutdown")
	}
}

// abortWait is how long the requests answered with errShutdown take to
// be written before the reader answers any left itself.
const abortWait = 2 * time.Second

// ledger keeps the ids of the requests read that have no response yet.
type ledger struct {
	mu      sync.Mutex
	pending map[string]json.RawMessage // by idKey
	done    chan struct{}              // signalled when a response is written
}

func (l *ledger) settled() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.pending) == 0
}

func (l *ledger) read(id json.RawMessage) {
	l.mu.Lock()
	l.pending[idKey(id)] = id
	l.mu.Unlock()
}

func (l *ledger) answered(id json.RawMessage) {
	l.mu.Lock()
	delete(l.pending, idKey(id))
	l.mu.Unlock()
	select {
	case l.done <- struct{}{}:
	default:
	}
}

// unanswered returns the ids of the requests without a response, in
// order, and forgets them.
func (l *ledger) unanswered() []json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := make([]string, 0, len(l.pending))
	for k := range l.pending {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ids := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		ids[i] = l.pending[k]
	}
	clear(l.pending)
	return ids
}

// idKey is a request id as the SDK echoes it: 1, 1.0 and 1e0 are one id.
func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return string(id)
	}
	switch v := v.(type) {
	case string:
		return "s" + v
	case float64:
		return "n" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return string(id)
}

// requestID is the id of a message when it has a valid one (a string or
// a number), else nil: the id an error about the message carries.
func requestID(msg json.RawMessage) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
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
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

// isCall reports whether m is a request that wants a response.
func (m message) isCall() bool {
	return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null"
}

// isResponse reports whether m is a response to a request.
func (m message) isResponse() bool {
	return m.Method == "" && len(m.ID) > 0 && string(m.ID) != "null"
}

// batchVersions reports whether a session of the protocol version a
// client asks for has JSON-RPC batches: the SDK negotiates the version
// asked for when it has it, else one without batches, and MCP dropped
// them in 2025-06-18.
func batchVersions(asked string) bool {
	return slices.Contains(mcp.SupportedProtocolVersions(), asked) && asked < "2025-06-18"
}

// chunk is one read of the input.
type chunk struct {
	data []byte
	err  error
}

// lineReader passes on the valid messages of r, one per line, keeping the
// ledger of the requests among them.
type lineReader struct {
	r     io.Reader
	out   *countingWriter // where errors are written
	l     *ledger
	max   int           // the longest line passed on
	wait  time.Duration // how long a request may go without a response when r has ended
	stop  <-chan struct{}
	grace time.Duration // how long the requests in flight may take once stop is closed
	abort func()        // answers the requests still running with an error

	batches bool         // the session's protocol version has batches
	line    []byte       // the line being read
	long    bool         // the line being read is over max: skip to its end
	ready   bytes.Buffer // checked lines, waiting to be read
	chunks  chan chunk   // reads of r, from the goroutine that reads it
	closed  chan struct{}
	init    sync.Once // makes chunks and closed
	reading sync.Once // starts the goroutine that reads r
	close   sync.Once
	eof     bool
	drained bool
}

func (c *lineReader) channels() {
	c.init.Do(func() {
		c.chunks = make(chan chunk)
		c.closed = make(chan struct{})
	})
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
		c.start()
		select {
		case <-c.closed:
			return 0, io.EOF
		case ch := <-c.chunks:
			c.take(ch.data)
			if ch.err != nil {
				if len(c.line) > 0 || c.long {
					c.end() // a last line without its newline
				}
				c.eof = true
			}
		case <-c.stop:
			c.eof = true // read no more: the server is stopping
		}
	}
	return c.ready.Read(p)
}

// start starts the goroutine that reads r, so that a read waiting for
// input does not hold up a stop. It ends at the end of r, or when the
// reader is closed (Close also closes r, which ends a read that waits
// where the system allows it).
func (c *lineReader) start() {
	c.channels()
	c.reading.Do(func() {
		go func() {
			buf := make([]byte, 64<<10)
			for {
				n, err := c.r.Read(buf)
				select {
				case c.chunks <- chunk{bytes.Clone(buf[:n]), err}:
				case <-c.closed:
					return
				}
				if err != nil {
					return
				}
			}
		}()
	})
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
		c.out.fail(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("ctxpack: a message over the server's limit of %d bytes was skipped: send shorter requests", c.max-4096))
	case len(line) == 0:
	case !json.Valid(line):
		c.out.fail(nil, jsonrpc.CodeParseError, "ctxpack: a line that is not JSON was skipped: send one JSON-RPC message per line")
	case line[0] == '[':
		c.batch(line)
	default:
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			c.out.fail(requestID(line), jsonrpc.CodeInvalidRequest, notMessage)
			return
		}
		c.pass(line)
	}
}

// notMessage is the error of a line that is JSON but no JSON-RPC message.
const notMessage = `ctxpack: a line that is no JSON-RPC 2.0 message was skipped: send objects with "jsonrpc":"2.0" and a "method" (and an "id" for a request)`

// pass passes on a checked message, and notes the requests in it.
func (c *lineReader) pass(line []byte) {
	var msgs []json.RawMessage
	if line[0] == '[' {
		_ = json.Unmarshal(line, &msgs) // checked by batch
	} else {
		msgs = []json.RawMessage{line}
	}
	for _, raw := range msgs {
		var m message
		if json.Unmarshal(raw, &m) != nil || !m.isCall() {
			continue
		}
		c.l.read(m.ID)
		if m.Method == "initialize" {
			c.batches = batchVersions(m.Params.ProtocolVersion)
		}
	}
	c.ready.Write(line)
	c.ready.WriteByte('\n')
}

// batch checks a batch as JSON-RPC 2.0 says: an empty one is an invalid
// request; each message in it that is invalid gets its error, in one
// array, and the valid ones are passed on as a batch. A session whose
// protocol version has no batches answers a batch with one error.
func (c *lineReader) batch(line []byte) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
		c.out.fail(nil, jsonrpc.CodeInvalidRequest, "ctxpack: an empty batch ([]) was skipped: send a JSON-RPC request object")
		return
	}
	if !c.batches {
		c.out.fail(nil, jsonrpc.CodeInvalidRequest, "ctxpack: a batch (a JSON array) was skipped: MCP has no batches since 2025-06-18 (and none before initialize): send one message per line")
		return
	}
	var good []json.RawMessage
	var errs []any
	seen := map[string]bool{}
	for _, raw := range msgs {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			errs = append(errs, errorResponse(requestID(raw), jsonrpc.CodeInvalidRequest, notMessage))
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			key := idKey(requestID(raw))
			if seen[key] {
				errs = append(errs, errorResponse(requestID(raw), jsonrpc.CodeInvalidRequest, "ctxpack: a request whose id another request of its batch has was skipped: give each request its own id"))
				continue
			}
			seen[key] = true
		}
		good = append(good, raw)
	}
	if len(errs) > 0 {
		if data, err := json.Marshal(errs); err == nil {
			c.out.Write(append(data, '\n'))
		}
	}
	if len(good) > 0 {
		data, err := json.Marshal(good)
		if err == nil {
			c.pass(data)
		}
	}
}

// drain waits until every request read has its response. When r has
// ended, it waits as long as responses keep coming within the time limit
// of a request; once stop is closed, for the grace at most. When the
// time is up, the requests still running are answered with an error.
func (c *lineReader) drain() {
	idle := time.NewTimer(c.wait)
	defer idle.Stop()
	stop := c.stop
	var grace <-chan time.Time
	for !c.l.settled() {
		select {
		case <-c.l.done:
			idle.Reset(c.wait) // Go 1.23 timers: Reset needs no drain
		case <-stop:
			stop = nil
			t := time.NewTimer(c.grace)
			defer t.Stop()
			grace = t.C
		case <-idle.C:
			c.giveUp()
			return
		case <-grace:
			c.giveUp()
			return
		}
	}
}

// giveUp answers the requests still running with an error: through the
// server, which answers each in the session, else (a request that never
// reached the server's bounds) here.
func (c *lineReader) giveUp() {
	if c.abort != nil {
		c.abort()
		t := time.NewTimer(abortWait)
		defer t.Stop()
	wait:
		for !c.l.settled() {
			select {
			case <-c.l.done:
			case <-t.C:
				break wait
			}
		}
	}
	for _, id := range c.l.unanswered() {
		c.out.fail(id, codeServerError, errShutdown.Error())
	}
}

// codeServerError is JSON-RPC's code for an error of the server's own.
const codeServerError = -32000

func (c *lineReader) Close() error {
	c.channels()
	var err error
	c.close.Do(func() {
		close(c.closed)
		if rc, ok := c.r.(io.Closer); ok {
			err = rc.Close()
		}
	})
	return err
}

type countingWriter struct {
	mu  sync.Mutex // the SDK and the reader's errors write
	w   io.Writer
	l   *ledger
	buf bytes.Buffer
}

// errorResponse is a JSON-RPC error response; a nil id is null.
func errorResponse(id json.RawMessage, code int64, msg string) map[string]any {
	var v any
	if id != nil {
		v = id
	}
	return map[string]any{"jsonrpc": "2.0", "id": v, "error": map[string]any{"code": code, "message": msg}}
}

// fail writes a JSON-RPC error response, with id (null when nil).
func (c *countingWriter) fail(id json.RawMessage, code int64, msg string) {
	data, err := json.Marshal(errorResponse(id, code, msg))
	if err == nil {
		c.Write(append(data, '\n'))
	}
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	lines(&c.buf, p[:n], func(line []byte) {
		var msgs []json.RawMessage
		if line = bytes.TrimSpace(line); len(line) > 0 && line[0] == '[' {
			if json.Unmarshal(line, &msgs) != nil {
				return
			}
		} else {
			msgs = []json.RawMessage{line}
		}
		for _, raw := range msgs {
			var m message
			if json.Unmarshal(raw, &m) == nil && m.isResponse() {
				c.l.answered(m.ID)
			}
		}
	})
	return n, err
}

// Close leaves the writer open: it is standard output, not ours.
func (c *countingWriter) Close() error { return nil }
