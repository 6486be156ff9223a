package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/store"
	"github.com/spf13/cobra"
)

// The commands over the project's store, .ctxpack/sources.db: memory,
// experience and value, each with add, list, show and rm, and value
// derive. Lists and derive print by id (derive: in the store's order of
// proposals), so their output only changes when the rows do.

// storeOptions are what every store command holds.
type storeOptions struct {
	g       *cmdutil.Globals
	ios     *cmdutil.IOStreams
	project func() (*ctxpack.Project, error)
}

// open checks --format for command and opens the project's store;
// readOnly for a command that only reads, where a missing store is empty
// and nothing is created.
func (o *storeOptions) open(command string, readOnly bool) (*store.Store, error) {
	if err := o.g.TextOrJSON(command); err != nil {
		return nil, err
	}
	p, err := o.project()
	if err != nil {
		return nil, err
	}
	return p.OpenStore(readOnly)
}

func (o *storeOptions) json() bool { return o.g.Format == "json" }

// print writes the JSON of view under --format json, else the text.
func (o *storeOptions) print(view any, text string) error {
	if o.json() {
		return cmdutil.WriteJSON(o.ios.Out, view)
	}
	_, err := io.WriteString(o.ios.Out, text)
	return err
}

// readText is the text of a TEXT argument: standard input for "-", with
// the spaces around it trimmed (as an experiences file's texts are).
func (o *storeOptions) readText(command, arg string) (string, error) {
	if arg != "-" {
		return strings.TrimSpace(arg), nil
	}
	s, err := o.ios.ReadStdin(command, "text")
	return strings.TrimSpace(s), err
}

// flagError turns a *store.ValidationError from an Add of what the command
// line gave into a usage error of command naming the flag or argument
// that gave the field (names maps the store's field names to them; a
// field it does not name keeps the store's name). Other errors are
// returned as they are.
func flagError(command string, err error, names map[string]string) error {
	var ve *store.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	name, ok := names[ve.Field]
	if !ok {
		name = ve.Field
	}
	return cmdutil.Usagef("%s: %s %s", command, name, ve.Msg)
}

// rowKind is what show and rm need to know of a kind of row.
type rowKind struct {
	name   string // memory, experience, value: the command and the key's prefix
	plural string
	// get returns the row with the id: its fields as text shows them, and
	// its view for --format json.
	get func(ctx context.Context, st *store.Store, id int64) ([]field, any, error)
	// remove removes the row with the id and returns its view, as it was.
	remove func(ctx context.Context, st *store.Store, id int64) (any, error)
}

// notFound rewords the store's ErrNotFound for the row id of kind k.
func (k *rowKind) notFound(id int64, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%s %d not found; 'ctxpack %s list' lists the %s in %s", k.name, id, k.name, k.plural, ctxpack.StorePath())
	}
	return err
}

// itemOptions are the options of show and rm: the row they name.
type itemOptions struct {
	storeOptions
	kind *rowKind
	arg  string // the id or key as given
}

// id reads the row's id from the argument; a bad one is a usage error.
func (o *itemOptions) id() (int64, error) {
	id, err := ctxpack.ParseItemID(o.kind.name, o.arg)
	if err != nil {
		return 0, cmdutil.WrapUsage(err)
	}
	return id, nil
}

func newCmdRowShow(f *cmdutil.Factory, k *rowKind, runF func(*itemOptions) error) *cobra.Command {
	cmd := newCmdRow(f, k, "show ID", rowShowRun, runF)
	cmd.Short = "Print one " + k.name + ", every field it has"
	cmd.Long = fmt.Sprintf(`Print every field the %[1]s ID has, given as its number (42) or its key
(%[1]s:42), one "field: value" line each; a text of several lines goes on
under its first line, indented. --format json prints the %[1]s as one JSON
object, as 'ctxpack %[1]s list --format json' lists it. An id the store does
not hold is a failure (exit 1).`, k.name)
	cmd.Example = fmt.Sprintf("  ctxpack %[1]s show 42\n  ctxpack %[1]s show %[1]s:42 --format json", k.name)
	return cmd
}

func newCmdRowRemove(f *cmdutil.Factory, k *rowKind, runF func(*itemOptions) error) *cobra.Command {
	cmd := newCmdRow(f, k, "rm ID", rowRemoveRun, runF)
	cmd.Aliases = []string{"remove"}
	cmd.Short = "Remove one " + k.name + " from the store"
	cmd.Long = fmt.Sprintf(`Remove the %[1]s ID, given as its number (42) or its key (%[1]s:42),
from the store, and print "removed %[1]s:42"; --format json prints the
removed %[1]s as one JSON object instead. Its id is never given again. An id
the store does not hold is a failure (exit 1).`, k.name)
	cmd.Example = fmt.Sprintf("  ctxpack %[1]s rm 42\n  ctxpack %[1]s rm %[1]s:42 --format json", k.name)
	return cmd
}

// newCmdRow is a command over the one row of kind k that its argument
// names (show, rm): run runs it, unless runF is given.
func newCmdRow(f *cmdutil.Factory, k *rowKind, use string, run func(context.Context, *itemOptions) error, runF func(*itemOptions) error) *cobra.Command {
	o := &itemOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}, kind: k}
	return &cobra.Command{
		Use:  use,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.arg = args[0]
			if runF != nil {
				return runF(o)
			}
			return run(cmd.Context(), o)
		},
	}
}

func rowShowRun(ctx context.Context, o *itemOptions) error {
	return o.withRow("show", true, func(st *store.Store, id int64) (any, string, error) {
		fields, view, err := o.kind.get(ctx, st, id)
		return view, formatFields(fields), err
	})
}

func rowRemoveRun(ctx context.Context, o *itemOptions) error {
	return o.withRow("rm", false, func(st *store.Store, id int64) (any, string, error) {
		view, err := o.kind.remove(ctx, st, id)
		return view, "removed " + ctxpack.ItemKey(o.kind.name, id) + "\n", err
	})
}

// withRow reads the row's id from the argument, opens the store (for
// reading only when readOnly) and prints what f gives for the row: its
// view under --format json, else its text. An id the store does not hold
// is a failure that names the command listing the rows.
func (o *itemOptions) withRow(verb string, readOnly bool, f func(st *store.Store, id int64) (view any, text string, err error)) error {
	id, err := o.id()
	if err != nil {
		return err
	}
	st, err := o.open(o.kind.name+" "+verb, readOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	view, text, err := f(st, id)
	if err != nil {
		return o.kind.notFound(id, err)
	}
	return o.print(view, text)
}

// listRows prints rows as the list commands do: under --format json their
// views (view), else one line of columns each (line); an empty list, in
// text, tells on standard error what there is none of (what) and how to
// add some.
func listRows[T, V any](o *storeOptions, rows []T, view func(T) V, line func(T) []string, what, how string) error {
	views := make([]V, 0, len(rows))
	lines := make([][]string, 0, len(rows))
	for _, r := range rows {
		views = append(views, view(r))
		lines = append(lines, line(r))
	}
	if len(rows) == 0 && !o.json() {
		o.noRows(what, how)
	}
	return o.print(views, formatList(lines))
}

// noRows tells the user on standard error that a list is empty, and how
// to add rows.
func (o *storeOptions) noRows(what, how string) {
	fmt.Fprintf(o.ios.ErrOut, "ctxpack: no %s; %s\n", what, how)
}

// --- memory ---------------------------------------------------------------

const memoryLong = `A memory is something the team or an agent learned and wants found again:
a fact, a preference, a decision, an error message and its fix. Each is one
row of the project's store, .ctxpack/sources.db (an SQLite file under the
project root, created by the first add), keyed memory:ID: ids increase and
are never given again. A memory has a category, a lower-case word (fact,
the default, preference, decision, error, workflow, context, event, or a
word of your own), and an importance from 0 to 1 (default 0.5).

'ctxpack context QUERY --sources memories' searches them: BM25 over their
content and category, weighted by importance, shown in a Memories section
of their own within the memories' share of the budget.

A value the store refuses on the command line is a usage error (exit 2)
naming the flag; an id the store does not hold is a failure (exit 1).
--format json prints memories as JSON: one object for add, show and rm, an
array for list.`

var memoryKind = &rowKind{
	name: "memory", plural: "memories",
	get: func(ctx context.Context, st *store.Store, id int64) ([]field, any, error) {
		m, err := st.Memory(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		return memoryFields(m), ctxpack.ViewMemory(m), nil
	},
	remove: func(ctx context.Context, st *store.Store, id int64) (any, error) {
		m, err := st.RemoveMemory(ctx, id)
		return ctxpack.ViewMemory(m), err
	},
}

func newCmdMemory(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "memory",
		Aliases: []string{"memories"},
		Short:   "Add, list, show and remove memories: facts, preferences, decisions",
		Long:    memoryLong,
		Example: `  ctxpack memory add "invoice totals are integers of cents" --category fact --importance 0.8
  git log -1 --format=%B | ctxpack memory add - --category decision
  ctxpack memory list --category fact
  ctxpack memory show 42
  ctxpack memory rm memory:42
  ctxpack context "invoice rounding" --sources memories,code`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		newCmdMemoryAdd(f, nil),
		newCmdMemoryList(f, nil),
		newCmdRowShow(f, memoryKind, nil),
		newCmdRowRemove(f, memoryKind, nil),
	)
	return cmd
}

type memoryAddOptions struct {
	storeOptions
	text       string // the argument; "-" reads standard input
	category   string
	importance *float64 // nil when --importance is not given
}

func newCmdMemoryAdd(f *cmdutil.Factory, runF func(*memoryAddOptions) error) *cobra.Command {
	o := &memoryAddOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
	var importance float64
	cmd := &cobra.Command{
		Use:   "add TEXT|-",
		Short: "Add a memory",
		Long: `Add a memory holding TEXT ("-" reads it from standard input; the spaces
around it are trimmed) to the store, .ctxpack/sources.db, and print its
key: "added memory:42". --format json prints the memory as stored, as one
JSON object.

--category is a lower-case word: a letter, then letters, digits, _ or -,
at most 32 bytes (default fact). --importance is from 0 to 1 (default
0.5); sources mode ranks a more important memory higher. A bad value is a
usage error (exit 2) naming the flag.`,
		Example: `  ctxpack memory add "invoice totals are integers of cents"
  ctxpack memory add "prefer table tests" --category preference --importance 0.3
  ctxpack memory add - --category error < traceback.txt`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.text = args[0]
			if cmd.Flags().Changed("importance") {
				o.importance = &importance
			}
			if runF != nil {
				return runF(o)
			}
			return memoryAddRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.category, "category", "", "the memory's `CATEGORY`: fact (default), preference, decision, error,\nworkflow, context, event, or another lower-case word")
	cmd.Flags().Float64Var(&importance, "importance", 0, "how much the memory matters, a `NUMBER` from 0 to 1 (default 0.5)")
	return cmd
}

func memoryAddRun(ctx context.Context, o *memoryAddOptions) error {
	const command = "memory add"
	importance := -1.0 // the store's default
	if o.importance != nil {
		if importance = *o.importance; !(importance >= 0 && importance <= 1) {
			return cmdutil.Usagef("%s: --importance must be from 0 to 1 (got %s)", command, formatFloat(importance))
		}
	}
	text, err := o.readText(command, o.text)
	if err != nil {
		return err
	}
	m := store.Memory{Content: text, Category: o.category, Importance: importance}
	if err := m.Validate(); err != nil {
		return flagError(command, err, map[string]string{"content": "TEXT", "category": "--category", "importance": "--importance"})
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err = st.AddMemory(ctx, m)
	if err != nil {
		return err
	}
	return o.print(ctxpack.ViewMemory(m), "added "+ctxpack.ItemKey("memory", m.ID)+"\n")
}

type memoryListOptions struct {
	storeOptions
	category string
}

func newCmdMemoryList(f *cmdutil.Factory, runF func(*memoryListOptions) error) *cobra.Command {
	o := &memoryListOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the memories",
		Long: `List the memories in the store, by id, one line each: the key, the
category, the importance and the content's first line, cut to fit 100
columns (… marks a cut). --category lists one category. --format json
prints them whole, as a JSON array of the objects 'memory show' prints.
An empty list prints nothing (and a note on standard error).`,
		Example: `  ctxpack memory list
  ctxpack memory list --category decision --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return memoryListRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.category, "category", "", "only the memories of this `CATEGORY`")
	return cmd
}

func memoryListRun(ctx context.Context, o *memoryListOptions) error {
	st, err := o.open("memory list", true)
	if err != nil {
		return err
	}
	defer st.Close()
	ms, err := st.Memories(ctx, o.category)
	if err != nil {
		return err
	}
	return listRows(&o.storeOptions, ms, ctxpack.ViewMemory, func(m store.Memory) []string {
		return []string{ctxpack.ItemKey("memory", m.ID), m.Category, formatFloat(m.Importance), m.Content}
	}, "memories", "'ctxpack memory add' adds one")
}

// memoryFields are m's fields as show prints them.
func memoryFields(m store.Memory) []field {
	v := ctxpack.ViewMemory(m)
	return []field{
		{"key", v.Key},
		{"category", v.Category},
		{"importance", formatFloat(v.Importance)},
		{"created", v.Created},
		{"content", v.Content},
	}
}

// --- experience -------------------------------------------------------------

const experienceLong = `An experience is one attempt at a goal, told as its goal, hypothesis,
action, prediction and outcome (confirmed, falsified or abandoned, with the
result), and what it taught: the surprise, the root cause, the lesson. Its
domain (debugging, feature, refactor, testing, …) and, optionally, its
strategy (systematic-elimination, …) say what kind of work it was; its
confidence tier (gold, silver, bronze — the default — or abandoned) how
far to trust it. Each is one row of the project's store,
.ctxpack/sources.db (an SQLite file under the project root, created by the
first add), keyed experience:ID: ids increase and are never given again.

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

var experienceKind = &rowKind{
	name: "experience", plural: "experiences",
	get: func(ctx context.Context, st *store.Store, id int64) ([]field, any, error) {
		e, err := st.Experience(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		return experienceFields(e), ctxpack.ViewExperience(e), nil
	},
	remove: func(ctx context.Context, st *store.Store, id int64) (any, error) {
		e, err := st.RemoveExperience(ctx, id)
		return ctxpack.ViewExperience(e), err
	},
}

func newCmdExperience(f *cmdutil.Factory) *cobra.Command {
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
		newCmdExperienceAdd(f, nil),
		newCmdExperienceList(f, nil),
		newCmdRowShow(f, experienceKind, nil),
		newCmdRowRemove(f, experienceKind, nil),
	)
	return cmd
}

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

type experienceAddOptions struct {
	storeOptions
	file string // --file: a YAML file of experiences; "-" reads standard input
	// texts are the text flags' values by flag name; iterations is
	// --iterations (0 when not given).
	texts      map[string]*string
	iterations int
	set        []string // the experience's flags that were given, in experienceFlags order
}

func newCmdExperienceAdd(f *cmdutil.Factory, runF func(*experienceAddOptions) error) *cobra.Command {
	o := &experienceAddOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}, texts: map[string]*string{}}
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
			for _, f := range experienceFlags {
				if cmd.Flags().Changed(f.flag) {
					o.set = append(o.set, f.flag)
				}
			}
			if runF != nil {
				return runF(o)
			}
			return experienceAddRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.file, "file", "", "add the experiences in the YAML `FILE` (- for standard input)")
	for _, f := range experienceFlags {
		if f.flag == "iterations" {
			fs.IntVar(&o.iterations, f.flag, 0, f.usage)
			continue
		}
		o.texts[f.flag] = fs.String(f.flag, "", f.usage)
	}
	return cmd
}

// experience is the experience the flags give; a bad value is a usage
// error naming its flag.
func (o *experienceAddOptions) experience() (store.Experience, error) {
	const command = "experience add"
	if slices.Contains(o.set, "iterations") && o.iterations < 1 {
		return store.Experience{}, cmdutil.Usagef("%s: --iterations must be a whole number from 1 (got %d)", command, o.iterations)
	}
	t := func(flag string) string { return strings.TrimSpace(*o.texts[flag]) }
	e := store.Experience{
		Domain: t("domain"), Strategy: t("strategy"), Goal: t("goal"), Hypothesis: t("hypothesis"),
		Action: t("action"), Prediction: t("prediction"), Outcome: store.Outcome(t("outcome")), Result: t("result"),
		Surprise: t("surprise"), RootCause: t("root-cause"), Lesson: t("lesson"),
		Confidence: store.Tier(t("confidence")), Iterations: o.iterations,
	}
	if err := e.Validate(); err != nil {
		names := map[string]string{}
		for _, f := range experienceFlags {
			names[f.field] = "--" + f.flag
		}
		return store.Experience{}, flagError(command, err, names)
	}
	return e, nil
}

// experiences are the experiences of --file, all valid.
func (o *experienceAddOptions) experiences() ([]store.Experience, error) {
	const command = "experience add"
	var data []byte
	name := o.file
	if o.file == "-" {
		name = "<stdin>"
		s, err := o.ios.ReadStdin(command, "experiences")
		if err != nil {
			return nil, err
		}
		data = []byte(s)
	} else {
		base, err := o.g.Base()
		if err != nil {
			return nil, err
		}
		path := o.file
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		if data, err = os.ReadFile(path); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				pe.Path = o.file // as the user gave it
			}
			return nil, fmt.Errorf("%s: %w", command, err)
		}
	}
	es, err := store.ParseExperiences(name, data)
	var pe *store.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %s", command, strings.TrimPrefix(pe.Error(), "store: "))
	}
	return es, err
}

func experienceAddRun(ctx context.Context, o *experienceAddOptions) error {
	const command = "experience add"
	var es []store.Experience
	switch {
	case o.file != "" && len(o.set) > 0:
		return cmdutil.Usagef("%s: give --file or the experience's flags, not both (--file with --%s)", command, o.set[0])
	case o.file == "" && len(o.set) == 0:
		return cmdutil.Usagef("%s: give the experience's flags (--domain, --goal, --hypothesis, --action, --prediction, --outcome, --result, …) or a YAML file of experiences (--file FILE)", command)
	case o.file != "":
		var err error
		if es, err = o.experiences(); err != nil {
			return err
		}
	default:
		e, err := o.experience()
		if err != nil {
			return err
		}
		es = []store.Experience{e}
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var views []ctxpack.ExperienceView
	var text strings.Builder
	for _, e := range es {
		e, err := st.AddExperience(ctx, e)
		if err != nil {
			if len(views) > 0 {
				// Say what was added before the failure, so that it can be
				// removed or the rest added.
				_ = o.print(views, text.String())
			}
			return err
		}
		views = append(views, ctxpack.ViewExperience(e))
		fmt.Fprintf(&text, "added %s\n", ctxpack.ItemKey("experience", e.ID))
	}
	if o.file == "" {
		return o.print(views[0], text.String())
	}
	return o.print(views, text.String())
}

type experienceListOptions struct {
	storeOptions
	domain, strategy, outcome string
}

func newCmdExperienceList(f *cmdutil.Factory, runF func(*experienceListOptions) error) *cobra.Command {
	o := &experienceListOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
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
	cmd.Flags().StringVar(&o.domain, "domain", "", "only the experiences of this `DOMAIN`")
	cmd.Flags().StringVar(&o.strategy, "strategy", "", "only the experiences with this `STRATEGY`")
	cmd.Flags().StringVar(&o.outcome, "outcome", "", "only the experiences with this `OUTCOME`: confirmed, falsified or abandoned")
	return cmd
}

func experienceListRun(ctx context.Context, o *experienceListOptions) error {
	const command = "experience list"
	f := store.ExperienceFilter{Domain: o.domain, Strategy: o.strategy}
	if o.outcome != "" {
		out, err := store.ParseOutcome(o.outcome)
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
	return listRows(&o.storeOptions, es, ctxpack.ViewExperience, func(e store.Experience) []string {
		kind := e.Domain
		if e.Strategy != "" {
			kind += "|" + e.Strategy
		}
		return []string{ctxpack.ItemKey("experience", e.ID), kind, string(e.Outcome), string(e.Confidence), e.Goal}
	}, "experiences", "'ctxpack experience add' adds them")
}

// experienceFields are e's fields as show prints them, named as an
// experiences file names them; the optional texts only when they are set.
func experienceFields(e store.Experience) []field {
	v := ctxpack.ViewExperience(e)
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

// --- value ------------------------------------------------------------------

const valueLong = `A value is a principle the team holds ("convert currencies after
summing"). It is written by hand ('value add') or derived from experiences
('value derive': the lesson of the most central experience of a cluster of
experiences alike on one axis). Each is one row of the project's store,
.ctxpack/sources.db (an SQLite file under the project root, created by the
first add), keyed value:ID: ids increase and are never given again. A value
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

var valueKind = &rowKind{
	name: "value", plural: "values",
	get: func(ctx context.Context, st *store.Store, id int64) ([]field, any, error) {
		v, err := st.Value(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		return valueFields(v), ctxpack.ViewValue(v), nil
	},
	remove: func(ctx context.Context, st *store.Store, id int64) (any, error) {
		v, err := st.RemoveValue(ctx, id)
		return ctxpack.ViewValue(v), err
	},
}

func newCmdValue(f *cmdutil.Factory) *cobra.Command {
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
		newCmdValueAdd(f, nil),
		newCmdValueDerive(f, nil),
		newCmdValueList(f, nil),
		newCmdRowShow(f, valueKind, nil),
		newCmdRowRemove(f, valueKind, nil),
	)
	return cmd
}

// parseAxis reads the --axis flag of command; "" is no axis.
func parseAxis(command, s string) (store.Axis, error) {
	if s == "" {
		return "", nil
	}
	a, err := store.ParseAxis(s)
	if err != nil {
		return "", flagError(command, err, map[string]string{"axis": "--axis"})
	}
	return a, nil
}

type valueAddOptions struct {
	storeOptions
	text string // the argument; "-" reads standard input
	axis string
	tags []string
}

func newCmdValueAdd(f *cmdutil.Factory, runF func(*valueAddOptions) error) *cobra.Command {
	o := &valueAddOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
	cmd := &cobra.Command{
		Use:   "add TEXT|- --axis AXIS",
		Short: "Add a value written by hand",
		Long: `Add a value holding TEXT ("-" reads it from standard input; the spaces
around it are trimmed) to the store, .ctxpack/sources.db, and print its
key: "added value:3". --format json prints the value as stored, as one JSON
object.

--axis is required: full (the value is about the work as a whole),
strategy, surprise or root_cause (root-cause is accepted too). --tag, once
or more, or comma-separated, names the domains and strategies the value
applies to (lower-case words); they are searched, and premortem finds a
domain's values by them. A bad value is a usage error (exit 2) naming the
flag.`,
		Example: `  ctxpack value add "convert currencies after summing" --axis full --tag billing,debugging
  ctxpack value add "bisect before reading code" --axis strategy --tag debugging --tag bisect`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.text = args[0]
			if runF != nil {
				return runF(o)
			}
			return valueAddRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.axis, "axis", "", "the value's `AXIS`: full, strategy, surprise or root_cause (required)")
	cmd.Flags().StringSliceVar(&o.tags, "tag", nil, "a domain or strategy the value applies to (`TAG`; repeat or comma-separate)")
	return cmd
}

func valueAddRun(ctx context.Context, o *valueAddOptions) error {
	const command = "value add"
	if o.axis == "" {
		return cmdutil.Usagef("%s: --axis is required: full, strategy, surprise or root_cause", command)
	}
	axis, err := parseAxis(command, o.axis)
	if err != nil {
		return err
	}
	text, err := o.readText(command, o.text)
	if err != nil {
		return err
	}
	v := store.Value{Text: text, Axis: axis, Tags: o.tags}
	if err := v.Validate(); err != nil {
		return flagError(command, err, map[string]string{"text": "TEXT", "axis": "--axis", "tags": "--tag"})
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if v, err = st.AddValue(ctx, v); err != nil {
		return err
	}
	return o.print(ctxpack.ViewValue(v), "added "+ctxpack.ItemKey("value", v.ID)+"\n")
}

type valueListOptions struct {
	storeOptions
	axis string
}

func newCmdValueList(f *cmdutil.Factory, runF func(*valueListOptions) error) *cobra.Command {
	o := &valueListOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the values",
		Long: `List the values in the store, by id, one line each: the key, the axis,
the cluster it was derived from (- for one written by hand), the tags
(comma-separated, - for none) and the text's first line, cut to fit 100
columns (… marks a cut). --axis lists one axis. --format json prints them
whole, as a JSON array of the objects 'value show' prints. An empty list
prints nothing (and a note on standard error).`,
		Example: `  ctxpack value list
  ctxpack value list --axis root_cause --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return valueListRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.axis, "axis", "", "only the values of this `AXIS`: full, strategy, surprise or root_cause")
	return cmd
}

func valueListRun(ctx context.Context, o *valueListOptions) error {
	const command = "value list"
	axis, err := parseAxis(command, o.axis)
	if err != nil {
		return err
	}
	st, err := o.open(command, true)
	if err != nil {
		return err
	}
	defer st.Close()
	vs, err := st.Values(ctx, axis)
	if err != nil {
		return err
	}
	return listRows(&o.storeOptions, vs, ctxpack.ViewValue, func(v store.Value) []string {
		return []string{ctxpack.ItemKey("value", v.ID), string(v.Axis), cmp.Or(v.Cluster, "-"), cmp.Or(strings.Join(v.Tags, ","), "-"), v.Text}
	}, "values", "'ctxpack value add' or 'ctxpack value derive --add' adds them")
}

// valueFields are v's fields as show prints them; the cluster's fields
// only for a derived value, the experience only when it names one.
func valueFields(v store.Value) []field {
	view := ctxpack.ViewValue(v)
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

type valueDeriveOptions struct {
	storeOptions
	axis      string
	minSize   int
	threshold float64
	add       bool
}

const valueDeriveLong = `Propose values from the experiences in the store that have a lesson.

On each axis (or the one --axis names) the experiences on it are clustered.
Each is a TF-IDF vector of the terms of its axis's fields, and
average-linkage clustering merges the two most alike clusters (their
average cosine similarity over pairs of experiences) while they are at
least --threshold alike (default 0.2). Every cluster of at least
--min-size experiences (default 3) gives one proposal: the lesson of the
member closest to the cluster's centroid, with its similarity to it, the
cluster's members, and their domains and strategies as tags. Each proposal
is printed as "field: value" lines, blank lines between them: cluster
(axis/n), axis, size, members, experience (the central member),
similarity, tags and text. Proposals come by axis (full, strategy,
surprise, root_cause), then by size, largest first; the same rows always
give the same proposals.

Nothing is stored unless --add: then each proposal is added as a value
(with its cluster, size, similarity, experience and tags) and only
"added value:ID" is printed for each. A proposal whose text is already a
value on its axis is not added again (a note on standard error says which).
--format json prints the proposals as a JSON array; with --add each has
"value", the key of the value that holds it, and "added": true when this
run added it.`

func newCmdValueDerive(f *cmdutil.Factory, runF func(*valueDeriveOptions) error) *cobra.Command {
	o := &valueDeriveOptions{storeOptions: storeOptions{f.Globals, f.IOStreams, f.ProjectWarn}}
	cmd := &cobra.Command{
		Use:     "derive",
		Short:   "Propose values from clusters of alike experiences (--add stores them)",
		Long:    valueDeriveLong,
		Example: "  ctxpack values derive\n  ctxpack values derive --axis root_cause --min-size 4 --threshold 0.3\n  ctxpack values derive --add --format json",
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return valueDeriveRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.axis, "axis", "", "cluster on this `AXIS` only: full, strategy, surprise or root_cause\n(default all four)")
	fs.IntVar(&o.minSize, "min-size", store.DefaultMinClusterSize, "the fewest experiences (`N`) a cluster needs to give a proposal")
	fs.Float64Var(&o.threshold, "threshold", store.DefaultThreshold, "the least `SIMILARITY` (above 0, at most 1) at which two clusters merge")
	fs.BoolVar(&o.add, "add", false, "store each proposal as a value")
	return cmd
}

// proposalView is a proposal as derive's --format json shows it: the
// facade's view, and with --add the value that holds its text.
type proposalView struct {
	ctxpack.ProposalView
	Value string `json:"value,omitempty"` // with --add: the value that holds the text
	Added bool   `json:"added,omitempty"` // with --add: whether this run added it
}

func viewProposal(p store.Proposal) proposalView {
	return proposalView{ProposalView: ctxpack.ViewProposal(p)}
}

func valueDeriveRun(ctx context.Context, o *valueDeriveOptions) error {
	const command = "value derive"
	axis, err := parseAxis(command, o.axis)
	if err != nil {
		return err
	}
	if o.minSize < 1 {
		return cmdutil.Usagef("%s: --min-size must be a whole number from 1 (got %d)", command, o.minSize)
	}
	if !(o.threshold > 0 && o.threshold <= 1) {
		return cmdutil.Usagef("%s: --threshold must be above 0 and at most 1 (got %s)", command, formatFloat(o.threshold))
	}
	st, err := o.open(command, !o.add)
	if err != nil {
		return err
	}
	defer st.Close()
	props, err := st.DeriveValues(ctx, store.DeriveOptions{Axis: axis, MinClusterSize: o.minSize, Threshold: o.threshold})
	if err != nil {
		return flagError(command, err, map[string]string{"axis": "--axis", "min_cluster_size": "--min-size", "threshold": "--threshold"})
	}
	views := make([]proposalView, 0, len(props))
	for _, p := range props {
		views = append(views, viewProposal(p))
	}
	if len(props) == 0 && !o.json() {
		fmt.Fprintf(o.ios.ErrOut, "ctxpack: no proposal: no %d or more experiences with a lesson are alike enough (--min-size, --threshold)\n", o.minSize)
	}
	if !o.add {
		blocks := make([]string, len(views))
		for i, v := range views {
			blocks[i] = formatFields(proposalFields(v))
		}
		return o.print(views, strings.Join(blocks, "\n"))
	}
	var text strings.Builder
	err = o.addProposals(ctx, st, props, views, &text)
	if err != nil && text.Len() > 0 && !o.json() {
		_ = o.print(nil, text.String()) // what was added before the failure
	}
	if err != nil {
		return err
	}
	return o.print(views, text.String())
}

// addProposals adds each proposal as a value, unless its text is a value
// on its axis already, recording the value's key in views and the added
// keys in text.
func (o *valueDeriveOptions) addProposals(ctx context.Context, st *store.Store, props []store.Proposal, views []proposalView, text *strings.Builder) error {
	existing, err := st.Values(ctx, "")
	if err != nil {
		return err
	}
	type axisText struct {
		axis store.Axis
		text string
	}
	have := map[axisText]int64{}
	for _, v := range existing {
		if _, ok := have[axisText{v.Axis, v.Text}]; !ok {
			have[axisText{v.Axis, v.Text}] = v.ID
		}
	}
	for i, p := range props {
		if id, ok := have[axisText{p.Axis, p.Text}]; ok {
			views[i].Value = ctxpack.ItemKey("value", id)
			fmt.Fprintf(o.ios.ErrOut, "ctxpack: %s is %s already; not added again\n", p.Cluster, views[i].Value)
			continue
		}
		v, err := st.AddValue(ctx, store.Value{
			Text: p.Text, Axis: p.Axis, Cluster: p.Cluster, ClusterSize: p.Size,
			Similarity: p.Similarity, Experience: p.Experience, Tags: p.Tags,
		})
		if err != nil {
			return err
		}
		have[axisText{v.Axis, v.Text}] = v.ID
		views[i].Value, views[i].Added = ctxpack.ItemKey("value", v.ID), true
		fmt.Fprintf(text, "added %s\n", views[i].Value)
	}
	return nil
}

// proposalFields are a proposal's fields as derive prints them.
func proposalFields(v proposalView) []field {
	return []field{
		{"cluster", v.Cluster},
		{"axis", v.Axis},
		{"size", strconv.Itoa(v.Size)},
		{"members", strings.Join(v.Members, ", ")},
		{"experience", v.Experience},
		{"similarity", formatFloat(v.Similarity)},
		{"tags", strings.Join(v.Tags, ", ")},
		{"text", v.Text},
	}
}

// --- text formats -----------------------------------------------------------

// field is one "name: value" line of show.
type field struct{ name, value string }

// formatFields formats fields as "name: value" lines, the values aligned
// one space after the longest name; a value's further lines are indented
// to its first's column, and no line ends in a space.
func formatFields(fields []field) string {
	width := 0
	for _, f := range fields {
		width = max(width, len(f.name)+1)
	}
	var b strings.Builder
	for _, f := range fields {
		lines := strings.Split(f.value, "\n")
		for i, l := range lines {
			label := ""
			if i == 0 {
				label = f.name + ":"
			}
			b.WriteString(strings.TrimRight(fmt.Sprintf("%-*s %s", width, label, strings.TrimRight(l, "\r")), " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// listWidth is the number of columns a list line is cut to fit.
const listWidth = 100

// formatList formats rows (each of the same columns) as lines of columns
// two spaces apart, each as wide as its widest cell, the last column cut
// to its first line and to fit listWidth (but never to fewer than 20
// characters).
func formatList(rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	last := len(rows[0]) - 1
	widths := make([]int, last)
	for _, r := range rows {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	room := listWidth
	for _, w := range widths {
		room -= w + 2
	}
	var b bytes.Buffer
	for _, r := range rows {
		for i, w := range widths {
			b.WriteString(r[i])
			b.WriteString(strings.Repeat(" ", w-utf8.RuneCountInString(r[i])+2))
		}
		b.WriteString(cutLine(r[last], max(room, 20)))
		b.WriteByte('\n')
	}
	return b.String()
}

// cutLine returns the first line of s, tabs made spaces, cut to at most n
// characters; "…" ends it when s holds more.
func cutLine(s string, n int) string {
	line, rest, _ := strings.Cut(strings.TrimSpace(s), "\n")
	line = strings.ReplaceAll(strings.TrimRight(line, "\r"), "\t", " ")
	r := []rune(line)
	if len(r) <= n && strings.TrimSpace(rest) == "" {
		return line
	}
	if len(r) > n-1 {
		r = r[:n-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// formatFloat is f in the fewest digits that read back as f.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
