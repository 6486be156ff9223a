// Package cli is ctxpack's command line: one file per command, each an
// Options struct, a constructor that parses flags into it, and a run
// function. All output goes through IOStreams; Run returns the exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Main runs ctxpack with the process's arguments and streams.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], System())
}

// Run runs ctxpack with args and returns the exit code.
func Run(ctx context.Context, args []string, ios *IOStreams) int {
	g := &globals{}
	root := newRoot(g, ios)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	err := root.ExecuteContext(ctx)
	return exitCode(err, ios)
}

// exitCode is the one place that decides which error gets which code:
// none is ExitOK; a SilentError has its own; a UsageError (a flag cobra
// could not parse, the wrong number of arguments, a bad value) is
// ExitUsage, with a pointer to --help; anything else is ExitFailure.
func exitCode(err error, ios *IOStreams) int {
	if err == nil {
		return cmdutil.ExitOK
	}
	var se cmdutil.SilentError
	if errors.As(err, &se) {
		return se.Code
	}
	fmt.Fprintf(ios.ErrOut, "ctxpack: %s\n", strings.TrimPrefix(err.Error(), "ctxpack: "))
	var ue cmdutil.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(ios.ErrOut, "Run 'ctxpack --help' for usage.")
		return cmdutil.ExitUsage
	}
	return cmdutil.ExitFailure
}

// globals are the flags every command takes.
type globals struct {
	dir       string
	format    string
	tokenizer string
	budget    int
	window    int
	reserves  string
	config    string
}

const rootLong = `ctxpack assembles the context an AI coding agent sees for a piece of work.

It decides what goes in, fits it to a token budget exactly (counted with the
model's own tokenizer on the text it emits), gives the same bytes every time,
and says why each piece is there.`

const rootExample = `  # Fit this repository into 8,000 tokens of o200k_base, as text:
  ctxpack pack . --budget 8000

  # The same for a 128k window, keeping the default reserves back, as JSON:
  ctxpack pack --window 128000 --format json

  # Count tokens per file, as a model would:
  ctxpack tokens --tokenizer cl100k_base internal/

  # Prove the assembly is deterministic:
  ctxpack verify . --budget 8000`

func newRoot(g *globals, ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:           "ctxpack <command> [flags]",
		Short:         "Assemble exact, deterministic, auditable context for coding agents",
		Long:          rootLong,
		Example:       rootExample,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	pf := root.PersistentFlags()
	pf.StringVarP(&g.dir, "dir", "C", "", "run as if started in `DIR`")
	pf.StringVar(&g.format, "format", "", "output `FORMAT`: text, markdown, doc, xml, json, mdctx (default text)")
	pf.StringVar(&g.tokenizer, "tokenizer", "", "`NAME`: o200k_base (default), cl100k_base, or approx ((bytes+3)/4;\nit undercounts source code by about 1.5x, so a budget kept with it is an estimate)")
	pf.IntVar(&g.budget, "budget", 0, "tokens the output may use (default from config, else 8000)")
	pf.IntVar(&g.window, "window", 0, "context window `TOKENS`; the budget is the window less the reserves")
	pf.StringVar(&g.reserves, "reserves", "", "tokens kept back from --window as `SYSTEM,QUERY,RESPONSE` (default 200,100,500)")
	pf.StringVar(&g.config, "config", "", "read configuration from `FILE` instead of .ctxpack/config.yaml")

	root.AddGroup(
		&cobra.Group{ID: "assemble", Title: "Assemble context:"},
		&cobra.Group{ID: "artifacts", Title: "Artifacts (.ctxpack/ or .contextia/):"},
		&cobra.Group{ID: "index", Title: "Index and search:"},
		&cobra.Group{ID: "inspect", Title: "Inspect and check:"},
		&cobra.Group{ID: "store", Title: "Memories, experiences, values (.ctxpack/sources.db):"},
		&cobra.Group{ID: "evidence", Title: "Evidence workspace (ctx/):"},
		&cobra.Group{ID: "other", Title: "Other commands:"},
	)
	add := func(group string, cmds ...*cobra.Command) {
		for _, c := range cmds {
			c.GroupID = group
			root.AddCommand(c)
		}
	}
	add("assemble", newCmdContext(g, ios, nil), newCmdPack(g, ios, nil), newCmdPremortem(g, ios, nil))
	add("artifacts", newCmdShow(g, ios), newCmdList(g, ios), newCmdExplain(g, ios), newCmdGraph(g, ios), newCmdInit(g, ios))
	add("index", newCmdIndex(g, ios, nil), newCmdSearch(g, ios, nil))
	add("inspect", newCmdTokens(g, ios, nil), newCmdVerify(g, ios, nil))
	add("inspect", newCmdCheck(g, ios, nil))
	add("assemble", newCmdBudget(g, ios, nil))
	add("inspect", newCmdScore(g, ios, nil), newCmdSummarize(g, ios, nil), newCmdReport(g, ios, nil))
	add("store", newCmdMemory(g, ios), newCmdExperience(g, ios), newCmdValue(g, ios))
	add("evidence", newCmdEvidence(g, ios))
	add("other", newCmdServe(g, ios, nil), newCmdVersion(ios))
	root.SetHelpCommandGroupID("other")
	return root
}

// base is the directory the command runs in: -C, else the working
// directory. It is made absolute; the process never changes directory.
func (g *globals) base() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if g.dir == "" {
		return wd, nil
	}
	d := g.dir
	if !filepath.IsAbs(d) {
		d = filepath.Join(wd, d)
	}
	st, err := os.Stat(d)
	if err != nil {
		return "", cmdutil.Usagef("-C: %v", err)
	}
	if !st.IsDir() {
		return "", cmdutil.Usagef("-C: %s is not a directory", g.dir)
	}
	return d, nil
}

// openProject opens the project the command runs in, for a command whose
// facade call returns the configuration's warnings with its own (an
// assembly's plan, a score).
func (g *globals) openProject() (*ctxpack.Project, error) {
	base, err := g.base()
	if err != nil {
		return nil, err
	}
	return ctxpack.Open(base, g.config)
}

// openProjectWarn opens the project the command runs in and prints the
// warnings its configuration gave.
func (g *globals) openProjectWarn(ios *IOStreams) (*ctxpack.Project, error) {
	p, err := g.openProject()
	if err != nil {
		return nil, err
	}
	ios.WarnAll(p.Warnings)
	return p, nil
}

// textOrJSON checks --format for a command that prints text or json.
func (g *globals) textOrJSON(command string) error {
	switch g.format {
	case "", "text", "json":
		return nil
	}
	return cmdutil.Usagef("%s: --format must be text or json (got %q)", command, g.format)
}

// writeJSON writes v as every command's json format has it: indented by
// two spaces, with <, > and & as they are, in one Write.
func writeJSON(w io.Writer, v any) error {
	data, err := ctxpack.EncodeJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// flagChanged reports whether the user set the named flag.
func flagChanged(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}
