package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the streamable HTTP endpoint is served.
const Path = "/mcp"

// Defaults of HTTPOptions.
const (
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxSessions    = 100
	// DefaultReadTimeout bounds the reading of a request, headers and
	// body; DefaultIdleTimeout closes a kept-alive connection that sends
	// no request for that long.
	DefaultReadTimeout = 30 * time.Second
	DefaultIdleTimeout = 2 * time.Minute
	// maxHeaderBytes bounds a request's headers.
	maxHeaderBytes = 64 << 10
	// readHeaderTimeout bounds the reading of a request's headers.
	readHeaderTimeout = 10 * time.Second
)

// HTTPOptions configure the HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN).
	Token string
	// SessionTimeout closes sessions idle for that long; 0 means
	// DefaultSessionTimeout.
	SessionTimeout time.Duration
	// MaxSessions bounds the sessions open at once: a client that would
	// open one more is refused (503) until one closes; 0 means
	// DefaultMaxSessions.
	MaxSessions int
	// ReadTimeout bounds the reading of a request, its headers and body:
	// a client that sends them slower is cut off; 0 means
	// DefaultReadTimeout.
	ReadTimeout time.Duration
	// IdleTimeout closes a kept-alive connection that sends no request
	// for that long; 0 means DefaultIdleTimeout.
	IdleTimeout time.Duration
}

func (o *HTTPOptions) defaults() {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
}

// Handler serves the streamable HTTP transport at /mcp, behind the bearer
// token when there is one, logging each request. It reads each request's
// body whole (up to MaxRequestBytes) before serving it, and bounds the
// sessions open at once; ServeHTTP adds the limits of the connections.
func (s *Server) Handler(o HTTPOptions) http.Handler {
	return s.handler(o, newConns())
}

func (s *Server) handler(o HTTPOptions, cs *conns) http.Handler {
	o.defaults()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: int64(s.o.MaxRequestBytes),
		SessionTimeout:      o.SessionTimeout,
		Logger:              s.log,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, requireToken(o.Token, s.readBody(cs, s.limitSessions(o, h))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "ctxpack: the MCP endpoint is "+Path, http.StatusNotFound)
	})
	return s.logRequests(cs.refuseStopping(mux))
}

// conns keeps the state of the server's connections, for a shutdown
// that lets the requests in flight finish and closes every other
// connection at once.
type conns struct {
	mu       sync.Mutex
	state    map[net.Conn]*connState
	stopping bool
	inflight int           // requests being served (not event streams)
	idle     chan struct{} // signalled when inflight drops to 0
}

type connState struct {
	http.ConnState
	serving bool // a request of it is past its body, being served
	closed  bool // closed by the shutdown
}

func newConns() *conns {
	return &conns{state: map[net.Conn]*connState{}, idle: make(chan struct{}, 1)}
}

type connKey struct{}

// track follows a connection's state (http.Server.ConnState): a new
// connection after the shutdown started is closed at once.
func (cs *conns) track(c net.Conn, st http.ConnState) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(cs.state, c)
	case http.StateNew:
		if cs.stopping {
			c.Close()
			return
		}
		cs.state[c] = &connState{ConnState: st}
	default:
		if info := cs.state[c]; info != nil {
			info.ConnState = st
		}
	}
}

// stop starts the shutdown: from now on requests are refused, and every
// connection that is not serving a request is closed: those waiting for
// a request (new or kept alive), and those still sending one, however
// slowly, or having been refused.
func (cs *conns) stop() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.stopping = true
	for c, info := range cs.state {
		if !info.serving {
			info.closed = true
			c.Close()
		}
	}
}

// serve marks the request's connection as serving it, unless the
// shutdown closed it; done ends that.
func (cs *conns) serve(r *http.Request) (ok bool) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	info := cs.state[c]
	if info != nil && info.closed {
		return false
	}
	if info != nil {
		info.serving = true
	}
	if r.Method != http.MethodGet {
		cs.inflight++
	}
	return true
}

func (cs *conns) done(r *http.Request) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if info := cs.state[c]; info != nil {
		info.serving = false
	}
	if r.Method != http.MethodGet {
		if cs.inflight--; cs.inflight == 0 {
			select {
			case cs.idle <- struct{}{}:
			default:
			}
		}
	}
}

// settled reports whether no request is being served.
func (cs *conns) settled() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.inflight == 0
}

// refuseStopping refuses the requests that arrive once the shutdown has
// started.
func (cs *conns) refuseStopping(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.mu.Lock()
		stopping := cs.stopping
		cs.mu.Unlock()
		if stopping {
			w.Header().Set("Connection", "close")
			http.Error(w, "ctxpack: the server is shutting down", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads the request's body whole, up to MaxRequestBytes, while
// the server's ReadTimeout holds, then lifts that deadline: the request
// may take as long as --timeout lets it, and an event stream lasts. A
// request being served is one the shutdown lets finish.
func (s *Server) readBody(cs *conns, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(s.o.MaxRequestBytes)))
			var tooLarge *http.MaxBytesError
			switch {
			case errors.As(err, &tooLarge):
				w.Header().Set("Connection", "close")
				http.Error(w, fmt.Sprintf("ctxpack: the request body is over the server's limit of %d bytes (--max-request-bytes): send a shorter request", s.o.MaxRequestBytes), http.StatusRequestEntityTooLarge)
				return
			case err != nil:
				w.Header().Set("Connection", "close")
				http.Error(w, "ctxpack: the request body was not read in time: "+err.Error(), http.StatusRequestTimeout)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		if err := http.NewResponseController(w).SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return // the connection is gone
		}
		if !cs.serve(r) {
			return // the shutdown closed its connection
		}
		defer cs.done(r)
		next.ServeHTTP(w, r)
	})
}

// limitSessions refuses an initialize request (the request that opens a
// lasting session) when the server holds o.MaxSessions initialized
// sessions. Initialize requests are served one at a time (they are quick:
// the body is read already), so that two cannot both take the last
// place. Other requests without a session (server/discover) get a session
// only for their own time: they are not counted.
func (s *Server) limitSessions(o HTTPOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body) // read whole by readBody
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m message
		if json.Unmarshal(body, &m) != nil || m.Method != "initialize" {
			next.ServeHTTP(w, r)
			return
		}
		s.initMu.Lock()
		defer s.initMu.Unlock()
		open := 0
		for ss := range s.mcp.Sessions() {
			if ss.InitializeParams() != nil {
				open++
			}
		}
		if open >= o.MaxSessions {
			s.log.Warn("session refused: the server holds its limit of sessions", "max_sessions", o.MaxSessions, "remote", r.RemoteAddr)
			// 503, with the error as a JSON-RPC response to the request, for
			// the clients that show it.
			data, _ := json.Marshal(errorResponse(requestID(body), codeServerError, fmt.Sprintf(
				"ctxpack: the server holds its limit of %d sessions (--max-sessions): close a session you no longer use (an idle one closes after %s), or raise --max-sessions",
				o.MaxSessions, o.SessionTimeout)))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write(append(data, '\n'))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// requireToken refuses requests without the bearer token; an empty token
// lets every request through.
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ctxpack"`)
			// Its body is not read: the connection closes after the
			// answer, at once rather than once the client sends it all.
			w.Header().Set("Connection", "close")
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
			http.Error(w, "ctxpack: this server needs the bearer token of its --token-file (Authorization: Bearer TOKEN)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// recorder remembers a response's status and size, and passes flushes
// through (the event streams need them).
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests logs each request when it ends: method, path, status,
// bytes, time and session.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		level := slog.LevelInfo
		if rec.status >= 400 {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(r.Context(), level, "http", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.status), slog.Int("bytes", rec.bytes), slog.Duration("took", time.Since(start)),
			slog.String("session", r.Header.Get("Mcp-Session-Id")), slog.String("remote", r.RemoteAddr))
	})
}

// ListenAddr is addr with a loopback host when it names none (":8080"
// and "8080" listen on 127.0.0.1:8080). A host that is not loopback needs
// a token: an open endpoint is never exposed by accident.
func ListenAddr(addr string, token bool) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mcpserver: --http %s: want HOST:PORT, for example 127.0.0.1:8765", addr)
	}
	if host == "" || host == "localhost" {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	if (ip == nil || !ip.IsLoopback()) && !token {
		return "", fmt.Errorf("mcpserver: --http %s listens beyond this machine; give --token-file so that only holders of the token are served, or listen on 127.0.0.1", addr)
	}
	return net.JoinHostPort(host, port), nil
}

// ServeHTTP serves the endpoint on ln until ctx ends, then shuts down
// gracefully: it refuses new requests, closes every connection that is
// not serving one (idle, or still sending its request, however slowly),
// lets the requests in flight finish and answer for up to
// Options.ShutdownTimeout (then answers those still running with an
// error), closes the MCP sessions (which ends their event streams), and
// returns nil.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	o.defaults()
	cs := newConns()
	srv := &http.Server{
		Handler:           s.handler(o, cs),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       o.ReadTimeout, // lifted once a request's body is read
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnState:         cs.track,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("mcpserver: %w", err)
	case <-ctx.Done():
	}
	cs.stop()
	shut := make(chan error, 1)
	sctx, cancel := context.WithTimeout(context.Background(), s.o.ShutdownTimeout+abortWait+5*time.Second)
	defer cancel()
	go func() { shut <- srv.Shutdown(sctx) }() // closes ln, then the connections as they go idle

	// The requests in flight finish, or are answered with an error when
	// the time is up.
	grace := time.NewTimer(s.o.ShutdownTimeout)
	defer grace.Stop()
wait:
	for !cs.settled() {
		select {
		case <-cs.idle:
		case <-grace.C:
			s.stopRequests()
			t := time.NewTimer(abortWait)
			defer t.Stop()
			for !cs.settled() {
				select {
				case <-cs.idle:
				case <-t.C:
					break wait
				}
			}
		}
	}
	for ss := range s.mcp.Sessions() {
		ss.Close()
	}
	err := <-shut
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("mcpserver: %w", serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("mcpserver: shutdown: %w", err)
	}
	return nil
}
