package http

import (
	"context"
	"net/http"
	"time"
)

// Server wraps net/http with the shop's routes.
type Server struct {
	srv *http.Server
}

// NewServer registers the routes and returns a server listening on addr.
func NewServer(addr string, h http.Handler) *Server {
	mux := http.NewServeMux()
	mux.Handle("/api/", h)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	return &Server{srv: &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
}

// Run serves until ctx is cancelled, then shuts down gracefully, letting
// in-flight requests finish for up to ten seconds.
func (s *Server) Run(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.srv.Shutdown(shutdownCtx)
}
