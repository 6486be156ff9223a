package storecmd

import (
	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

const memoryLong = `A memory is something the team or an agent learned and wants found again:
a fact, a preference, a decision, an error message and its fix. Each is one
row of the project's store, .ctxpack/sources.db (an SQLite file under the
project root, created by the first add, or the team's PostgreSQL database:
'ctxpack store --help'), keyed memory:ID: ids increase and
are never given again. A memory has a category, a lower-case word (fact,
the default, preference, decision, error, workflow, context, event, or a
word of your own), and an importance from 0 to 1 (default 0.5).

'ctxpack context QUERY --sources memories' searches them: BM25 over their
content and category, weighted by importance, shown in a Memories section
of their own within the memories' share of the budget.

A value the store refuses on the command line is a usage error (exit 2)
naming the flag; an id the store does not hold is a failure (exit 1).
--format json prints memories as JSON: one object for add, show and rm, an
array for list.`

var memoryKind = newRowKind("memory", "memories", (*app.Store).Memory, (*app.Store).RemoveMemory, memoryFields)

// NewCmdMemory is 'ctxpack memory', the group of its subcommands.
func NewCmdMemory(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "memory",
		Aliases: []string{"memories"},
		Short:   "Add, list, show and remove memories: facts, preferences, decisions",
		Long:    memoryLong,
		Example: `  ctxpack memory add "invoice totals are integers of cents" --category fact --importance 0.8
  git log -1 --format=%B | ctxpack memory add - --category decision
  ctxpack memory list --category fact
  ctxpack memory show 42
  ctxpack memory rm memory:42
  ctxpack context "invoice rounding" --sources memories,code`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		NewCmdMemoryAdd(f, nil),
		NewCmdMemoryList(f, nil),
		newCmdShow(f, memoryKind, nil),
		newCmdRemove(f, memoryKind, nil),
	)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// memoryFields are v's fields as show prints them.
func memoryFields(v app.MemoryView) []field {
	return []field{
		{"key", v.Key},
		{"category", v.Category},
		{"importance", formatFloat(v.Importance)},
		{"created", v.Created},
		{"content", v.Content},
	}
}
