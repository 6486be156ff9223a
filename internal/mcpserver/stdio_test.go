package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzLineReader: whatever arrives on standard input, the reader passes
// on exactly its lines of at most max bytes that are JSON-RPC messages,
// in order, answers every other non-blank line with one error (and each
// request passed on that no server answers, when the input ends), and
// never panics. (Batches are answered with an error before an initialize
// that negotiates a version that has them; after one, the lines are only
// checked to be passed on or answered.)
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\nnot json\n\n{\"b\":2}"), 8)
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\r\n[1,2]\n\"s\"\n"), 1)
	f.Add([]byte("{\"long\":\""+strings.Repeat("x", 100)+"\"}\n{}\n"), 16)
	f.Add([]byte("[]\nnull\n123\n{}\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n"), 3)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk <= 0 || chunk > 1<<16 {
			chunk = 1
		}
		const max = 64
		var out bytes.Buffer
		w := &countingWriter{w: &out, l: &ledger{done: make(chan struct{}, 1), pending: map[string]json.RawMessage{}}}
		r := &lineReader{r: &chunked{data: data, n: chunk}, out: w, l: w.l, max: max, wait: time.Millisecond}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		errs, calls, exact := 0, 0, true
		for _, line := range bytes.Split(data, []byte("\n")) {
			trimmed := bytes.TrimSpace(line)
			_, derr := jsonrpc.DecodeMessage(trimmed)
			switch {
			case len(line) > max:
				errs++
			case len(trimmed) == 0:
			case !json.Valid(trimmed):
				errs++
			case trimmed[0] == '[' && exact:
				errs++
			case derr != nil && exact:
				errs++
			case exact:
				want.Write(trimmed)
				want.WriteByte('\n')
				var m message
				if json.Unmarshal(trimmed, &m) == nil && m.isCall() {
					calls++ // answered with an error when the input ends
					if m.Method == "initialize" && batchVersions(m.Params.ProtocolVersion) {
						exact = false
					}
				}
			}
		}
		if !exact {
			return
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("passed on %q, want %q", got, want.Bytes())
		}
		if n := bytes.Count(out.Bytes(), []byte("\n")); n < errs || n > errs+calls {
			t.Errorf("%d error lines (%q), want %d, and one for each request left unanswered (at most %d)", n, out.Bytes(), errs, calls)
		}
	})
}

// chunked reads data n bytes at a time.
type chunked struct {
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.data[:min(c.n, len(c.data))])
	c.data = c.data[n:]
	return n, nil
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// response is a JSON-RPC response, as the tests read it.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// responses reads the output lines of a session: each a response, or an
// array of them.
func responses(t *testing.T, out string) (lines [][]response) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rs []response
		if strings.HasPrefix(line, "[") {
			if err := json.Unmarshal([]byte(line), &rs); err != nil {
				t.Fatalf("output line %.200q: %v", line, err)
			}
		} else {
			var r response
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("output line %.200q: %v", line, err)
			}
			rs = []response{r}
		}
		lines = append(lines, rs)
	}
	return lines
}

// TestRunIOInvalidMessages: a line that is JSON but no JSON-RPC message
// ([], null, 123, {}), or a batch where the session's MCP version has
// none, is answered with an invalid-request error (with the message's id
// when it has one) and the session goes on; a batch where the version
// has them gets an error for each invalid message in it, and the valid
// ones are served.
func TestRunIOInvalidMessages(t *testing.T) {
	s, err := New(Options{Dir: testProject(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, version, line string
		want                []response // the error responses, in one line when several
		batch               bool       // the request after is answered in a batch
	}{
		{name: "empty batch", line: `[]`, want: errs(nil)},
		{name: "null", line: `null`, want: errs(nil)},
		{name: "number", line: `123`, want: errs(nil)},
		{name: "string", line: `"s"`, want: errs(nil)},
		{name: "empty object", line: `{}`, want: errs(nil)},
		{name: "no method", line: `{"jsonrpc":"2.0"}`, want: errs(nil)},
		{name: "wrong version", line: `{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, want: errs([]byte("7"))},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, want: errs(nil)},
		{name: "batch in 2025-06-18", line: `[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, want: errs(nil)},
		{name: "batch in 2025-11-25", version: "2025-11-25", line: `[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, want: errs(nil)},
		{name: "batch in 2025-03-26", version: "2025-03-26", line: `[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"x":1},2,{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
			want: errs(nil, nil, []byte("7")), batch: true},
		{name: "invalid batch in 2025-03-26", version: "2025-03-26", line: `[1,2]`, want: errs(nil, nil)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			version := tt.version
			if version == "" {
				version = "2025-06-18"
			}
			in := strings.Replace(initLine, "%s", version, 1) + tt.line + "\n" + `{"jsonrpc":"2.0","id":9,"method":"tools/list"}` + "\n"
			var out strings.Builder
			done := make(chan error, 1)
			go func() { done <- s.RunIO(context.Background(), strings.NewReader(in), &out) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("RunIO: %v", err)
				}
			case <-time.After(hangGuard):
				t.Fatal("RunIO has not returned")
			}
			var got []response
			answered := map[string]bool{}
			for _, line := range responses(t, out.String()) {
				var errLine []response
				for _, r := range line {
					switch {
					case r.Error != nil && r.Error.Code == -32600:
						errLine = append(errLine, r)
					case r.Result != nil:
						answered[string(r.ID)] = true
					}
				}
				if errLine != nil {
					if got != nil {
						t.Errorf("errors in two lines: %v, then %v", got, errLine)
					}
					got = errLine
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d invalid-request errors, want %d:\n%s", len(got), len(tt.want), out.String())
			}
			for i := range got {
				if string(got[i].ID) != string(tt.want[i].ID) || !strings.HasPrefix(got[i].Error.Message, "ctxpack: ") {
					t.Errorf("error %d: id %s, %q; want id %s", i, got[i].ID, got[i].Error.Message, tt.want[i].ID)
				}
			}
			if !answered["1"] || !answered["9"] {
				t.Errorf("answered %v: want the initialize and the request after the bad line", answered)
			}
			if tt.batch && !answered["7"] {
				t.Errorf("answered %v: want the valid request of the batch", answered)
			}
		})
	}
}

// errs are invalid-request errors with these ids (nil: null).
func errs(ids ...[]byte) []response {
	out := make([]response, len(ids))
	for i, id := range ids {
		if id == nil {
			id = []byte("null")
		}
		out[i].ID = id
	}
	return out
}

// ioSession serves s over pipes, as standard input and output.
type ioSession struct {
	in    *io.PipeWriter
	lines chan response
	done  chan error
}

func startIO(t *testing.T, s *Server, ctx context.Context) *ioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	io := &ioSession{in: inW, lines: make(chan response, 64), done: make(chan error, 1)}
	go func() {
		err := s.RunIO(ctx, inR, outW)
		outW.Close()
		io.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var r response
			if json.Unmarshal(sc.Bytes(), &r) == nil {
				io.lines <- r
			}
		}
		close(io.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return io
}

func (s *ioSession) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := s.in.Write([]byte(l + "\n")); err != nil {
			t.Fatal(err)
		}
	}
}

// answer waits for the response to the request id.
func (s *ioSession) answer(t *testing.T, id string) response {
	t.Helper()
	timeout := time.After(hangGuard)
	for {
		select {
		case r, ok := <-s.lines:
			if !ok {
				t.Fatalf("the session ended without answering request %s", id)
			}
			if string(r.ID) == id {
				return r
			}
		case <-timeout:
			t.Fatalf("no answer to request %s", id)
		}
	}
}

// end waits for RunIO to return.
func (s *ioSession) end(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		return err
	case <-time.After(hangGuard):
		t.Fatal("RunIO has not returned after its context ended")
		return nil
	}
}

// TestRunIOShutdown: when RunIO's context ends (SIGTERM), a request in
// flight finishes and its answer is written before the session closes;
// one still running when the shutdown's time is up is answered with an
// error, and RunIO returns nil either way.
func TestRunIOShutdown(t *testing.T) {
	t.Run("in flight finishes", func(t *testing.T) {
		s, err := New(Options{Dir: testProject(t), ShutdownTimeout: hangGuard})
		if err != nil {
			t.Fatal(err)
		}
		g := newGate(t)
		g.add(s, "slow")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		io := startIO(t, s, ctx)
		io.send(t, strings.Replace(initLine, "%s", "2025-06-18", 1), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
		io.answer(t, "1")
		g.waitStarted(t)
		cancel()
		g.open()
		r := io.answer(t, "2")
		if r.Result == nil || r.Result.IsError || len(r.Result.Content) != 1 || r.Result.Content[0].Text != "slow done" {
			t.Errorf("the request in flight at shutdown: %+v, want its result", r)
		}
		if err := io.end(t); err != nil {
			t.Errorf("RunIO: %v", err)
		}
	})
	t.Run("stuck is answered", func(t *testing.T) {
		s, err := New(Options{Dir: testProject(t), ShutdownTimeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		g := newGate(t)
		g.add(s, "stuck")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		io := startIO(t, s, ctx)
		io.send(t, strings.Replace(initLine, "%s", "2025-06-18", 1), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stuck","arguments":{}}}`)
		io.answer(t, "1")
		g.waitStarted(t)
		cancel()
		r := io.answer(t, "2")
		if r.Error == nil || !strings.Contains(r.Error.Message, "the server shut down before this request finished") {
			t.Errorf("the request stuck at shutdown: %+v, want the shutdown error", r)
		}
		if err := io.end(t); err != nil {
			t.Errorf("RunIO: %v", err)
		}
	})
}
