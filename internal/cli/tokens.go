package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// TokensOptions are the options of 'ctxpack tokens'.
type TokensOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals

	Paths   []string
	Verbose bool // -v: each skipped file, not only their counts
}

// NewCmdTokens is 'ctxpack tokens PATH...': the tokens of files.
func NewCmdTokens(f *cmdutil.Factory, runF func(*TokensOptions) error) *cobra.Command {
	o := &TokensOptions{IO: f.IOStreams, Globals: f.Globals}
	cmd := &cobra.Command{
		Use:   "tokens PATH...",
		Short: "Count the tokens of files as a model's tokenizer does",
		Long: `Print COUNT<TAB>PATH for every file (- is standard input, counted first),
then COUNT<TAB>total; --format json
prints {"tokenizer", "files": [{"path", "tokens"}], "total", "skipped":
[{"path", "reason"}]}.

Directories are walked in bytewise path order, honouring .gitignore and
.ctxpackignore; binary files are skipped with a warning. What is not a
regular file (a named pipe, a socket, a device) and files over 256 MiB are
never read: skipped with a warning, and when a PATH names one, the exit
status is 1.

Counts are exact for o200k_base (the default) and cl100k_base: they equal
OpenAI's tiktoken on the same text. Invalid UTF-8 is counted as ctxpack
emits it: each maximal ill-formed byte sequence replaced by one U+FFFD, as
browsers and Node.js decode it.`,
		Example: `  ctxpack tokens README.md
  ctxpack tokens --tokenizer cl100k_base $(go env GOROOT)/src/net/http
  git diff | ctxpack tokens -`,
		Args:        cmdutil.MinimumArgs(1),
		Annotations: cmdutil.ArgHelp("PATH", "a file or directory to count, or - for standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if runF != nil {
				return runF(o)
			}
			return tokensRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVarP(&o.Verbose, "verbose", "v", false, cmdutil.VerboseUsage)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func tokensRun(ctx context.Context, o *TokensOptions) error {
	if err := app.CheckTokenizer(o.Globals.Tokenizer); err != nil {
		return err // a *app.ValueError: a usage error
	}
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	var stdin []int // the indexes of "-" in o.Paths
	paths := make([]string, 0, len(o.Paths))
	for i, p := range o.Paths {
		if p == "-" {
			stdin = append(stdin, i)
			continue
		}
		paths = append(paths, p)
	}
	if len(stdin) > 1 {
		return cmdutil.Usagef("tokens: - (standard input) may be given once")
	}
	stdinCount := 0
	if len(stdin) == 1 {
		if stdinCount, err = app.CountReader(o.Globals.Tokenizer, o.IO.In); err != nil {
			return err
		}
	}
	jobs, skipped, err := app.TokenFiles(base, paths)
	if err != nil {
		return err
	}
	o.IO.WarnSkipped(app.SkipWarnings(skipped, app.TokensTooLarge), skipped, o.Verbose)

	prog := o.IO.Progress("counting", len(jobs))
	counts, errs, err := app.CountFiles(ctx, o.Globals.Tokenizer, jobs, prog.Set)
	prog.Done()
	if err != nil {
		return err
	}

	rep := app.TokenReport{Tokenizer: cmp.Or(o.Globals.Tokenizer, app.DefaultTokenizer), Files: []app.TokenCount{}, Skipped: []app.TokenSkip{}}
	for _, s := range skipped {
		rep.Skipped = append(rep.Skipped, app.TokenSkip{Path: s.Path, Reason: s.Reason})
	}
	var out strings.Builder
	if len(stdin) == 1 {
		fmt.Fprintf(&out, "%d\t-\n", stdinCount)
		rep.Files = append(rep.Files, app.TokenCount{Path: "-", Tokens: stdinCount})
		rep.Total += stdinCount
	}
	failed := 0
	for i, j := range jobs {
		if errs[i] != nil {
			o.IO.Warn("skipped %s: %v", j.Shown, errs[i])
			rep.Skipped = append(rep.Skipped, app.TokenSkip{Path: j.Shown, Reason: errs[i].Error()})
			failed++
			continue
		}
		fmt.Fprintf(&out, "%d\t%s\n", counts[i], j.Shown)
		rep.Files = append(rep.Files, app.TokenCount{Path: j.Shown, Tokens: counts[i]})
		rep.Total += counts[i]
	}
	fmt.Fprintf(&out, "%d\ttotal\n", rep.Total)
	if o.Globals.JSON() {
		err = cmdutil.WriteJSON(o.IO.Out, rep)
	} else {
		_, err = io.WriteString(o.IO.Out, out.String())
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}
