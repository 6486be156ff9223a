package cli

import (
	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdPack is 'ctxpack pack [PATH...]': every file under the paths,
// ranked by structure or by --query, fitted to the budget.
func NewCmdPack(f *cmdutil.Factory, runF func(*AssembleOptions) error) *cobra.Command {
	o := new(assembleOptions(f))
	cmd := &cobra.Command{
		Use:   "pack [PATH|GLOB|URL...]",
		Short: "Pack the files under paths into the budget",
		Long: `Pack every file under the given paths (default: the whole project), fitted to
the budget: --budget or --window, else the one in the config, else 8000
tokens, as for every target. To pack every file whole with exact token
counts and no budget, like Repomix, say so: --overflow allow with no budget.
A file that is an exact copy of another is shown as one line, "[ctxpack: same
as PATH]"; under a budget, so is a file whose words are mostly another's (more
than --dedup-threshold of their word 3-grams shared); a file merely contained
in a bigger one is kept. .gitignore and .ctxpackignore are honoured; binary
and oversized files are skipped with a warning.

What is packed (docs/selection.md): the files under the PATHs, relative to
the working directory. A PATH with a glob character (*, ?, [) that names no
file is a glob, with .gitignore's rules: "*" stays in one folder, "**"
crosses folders, a glob without "/" matches a name at any depth, one with
"/" is anchored at the working directory. --include keeps only files that
match one of its globs, --exclude leaves out those that match (both
repeatable; commas separate several; braces expand: "*.{ts,tsx}").
--files-from FILE (- for standard input, as is the PATH -) packs the files a
list names, one per line (-0: NUL-separated, as git ls-files -z writes),
relative to the working directory. A glob that matches no file, and a list line that names
no file or leaves the project, is an error naming it; nothing is written.
Globs and lists select; the budget still ranks and fits what they select.

Lock files (package-lock.json, yarn.lock, pnpm-lock.yaml, uv.lock,
poetry.lock, Cargo.lock, go.sum, Gemfile.lock, composer.lock…) and generated
files (a "Code generated … DO NOT EDIT." line or an @generated marker in
their leading comments, linguist-generated in .gitattributes) are left out,
each with its reason among the skipped files. Naming one brings it back (a
PATH, or a glob whose last part spells its name: --include '**/go.sum'); so
does --include-generated, or walk.include_generated: true in the config. A
file list does not name its files for this.

A URL (https://…, git@host:owner/repo, file://…) as a PATH, or --remote URL
with --remote-ref REF (a branch, a tag or a commit id; default the remote's
default branch), packs a remote repository: git clones it shallow into
os.UserCacheDir()/ctxpack/remote/HASH (~/.cache/ctxpack/remote on Linux) and
reuses the clone while the ref resolves to the same commit. The other PATHs
and globs are paths in it. Its own .ctxpack/config.yaml is not read (the
repository is not trusted; --config still applies), no budget record is
written, and git never prompts: a repository that needs credentials fails.

Files are ranked by structure: the score is the weighted mean of
centrality 0.6 (PageRank over the references between files: a file that uses an identifier another file defines points
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

--diff adds the uncommitted changes (staged or not) against HEAD, and
--diff-base REF what the branch changed since it left REF; each changed file
is a part of its own, its unified diff, shown in a section after the files;
the pack's paths and globs select the diffs too (a warning counts the rest).
--log N adds the N newest commits, one part each, in a section after that.
They are ranked and fitted with the files: a diff scores 1, the newest
commit 0.9, halving every 10 commits; each says in its "via" why it is there.

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
  ctxpack pack 'src/**/*.py' --exclude '**/test_*.py' --budget 32000
  ctxpack pack --include "src/**/*.ts,**/*.md" --overflow allow
  git ls-files -z '*.go' | ctxpack pack --files-from - -0 --budget 16000
  ctxpack pack https://github.com/pallets/flask --remote-ref 3.1.0 --budget 50000
  ctxpack pack --remote git@github.com:o/r.git 'docs/**' --overflow allow
  ctxpack pack --budget 8000 --query "invoice rounding" --format json
  ctxpack pack cmd/ internal/ --format xml --window 200000
  ctxpack pack --overflow allow --tree --line-numbers -o repo.txt
  ctxpack pack --remove-comments --remove-empty-lines --budget 32000 --copy
  ctxpack pack --split-output --budget 128000 --format xml -o repo.xml
  ctxpack pack --budget 30000 --diff-base main --log 10`,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "-" { // the list of files on standard input
					if o.FilesFrom != "" && o.FilesFrom != "-" {
						return cmdutil.Usagef("- reads the list of files from standard input; --files-from %s names another list", o.FilesFrom)
					}
					o.FilesFrom = "-"
					continue
				}
				if !app.IsRemoteURL(a) {
					o.Paths = append(o.Paths, a)
					continue
				}
				if o.Remote != "" {
					return cmdutil.Usagef("one repository at a time: %s and %s are both URLs (the other arguments are paths in it)", o.Remote, a)
				}
				o.Remote = a
			}
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
	o.addChangesFlags(fs)
	fs.StringArrayVar(&o.Include, "include", nil, "pack only files that match `GLOB` (.gitignore rules, relative to the\nworking directory; repeatable; commas separate several: \"src/**/*.ts,**/*.md\")")
	fs.StringArrayVar(&o.Exclude, "exclude", nil, "leave out files that match `GLOB` (as --include; an excluded folder\nleaves out everything under it)")
	fs.StringVar(&o.FilesFrom, "files-from", "", "pack the files listed in `FILE`, one per line (- reads standard input),\nrelative to the working directory: git ls-files '*.py' | ctxpack pack --files-from -")
	fs.BoolVarP(&o.Null, "null", "0", false, "--files-from's list is separated by NUL bytes (git ls-files -z)")
	fs.StringVar(&o.Remote, "remote", "", "pack the git repository at `URL` (https, ssh, git@host:path, file://),\ncloned shallow into the user's cache directory; PATHs are paths in it")
	fs.StringVar(&o.RemoteRef, "remote-ref", "", "the branch, tag or commit id of --remote to pack (default: its\ndefault branch)")
	fs.BoolVar(&o.IncludeGen, "include-generated", false, "pack lock files (uv.lock, package-lock.json, go.sum…) and generated files\n(\"Code generated … DO NOT EDIT.\", @generated, linguist-generated), which are\nleft out by default unless named")
	o.addRecordFlags(fs, false)
	o.addOutputFlags(fs)
	fs.BoolVar(&o.Tree, "tree", false, "start with the directory structure of the files packed (names, like\nRepomix's): a part ranked above the files, its directories folded (12 lines\nat summary, 100 at detailed, every file at full) or dropped, with a reason,\nwhen the budget is short")
	fs.BoolVar(&o.SplitOutput, "split-output", false, "divide what an unbudgeted pack shows into outputs of at most the budget\neach (--budget, default 8000), a file too large for one cut at line ends;\nwith -o FILE written to FILE.1.EXT, FILE.2.EXT…, else one after another\nafter a line \"--- ctxpack: output I of N, T tokens ---\"")
	cmdutil.SetFormats(cmd, cmdutil.AnyFormat)
	return cmd
}
