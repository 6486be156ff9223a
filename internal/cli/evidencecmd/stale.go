package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// StaleOptions are the options of 'ctxpack evidence stale'.
type StaleOptions struct {
	WorkspaceOptions
}

// NewCmdStale is 'ctxpack evidence stale'.
func NewCmdStale(f *cmdutil.Factory, runF func(*StaleOptions) error) *cobra.Command {
	o := &StaleOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd := &cobra.Command{
		Use:   "stale",
		Short: "List evidence whose source changed since it was added (exit 1 if any)",
		Long: `Compare every workspace file made from a project file with that file now,
by the content id of the span it selected, and list the ones that differ:
changed (the span's text is not what was added), or missing (the file is
gone, or the span now ends past it). It exits 1 when any is stale, so it can
guard a script. Files written by hand or from text have no source to
compare; links read their file afresh and are never stale.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			if runF != nil {
				return runF(o)
			}
			return staleRun(o)
		},
	}
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func staleRun(o *StaleOptions) error {
	if err := o.Globals.TextOrJSON("evidence stale"); err != nil {
		return err
	}
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	rep, err := p.StaleEvidence(ws)
	if err != nil {
		return err
	}
	o.IO.WarnAll(rep.Warnings)
	if o.Globals.JSON() {
		if err := cmdutil.WriteJSON(o.IO.Out, rep); err != nil {
			return err
		}
	} else {
		for _, s := range rep.Stale {
			detail := ""
			if s.Detail != "" {
				detail = ": " + s.Detail
			}
			fmt.Fprintf(o.IO.Out, "%s: %s %s%s\n", s.Path, s.Reason, s.Selector, detail)
		}
		fmt.Fprintf(o.IO.Out, "%d stale of %d checked (%d without a source, %d links)\n", len(rep.Stale), rep.Checked, rep.Untracked, rep.Links)
	}
	if len(rep.Stale) > 0 {
		return cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}
