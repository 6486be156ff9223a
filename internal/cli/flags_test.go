package cli

import (
	"errors"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/clitest"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/mcpserver"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The tests of flags → Options: each command made with a run seam that
// records its Options, under a root with the global flags.

// defaultIndex is the index flags when none is given.
var defaultIndex = cmdutil.IndexFlags{Wait: index.DefaultLockTimeout}

func TestNewCmdContext(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AssembleOptions]{
		{Name: "target", Args: "context TASK-042", Want: AssembleOptions{Target: "TASK-042", Index: defaultIndex}},
		{Name: "stdin", Args: "context -", Want: AssembleOptions{Target: "-", Index: defaultIndex}},
		{
			Name:    "links",
			Args:    "context TASK-042 --budget 4000 --depth summary --link-depth 1 --format json --overflow drop --strategy score",
			Want:    AssembleOptions{Target: "TASK-042", Depth: "summary", LinkDepth: 1, Overflow: "drop", Strategy: "score", Index: defaultIndex},
			Globals: cmdutil.Globals{Budget: 4000, Format: "json"},
		},
		{
			Name: "retrieval",
			Args: "context 'invoice rounding' --index x.db --wait 5s --no-update --no-cache --no-record --item-cap 0.5 --max-chunks-per-doc 3 --dedup-threshold 0.9",
			Want: AssembleOptions{
				Target: "invoice rounding", Index: cmdutil.IndexFlags{File: "x.db", Wait: 5 * time.Second},
				NoUpdate: true, NoCache: true, NoRecord: true, ItemCap: 0.5, MaxChunksPerDoc: 3, DedupThreshold: 0.9,
			},
		},
		{
			Name: "sources",
			Args: "context q --sources memories,code --sources values --task TASK-1 --limit 5 --to-evidence ctx/",
			Want: AssembleOptions{Target: "q", Sources: []string{"memories", "code", "values"}, Task: "TASK-1", Limit: 5, ToEvidence: "ctx/", Index: defaultIndex},
		},
		{
			Name: "optional bools",
			Args: "context x --prefer-recent --include-metadata=false --walk-order reverse",
			Want: AssembleOptions{Target: "x", PreferRecent: new(true), IncludeMetadata: new(false), WalkOrder: "reverse", Index: defaultIndex},
		},
		{
			Name:    "global flags",
			Args:    "-C sub --tokenizer cl100k_base --window 128000 --reserves 1,2,3 --config c.yaml context x",
			Want:    AssembleOptions{Target: "x", Index: defaultIndex},
			Globals: cmdutil.Globals{Dir: "sub", Tokenizer: "cl100k_base", Window: 128000, Reserves: "1,2,3", Config: "c.yaml"},
		},
		{Name: "no target", Args: "context", WantErr: "context: missing TARGET (a task id, a path, or free text; - reads it from standard input)"},
		{Name: "two targets", Args: "context a b", WantErr: `context: takes one argument, TARGET, got 2: "a" "b" (quote an argument that holds spaces)`},
		{Name: "pack's flag", Args: "context x --query q", WantErr: "context: unknown flag --query"},
		{Name: "bad number", Args: "context x --limit many", WantErr: `invalid argument "many" for "--limit" flag: strconv.ParseInt: parsing "many": invalid syntax`},
		{Name: "bad bool", Args: "context x --prefer-recent=maybe", WantErr: `invalid argument "maybe" for "--prefer-recent" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
	}, NewCmdContext, nil)
}

func TestNewCmdPack(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AssembleOptions]{
		{Name: "no paths", Args: "pack", Want: AssembleOptions{}},
		{
			Name:    "paths",
			Args:    "pack a b --budget 10 --overflow drop --depth summary --no-record",
			Want:    AssembleOptions{Paths: []string{"a", "b"}, Overflow: "drop", Depth: "summary", NoRecord: true},
			Globals: cmdutil.Globals{Budget: 10},
		},
		{Name: "query", Args: "pack --query 'invoice rounding' --prefer-recent=false", Want: AssembleOptions{Query: "invoice rounding", PreferRecent: new(false)}},
		{Name: "packs are not cached", Args: "pack --no-cache", WantErr: "pack: unknown flag --no-cache"},
		{Name: "no links", Args: "pack --link-depth 1", WantErr: "pack: unknown flag --link-depth"},
		{Name: "unknown flag", Args: "pack --budgett 10", WantErr: "pack: unknown flag --budgett; did you mean --budget?"},
		{Name: "flag needs a value", Args: "pack --budget", WantErr: "flag needs an argument: --budget"},
	}, NewCmdPack, nil)
}

func TestNewCmdVerify(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AssembleOptions]{
		{Name: "target", Args: "verify TASK-042 --budget 4000 --link-depth 2", Want: AssembleOptions{Target: "TASK-042", LinkDepth: 2}, Globals: cmdutil.Globals{Budget: 4000}},
		{Name: "no sources", Args: "verify x --sources code", WantErr: "verify: unknown flag --sources"},
		{Name: "no target", Args: "verify", WantErr: "verify: missing TARGET (a task id, a path, or free text)"},
	}, NewCmdVerify, nil)
}

func TestNewCmdExplain(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ExplainOptions]{
		{
			Name:    "two ids",
			Args:    "explain TASK-042 DEC-BILLING-003 --budget 600 --link-depth 1",
			Want:    ExplainOptions{Task: "TASK-042", Artifact: "DEC-BILLING-003", AssembleOptions: AssembleOptions{LinkDepth: 1}},
			Globals: cmdutil.Globals{Budget: 600},
		},
		{Name: "one id", Args: "explain TASK-042", WantErr: "explain: missing ARTIFACT-ID (the artifact to explain, or a file of the project)"},
	}, NewCmdExplain, nil)
}

func TestNewCmdBudget(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[BudgetOptions]{
		{Name: "arithmetic", Args: "budget TASK-042 --window 128000", Want: BudgetOptions{AssembleOptions: AssembleOptions{Target: "TASK-042", Index: defaultIndex}}, Globals: cmdutil.Globals{Window: 128000}},
		{
			Name:    "allocation",
			Args:    "budget - --show-allocation --no-record --no-cache --no-update --depth summary --format json",
			Want:    BudgetOptions{ShowAllocation: true, AssembleOptions: AssembleOptions{Target: "-", NoRecord: true, NoCache: true, NoUpdate: true, Depth: "summary", Index: defaultIndex}},
			Globals: cmdutil.Globals{Format: "json"},
		},
		{Name: "no target", Args: "budget --show-allocation", WantErr: "budget: missing TARGET (a task id, a path, or free text; - reads it from standard input)"},
		{Name: "not sources mode", Args: "budget x --sources code", WantErr: "budget: unknown flag --sources"},
	}, NewCmdBudget, nil)
}

func TestNewCmdPremortem(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[PremortemOptions]{
		{Name: "domain", Args: "premortem debugging", Want: PremortemOptions{Domain: "debugging"}},
		{
			Name: "flags",
			Args: "premortem debugging --strategy bisect --limit 3 --overflow truncate --depth meta --item-cap 0.5 --include-metadata --no-record --budget 2000",
			Want: PremortemOptions{
				Domain: "debugging", Strategy: "bisect",
				AssembleOptions: AssembleOptions{Limit: 3, Overflow: "truncate", Depth: "meta", ItemCap: 0.5, IncludeMetadata: new(true), NoRecord: true},
			},
			Globals: cmdutil.Globals{Budget: 2000},
		},
		{Name: "no domain", Args: "premortem", WantErr: "premortem: missing DOMAIN (the domain whose experiences to read)"},
		{Name: "not a retrieval", Args: "premortem d --no-cache", WantErr: "premortem: unknown flag --no-cache"},
		{Name: "no prefer-recent", Args: "premortem d --prefer-recent", WantErr: "premortem: unknown flag --prefer-recent"},
	}, NewCmdPremortem, nil)
}

// TestAssembleRequest checks flags → the facade's request, which the
// assembling commands build when they run.
func TestAssembleRequest(t *testing.T) {
	for _, tc := range []struct {
		args string
		want app.Request
		err  string
	}{
		{args: "pack a b --budget 10 --overflow drop --depth summary", want: app.Request{Paths: []string{"a", "b"}, Budget: 10, Overflow: "drop", Depth: "summary"}},
		{args: "pack --window 1000 --reserves '1, 2,3' --prefer-recent --include-metadata=false --query q",
			want: app.Request{Window: 1000, Reserves: &app.Reserves{System: 1, Query: 2, Response: 3}, PreferRecent: new(true), IncludeMetadata: new(false), Query: "q"}},
		{args: "pack --walk-order reverse --format xml --tokenizer approx", want: app.Request{ReverseWalk: true, Format: "xml", Tokenizer: "approx"}},
		{args: "pack --reserves 1,x,3", err: `--reserves: "x" is not a non-negative number`},
		{args: "pack --reserves 1,2", err: `--reserves wants SYSTEM,QUERY,RESPONSE, for example 200,100,500 (got "1,2")`},
		{args: "pack --budget 10 --window 1000", err: "give --budget or --window, not both"},
		{args: "pack --walk-order sideways", err: `--walk-order must be sorted or reverse (got "sideways")`},
	} {
		t.Run(tc.args, func(t *testing.T) {
			o, _, err := clitest.Parse(NewCmdPack, nil, "", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			req, err := o.request()
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !errors.As(err, new(cmdutil.UsageError)) {
					t.Errorf("error %v, want the usage error %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, req, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("request (-want +got):\n%s", d)
			}
		})
	}
	o, _, err := clitest.Parse(NewCmdContext, nil, "", "context x --limit -1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.request(); err == nil || err.Error() != "--limit must not be negative (got -1)" {
		t.Errorf("context --limit -1: %v", err)
	}
}

func TestNewCmdSearch(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[SearchOptions]{
		{Name: "defaults", Args: "search HTTPServer", Want: SearchOptions{Query: "HTTPServer", K: 10, Index: defaultIndex}},
		{
			Name:    "flags",
			Args:    "search q --k 3 --files --explain --no-update --index x.db --wait 0s --format json",
			Want:    SearchOptions{Query: "q", K: 3, Files: true, Explain: true, NoUpdate: true, Index: cmdutil.IndexFlags{File: "x.db"}},
			Globals: cmdutil.Globals{Format: "json"},
		},
		{Name: "stdin", Args: "search -", Want: SearchOptions{Query: "-", K: 10, Index: defaultIndex}},
		{Name: "no query", Args: "search", WantErr: "search: missing QUERY (the text to search for; - reads it from standard input)"},
		{Name: "bad wait", Args: "search q --wait soon", WantErr: `invalid argument "soon" for "--wait" flag: time: invalid duration "soon"`},
	}, NewCmdSearch, nil)
}

// TestSearchValidate checks what search finds wrong with its options
// before it opens the project.
func TestSearchValidate(t *testing.T) {
	for _, tc := range []struct {
		stdin, args, query, err string
	}{
		{args: "search q", query: "q"},
		{stdin: "invoice rounding\n", args: "search -", query: "invoice rounding\n"},
		{stdin: "  \n", args: "search -", err: "search: the query is empty"},
		{args: "search q --k 0", err: "search: --k must be positive (got 0)"},
	} {
		o, _, err := clitest.Parse(NewCmdSearch, nil, tc.stdin, tc.args)
		if err != nil {
			t.Fatal(err)
		}
		err = o.validate()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || !errors.As(err, new(cmdutil.UsageError)) {
				t.Errorf("%s: error %v, want the usage error %q", tc.args, err, tc.err)
			}
		} else if err != nil || o.Query != tc.query {
			t.Errorf("%s: query %q, %v; want %q", tc.args, o.Query, err, tc.query)
		}
	}
}

func TestNewCmdIndex(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[IndexOptions]{
		{Name: "defaults", Args: "index", Want: IndexOptions{Index: defaultIndex}},
		{Name: "status", Args: "index --status --index x.db --wait 5s --no-commits", Want: IndexOptions{Status: true, NoCommits: true, Index: cmdutil.IndexFlags{File: "x.db", Wait: 5 * time.Second}}},
		{Name: "argument", Args: "index extra", WantErr: `index: takes no arguments, got 1: "extra" (quote an argument that holds spaces)`},
	}, NewCmdIndex, nil)
}

func TestNewCmdTokens(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[TokensOptions]{
		{Name: "paths", Args: "tokens README.md internal/", Want: TokensOptions{Paths: []string{"README.md", "internal/"}}},
		{Name: "tokenizer", Args: "tokens --tokenizer cl100k_base a", Want: TokensOptions{Paths: []string{"a"}}, Globals: cmdutil.Globals{Tokenizer: "cl100k_base"}},
		{Name: "no path", Args: "tokens", WantErr: "tokens: missing PATH (a file or directory to count, or - for standard input)"},
		{Name: "unknown shorthand", Args: "tokens -Z a", WantErr: "unknown shorthand flag: 'Z' in -Z"},
	}, NewCmdTokens, nil)
}

func TestNewCmdScore(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ScoreOptions]{
		{Name: "flags", Args: "score a.go --task 'fix it' --no-update --index x.db", Want: ScoreOptions{File: "a.go", Task: "fix it", NoUpdate: true, Index: cmdutil.IndexFlags{File: "x.db", Wait: index.DefaultLockTimeout}}},
		{Name: "no file", Args: "score --task t", WantErr: "score: missing FILE (the file to score)"},
	}, NewCmdScore, nil)
}

func TestNewCmdSummarize(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[SummarizeOptions]{
		{Name: "defaults", Args: "summarize a.go", Want: SummarizeOptions{File: "a.go", Depth: "summary"}},
		{Name: "flags", Args: "summarize a.go --depth meta --cache", Want: SummarizeOptions{File: "a.go", Depth: "meta", Cache: true}},
		{Name: "level", Args: "summarize a.go --level detailed", Want: SummarizeOptions{File: "a.go", Depth: "detailed", Level: true}},
		{Name: "two files", Args: "summarize a b", WantErr: `summarize: takes one argument, FILE[:START-END], got 2: "a" "b" (quote an argument that holds spaces)`},
	}, NewCmdSummarize, nil)
}

func TestNewCmdReport(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ReportOptions]{
		{Name: "defaults", Args: "report", Want: ReportOptions{Last: 10}},
		{Name: "last", Args: "report --last 3 --format json", Want: ReportOptions{Last: 3}, Globals: cmdutil.Globals{Format: "json"}},
	}, NewCmdReport, nil)
}

func TestNewCmdCheck(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[CheckOptions]{
		{Name: "defaults", Args: "check", Want: CheckOptions{}},
		{Name: "flags", Args: "check --strict --baseline b.json --update-baseline", Want: CheckOptions{Strict: true, Baseline: "b.json", UpdateBaseline: true}},
		{Name: "argument", Args: "check SPEC-1", WantErr: `check: takes no arguments, got 1: "SPEC-1" (quote an argument that holds spaces)`},
	}, NewCmdCheck, nil)
}

func TestNewCmdServe(t *testing.T) {
	defaults := ServeOptions{
		Timeout: mcpserver.DefaultTimeout, MaxRequestBytes: mcpserver.DefaultMaxRequestBytes, MaxBudget: mcpserver.DefaultMaxBudget,
		MaxSessions: mcpserver.DefaultMaxSessions, SessionTimeout: mcpserver.DefaultSessionTimeout, ShutdownTimeout: mcpserver.DefaultShutdownTimeout,
		LogLevel: "info", LogFormat: "text",
	}
	http := defaults
	http.HTTP, http.TokenFile, http.ReadOnly, http.Timeout, http.MaxRequestBytes, http.MaxBudget, http.MaxConcurrent, http.LogLevel, http.LogFormat =
		"127.0.0.1:8765", "tok", true, time.Second, 1024, 5000, 2, "debug", "json"
	http.MaxSessions, http.SessionTimeout, http.ShutdownTimeout = 7, time.Minute, 3*time.Second
	clitest.RunCases(t, []clitest.Case[ServeOptions]{
		{Name: "stdio", Args: "serve", Want: defaults},
		{
			Name: "http",
			Args: "serve --http 127.0.0.1:8765 --token-file tok --read-only --timeout 1s --max-request-bytes 1024 --max-budget 5000 --max-concurrent 2 --max-sessions 7 --session-timeout 1m --shutdown-timeout 3s --log-level debug --log-format json",
			Want: http,
		},
		{Name: "global flags are parsed, and refused when it runs", Args: "serve --budget 10", Want: defaults, Globals: cmdutil.Globals{Budget: 10}},
		{Name: "argument", Args: "serve x", WantErr: `serve: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdServe, nil)
}

func TestNewCmdArtifacts(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ShowOptions]{
		{Name: "show", Args: "show SPEC-1", Want: ShowOptions{ID: "SPEC-1", Depth: "full"}},
		{Name: "show depth", Args: "show identity --depth meta --format json", Want: ShowOptions{ID: "identity", Depth: "meta"}, Globals: cmdutil.Globals{Format: "json"}},
		{Name: "show nothing", Args: "show", WantErr: "show: missing ID (an artifact id; 'ctxpack list' shows them)"},
	}, NewCmdShow, nil)
	clitest.RunCases(t, []clitest.Case[ListOptions]{
		{Name: "list", Args: "list --type spec --status current", Want: ListOptions{Type: "spec", Status: "current"}},
	}, NewCmdList, nil)
	clitest.RunCases(t, []clitest.Case[GraphOptions]{
		{Name: "graph", Args: "graph TASK-042 --link-depth 2 --format dot", Want: GraphOptions{ID: "TASK-042", LinkDepth: 2}, Globals: cmdutil.Globals{Format: "dot"}},
	}, NewCmdGraph, nil)
	clitest.RunCases(t, []clitest.Case[InitOptions]{
		{Name: "init", Args: "-C sub init", Globals: cmdutil.Globals{Dir: "sub"}},
		{Name: "init here", Args: "init x", WantErr: `init: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdInit, nil)
}
