package cli

import (
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdContext is 'ctxpack context TARGET|-': links, pack, retrieval and
// sources mode, or an evidence workspace with --to-evidence.
func NewCmdContext(f *cmdutil.Factory, runF func(*AssembleOptions) error) *cobra.Command {
	o := new(assembleOptions(f))
	cmd := &cobra.Command{
		Use:   "context TARGET|-",
		Short: "Assemble the context for a task, a path or free text within the budget",
		Long: `Assemble the context for TARGET, fitted exactly to the budget.

TARGET is an artifact id, a path, or free text.

An artifact id (TASK-042) is links mode. ctxpack starts from the task in
.ctxpack/ (or a Contextia .contextia/ folder) and follows its frontmatter
links to specs, decisions and norms, each artifact once. Superseded
artifacts are replaced by their successor; deprecated ones and missing
targets are reported and left out. It renders identity, norms, decisions,
specs, the task, the code paths their "paths" globs name (with how many
files each matches), then those files. Under a budget, identity and the
task are always kept. Specs the task links come first, then transitive
specs, then norms, then decisions: levels are lowered before anything is
dropped. The code gets what the artifacts leave once each is whole: its
files are ranked by how well the task's title and body match them (BM25
over the matched files) and degraded by level like 'ctxpack pack' does.
--format json gives each part's link chain ("via": the task to the
artifact whose glob brought a file) and the globs ("paths").

A file or directory is packed as by 'ctxpack pack'.

Anything else is free text, and "-" reads it from standard input: retrieval
mode. The repository index (.ctxpack/index.db, or --index FILE) is brought
up to date, its chunks ranked as 'ctxpack search' ranks them (BM25,
embeddings when configured, and what the text names: identifiers, paths,
traceback frames, fused by RRF, then weighted by task alignment, mention
density, recency, dependency depth and file type), and the best file's
other chunks added at a quarter of its relevance. The budget goes to the
most relevant chunks first, each whole before a weaker one is shown; a
chunk that does not fit is skipped for smaller ones, and a large one may be
shown as its window (its signature and the lines that hold the query's
words, the rest elided by a comment) until it fits whole. The chunks shown
are grouped by file in reading order; what is left out is listed after them
in a tree, as far as the room left allows. --format json gives each part's
lines, relevance (score), factors (components), tier (bucket: primary 0.7
and up, supporting 0.5, reference 0.3, history), the lines a window shows
(shown), and the tokens spent on anything but the parts' text
(metrics.overhead). A word that reads as a path
(src/x.go, notes.md) and does not exist is an error, not a query.

--sources LIST is sources mode: the free text is searched in each source
named (memories, code, experiences, values, commits, artifacts; 'ctxpack
memory', 'experience' and 'value' add to the store, .ctxpack/sources.db,
and 'ctxpack index' reads git history into it), in parallel, --limit items
each (default 20). Within a source, items are ranked by BM25 over
code-aware terms, weighted by confidence tier (experiences), importance
(memories) and recency (experiences, commits). Duplicates across sources
are dropped, keeping the most relevant copy: the same experience (an
experience and a value derived from it), a commit that changed only a
file a code item shows, and texts 90% alike (sources.similarity). The
budget is divided among the sources by weight — experiences 3, code 2,
commits 2, values 1, memories 1, artifacts 3 (sources.weights) — and what a
source leaves unused flows to the others. No item takes more than 25% of
its source's share (--item-cap): a longer one is cut, with a note saying
where the whole is. Markdown (the default here) shows one section per
source that has items, and a footer with the counts. A source that fails
is skipped with a warning. --task ID with the artifacts source adds the
artifacts the task links to. --overflow defaults to drop in this mode.

--to-evidence DIR writes the parts assembled into a new evidence workspace
instead of printing them, so that a person can start from it and edit
(see 'ctxpack evidence'): the identity and norms as system files, the task
or the query as the user request, every other part as evidence of its file
and line span, ranked in render order, each whole.`,
		Example: `  ctxpack context TASK-042 --budget 4000
  ctxpack context TASK-042 --depth summary --format json
  ctxpack context TASK-042 --link-depth 1
  ctxpack context internal/ --budget 8000
  ctxpack context "the invoice total drifts by a cent after conversion" --budget 8000
  gh issue view 123 | ctxpack context - --budget 13000 --format xml
  ctxpack context "invoice rounding" --sources memories,code,experiences,values,commits --budget 2000
  ctxpack context "retry the payment webhook" --sources artifacts,experiences --task TASK-042
  ctxpack context "invoice rounding" --budget 6000 --to-evidence ctx/`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("TARGET", "a task id, a path, or free text; - reads it from standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Target = args[0]
			if runF != nil {
				return runF(o)
			}
			return assembleRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	o.addFlags(fs)
	o.addVerboseFlag(fs)
	o.addLinkFlags(fs)
	o.addRetrieveFlags(fs)
	o.addChangesFlags(fs)
	fs.StringSliceVar(&o.Sources, "sources", nil, "sources mode: search these sources (`LIST` of memories, code,\nexperiences, values, commits, artifacts)")
	fs.StringVar(&o.Task, "task", "", "with --sources artifacts: the task `ID` whose linked artifacts to bring in")
	fs.IntVar(&o.Limit, "limit", 0, "sources mode: at most `N` items from each source's search (default 20)")
	fs.StringVar(&o.ToEvidence, "to-evidence", "", "write the parts assembled into a new evidence workspace `DIR` (ctx/)\ninstead of printing them: each whole, from its file and lines")
	o.addRecordFlags(fs, true)
	o.addOutputFlags(fs)
	cmdutil.SetFormats(cmd, cmdutil.AnyFormat)
	return cmd
}
