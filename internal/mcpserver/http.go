package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
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

// HTTPOptions configure the HTTP endpoint.
type HTTPOptions struct {
	// Token, when set, is the bearer token every request must carry
	// (Authorization: Bearer TOKEN).
	Token string
	// SessionTimeout closes sessions idle for that long; 0 means 30 minutes.
	SessionTimeout time.Duration
	// ShutdownTimeout bounds a graceful shutdown; 0 means 10 seconds.
	ShutdownTimeout time.Duration
}

// Handler serves the streamable HTTP transport at /mcp, behind the bearer
// token when there is one, logging each request.
func (s *Server) Handler(o HTTPOptions) http.Handler {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = 30 * time.Minute
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: int64(s.o.MaxRequestBytes),
		SessionTimeout:      o.SessionTimeout,
		Logger:              s.log,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, requireToken(o.Token, h))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "ctxpack: the MCP endpoint is "+Path, http.StatusNotFound)
	})
	return s.logRequests(mux)
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
// gracefully: it closes the MCP sessions (which ends their event
// streams), waits for the requests in flight, and returns nil.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = 10 * time.Second
	}
	srv := &http.Server{
		Handler:           s.Handler(o),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	// A connection that has not sent a request yet (a client's spare
	// connection) would hold Shutdown up for five seconds: those are
	// closed when the shutdown starts, and any accepted after.
	var (
		mu       sync.Mutex
		fresh    = map[net.Conn]struct{}{}
		stopping bool
	)
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case st == http.StateNew && stopping:
			c.Close()
		case st == http.StateNew:
			fresh[c] = struct{}{}
		default:
			delete(fresh, c)
		}
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("mcpserver: %w", err)
	case <-ctx.Done():
	}
	for ss := range s.mcp.Sessions() {
		ss.Close()
	}
	mu.Lock()
	stopping = true
	for c := range fresh {
		c.Close()
	}
	clear(fresh)
	mu.Unlock()
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("mcpserver: %w", serr)
	}
	if err != nil {
		srv.Close()
		return fmt.Errorf("mcpserver: shutdown: %w", err)
	}
	return nil
}
