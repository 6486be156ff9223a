package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// CheckOptions are the options of 'ctxpack check'.
type CheckOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Strict         bool
	Baseline       string // --baseline FILE, relative to the working directory
	NoBaseline     bool
	UpdateBaseline bool
}

const checkLong = `Check the artifacts and the @spec and @decision annotations in the code, and
print one line per finding, then a summary:

  WARN broken-link .ctxpack/work/tasks/TASK-1.md:6: TASK-1 links to SPEC-X, which does not exist
  OK 14 specs, 8 decisions, 5 norms  1 warning, 0 errors

Errors:   duplicate-id, malformed-frontmatter, missing-required-field.
Warnings: broken-link, superseded-link, deprecated-link, broken-ref (an
          annotation whose artifact is missing, of another type, or does not
          list the file in its paths), broken-path (a paths glob that matches
          no file), orphan-spec, unknown-status.

Findings are sorted by path, line, rule and message. Annotations are read from
comments in any common language ("// @spec SPEC-A, SPEC-B", "# @decision
DEC-1", "<!-- @spec SPEC-A -->"), never from strings, in every file the walk
lists (.gitignore is honoured; binary and oversized files are not read).

The check section of .ctxpack/config.yaml sets severities and required fields:

  check:
    rules: {orphan-spec: error, broken-path: off}   # error, warning or off
    required_fields: {spec: [id, title, status]}   # default: id and title, and
                                                   # status for tasks and specs
    baseline: .ctxpack/.baseline.json

A baseline lists known findings (by rule, path and message, not line):
--update-baseline writes the current findings to it, and later checks report
only the findings it does not hold, and how many it hid.

--format json prints {"findings": [{"rule", "severity", "path", "line",
"message", "id"}, …], "summary": {"specs", …, "errors", "warnings",
"baselined", "ok"}}.

Exit status: 0 when there are no errors (warnings allowed unless --strict),
1 when there are, 2 for a bad command line, configuration or baseline file.`

// NewCmdCheck is 'ctxpack check': the artifacts, their links and the
// code's annotations, checked.
func NewCmdCheck(f *cmdutil.Factory, runF func(*CheckOptions) error) *cobra.Command {
	o := &CheckOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check artifacts, links and code annotations",
		Long:  checkLong,
		Example: `  ctxpack check
  ctxpack check --strict --format json
  ctxpack check --update-baseline   # accept today's findings; report only new ones`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return checkRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&o.Strict, "strict", false, "fail (exit 1) on warnings too")
	fs.StringVar(&o.Baseline, "baseline", "", "read (or with --update-baseline, write) the baseline `FILE`\n(default: check.baseline, else .baseline.json in the artifact directory)")
	fs.BoolVar(&o.NoBaseline, "no-baseline", false, "report every finding, ignoring the baseline")
	fs.BoolVar(&o.UpdateBaseline, "update-baseline", false, "write the current findings to the baseline and exit 0")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// validate checks the flags that do not need the project.
func (o *CheckOptions) validate() error {
	if err := o.Globals.TextOrJSON("check"); err != nil {
		return err
	}
	if o.NoBaseline && o.Baseline != "" {
		return cmdutil.Usagef("check: give --baseline or --no-baseline, not both")
	}
	if o.NoBaseline && o.UpdateBaseline {
		return cmdutil.Usagef("check: --update-baseline writes the baseline; it cannot go with --no-baseline")
	}
	return nil
}

// checkJSON is the json format's document.
type checkJSON struct {
	Findings []app.Finding    `json:"findings"`
	Summary  app.CheckSummary `json:"summary"`
}

func checkRun(ctx context.Context, o *CheckOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	p, err := o.Project()
	var ce *app.ConfigError
	switch {
	case errors.As(err, &ce), err != nil && o.Globals.Config != "" && errors.Is(err, fs.ErrNotExist):
		return o.configFailure(err)
	case err != nil:
		return err
	}
	baseline := o.Baseline
	if baseline != "" && !filepath.IsAbs(baseline) {
		baseline = filepath.Join(p.Dir, baseline) // --baseline is relative to the working directory
	}
	var cfe *app.CheckConfigError
	if o.UpdateBaseline {
		n, shown, err := p.UpdateBaseline(ctx, baseline)
		if errors.As(err, &cfe) {
			return o.configFailure(err)
		}
		if err != nil {
			return err
		}
		if o.Baseline != "" {
			shown = o.Baseline
		}
		_, err = fmt.Fprintf(o.IO.Out, "check: wrote %d findings to the baseline %s\n", n, shown)
		return err
	}
	rep, err := p.Check(ctx, app.CheckOptions{Strict: o.Strict, Baseline: baseline, NoBaseline: o.NoBaseline})
	if errors.As(err, &cfe) {
		return o.configFailure(err)
	}
	if err != nil {
		return err
	}
	var out strings.Builder
	if o.Globals.JSON() {
		if err := cmdutil.WriteJSON(&out, checkJSON{Findings: rep.Findings, Summary: rep.Summary}); err != nil {
			return err
		}
	} else {
		out.WriteString(rep.Text())
	}
	if _, err := o.IO.Out.Write([]byte(out.String())); err != nil {
		return err
	}
	if !rep.Summary.OK {
		return cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}

// configFailure prints a configuration problem and exits 2, without the
// pointer to --help that a usage error gets.
func (o *CheckOptions) configFailure(err error) error {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(o.IO.ErrOut, "ctxpack: %s\n", strings.TrimPrefix(line, "ctxpack: "))
	}
	return cmdutil.SilentError{Code: cmdutil.ExitUsage}
}
