package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/index"
)

// TestIndexSearchFlags checks flags → options for index and search, with
// the run seams capturing the options instead of running.
func TestIndexSearchFlags(t *testing.T) {
	run := func(t *testing.T, stdin string, args ...string) (*indexOptions, *searchOptions, error) {
		t.Helper()
		g := &globals{}
		ios := &IOStreams{In: strings.NewReader(stdin), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
		root := newRoot(g, ios)
		for _, c := range root.Commands() {
			if c.Name() == "index" || c.Name() == "search" {
				root.RemoveCommand(c)
			}
		}
		var io *indexOptions
		var so *searchOptions
		root.AddCommand(
			newCmdIndex(g, ios, func(o *indexOptions) error { io = o; return nil }),
			newCmdSearch(g, ios, func(o *searchOptions) error { so = o; return o.validate() }),
		)
		root.SetArgs(args)
		root.SetOut(ios.Out)
		root.SetErr(ios.ErrOut)
		return io, so, root.ExecuteContext(context.Background())
	}

	io, _, err := run(t, "", "index")
	if err != nil || io.status || io.flags.file != "" || io.flags.wait != time.Minute {
		t.Errorf("index defaults: %+v, %v", io, err)
	}
	io, _, err = run(t, "", "index", "--status", "--index", "x.db", "--wait", "5s")
	if err != nil || !io.status || io.flags.file != "x.db" || io.flags.wait != 5*time.Second {
		t.Errorf("index flags: %+v, %v", io, err)
	}
	_, so, err := run(t, "", "search", "HTTPServer")
	if err != nil || so.query != "HTTPServer" || so.k != 10 || so.files || so.explain || so.noUpdate {
		t.Errorf("search defaults: %+v, %v", so, err)
	}
	_, so, err = run(t, "", "search", "q", "--k", "3", "--files", "--explain", "--no-update", "--format", "json")
	if err != nil || so.k != 3 || !so.files || !so.explain || !so.noUpdate || so.g.format != "json" {
		t.Errorf("search flags: %+v, %v", so, err)
	}
	_, so, err = run(t, "invoice rounding\n", "search", "-")
	if err != nil || so.query != "invoice rounding\n" {
		t.Errorf("search -: %+v, %v", so, err)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		err   string
	}{
		{"", []string{"search"}, "accepts 1 arg"},
		{"", []string{"search", "q", "--k", "0"}, "--k must be positive"},
		{"", []string{"search", "q", "--format", "xml"}, "--format must be text or json"},
		{"  \n", []string{"search", "-"}, "the query is empty"},
		{"", []string{"index", "extra"}, "unknown command"},
	} {
		if _, _, err := run(t, tc.stdin, tc.args...); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
		}
	}
}

// TestEmbedLine: the chunks given a vector, not the vectors made (chunks
// with the same text share one), and how many of the chunks have one.
func TestEmbedLine(t *testing.T) {
	tests := []struct {
		es   index.EmbedStats
		want string
	}{
		{index.EmbedStats{Embedder: "e", Chunks: 10, Embedded: 3, Covered: 4, Missing: 2, Stale: 2, Deleted: 1},
			"embedded 4 of 10 chunks with e in 1.23s (3 new vectors, 1 stale vectors deleted); 8 of 10 chunks have vectors"},
		{index.EmbedStats{Embedder: "e", Chunks: 10},
			"embedded 0 of 10 chunks with e in 1.23s (0 new vectors, 0 stale vectors deleted); 10 of 10 chunks have vectors"},
	}
	for _, tt := range tests {
		if got := embedLine(&tt.es, 1234*time.Millisecond); got != tt.want {
			t.Errorf("embedLine(%+v)\n got %q\nwant %q", tt.es, got, tt.want)
		}
	}
}
