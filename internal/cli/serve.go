package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/mcpserver"
	"github.com/spf13/cobra"
)

// ServeOptions are the options of 'ctxpack serve'.
type ServeOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals

	HTTP            string
	TokenFile       string
	ReadOnly        bool
	Timeout         time.Duration
	MaxRequestBytes int
	MaxBudget       int
	MaxConcurrent   int
	MaxSessions     int
	SessionTimeout  time.Duration
	ShutdownTimeout time.Duration
	LogLevel        string
	LogFormat       string

	httpOnly bool // --max-sessions or --session-timeout was given
}

const serveLong = `Serve the project to AI agents over the Model Context Protocol (MCP).

Without --http, one client talks to ctxpack over standard input and output:
that is how Claude Code, Cursor and Codex start a local server. With --http
ADDR, any number of clients connect to the streamable HTTP endpoint at
http://ADDR/mcp.

Tools (reads):  context (a task, paths or free text; sources; packs),
                search, artifacts (list, show, check, explain), tokens,
                store (list, show, derive, premortem), evidence (plan,
                stale, deps)
Tools (writes): index, baseline (accept the current check findings),
                store_edit (add, remove), evidence_edit (add, toggle, rank,
                rebase, remove, focus, assemble); --read-only leaves them out
Resources:      ctxpack://identity, ctxpack://artifacts (the index),
                ctxpack://artifact/{id}, ctxpack://plan/last (this session's
                last assembly plan)
Prompts:        work_on_task, review_against_norms, explain_context

Every answer is the CLI's: the context tool's digest is the one 'ctxpack
context TARGET --format json' prints for the same arguments. The project root
is fixed at start; every path in a request is relative to it, and a path that
leaves it (.., an absolute path, a symlink out) is refused. Requests are
bounded in size (--max-request-bytes), budget (--max-budget), time
(--timeout: the request is answered with an error then, even if its work
is stuck) and how many run at once (--max-concurrent; the others wait).
A path that names no regular file (a named pipe, a device) is refused, and
files are read whole only up to a limit (tokens: 256 MiB; summaries, packs
and evidence: walk.max_file_bytes).

--read-only also assembles without writing under the project: retrieval
searches the index as it is (build it first with 'ctxpack index'), and no
assembly cache or budget record is written. (Reading an index makes SQLite
create its index.db-wal and index.db-shm companions when they are missing.)

HTTP listens on loopback unless ADDR names another host, which needs
--token-file: the file holds a bearer token that every request must carry
(Authorization: Bearer TOKEN). A client must send its request (headers and
body) within 30 seconds, and a kept-alive connection without requests is
closed after 2 minutes; headers are limited to 64 KiB. At most
--max-sessions sessions are open at once (a client past that is refused
with 503 until one closes), and a session idle for --session-timeout is
closed. Each request is logged to standard error (--log-level,
--log-format).

With a team's PostgreSQL store (store: in the configuration; docs/team.md)
the server keeps up to 16 connections to it open between requests. While
the database is down, requests that need the store fail with an error
saying it cannot be reached, the others are answered as usual, and once
it is back the next requests connect again: no restart is needed.

SIGINT or SIGTERM shuts the server down gracefully: no new request is
read, the requests in flight get --shutdown-timeout to finish and answer
(those still running then are answered with an error), then the sessions
are closed and serve exits 0.`

// NewCmdServe is 'ctxpack serve': the project, to agents over MCP.
func NewCmdServe(f *cmdutil.Factory, runF func(*ServeOptions) error) *cobra.Command {
	o := &ServeOptions{IO: f.IOStreams, Globals: f.Globals}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the project to agents over MCP (stdio, or streamable HTTP)",
		Long:  serveLong,
		Example: `  ctxpack serve                                   # stdio, for .mcp.json
  ctxpack serve --http 127.0.0.1:8765             # http://127.0.0.1:8765/mcp
  ctxpack serve --http 0.0.0.0:8765 --token-file ~/.config/ctxpack/token
  ctxpack serve --read-only -C ~/src/billing`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.httpOnly = cmd.Flags().Changed("max-sessions") || cmd.Flags().Changed("session-timeout")
			if runF != nil {
				return runF(o)
			}
			return serveRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.HTTP, "http", "", "serve streamable HTTP on `ADDR` (HOST:PORT; :PORT is 127.0.0.1:PORT) instead of stdio")
	fs.StringVar(&o.TokenFile, "token-file", "", "require the bearer token in `FILE` on every HTTP request")
	fs.BoolVar(&o.ReadOnly, "read-only", false, "no write tools, and nothing written under the project")
	fs.DurationVar(&o.Timeout, "timeout", mcpserver.DefaultTimeout, "the longest a request may take")
	fs.IntVar(&o.MaxRequestBytes, "max-request-bytes", mcpserver.DefaultMaxRequestBytes, "the largest request's arguments (and HTTP body), in `BYTES`")
	fs.IntVar(&o.MaxBudget, "max-budget", mcpserver.DefaultMaxBudget, "the largest budget a request may ask for, in `TOKENS`")
	fs.IntVar(&o.MaxConcurrent, "max-concurrent", 0, "requests served at once; the others wait (default twice the CPUs)")
	fs.IntVar(&o.MaxSessions, "max-sessions", mcpserver.DefaultMaxSessions, "HTTP: the most sessions open at once; a client past that is refused until one closes")
	fs.DurationVar(&o.SessionTimeout, "session-timeout", mcpserver.DefaultSessionTimeout, "HTTP: close a session idle for that long")
	fs.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", mcpserver.DefaultShutdownTimeout, "on SIGINT or SIGTERM, how long requests in flight may take to finish")
	fs.StringVar(&o.LogLevel, "log-level", "info", "`LEVEL` of the log on standard error: debug (every request), info, warn, error")
	fs.StringVar(&o.LogFormat, "log-format", "text", "log `FORMAT`: text or json")
	return cmd
}

func (o *ServeOptions) logger() (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.LogLevel)); err != nil {
		return nil, cmdutil.Usagef("serve: --log-level must be debug, info, warn or error (got %q)", o.LogLevel)
	}
	ho := &slog.HandlerOptions{Level: level}
	switch o.LogFormat {
	case "text":
		return slog.New(slog.NewTextHandler(o.IO.ErrOut, ho)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(o.IO.ErrOut, ho)), nil
	}
	return nil, cmdutil.Usagef("serve: --log-format must be text or json (got %q)", o.LogFormat)
}

// token reads the bearer token from --token-file.
func (o *ServeOptions) token() (string, error) {
	if o.TokenFile == "" {
		return "", nil
	}
	if o.HTTP == "" {
		return "", cmdutil.Usagef("serve: --token-file protects the HTTP endpoint; give --http too")
	}
	data, err := os.ReadFile(o.TokenFile)
	if err != nil {
		return "", cmdutil.Usagef("serve: --token-file: %v", err)
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
		return "", cmdutil.Usagef("serve: --token-file %s must hold one token on one line (for example: openssl rand -hex 32 > %s)", o.TokenFile, o.TokenFile)
	}
	return tok, nil
}

func serveRun(ctx context.Context, o *ServeOptions) error {
	if o.Globals.Format != "" || o.Globals.Budget != 0 || o.Globals.Window != 0 || o.Globals.Tokenizer != "" || o.Globals.Reserves != "" {
		return cmdutil.Usagef("serve: --format, --budget, --window, --tokenizer and --reserves are arguments of each request, not of the server")
	}
	if o.Timeout <= 0 || o.MaxRequestBytes <= 0 || o.MaxBudget <= 0 || o.MaxConcurrent < 0 || o.MaxSessions <= 0 || o.SessionTimeout <= 0 || o.ShutdownTimeout <= 0 {
		return cmdutil.Usagef("serve: --timeout, --max-request-bytes, --max-budget, --max-sessions, --session-timeout and --shutdown-timeout must be positive")
	}
	if o.HTTP == "" && o.httpOnly {
		return cmdutil.Usagef("serve: --max-sessions and --session-timeout bound the HTTP endpoint's sessions; give --http too (over stdio there is one session)")
	}
	log, err := o.logger()
	if err != nil {
		return err
	}
	tok, err := o.token()
	if err != nil {
		return err
	}
	addr := ""
	if o.HTTP != "" {
		if addr, err = mcpserver.ListenAddr(o.HTTP, tok != ""); err != nil {
			return cmdutil.WrapUsage(err)
		}
	}
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Dir: base, Config: o.Globals.Config, ReadOnly: o.ReadOnly,
		MaxRequestBytes: o.MaxRequestBytes, MaxBudget: o.MaxBudget, Timeout: o.Timeout, MaxConcurrent: o.MaxConcurrent,
		ShutdownTimeout: o.ShutdownTimeout, Version: strings.TrimPrefix(moduleVersion(), "v"), Logger: log,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if addr == "" {
		log.Info("serving over stdio", "root", srv.Root(), "read_only", o.ReadOnly, "tools", len(srv.Tools()))
		err := srv.RunIO(ctx, o.IO.In, o.IO.Out)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("serving", "url", "http://"+ln.Addr().String()+mcpserver.Path, "root", srv.Root(), "read_only", o.ReadOnly, "token", tok != "", "tools", len(srv.Tools()))
	err = srv.ServeHTTP(ctx, ln, mcpserver.HTTPOptions{Token: tok, MaxSessions: o.MaxSessions, SessionTimeout: o.SessionTimeout})
	log.Info("stopped")
	return err
}
