package storecmd

import (
	"strconv"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

const experienceLong = `An experience is one attempt at a goal, told as its goal, hypothesis,
action, prediction and outcome (confirmed, falsified or abandoned, with the
result), and what it taught: the surprise, the root cause, the lesson. Its
domain (debugging, feature, refactor, testing, …) and, optionally, its
strategy (systematic-elimination, …) say what kind of work it was; its
confidence tier (gold, silver, bronze — the default — or abandoned) how
far to trust it. Each is one row of the project's store,
.ctxpack/sources.db (an SQLite file under the project root, created by the
first add, or the team's PostgreSQL database: 'ctxpack store --help'),
keyed experience:ID: ids increase and are never given again.

Experiences are searched on four axes, each its own full-text table: full
(every field of every experience), strategy (those with a strategy),
surprise (those with a surprise) and root_cause (those with a root cause,
and the falsified ones). 'ctxpack context QUERY --sources experiences'
searches them, weighted by confidence tier and recency; 'ctxpack premortem
DOMAIN' assembles a domain's failures, strategy outcomes, surprises and
root causes before work starts; 'ctxpack value derive' clusters their
lessons into values.

A value the store refuses on the command line is a usage error (exit 2)
naming the flag; a file of experiences with a fault is a failure (exit 1)
naming the file and line, and adds nothing; an id the store does not hold
is a failure (exit 1). --format json prints experiences as JSON: one
object for show and rm (and add with flags), an array for list (and add
--file).`

var experienceKind = newRowKind("experience", "experiences", (*app.Store).Experience, (*app.Store).RemoveExperience, experienceFields)

// NewCmdExperience is 'ctxpack experience', the group of its subcommands.
func NewCmdExperience(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "experience",
		Aliases: []string{"experiences"},
		Short:   "Add, list, show and remove experiences: past attempts and their lessons",
		Long:    experienceLong,
		Example: `  ctxpack experience add --file experiences.yaml
  ctxpack experience add --domain debugging --goal "find why the total drifts" \
      --hypothesis "rounding per line" --action "summed unrounded lines" \
      --prediction "the drift disappears" --outcome falsified --result "it stayed" \
      --lesson "convert currencies after summing"
  ctxpack experience list --domain debugging --outcome falsified
  ctxpack experience show 12
  ctxpack premortem debugging`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		NewCmdExperienceAdd(f, nil),
		NewCmdExperienceList(f, nil),
		newCmdShow(f, experienceKind, nil),
		newCmdRemove(f, experienceKind, nil),
	)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// experienceFields are v's fields as show prints them, named as an
// experiences file names them; the optional texts only when they are set.
func experienceFields(v app.ExperienceView) []field {
	fs := []field{{"key", v.Key}, {"domain", v.Domain}}
	optional := func(name, value string) {
		if value != "" {
			fs = append(fs, field{name, value})
		}
	}
	optional("strategy", v.Strategy)
	fs = append(fs,
		field{"goal", v.Goal},
		field{"hypothesis", v.Hypothesis},
		field{"action", v.Action},
		field{"prediction", v.Prediction},
		field{"outcome", v.Outcome.Status},
		field{"result", v.Outcome.Result},
	)
	optional("surprise", v.Surprise)
	optional("root_cause", v.RootCause)
	optional("lesson", v.Lesson)
	return append(fs,
		field{"confidence", v.Confidence},
		field{"iterations", strconv.Itoa(v.Iterations)},
		field{"created", v.Created},
	)
}
