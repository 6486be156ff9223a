package storecmd

import (
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

const valueLong = `A value is a principle the team holds ("convert currencies after
summing"). It is written by hand ('value add') or derived from experiences
('value derive': the lesson of the most central experience of a cluster of
experiences alike on one axis). Each is one row of the project's store,
.ctxpack/sources.db (an SQLite file under the project root, created by the
first add, or the team's PostgreSQL database: 'ctxpack store --help'),
keyed value:ID: ids increase and are never given again. A value
has an axis — full, strategy, surprise or root_cause, the axes experiences
are searched and clustered on — and tags: the domains and strategies it
applies to.

'ctxpack context QUERY --sources values' searches their text, axis and
tags; 'ctxpack premortem DOMAIN' shows the values that match the domain and
strategy under Relevant Principles. A derived value and the experience it
came from are one item to sources mode: only the more relevant is shown.

A value the store refuses on the command line is a usage error (exit 2)
naming the flag; an id the store does not hold is a failure (exit 1).
--format json prints values as JSON: one object for add, show and rm, an
array for list and derive.`

var valueKind = newRowKind("value", "values", (*app.Store).Value, (*app.Store).RemoveValue, valueFields)

// NewCmdValue is 'ctxpack value', the group of its subcommands.
func NewCmdValue(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "value",
		Aliases: []string{"values"},
		Short:   "Add, derive, list, show and remove values: principles the team holds",
		Long:    valueLong,
		Example: `  ctxpack value add "convert currencies after summing" --axis full --tag billing
  ctxpack values derive --min-size 3
  ctxpack values derive --axis root_cause --add
  ctxpack value list --axis full
  ctxpack value rm value:3`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		NewCmdValueAdd(f, nil),
		NewCmdValueDerive(f, nil),
		NewCmdValueList(f, nil),
		newCmdShow(f, valueKind, nil),
		newCmdRemove(f, valueKind, nil),
	)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// parseAxis reads the --axis flag of command; "" is no axis.
func parseAxis(command, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	a, err := app.ParseAxis(s)
	if err != nil {
		return "", flagError(command, err, map[string]string{"axis": "--axis"})
	}
	return a, nil
}

// valueFields are view's fields as show prints them; the cluster's fields
// only for a derived value, the experience only when it names one.
func valueFields(view app.ValueView) []field {
	fs := []field{{"key", view.Key}, {"axis", view.Axis}}
	if view.Cluster != "" {
		fs = append(fs,
			field{"cluster", view.Cluster},
			field{"cluster_size", strconv.Itoa(view.ClusterSize)},
			field{"similarity", formatFloat(view.Similarity)},
		)
	}
	if view.Experience != "" {
		fs = append(fs, field{"experience", view.Experience})
	}
	return append(fs,
		field{"tags", strings.Join(view.Tags, ", ")},
		field{"created", view.Created},
		field{"text", view.Text},
	)
}
