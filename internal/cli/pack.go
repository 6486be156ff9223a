package cli

import (
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdPack is 'ctxpack pack [PATH...]': every file under the paths,
// ranked by structure or by --query, fitted to the budget.
func NewCmdPack(f *cmdutil.Factory, runF func(*AssembleOptions) error) *cobra.Command {
	o := new(assembleOptions(f))
	cmd := &cobra.Command{
		Use:   "pack [PATH...]",
		Short: "Pack the files under paths into the budget",
		Long: `Pack every file under the given paths (default: the whole project), fitted to
the budget: --budget or --window, else the one in the config, else 8000
tokens, as for every target. To pack every file whole with exact token
counts and no budget, like Repomix, say so: --overflow allow with no budget.
A file that is an exact copy of another is shown as one line, "[ctxpack: same
as PATH]"; under a budget, so is a file whose words are mostly another's (more
than --dedup-threshold of their word 3-grams shared); a file merely contained
in a bigger one is kept. .gitignore and .ctxpackignore are honoured; binary
and oversized files are skipped with a warning. Files are ranked by structure: the
score is the weighted mean of centrality 0.6 (PageRank over the references
between files: a file that uses an identifier another file defines points
to it), recency 0.3 (0.5^(days older than the newest file / 7), from git
commit times; left out when git knows no file) and file type 0.1 (source
1.0, tests 0.9, docs 0.7, config 0.6, other 0.5); ties go by path. With
--query, the score is the file's relevance to the query as retrieval mode
ranks it (from the repository index, brought up to date first; it already
weighs file type and recency); files it does not match score 0. --format json
shows each factor in the part's components. With the default overflow
strategy, degrade, every file is first listed by its metadata, and then the
highest-ranked files are raised to their summary, detailed and full levels
while the budget lasts.

The JSON format (--format json) carries the plan: every part with its level,
tokens and content id, every dropped part with the budget it would need,
the state root of the inputs and the digest of the content. The budget
applies to the content (rendered as text inside the plan), which is what an
agent reads; the JSON around it is for tools.

Shaping the output: --tree starts it with the directory structure of the
files (a part like the others: folded or dropped, with its reason, when the
budget is short). --line-numbers, --remove-comments and --remove-empty-lines
change each file's text before anything is counted, so the budget holds for
what is emitted; the plan lists each part's transforms, and a warning counts
the files whose comments were left for want of their language's syntax.
--split-output divides the unbudgeted pack into outputs of at most the
budget each, a file too large for one cut at line ends. -o FILE writes the
output whole or not at all (FILE.1.EXT, FILE.2.EXT… when split) and leaves
FILE out of the pack's input; --copy puts it on the clipboard.`,
		Example: `  ctxpack pack --overflow allow --format xml > repo.xml
  ctxpack pack --budget 50000 > context.txt
  ctxpack pack --budget 8000 --query "invoice rounding" --format json
  ctxpack pack cmd/ internal/ --format xml --window 200000
  ctxpack pack --overflow allow --tree --line-numbers -o repo.txt
  ctxpack pack --remove-comments --remove-empty-lines --budget 32000 --copy
  ctxpack pack --split-output --budget 128000 --format xml -o repo.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			if runF != nil {
				return runF(o)
			}
			return assembleRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	o.addFlags(fs)
	o.addVerboseFlag(fs)
	fs.StringVar(&o.Query, "query", "", "rank the files by their relevance to `TEXT` (through the repository\nindex) instead of by structure")
	o.addRecordFlags(fs, false)
	o.addOutputFlags(fs)
	fs.BoolVar(&o.Tree, "tree", false, "start with the directory structure of the files packed (names, like\nRepomix's): a part ranked above the files, its directories folded (12 lines\nat summary, 100 at detailed, every file at full) or dropped, with a reason,\nwhen the budget is short")
	fs.BoolVar(&o.SplitOutput, "split-output", false, "divide what an unbudgeted pack shows into outputs of at most the budget\neach (--budget, default 8000), a file too large for one cut at line ends;\nwith -o FILE written to FILE.1.EXT, FILE.2.EXT…, else one after another\nafter a line \"--- ctxpack: output I of N, T tokens ---\"")
	cmdutil.SetFormats(cmd, cmdutil.AnyFormat)
	return cmd
}
