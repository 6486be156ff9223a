package evidencecmd

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdStatus is 'ctxpack evidence status'.
func NewCmdStatus(f *cmdutil.Factory, runF func(*PlanOptions) error) *cobra.Command {
	return planCommand(f, &cobra.Command{
		Use:   "status",
		Short: "List the workspace's files: rank, role, state, tokens",
		Long: `List the workspace's files in assembly order with their rank, role, state
(active, skipped, linked), tokens and bytes, and the whole context's tokens
against the budget. TOKENS is what the file's section takes in
prompt.mdctx, measured alone; the total is counted on the assembled
prompt. --format json prints the plan (as 'evidence plan').`,
	}, runF, statusRun)
}

func statusRun(ctx context.Context, o *PlanOptions) error {
	return o.show(ctx, "evidence status", writeStatus)
}

func writeStatus(w io.Writer, ws *app.Workspace, res *app.EvidenceResult) error {
	plan := res.Plan
	fmt.Fprintf(w, "%s: %d files, budget %d tokens (%s)\n", ws.Shown, len(plan.Parts), plan.Budget, plan.Tokenizer)
	if len(plan.Parts) == 0 {
		fmt.Fprintln(w, "(empty: ctxpack evidence add SELECTOR adds a file)")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tROLE\tSTATUS\tTOKENS\tBYTES\tFILE")
	active := 0
	for i, pt := range plan.Parts {
		file := res.Entries[i].Rel
		note := ""
		if pt.Source != "" {
			if sel, ok := app.EvidenceSourceFile(pt.Source); ok {
				note = "  " + sel
				if pt.Span != "" && pt.Span != "file" {
					note += " " + pt.Span
				}
			}
		}
		if pt.Reason != "" {
			note += "  (" + pt.Reason + ")"
		}
		if pt.Shown() {
			active++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s%s\n", pt.Rank, pt.Role, pt.Status, pt.FullTokens, pt.Bytes, file, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "Assembled: %d of %d files, %d bytes, %d tokens (%s of %d)\n", active, len(plan.Parts), plan.TotalBytes, plan.TotalTokens, sharePercent(plan.TotalTokens, plan.Budget), plan.Budget)
	return nil
}
