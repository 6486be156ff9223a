package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzLineReader: whatever arrives on standard input, the reader passes
// on exactly its valid JSON lines of at most max bytes, in order, answers
// every other non-blank line with one error, and never panics.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\nnot json\n\n{\"b\":2}"), 8)
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\r\n[1,2]\n\"s\"\n"), 1)
	f.Add([]byte("{\"long\":\""+strings.Repeat("x", 100)+"\"}\n{}\n"), 16)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		if chunk <= 0 || chunk > 1<<16 {
			chunk = 1
		}
		const max = 64
		var out bytes.Buffer
		w := &countingWriter{w: &out, l: &ledger{done: make(chan struct{}, 1)}}
		r := &lineReader{r: &chunked{data: data, n: chunk}, out: w, l: w.l, max: max, wait: time.Millisecond, ctx: context.Background()}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		errs := 0
		for _, line := range bytes.Split(data, []byte("\n")) {
			trimmed := bytes.TrimSpace(line)
			switch {
			case len(line) > max:
				errs++
			case len(trimmed) == 0:
			case !json.Valid(trimmed):
				errs++
			default:
				want.Write(trimmed)
				want.WriteByte('\n')
			}
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("passed on %q, want %q", got, want.Bytes())
		}
		if n := bytes.Count(out.Bytes(), []byte("\n")); n != errs {
			t.Errorf("%d error lines (%q), want %d", n, out.Bytes(), errs)
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
