package storecmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// experienceFlags are the flags of experience add that give the fields
// of one experience, in the order of the fields, with the field each
// gives as the store's errors name it.
var experienceFlags = []struct{ flag, field, usage string }{
	{"domain", "domain", "the kind of work, a lower-case `WORD`: debugging, feature, refactor, testing, … (required)"},
	{"strategy", "strategy", "how it was approached, a lower-case `WORD`: systematic-elimination, …"},
	{"goal", "goal", "what was wanted (required)"},
	{"hypothesis", "hypothesis", "what was believed (required)"},
	{"action", "action", "what was done to test it (required)"},
	{"prediction", "prediction", "what the hypothesis said would happen (required)"},
	{"outcome", "outcome.status", "how it ended, a `STATUS`: confirmed, falsified or abandoned (required)"},
	{"result", "outcome.result", "what happened (required)"},
	{"surprise", "surprise", "what was unexpected"},
	{"root-cause", "root_cause", "why the hypothesis failed (\"category: description\")"},
	{"lesson", "lesson", "what to do next time (only experiences with a lesson give values)"},
	{"confidence", "confidence", "how far to trust it, a `TIER`: gold, silver, bronze (default) or abandoned"},
	{"iterations", "iterations", "how many attempts (`N`) it took (default 1)"},
}

// ExperienceAddOptions are the options of 'ctxpack experience add'.
type ExperienceAddOptions struct {
	StoreOptions
	File       string            // --file: a YAML file of experiences; "-" reads standard input
	Texts      map[string]string // the experience's text flags that were given, by flag name
	Iterations int               // --iterations; 0 when not given
	Set        []string          // the experience's flags that were given, in experienceFlags order
}

// NewCmdExperienceAdd is 'ctxpack experience add'.
func NewCmdExperienceAdd(f *cmdutil.Factory, runF func(*ExperienceAddOptions) error) *cobra.Command {
	o := &ExperienceAddOptions{StoreOptions: storeOptions(f), Texts: map[string]string{}}
	texts := map[string]*string{} // the text flags' values, by flag name
	cmd := &cobra.Command{
		Use:   "add (--file FILE | --domain D --goal G ...)",
		Short: "Add experiences, from flags or a YAML file",
		Long: `Add experiences to the store, .ctxpack/sources.db, and print the key of
each, in order: "added experience:12". Give one experience with flags, or
one or many in a YAML file (--file FILE, or --file - for standard input),
not both. --format json prints what was added as stored: one JSON object
for flags, an array for a file.

The file holds one experience (a mapping) or a list of them, with the keys
domain, strategy, goal, hypothesis, action, prediction, outcome (a status,
or a mapping of status and result), result, surprise, root_cause, lesson,
confidence and iterations:

  - domain: debugging
    strategy: systematic-elimination
    goal: find why the invoice total drifts
    hypothesis: rounding happens per line
    action: summed the unrounded lines
    prediction: the drift disappears
    outcome: {status: falsified, result: the drift stayed}
    root_cause: "wrong-assumption: the drift came from currency conversion"
    lesson: convert currencies after summing

Required: domain, goal, hypothesis, action, prediction, outcome and result.
Texts are taken with the spaces around them trimmed. Every experience in
the file is checked before any is added, so a file with a fault adds
nothing: the fault is a failure (exit 1) naming the file and line
("exp.yaml:4: outcome.status must be confirmed, falsified or abandoned").
With flags, a missing or bad value is a usage error (exit 2) naming the
flag.`,
		Example: `  ctxpack experience add --file experiences.yaml
  ctxpack experience add --file - < experiences.yaml
  ctxpack experience add --domain testing --strategy bisect \
      --goal "find the flaky test" --hypothesis "test order matters" \
      --action "ran the suite shuffled" --prediction "it fails shuffled" \
      --outcome confirmed --result "it failed on seed 7" --confidence silver`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, fl := range experienceFlags {
				if !cmd.Flags().Changed(fl.flag) {
					continue
				}
				o.Set = append(o.Set, fl.flag)
				if t, ok := texts[fl.flag]; ok {
					o.Texts[fl.flag] = *t
				}
			}
			if runF != nil {
				return runF(o)
			}
			return experienceAddRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.File, "file", "", "add the experiences in the YAML `FILE` (- for standard input)")
	for _, fl := range experienceFlags {
		if fl.flag == "iterations" {
			fs.IntVar(&o.Iterations, fl.flag, 0, fl.usage)
			continue
		}
		texts[fl.flag] = fs.String(fl.flag, "", fl.usage)
	}
	return cmd
}

// experience is the experience the flags give; a bad value is a usage
// error naming its flag.
func (o *ExperienceAddOptions) experience() (app.ExperienceInput, error) {
	const command = "experience add"
	if slices.Contains(o.Set, "iterations") && o.Iterations < 1 {
		return app.ExperienceInput{}, cmdutil.Usagef("%s: --iterations must be a whole number from 1 (got %d)", command, o.Iterations)
	}
	t := func(flag string) string { return strings.TrimSpace(o.Texts[flag]) }
	e := app.ExperienceInput{
		Domain: t("domain"), Strategy: t("strategy"), Goal: t("goal"), Hypothesis: t("hypothesis"),
		Action: t("action"), Prediction: t("prediction"), Outcome: t("outcome"), Result: t("result"),
		Surprise: t("surprise"), RootCause: t("root-cause"), Lesson: t("lesson"),
		Confidence: t("confidence"), Iterations: o.Iterations,
	}
	if err := e.Validate(); err != nil {
		names := map[string]string{}
		for _, f := range experienceFlags {
			names[f.field] = "--" + f.flag
		}
		return app.ExperienceInput{}, flagError(command, err, names)
	}
	return e, nil
}

// experiences are the experiences of --file, all valid.
func (o *ExperienceAddOptions) experiences() ([]app.ExperienceInput, error) {
	const command = "experience add"
	var data []byte
	name := o.File
	if o.File == "-" {
		name = "<stdin>"
		s, err := o.IO.ReadStdin(command, "experiences")
		if err != nil {
			return nil, err
		}
		data = []byte(s)
	} else {
		path, err := o.Globals.Path(o.File)
		if err != nil {
			return nil, err
		}
		if data, err = os.ReadFile(path); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				pe.Path = o.File // as the user gave it
			}
			return nil, fmt.Errorf("%s: %w", command, err)
		}
	}
	es, err := app.ParseExperiences(name, data)
	var pe *app.ExperienceFileError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %s", command, strings.TrimPrefix(pe.Error(), "store: "))
	}
	return es, err
}

func experienceAddRun(ctx context.Context, o *ExperienceAddOptions) error {
	const command = "experience add"
	var es []app.ExperienceInput
	switch {
	case o.File != "" && len(o.Set) > 0:
		return cmdutil.Usagef("%s: give --file or the experience's flags, not both (--file with --%s)", command, o.Set[0])
	case o.File == "" && len(o.Set) == 0:
		return cmdutil.Usagef("%s: give the experience's flags (--domain, --goal, --hypothesis, --action, --prediction, --outcome, --result, …) or a YAML file of experiences (--file FILE)", command)
	case o.File != "":
		var err error
		if es, err = o.experiences(); err != nil {
			return err
		}
	default:
		e, err := o.experience()
		if err != nil {
			return err
		}
		es = []app.ExperienceInput{e}
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var views []app.ExperienceView
	var text strings.Builder
	for _, e := range es {
		v, err := st.AddExperience(ctx, e)
		if err != nil {
			if len(views) > 0 {
				// Say what was added before the failure, so that it can be
				// removed or the rest added.
				_ = o.print(views, text.String())
			}
			return err
		}
		views = append(views, v)
		fmt.Fprintf(&text, "added %s\n", v.Key)
	}
	if o.File == "" {
		return o.print(views[0], text.String())
	}
	return o.print(views, text.String())
}
