package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hangGuard bounds what a test waits for: far longer than any of it
// takes, so that what used to hang fails instead of hanging the run.
const hangGuard = time.Minute

// gate is a tool for tests that, once called, signals started and waits
// for release, heeding no context: it stands for work that is stuck
// (reading a named pipe) or slow.
type gate struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{started: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

// add adds the gate to s as the tool name.
func (g *gate) add(s *Server, name string) {
	mcp.AddTool(s.MCP(), &mcp.Tool{Name: name, Description: "test"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		g.started <- struct{}{}
		<-g.release
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil, nil
	})
}

// waitStarted waits for the gate's tool to be called.
func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(hangGuard):
		t.Fatal("the tool was not called")
	}
}

// callGuarded calls a tool, failing the test when no answer comes.
func callGuarded(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if ctx.Err() != nil {
		t.Fatalf("%s: no answer after %s", name, hangGuard)
	}
	if err != nil {
		return nil, err.Error()
	}
	if res.IsError {
		return res, text(res)
	}
	return res, ""
}

// TestTimeoutStuckWork: the time limit holds for work that heeds no
// context: the request is answered with the time-limit error, and its
// slot is freed, so that the next request (with one slot, the same stuck
// tool) is served and answered too: had the slot stayed taken, it would
// wait for it without end.
func TestTimeoutStuckWork(t *testing.T) {
	s, err := New(Options{Dir: testProject(t), Timeout: 200 * time.Millisecond, MaxConcurrent: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := newGate(t)
	g.add(s, "stuck")
	cs := connectServer(t, s)
	for i := range 3 {
		_, msg := callGuarded(t, cs, "stuck", map[string]any{})
		if !strings.Contains(msg, "took longer than the server's limit of 200ms") {
			t.Errorf("call %d of a stuck tool: %q, want the time-limit error", i+1, msg)
		}
	}
}

// TestTokensToolSpecialFiles: the tokens tool never reads what is not a
// regular file (a named pipe would block it for ever) nor a file over
// its limit: each is skipped with the reason.
func TestTokensToolSpecialFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes")
	}
	dir := testProject(t)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "big.txt"), 1<<30); err != nil {
		t.Fatal(err)
	}
	_, cs := connect(t, Options{Dir: dir})
	res, msg := callGuarded(t, cs, "tokens", map[string]any{"paths": []string{"pipe", "big.txt", "src/auth/login.ts"}})
	if msg != "" {
		t.Fatalf("tokens: %s", msg)
	}
	var rep struct {
		Files   []struct{ Path string }
		Skipped []struct{ Path, Reason string }
	}
	structured(t, res, &rep)
	want := map[string]string{"pipe": "a named pipe (FIFO), not a regular file", "big.txt": "too large (1 GiB > 256 MiB limit)"}
	if len(rep.Files) != 1 || len(rep.Skipped) != 2 {
		t.Fatalf("tokens: %+v, want login.ts counted, pipe and big.txt skipped", rep)
	}
	for _, sk := range rep.Skipped {
		if !strings.Contains(sk.Reason, want[sk.Path]) {
			t.Errorf("skipped %s: %q, want %q", sk.Path, sk.Reason, want[sk.Path])
		}
	}
}

// connectServer connects a client to s over in-memory transports.
func connectServer(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}
