// Package mcpserver serves a ctxpack project to agents over the Model
// Context Protocol: assembly (of a task, paths, free text, sources and
// premortems), search, artifact reads, checks, token counts, the store
// of memories, experiences and values, and the evidence workspace (ctx/)
// as tools, the project's artifacts and the last assembly plan as
// resources, and three prompts.
//
// It is a thin layer over the ctxpack facade: every answer is the one the
// CLI gives for the same inputs. What it adds is what a server needs: the
// project root fixed at start, every path confined to it, bounded
// requests (size, budget, time, concurrency), a read-only mode without
// write tools, and errors a model can act on.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Defaults of Options.
const (
	DefaultMaxRequestBytes = 1 << 20
	DefaultMaxBudget       = 1_000_000
	DefaultTimeout         = 2 * time.Minute
	// DefaultShutdownTimeout is how long requests in flight may take to
	// finish once the server is told to stop.
	DefaultShutdownTimeout = 10 * time.Second
	// maxPlans is how many sessions' last plans are kept.
	maxPlans = 256
)

// Options configure a Server.
type Options struct {
	// Dir is the directory the project is found from (walking up like git);
	// its root is fixed for the server's life.
	Dir string
	// Config names another configuration file, as app.Open takes it.
	Config string
	// ReadOnly leaves out every tool that writes, and assembles without
	// writing under the project: no index update, no assembly cache, no
	// budget records (SQLite may create the -wal and -shm companions of
	// an index it reads).
	ReadOnly bool
	// MaxRequestBytes bounds a request's arguments (and, over HTTP, its
	// body); 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// MaxBudget bounds the token budget a request may ask for; 0 means
	// DefaultMaxBudget.
	MaxBudget int
	// Timeout bounds the time a request may take; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxConcurrent bounds the requests served at once (the others wait);
	// 0 means twice GOMAXPROCS.
	MaxConcurrent int
	// ShutdownTimeout is how long the requests in flight may take to
	// finish and answer when the server is told to stop (RunIO's and
	// ServeHTTP's context ends); those still running then are answered
	// with an error. 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Version is the server's version, as reported to clients.
	Version string
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
}

// Server is a ctxpack project served over MCP.
type Server struct {
	o     Options
	root  string
	mcp   *mcp.Server
	slots chan struct{}
	// abort is closed when the shutdown's time is up: the requests still
	// running are answered with an error.
	abort     chan struct{}
	abortOnce sync.Once
	log       *slog.Logger
	tools     []string // names, in the order they were added
	// evidence serializes the evidence tools that change a workspace
	// (numbering a new file, renaming) against each other and against
	// those that read one.
	evidence sync.RWMutex

	initMu sync.Mutex // serves HTTP initialize requests one at a time

	// stores keeps the PostgreSQL stores the requests open, for the
	// server's life (app.Project.StorePool).
	stores app.StorePool

	mu    sync.Mutex
	plans map[any]*app.Plan // the last plan of each session, by sessionKey
	order []any             // session keys, oldest plan first
}

// New opens the project found from o.Dir and makes its server.
func New(o Options) (*Server, error) {
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.MaxBudget <= 0 {
		o.MaxBudget = DefaultMaxBudget
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p, err := app.Open(o.Dir, o.Config)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	s := &Server{o: o, root: p.Root, slots: make(chan struct{}, o.MaxConcurrent), abort: make(chan struct{}), log: log, plans: map[any]*app.Plan{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "ctxpack", Title: "ctxpack", Version: o.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       slog.New(minLevel{log.Handler(), slog.LevelWarn}), // the SDK's info is noise
		Capabilities: &mcp.ServerCapabilities{},
	})
	s.mcp.AddReceivingMiddleware(s.bound)
	s.addTools()
	s.addResources()
	s.addPrompts()
	return s, nil
}

const instructions = `ctxpack assembles the context for a piece of work in this repository, fitted exactly to a token budget, the same bytes every time, with the reason each part is there.

Start with the context tool: a task id (TASK-042: the task, the specs, decisions and norms its links reach, and the code their paths name), a file or directory of the project, or free text (a question, an error, a stack trace: the repository is searched). Its text is the context; its structured result is the plan: every part with path, lines, level and why, what was dropped and why, and a digest that is the same for the same inputs. A part shown at less than whole names the way to the rest in its header: for full: ctxpack summarize PATH:START-END --depth full, call context with target PATH:START-END, which gives those lines of the file.

search ranks chunks for a query; artifacts lists, shows, checks and explains the artifacts; tokens counts tokens; store reads the memories, experiences and values (.ctxpack/sources.db) and gives a premortem of a domain; evidence reads a workspace of hand-picked context (ctx/). The write tools: index, baseline, store_edit, evidence_edit. A tool of several actions takes action and that action's arguments, as its description lists them. Paths are relative to the project root.`

// MCP is the underlying MCP server, for transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Root is the project root the server serves.
func (s *Server) Root() string { return s.root }

// Tools are the names of the tools the server lists.
func (s *Server) Tools() []string { return append([]string(nil), s.tools...) }

// bound is the middleware that bounds every request: the size of its
// arguments, the requests served at once, and its time.
//
// The time limit holds even for work that does not heed its context: the
// request is answered with the time-limit error when its time is up, and
// its slot is freed for the next, while the work goes on in the
// background until it ends (it is logged). So does the shutdown: when its
// time is up, every request still running is answered with an error.
func (s *Server) bound(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var size int
		switch p := req.GetParams().(type) {
		case *mcp.CallToolParamsRaw:
			size = len(p.Arguments)
		case *mcp.GetPromptParams:
			for k, v := range p.Arguments {
				size += len(k) + len(v)
			}
		case *mcp.ReadResourceParams:
			size = len(p.URI)
		default:
			return next(ctx, method, req)
		}
		if size > s.o.MaxRequestBytes {
			return nil, fmt.Errorf("ctxpack: the request's arguments are %d bytes, over the server's limit of %d: send a shorter query or fewer paths", size, s.o.MaxRequestBytes)
		}
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.abort:
			return nil, errShutdown
		}
		ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
		defer cancel()
		start := time.Now()
		type answer struct {
			res mcp.Result
			err error
		}
		done := make(chan answer, 1)
		go func() {
			res, err := next(ctx, method, req)
			done <- answer{res, err}
		}()
		var res mcp.Result
		var err error
		finished := false
		select {
		case a := <-done:
			res, err, finished = a.res, a.err, true
		case <-ctx.Done():
			err = ctx.Err()
		case <-s.abort:
			err = errShutdown
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && (err != nil || isToolError(res)) {
			err = fmt.Errorf("ctxpack: the request took longer than the server's limit of %s: ask for less (a smaller budget, fewer paths, a narrower query)", s.o.Timeout)
			res = nil
		}
		if !finished {
			s.log.LogAttrs(ctx, slog.LevelWarn, "request abandoned: answered with an error, its work goes on until it ends",
				slog.String("method", method), slog.String("tool", toolName(req)), slog.Duration("took", time.Since(start)))
		}
		s.log.LogAttrs(ctx, slog.LevelDebug, "request", slog.String("method", method), slog.Int("bytes", size),
			slog.Duration("took", time.Since(start)), slog.Bool("error", err != nil || isToolError(res)))
		return res, err
	}
}

// errShutdown answers the requests still running when the shutdown's
// time is up.
var errShutdown = &jsonrpc.Error{Code: codeServerError, Message: "ctxpack: the server shut down before this request finished: send it again once the server is back"}

// stopRequests answers every request still running with errShutdown, and
// every request waiting for a slot.
func (s *Server) stopRequests() {
	s.abortOnce.Do(func() { close(s.abort) })
}

// toolName is the tool a request calls, if it calls one.
func toolName(req mcp.Request) string {
	if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
		return p.Name
	}
	return ""
}

func isToolError(r mcp.Result) bool {
	c, ok := r.(*mcp.CallToolResult)
	return ok && c != nil && c.IsError
}

// open opens the project for one request: each request sees the files as
// they are when it arrives.
func (s *Server) open() (*app.Project, error) {
	p, err := app.Open(s.root, s.o.Config)
	if err != nil {
		return nil, s.fail(err)
	}
	p.StorePool = &s.stores
	return p, nil
}

// Close closes what the server keeps open between requests: the
// connections to a PostgreSQL store. Call it once serving has ended.
func (s *Server) Close() error { return s.stores.Close() }

// fail makes an error a model can act on: the project root is shown as
// "the project root" rather than as a path of the server's machine, and
// the package prefix is ctxpack's.
func (s *Server) fail(err error) error {
	msg := err.Error()
	sep := string(filepath.Separator)
	msg = strings.ReplaceAll(msg, s.root+sep, "")
	msg = strings.ReplaceAll(msg, "the project root "+s.root, "the project root")
	msg = strings.ReplaceAll(msg, s.root, "the project root")
	msg = outsideTarget.ReplaceAllString(msg, "")
	msg = strings.ReplaceAll(msg, "ctxpack list shows", "the artifacts tool's list action shows")
	for _, pre := range []string{"ctxpack: ", "project: ", "render: ", "pack: ", "graph: ", "artifact: ", "store: "} {
		msg = strings.TrimPrefix(msg, pre)
	}
	return errors.New("ctxpack: " + msg)
}

// outsideTarget is where a symlink out of the project leads, which is
// none of the client's business.
var outsideTarget = regexp.MustCompile(` \(to [^)]*\)`)

// setPlan keeps the last plan of a session, for the plan resource.
func (s *Server) setPlan(ss *mcp.ServerSession, plan *app.Plan) {
	id := sessionKey(ss)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.plans[id]; !ok {
		s.order = append(s.order, id)
		if len(s.order) > maxPlans {
			delete(s.plans, s.order[0])
			s.order = s.order[1:]
		}
	}
	s.plans[id] = plan
}

func (s *Server) lastPlan(ss *mcp.ServerSession) *app.Plan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.plans[sessionKey(ss)]
}

// sessionKey tells sessions apart: by id over HTTP, and by the session
// itself over transports whose sessions have none (stdio, in memory).
func sessionKey(ss *mcp.ServerSession) any {
	if ss == nil {
		return nil
	}
	if id := ss.ID(); id != "" {
		return id
	}
	return ss
}

// minLevel passes on the records of level min and above.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(a), h.min}
}
func (h minLevel) WithGroup(n string) slog.Handler { return minLevel{h.Handler.WithGroup(n), h.min} }

// invalid is a JSON-RPC error for a request's bad arguments.
func invalid(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
}

// notFound is a JSON-RPC error for a resource that is not there, with a
// message that says what is.
func notFound(uri string, err error) error {
	return &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: err.Error(), Data: json.RawMessage(jsonText(map[string]string{"uri": uri}))}
}

// jsonText is v as indented json, for text content: as the CLI prints
// it (app.EncodeJSON).
func jsonText(v any) string {
	b, err := app.EncodeJSON(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
