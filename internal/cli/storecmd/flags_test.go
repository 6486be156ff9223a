package storecmd

import (
	"errors"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/clitest"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// The tests of flags → Options: each subcommand made with a run seam that
// records its Options, in place of its namesake under its group.

// under places a subcommand under the group newGroup makes.
func under(newGroup func(*cmdutil.Factory) *cobra.Command) func(*cmdutil.Factory, *cobra.Command) *cobra.Command {
	return func(f *cmdutil.Factory, cmd *cobra.Command) *cobra.Command {
		return clitest.Replace(newGroup(f), cmd)
	}
}

func TestNewCmdMemoryAdd(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[MemoryAddOptions]{
		{Name: "text", Args: "memory add 'a fact'", Want: MemoryAddOptions{Text: "a fact"}},
		{Name: "flags", Args: "memory add - --category decision --importance 0", Want: MemoryAddOptions{Text: "-", Category: "decision", Importance: new(0.0)}},
		{Name: "alias", Args: "memories add x --importance 0.8 --format json", Want: MemoryAddOptions{Text: "x", Importance: new(0.8)}, Globals: cmdutil.Globals{Format: "json"}},
		{Name: "no text", Args: "memory add", WantErr: "memory add: missing TEXT (the memory; - reads it from standard input)"},
		{Name: "two texts", Args: "memory add a b", WantErr: `memory add: takes one argument, TEXT, got 2: "a" "b" (quote an argument that holds spaces)`},
		{Name: "bad importance", Args: "memory add x --importance high", WantErr: `invalid argument "high" for "--importance" flag: strconv.ParseFloat: parsing "high": invalid syntax`},
	}, NewCmdMemoryAdd, under(NewCmdMemory))
}

func TestNewCmdMemoryList(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[MemoryListOptions]{
		{Name: "all", Args: "memory list", Want: MemoryListOptions{}},
		{Name: "category", Args: "memory ls --category fact --format json", Want: MemoryListOptions{Category: "fact"}, Globals: cmdutil.Globals{Format: "json"}},
		{Name: "argument", Args: "memory list x", WantErr: `memory list: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdMemoryList, under(NewCmdMemory))
}

func TestNewCmdExperienceAdd(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ExperienceAddOptions]{
		{Name: "file", Args: "experience add --file exp.yaml", Want: ExperienceAddOptions{File: "exp.yaml"}},
		{
			Name: "flags in the fields' order",
			Args: "experience add --lesson ' l ' --domain debugging --root-cause rc --outcome falsified --iterations 3",
			Want: ExperienceAddOptions{
				Texts:      map[string]string{"lesson": " l ", "domain": "debugging", "root-cause": "rc", "outcome": "falsified"},
				Iterations: 3,
				Set:        []string{"domain", "outcome", "root-cause", "lesson", "iterations"},
			},
		},
		{Name: "argument", Args: "experience add x", WantErr: `experience add: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdExperienceAdd, under(NewCmdExperience))
}

// TestExperienceFlags checks the experience the flags give, and that a
// missing or bad value is a usage error naming its flag.
func TestExperienceFlags(t *testing.T) {
	o, _, err := clitest.Parse(NewCmdExperienceAdd, under(NewCmdExperience), "",
		"experience add --lesson ' l ' --domain debugging --root-cause rc --outcome falsified --iterations 3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.experience(); err == nil || err.Error() != "experience add: --goal is required and must not be blank" || !errors.As(err, new(cmdutil.UsageError)) {
		t.Errorf("without --goal: %v", err)
	}
	for flag, v := range map[string]string{"goal": "g", "hypothesis": "h", "action": "a", "prediction": "p", "result": "r"} {
		o.Texts[flag] = v
	}
	e, err := o.experience()
	if err != nil || e.Lesson != "l" || e.RootCause != "rc" || e.Outcome != "falsified" || e.Iterations != 3 {
		t.Errorf("experience %+v, %v", e, err)
	}
	o.Iterations = 0
	if _, err := o.experience(); err == nil || err.Error() != "experience add: --iterations must be a whole number from 1 (got 0)" {
		t.Errorf("--iterations 0: %v", err)
	}
}

func TestNewCmdExperienceList(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ExperienceListOptions]{
		{Name: "filters", Args: "experiences list --domain debugging --strategy bisect --outcome falsified", Want: ExperienceListOptions{Domain: "debugging", Strategy: "bisect", Outcome: "falsified"}},
	}, NewCmdExperienceList, under(NewCmdExperience))
}

func TestNewCmdValue(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ValueAddOptions]{
		{Name: "add", Args: "value add 'sum first' --axis full --tag billing,debugging --tag bisect", Want: ValueAddOptions{Text: "sum first", Axis: "full", Tags: []string{"billing", "debugging", "bisect"}}},
		{Name: "add nothing", Args: "value add", WantErr: "value add: missing TEXT (the value; - reads it from standard input)"},
	}, NewCmdValueAdd, under(NewCmdValue))
	clitest.RunCases(t, []clitest.Case[ValueListOptions]{
		{Name: "list", Args: "values list --axis root_cause", Want: ValueListOptions{Axis: "root_cause"}},
	}, NewCmdValueList, under(NewCmdValue))
	clitest.RunCases(t, []clitest.Case[ValueDeriveOptions]{
		{Name: "derive defaults", Args: "value derive --format json", Want: ValueDeriveOptions{MinSize: app.DefaultMinClusterSize, Threshold: app.DefaultDeriveThreshold}, Globals: cmdutil.Globals{Format: "json"}},
		{Name: "derive flags", Args: "value derive --axis root_cause --min-size 4 --threshold 0.3 --add", Want: ValueDeriveOptions{Axis: "root_cause", MinSize: 4, Threshold: 0.3, Add: true}},
		{Name: "derive argument", Args: "value derive x", WantErr: `value derive: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdValueDerive, under(NewCmdValue))
}

// TestNewCmdRows checks show and rm, the same for every kind of row, and
// the ids they take.
func TestNewCmdRows(t *testing.T) {
	show := func(f *cmdutil.Factory, runF func(*ItemOptions) error) *cobra.Command {
		return newCmdShow(f, valueKind, runF)
	}
	remove := func(f *cmdutil.Factory, runF func(*ItemOptions) error) *cobra.Command {
		return newCmdRemove(f, memoryKind, runF)
	}
	clitest.RunCases(t, []clitest.Case[ItemOptions]{
		{Name: "show", Args: "value show value:7", Want: ItemOptions{Arg: "value:7"}},
		{Name: "show two", Args: "value show 1 2", WantErr: `value show: takes one argument, ID, got 2: "1" "2" (quote an argument that holds spaces)`},
	}, show, under(NewCmdValue))
	clitest.RunCases(t, []clitest.Case[ItemOptions]{
		{Name: "rm", Args: "memory remove 42 --format json", Want: ItemOptions{Arg: "42"}, Globals: cmdutil.Globals{Format: "json"}},
	}, remove, under(NewCmdMemory))

	for _, tc := range []struct {
		args string
		id   int64
		err  bool
	}{
		{"value show value:7", 7, false},
		{"value show 7", 7, false},
		{"value show memory:7", 0, true},
		{"value show x", 0, true},
	} {
		o, _, err := clitest.Parse(show, under(NewCmdValue), "", tc.args)
		if err != nil {
			t.Fatal(err)
		}
		id, err := o.id()
		if id != tc.id || (err != nil) != tc.err || (err != nil && !errors.As(err, new(cmdutil.UsageError))) {
			t.Errorf("%s: id %d, %v", tc.args, id, err)
		}
	}
}
