package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack"
	"github.com/ctxpack/ctxpack/internal/check"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/spf13/cobra"
)

type checkOptions struct {
	g              *globals
	ios            *IOStreams
	strict         bool
	baseline       string // --baseline FILE, relative to the working directory
	noBaseline     bool
	updateBaseline bool
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

func newCmdCheck(g *globals, ios *IOStreams, runF func(*checkOptions) error) *cobra.Command {
	o := &checkOptions{g: g, ios: ios}
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
	f := cmd.Flags()
	f.BoolVar(&o.strict, "strict", false, "fail (exit 1) on warnings too")
	f.StringVar(&o.baseline, "baseline", "", "read (or with --update-baseline, write) the baseline `FILE`\n(default: check.baseline, else .baseline.json in the artifact directory)")
	f.BoolVar(&o.noBaseline, "no-baseline", false, "report every finding, ignoring the baseline")
	f.BoolVar(&o.updateBaseline, "update-baseline", false, "write the current findings to the baseline and exit 0")
	return cmd
}

// validate checks the flags that do not need the project.
func (o *checkOptions) validate() error {
	if err := o.g.textOrJSON("check"); err != nil {
		return err
	}
	if o.noBaseline && o.baseline != "" {
		return cmdutil.Usagef("check: give --baseline or --no-baseline, not both")
	}
	if o.noBaseline && o.updateBaseline {
		return cmdutil.Usagef("check: --update-baseline writes the baseline; it cannot go with --no-baseline")
	}
	return nil
}

// checkJSON is the json format's document.
type checkJSON struct {
	Findings []check.Finding `json:"findings"`
	Summary  check.Summary   `json:"summary"`
}

func checkRun(ctx context.Context, o *checkOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	p, err := o.g.openProjectWarn(o.ios)
	var ce *project.ConfigError
	switch {
	case errors.As(err, &ce), err != nil && o.g.config != "" && errors.Is(err, fs.ErrNotExist):
		return o.configFailure(err)
	case err != nil:
		return err
	}
	baseline := o.baseline
	if baseline != "" && !filepath.IsAbs(baseline) {
		baseline = filepath.Join(p.Dir, baseline) // --baseline is relative to the working directory
	}
	var cfe *ctxpack.CheckConfigError
	if o.updateBaseline {
		n, shown, err := p.UpdateBaseline(ctx, baseline)
		if errors.As(err, &cfe) {
			return o.configFailure(err)
		}
		if err != nil {
			return err
		}
		if o.baseline != "" {
			shown = o.baseline
		}
		_, err = fmt.Fprintf(o.ios.Out, "check: wrote %d findings to the baseline %s\n", n, shown)
		return err
	}
	rep, err := p.Check(ctx, ctxpack.CheckOptions{Strict: o.strict, Baseline: baseline, NoBaseline: o.noBaseline})
	if errors.As(err, &cfe) {
		return o.configFailure(err)
	}
	if err != nil {
		return err
	}
	var out strings.Builder
	if o.g.format == "json" {
		if err := writeJSON(&out, checkJSON{Findings: rep.Findings, Summary: rep.Summary}); err != nil {
			return err
		}
	} else {
		out.WriteString(rep.Text())
	}
	if _, err := o.ios.Out.Write([]byte(out.String())); err != nil {
		return err
	}
	if !rep.Summary.OK {
		return cmdutil.SilentError{Code: cmdutil.ExitFailure}
	}
	return nil
}

// configFailure prints a configuration problem and exits 2, without the
// pointer to --help that a usage error gets.
func (o *checkOptions) configFailure(err error) error {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(o.ios.ErrOut, "ctxpack: %s\n", strings.TrimPrefix(line, "ctxpack: "))
	}
	return cmdutil.SilentError{Code: cmdutil.ExitUsage}
}
