package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is ServeHTTP running on a loopback port.
type httpServer struct {
	addr   string
	cancel context.CancelFunc
	done   chan struct{} // closed when ServeHTTP has returned err
	err    error
}

func startHTTP(t *testing.T, s *Server, o HTTPOptions) *httpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	hs := &httpServer{addr: ln.Addr().String(), cancel: cancel, done: make(chan struct{})}
	go func() {
		hs.err = s.ServeHTTP(ctx, ln, o)
		close(hs.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-hs.done:
		case <-time.After(hangGuard):
		}
	})
	return hs
}

// stop ends the server's context (SIGTERM) and returns what ServeHTTP
// returns.
func (hs *httpServer) stop(t *testing.T) error {
	t.Helper()
	hs.cancel()
	select {
	case <-hs.done:
		return hs.err
	case <-time.After(hangGuard):
		t.Fatal("ServeHTTP has not returned after its context ended")
		return nil
	}
}

// dial opens a raw connection to the server, its reads bounded by the
// hang guard.
func (hs *httpServer) dial(t *testing.T) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", hs.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetReadDeadline(time.Now().Add(hangGuard))
	return c
}

// closedByServer reads c to its end: it reports an error when the server
// did not close the connection before the hang guard.
func closedByServer(c net.Conn) error {
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return errors.New("the server kept the connection open")
	}
	return nil
}

// slowPost starts a POST to /mcp whose body never comes whole.
func slowPost(t *testing.T, c net.Conn, auth string) {
	t.Helper()
	req := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
		auth + "Content-Length: 1000\r\n\r\n{\"jsonrpc\":"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPSlowClients: a client that sends its request's body slower
// than the read timeout is cut off, with the token or without; a
// kept-alive connection that sends no more requests is closed after the
// idle timeout. (Before, either held its connection open for ever.)
func TestHTTPSlowClients(t *testing.T) {
	s, err := New(Options{Dir: testProject(t)})
	if err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, s, HTTPOptions{Token: "t0ken", ReadTimeout: 200 * time.Millisecond, IdleTimeout: 200 * time.Millisecond})
	for _, tt := range []struct{ name, auth string }{
		{"without the token", ""},
		{"with the token", "Authorization: Bearer t0ken\r\n"},
	} {
		c := hs.dial(t)
		slowPost(t, c, tt.auth)
		if err := closedByServer(c); err != nil {
			t.Errorf("a slow body %s: %v", tt.name, err)
		}
	}
	c := hs.dial(t)
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /: %v, %v", resp, err)
	}
	if err := closedByServer(c); err != nil {
		t.Errorf("an idle kept-alive connection: %v", err)
	}
}

// TestHTTPLimits: headers over 64 KiB and a body over the request limit
// are refused with their status and a message that says what to change.
func TestHTTPLimits(t *testing.T) {
	s, err := New(Options{Dir: testProject(t), MaxRequestBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, s, HTTPOptions{})
	req, _ := http.NewRequest("POST", "http://"+hs.addr+Path, strings.NewReader("{}"))
	req.Header.Set("X-Big", strings.Repeat("x", 100<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("100 KiB of headers: %s, want 431", resp.Status)
	}
	req, _ = http.NewRequest("POST", "http://"+hs.addr+Path, strings.NewReader(strings.Repeat(" ", 2000)+"{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(body), "--max-request-bytes") {
		t.Errorf("a body over the limit: %s %q, want 413 naming --max-request-bytes", resp.Status, body)
	}
}

// httpClient connects an MCP client to the server.
func httpClient(t *testing.T, hs *httpServer) (*mcp.ClientSession, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + hs.addr + Path, HTTPClient: &http.Client{Transport: tr}}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// TestHTTPMaxSessions: a client that would open a session past the limit
// is refused with a message that names the limit and what to do; once a
// session closes, a new one opens.
func TestHTTPMaxSessions(t *testing.T) {
	s, err := New(Options{Dir: testProject(t)})
	if err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, s, HTTPOptions{MaxSessions: 2})
	var open []*mcp.ClientSession
	for i := range 2 {
		cs, err := httpClient(t, hs)
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		open = append(open, cs)
	}
	if _, err = httpClient(t, hs); err == nil {
		t.Fatal("a third session opened, past the limit of 2")
	}
	// What the refusal says, for the clients that show it.
	req, _ := http.NewRequest("POST", "http://"+hs.addr+Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"id":1`) ||
		!strings.Contains(string(body), "the server holds its limit of 2 sessions (--max-sessions)") {
		t.Errorf("a third session: %s %s, want 503 and a JSON-RPC error naming the limit", resp.Status, body)
	}
	open[0].Close()
	if _, err := httpClient(t, hs); err != nil {
		t.Errorf("a session after one closed: %v", err)
	}
}

// TestHTTPShutdownSlowClient: a client still sending its request, however
// slowly, does not hold the shutdown up: ServeHTTP closes its connection
// and returns nil. (Before, it waited out its shutdown timeout and
// returned an error: serve exited 1.)
func TestHTTPShutdownSlowClient(t *testing.T) {
	s, err := New(Options{Dir: testProject(t)})
	if err != nil {
		t.Fatal(err)
	}
	hs := startHTTP(t, s, HTTPOptions{Token: "t0ken"})
	slow := hs.dial(t)
	slowPost(t, slow, "Authorization: Bearer t0ken\r\n")
	refused := hs.dial(t)
	slowPost(t, refused, "")
	if resp, err := http.ReadResponse(bufio.NewReader(refused), nil); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a request without the token: %v, %v", resp, err)
	}
	// The refused request was answered: the server has it in hand, and
	// waits for the rest of its body.
	if err := hs.stop(t); err != nil {
		t.Errorf("ServeHTTP with slow clients: %v", err)
	}
}

// TestHTTPShutdownInFlight: when ServeHTTP's context ends (SIGTERM), a
// request in flight finishes and its whole answer reaches the client
// before the session closes; ServeHTTP returns nil. (Before, the session
// was closed first: a 200 with an empty body.)
func TestHTTPShutdownInFlight(t *testing.T) {
	s, err := New(Options{Dir: testProject(t)})
	if err != nil {
		t.Fatal(err)
	}
	g := newGate(t)
	g.add(s, "slow")
	hs := startHTTP(t, s, HTTPOptions{})
	cs, err := httpClient(t, hs)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		res *mcp.CallToolResult
		msg string
	}
	got := make(chan answer, 1)
	go func() {
		res, msg := callGuardedNoFatal(cs, "slow")
		got <- answer{res, msg}
	}()
	g.waitStarted(t)
	stopped := make(chan error, 1)
	go func() { stopped <- hs.stop(t) }()
	waitStopping(t, hs)
	g.open()
	a := <-got
	if a.msg != "" || text(a.res) != "slow done" {
		t.Errorf("the request in flight at shutdown: %q, %q; want its result", text(a.res), a.msg)
	}
	if err := <-stopped; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
}

// callGuardedNoFatal is callGuarded for other goroutines than the test's.
func callGuardedNoFatal(cs *mcp.ClientSession, name string) (*mcp.CallToolResult, string) {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		return nil, err.Error()
	}
	if res.IsError {
		return res, text(res)
	}
	return res, ""
}

// waitStopping waits until the server refuses new connections: the
// shutdown has started.
func waitStopping(t *testing.T, hs *httpServer) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", hs.addr)
		if err != nil {
			return
		}
		c.SetReadDeadline(time.Now().Add(hangGuard))
		_, err = c.Write([]byte("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
		if err == nil {
			var resp *http.Response
			resp, err = http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil && resp.StatusCode == http.StatusServiceUnavailable {
				err = os.ErrClosed
			}
		}
		c.Close()
		if err != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the server did not start its shutdown")
}
