package storecmd

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ExperienceListOptions are the options of 'ctxpack experience list'.
type ExperienceListOptions struct {
	StoreOptions
	Domain   string
	Strategy string
	Outcome  string
}

// NewCmdExperienceList is 'ctxpack experience list'.
func NewCmdExperienceList(f *cmdutil.Factory, runF func(*ExperienceListOptions) error) *cobra.Command {
	o := &ExperienceListOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the experiences",
		Long: `List the experiences in the store, by id, one line each: the key, the
domain (and |strategy when it has one), the outcome, the confidence tier and
the goal's first line, cut to fit 100 columns (… marks a cut). --domain,
--strategy and --outcome keep only the experiences that have exactly that
value. --format json prints them whole, as a JSON array of the objects
'experience show' prints. An empty list prints nothing (and a note on
standard error).`,
		Example: `  ctxpack experience list
  ctxpack experience list --domain debugging --outcome falsified --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return experienceListRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Domain, "domain", "", "only the experiences of this `DOMAIN`")
	cmd.Flags().StringVar(&o.Strategy, "strategy", "", "only the experiences with this `STRATEGY`")
	cmd.Flags().StringVar(&o.Outcome, "outcome", "", "only the experiences with this `OUTCOME`: confirmed, falsified or abandoned")
	return cmd
}

func experienceListRun(ctx context.Context, o *ExperienceListOptions) error {
	const command = "experience list"
	f := app.ExperienceFilter{Domain: o.Domain, Strategy: o.Strategy}
	if o.Outcome != "" {
		out, err := app.ParseOutcome(o.Outcome)
		if err != nil {
			return flagError(command, err, map[string]string{"outcome.status": "--outcome"})
		}
		f.Outcome = out
	}
	st, err := o.open(command, true)
	if err != nil {
		return err
	}
	defer st.Close()
	es, err := st.Experiences(ctx, f)
	if err != nil {
		return err
	}
	return listRows(&o.StoreOptions, es, func(e app.ExperienceView) []string {
		kind := e.Domain
		if e.Strategy != "" {
			kind += "|" + e.Strategy
		}
		return []string{e.Key, kind, e.Outcome.Status, e.Confidence, e.Goal}
	}, "experiences", "'ctxpack experience add' adds them")
}
