package cli

import (
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/cli/evidencecmd"
	"github.com/ctxpack/ctxpack/internal/cli/storecmd"
	"github.com/spf13/cobra"
)

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

// newRoot is the root command: the global flags, and each command in its
// group of the help.
func newRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:     "ctxpack <command> [flags]",
		Short:   "Assemble exact, deterministic, auditable context for coding agents",
		Long:    rootLong,
		Example: rootExample,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	f.SetupRoot(root)
	// --version prints what 'ctxpack version' prints. The flag is made
	// here, without cobra's -v, which -v/--verbose has.
	root.Version = versionString()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().Bool("version", false, "print the version, as 'ctxpack version' does")
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
	add("assemble", NewCmdContext(f, nil), NewCmdPack(f, nil), NewCmdPremortem(f, nil))
	add("artifacts", NewCmdShow(f, nil), NewCmdList(f, nil), NewCmdExplain(f, nil), NewCmdGraph(f, nil), NewCmdInit(f, nil))
	add("index", NewCmdIndex(f, nil), NewCmdSearch(f, nil))
	add("inspect", NewCmdTokens(f, nil), NewCmdVerify(f, nil))
	add("inspect", NewCmdCheck(f, nil))
	add("assemble", NewCmdBudget(f, nil))
	add("inspect", NewCmdScore(f, nil), NewCmdSummarize(f, nil), NewCmdReport(f, nil))
	add("store", storecmd.NewCmdMemory(f), storecmd.NewCmdExperience(f), storecmd.NewCmdValue(f), storecmd.NewCmdStore(f))
	add("evidence", evidencecmd.NewCmdEvidence(f))
	add("other", NewCmdServe(f, nil), NewCmdVersion(f, nil))
	root.SetHelpCommandGroupID("other")
	return root
}
