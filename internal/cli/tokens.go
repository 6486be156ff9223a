package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
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
	Shape   app.TokenShape
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

To see where the tokens are, --tree shows the counts as a tree of folders,
each folder with the sum of the files under it, and --min-tokens N leaves
out of it every file and folder under N tokens, saying in each folder how
many entries and tokens it left out. --top N lists the N largest files and
the N largest folders, largest first, with their share of the total. Both
replace the list of files in the text format; --format json adds "tree"
({"name", "tokens", "files", "children", "hidden": {"entries", "tokens"}}),
"top_files" and "top_folders" ({"path", "tokens", "files"}) beside it.

Directories are walked in bytewise path order, honouring .gitignore and
.ctxpackignore; binary files are skipped with a warning. What is not a
regular file (a named pipe, a socket, a device) and files over 256 MiB are
never read: skipped with a warning, and when a PATH names one, the exit
status is 1.

Counts are exact for o200k_base (the default) and cl100k_base, which equal
OpenAI's tiktoken on the same text, and for the open-weight families qwen3,
deepseek_v3, llama3 and gemma3, which equal Hugging Face's tokenizers with
each model's tokenizer.json (no BOS or EOS added; the text of a special
token such as <bos> is counted as ordinary text). llama3's and gemma3's
vocabularies are not part of ctxpack (their licences attach conditions to
redistributing them): set CTXPACK_TOKENIZER_LLAMA3 or CTXPACK_TOKENIZER_GEMMA3
to the model's tokenizer.json. Invalid UTF-8 is counted as ctxpack
emits it: each maximal ill-formed byte sequence replaced by one U+FFFD, as
browsers and Node.js decode it.`,
		Example: `  ctxpack tokens README.md
  ctxpack tokens --tokenizer cl100k_base $(go env GOROOT)/src/net/http
  ctxpack tokens --tokenizer qwen3 README.md
  git diff | ctxpack tokens -
  ctxpack tokens --tree --min-tokens 5000 .
  ctxpack tokens --top 10 .`,
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
	cmd.Flags().BoolVar(&o.Shape.Tree, "tree", false, "show the counts as a tree of folders, each with the sum of its files")
	cmd.Flags().IntVar(&o.Shape.MinTokens, "min-tokens", 0, "with --tree, leave out files and folders under `N` tokens (each folder says\nhow many entries and tokens it left out)")
	cmd.Flags().IntVar(&o.Shape.Top, "top", 0, "list the `N` largest files and the N largest folders, largest first")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func tokensRun(ctx context.Context, o *TokensOptions) error {
	if err := app.CheckTokenizer(o.Globals.Tokenizer); err != nil {
		return err // a *app.ValueError: a usage error
	}
	if err := o.Shape.Check(); err != nil {
		return cmdutil.WrapUsage(err) // before any file is read
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
	if o.Shape.Tree || o.Shape.Top > 0 {
		if err := rep.Shape(o.Shape); err != nil {
			return cmdutil.WrapUsage(err)
		}
		out.Reset()
		writeTokenViews(&out, &rep, o.Shape.MinTokens)
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

// writeTokenViews writes the tree and the largest files and folders that
// rep.Shape added, in that order.
func writeTokenViews(w *strings.Builder, rep *app.TokenReport, minTokens int) {
	width := len(strconv.Itoa(rep.Total))
	share := func(n int) string {
		if rep.Total == 0 {
			return "  0.0%"
		}
		return fmt.Sprintf("%5.1f%%", 100*float64(n)/float64(rep.Total))
	}
	if rep.Tree != nil {
		var walk func(n *app.TokenNode, indent string)
		walk = func(n *app.TokenNode, indent string) {
			last := len(n.Children) - 1
			if n.Hidden != nil {
				last++
			}
			for i, c := range n.Children {
				branch, next := "├── ", "│   "
				if i == last {
					branch, next = "└── ", "    "
				}
				fmt.Fprintf(w, "%*d  %s  %s%s%s\n", width, c.Tokens, share(c.Tokens), indent, branch, c.Name)
				walk(c, indent+next)
			}
			if h := n.Hidden; h != nil {
				fmt.Fprintf(w, "%*d  %s  %s└── (%d more, each under %d tokens)\n", width, h.Tokens, share(h.Tokens), indent, h.Entries, minTokens)
			}
		}
		walk(rep.Tree, "")
	}
	if rep.TopFiles != nil {
		fmt.Fprintf(w, "largest files (%d of %d):\n", len(rep.TopFiles), len(rep.Files))
		for _, f := range rep.TopFiles {
			fmt.Fprintf(w, "%*d  %s  %s\n", width, f.Tokens, share(f.Tokens), f.Path)
		}
		fmt.Fprintf(w, "largest folders (%d):\n", len(rep.TopFolders))
		for _, f := range rep.TopFolders {
			fmt.Fprintf(w, "%*d  %s  %s (%d files)\n", width, f.Tokens, share(f.Tokens), f.Path, f.Files)
		}
	}
}
