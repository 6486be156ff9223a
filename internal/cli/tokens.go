package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// TokensOptions are the options of 'ctxpack tokens'.
type TokensOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals

	Paths []string
}

// NewCmdTokens is 'ctxpack tokens PATH...': the tokens of files.
func NewCmdTokens(f *cmdutil.Factory, runF func(*TokensOptions) error) *cobra.Command {
	o := &TokensOptions{IO: f.IOStreams, Globals: f.Globals}
	cmd := &cobra.Command{
		Use:   "tokens PATH...",
		Short: "Count the tokens of files as a model's tokenizer does",
		Long: `Print COUNT<TAB>PATH for every file, then COUNT<TAB>total.

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
  ctxpack tokens --tokenizer cl100k_base $(go env GOROOT)/src/net/http`,
		Args: cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if runF != nil {
				return runF(o)
			}
			return tokensRun(cmd.Context(), o)
		},
	}
	return cmd
}

func tokensRun(ctx context.Context, o *TokensOptions) error {
	if err := app.CheckTokenizer(o.Globals.Tokenizer); err != nil {
		return cmdutil.WrapUsage(err)
	}
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	jobs, skipped, err := app.TokenFiles(base, o.Paths)
	if err != nil {
		return err
	}
	o.IO.WarnAll(skipped)

	prog := o.IO.Progress("counting", len(jobs))
	counts, errs, err := app.CountFiles(ctx, o.Globals.Tokenizer, jobs, prog.Set)
	prog.Done()
	if err != nil {
		return err
	}

	var out strings.Builder
	total, failed := 0, 0
	for i, j := range jobs {
		if errs[i] != nil {
			o.IO.Warn("skipped %s: %v", j.Shown, errs[i])
			failed++
			continue
		}
		fmt.Fprintf(&out, "%d\t%s\n", counts[i], j.Shown)
		total += counts[i]
	}
	fmt.Fprintf(&out, "%d\ttotal\n", total)
	if _, err := o.IO.Out.Write([]byte(out.String())); err != nil {
		return err
	}
	if failed > 0 {
		return cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}
