package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// Export writes an assembly into a new workspace, dir: what
// 'ctxpack context --to-evidence DIR' does.
func Export(ios *cmdutil.IOStreams, p *app.Project, dir string, plan *app.Plan) error {
	ws, err := p.Workspace(dir)
	if err != nil {
		return cmdutil.WrapUsage(err)
	}
	rep, err := p.ExportEvidence(ws, plan)
	if err != nil {
		return err
	}
	ios.WarnAll(rep.Warnings)
	for _, s := range rep.Skipped {
		ios.Warn("not exported: %s", s)
	}
	for _, w := range rep.Written {
		fmt.Fprintf(ios.Out, "  %s\n", w)
	}
	reduced := ""
	if rep.Reduced > 0 {
		reduced = fmt.Sprintf("; %d parts the assembly showed below full are whole here", rep.Reduced)
	}
	fmt.Fprintf(ios.Out, "✓ exported %d files into %s%s (ctxpack evidence status --ctx %s)\n", len(rep.Written), rep.Workspace, reduced, rep.Workspace)
	return nil
}
