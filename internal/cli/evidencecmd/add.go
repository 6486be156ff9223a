package evidencecmd

import (
	"context"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// AddOptions are the options of 'ctxpack evidence add'.
type AddOptions struct {
	WorkspaceOptions
	Add app.AddRequest // Rank is -1 when --rank is not given
}

// NewCmdAdd is 'ctxpack evidence add SELECTOR|-'.
func NewCmdAdd(f *cmdutil.Factory, runF func(*AddOptions) error) *cobra.Command {
	o := &AddOptions{WorkspaceOptions: workspaceOptions(f)}
	var rank string
	cmd := &cobra.Command{
		Use:   "add SELECTOR|-",
		Short: "Add a file, a span of lines or bytes, or text to the workspace",
		Long: `Add what SELECTOR selects to the workspace, as a file with its provenance.

SELECTOR is path[::range][#tags], relative to the project root: a whole
file, lines a,b, line a to the end, bytes ac,bc or ac to the end, with
optional comma-separated tags. Paths that leave the project, folders,
binary files and ranges past the end of the file are errors. "-" reads
text from standard input instead (a request, a policy).

The file is <rank>_<kind>.<role>.md: --rank defaults to ten past the
highest rank of the role's band (000-099 for system and user, 100-999 for
evidence), --kind to the file's name ("flow.sh" gives flow_sh). Evidence
goes into evidence/, system and user files at the top. --link writes a
.link file holding the selector instead: read afresh at each assembly,
always active, never stale.

It prints the file's size and tokens, the whole context's size with every
active file, and its share of the budget.`,
		Example: `  ctxpack evidence add core/flow.sh::100,200#flow,bug
  ctxpack evidence add docs/policy.md --role system --rank 0
  ctxpack evidence add - --role user < request.md
  ctxpack evidence add tests/flow_test.sh --rank 200
  ctxpack evidence add config/example.yaml --link`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("SELECTOR", "PATH[::RANGE][#TAGS], or - for text on standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.Add.Selector = args[0]
			o.Add.Rank = -1
			if cmd.Flags().Changed("rank") {
				r, err := app.ParseEvidenceRank(rank)
				if err != nil {
					return cmdutil.Usagef("--rank: %w", err)
				}
				o.Add.Rank = r
			}
			if runF != nil {
				return runF(o)
			}
			return addRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&rank, "rank", "", "the file's `RANK`, 0 to 999 (default: the next of its role's band)")
	cmd.Flags().StringVar(&o.Add.Role, "role", "", "`ROLE`: system, user or evidence (default evidence)")
	cmd.Flags().StringVar(&o.Add.Kind, "kind", "", "the file's `KIND` (default from the file name)")
	cmd.Flags().BoolVar(&o.Add.Link, "link", false, "write a .link file that reads the selector afresh at each assembly")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func addRun(ctx context.Context, o *AddOptions) error {
	ar := o.Add
	if ar.Role != "" {
		if err := app.CheckEvidenceRole(ar.Role); err != nil {
			return cmdutil.Usagef("--role: %w", err)
		}
	}
	if ar.Kind != "" && !app.ValidEvidenceKind(ar.Kind) {
		return cmdutil.Usagef("--kind %q must be 1 to 64 of A-Z a-z 0-9 _ -", ar.Kind)
	}
	if ar.Selector == "-" {
		text, err := o.IO.ReadStdin("evidence add", "text")
		if err != nil {
			return err
		}
		ar.Text = text
	} else if err := app.CheckSelector(ar.Selector); err != nil {
		return cmdutil.WrapUsage(err)
	}
	req, err := request(o.Globals, "", "", false)
	if err != nil {
		return err
	}
	p, ws, err := o.open(false)
	if err != nil {
		return err
	}
	a, err := p.AddEvidence(ctx, ws, ar, req)
	if err != nil {
		return advice(err)
	}
	o.IO.WarnAll(a.Warnings)
	plan := a.Total.Plan
	e := app.ViewEntry(ws, a.Entry)
	if o.Globals.JSON() {
		return cmdutil.WriteJSON(o.IO.Out, map[string]any{
			"added": a.Path, "rank": e.Rank, "kind": e.Kind, "role": e.Role,
			"state": e.State, "bytes": a.Bytes, "tokens": a.Tokens,
			"total_bytes": plan.TotalBytes, "total_tokens": plan.TotalTokens, "budget": plan.Budget,
		})
	}
	what := "evidence"
	if e.Role != app.EvidenceRole {
		what = e.Role + " file"
	}
	if e.State == app.EvidenceLinked {
		what = "link"
	}
	fmt.Fprintf(o.IO.Out, "✓ Added %s: %s\n", what, a.Path)
	fmt.Fprintf(o.IO.Out, "  Bytes: %d (%d tokens)\n", a.Bytes, a.Tokens)
	fmt.Fprintf(o.IO.Out, "  Total context: %d bytes (%d tokens)\n", plan.TotalBytes, plan.TotalTokens)
	fmt.Fprintf(o.IO.Out, "  Budget: %s of %d token limit\n", sharePercent(plan.TotalTokens, plan.Budget), plan.Budget)
	if plan.TotalTokens > plan.Budget {
		o.IO.Warn("the active files take %d tokens, over the budget of %d: assemble will degrade or drop the highest-ranked evidence (ctxpack evidence budget shows what)", plan.TotalTokens, plan.Budget)
	}
	return nil
}
