package evidencecmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// EnvOptions are the options of 'ctxpack evidence env'.
type EnvOptions struct {
	WorkspaceOptions
	Absolute bool
}

// NewCmdEnv is 'ctxpack evidence env'.
func NewCmdEnv(f *cmdutil.Factory, runF func(*EnvOptions) error) *cobra.Command {
	o := &EnvOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Print shell exports of the evidence files, for eval",
		Long: `Print "export" lines for a POSIX shell: EVIDENCE_COUNT, the number of
active and linked evidence files, and e1, e2… each one's path in assembly
order, relative to the current directory (--absolute for absolute paths);
FLOW_DIR, the folder that holds the workspace and build/.`,
		Example: `  eval "$(ctxpack evidence env)"
  grep -n "func" "$e1"; diff "$e1" "$e3"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			if runF != nil {
				return runF(o)
			}
			return envRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.Absolute, "absolute", false, "print absolute paths")
	return cmd
}

func envRun(o *EnvOptions) error {
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	entries, warnings, err := p.EvidenceEntries(ws)
	if err != nil {
		return err
	}
	o.IO.WarnAll(warnings)
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	shown := func(abs string) string {
		if o.Absolute {
			return abs
		}
		if rel, err := filepath.Rel(base, abs); err == nil {
			return rel
		}
		return abs
	}
	var lines []string
	n := 0
	for _, e := range entries {
		if e.Role != app.EvidenceRole || e.State == app.EvidenceSkipped {
			continue
		}
		n++
		lines = append(lines, fmt.Sprintf("export e%d=%s", n, shellQuote(shown(filepath.Join(ws.Root, filepath.FromSlash(e.Path))))))
	}
	fmt.Fprintf(o.IO.Out, "export FLOW_DIR=%s\n", shellQuote(shown(filepath.Dir(ws.Dir))))
	fmt.Fprintf(o.IO.Out, "export EVIDENCE_COUNT=%d\n", n)
	for _, l := range lines {
		fmt.Fprintln(o.IO.Out, l)
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
