package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ToggleOptions are the options of 'ctxpack evidence toggle'.
type ToggleOptions struct {
	WorkspaceOptions
	ID   string // a file, an id, a rank, or (with on or off) a range of ranks
	Want string // on or off; "" flips
}

// NewCmdToggle is 'ctxpack evidence toggle [on|off] ID'.
func NewCmdToggle(f *cmdutil.Factory, runF func(*ToggleOptions) error) *cobra.Command {
	o := &ToggleOptions{WorkspaceOptions: workspaceOptions(f)}
	return &cobra.Command{
		Use:   "toggle ID | toggle on|off ID|RANGE",
		Short: "Turn workspace files on or off (.md <-> .md.skip)",
		Long: `Turn files on or off by renaming them: <name>.md is active, <name>.md.skip
is skipped. 'toggle ID' flips one file; 'toggle on ID' and 'toggle off ID'
set it; 'toggle off 300-399' sets every file ranked 300 to 399. ID is a
file name, an id (100_flow_sh) or a rank that one file has. Links are
always active and are left as they are.`,
		Example: `  ctxpack evidence toggle 200_test_flow_sh
  ctxpack evidence toggle off 300-399
  ctxpack evidence toggle on 300_example`,
		Args: cmdutil.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.ID = args[0]
			if len(args) == 2 {
				if args[0] != "on" && args[0] != "off" {
					return cmdutil.Usagef("evidence toggle: the first of two arguments is on or off (got %q)", args[0])
				}
				o.Want = args[0]
				o.ID = args[1]
			}
			if runF != nil {
				return runF(o)
			}
			return toggleRun(o)
		},
	}
}

func toggleRun(o *ToggleOptions) error {
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	done, warnings, err := p.ToggleEvidence(ws, o.ID, o.Want)
	o.IO.WarnAll(warnings)
	changed := 0
	for _, t := range done {
		if t.Note != "" {
			fmt.Fprintf(o.IO.Out, "  %s: %s; left as it is\n", t.Entry.ID, t.Note)
			continue
		}
		changed++
		onOff := "on"
		if t.Entry.State == app.EvidenceSkipped {
			onOff = "off"
		}
		fmt.Fprintf(o.IO.Out, "✓ %s %s (%s)\n", onOff, t.Entry.ID, t.Entry.Path)
	}
	if err != nil {
		return advice(err)
	}
	if changed == 0 && len(done) > 1 {
		fmt.Fprintln(o.IO.Out, "nothing changed")
	}
	return nil
}
