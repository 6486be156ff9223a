package evidencecmd

import (
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/clitest"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// The tests of flags → Options: each subcommand made with a run seam that
// records its Options, in place of its namesake under 'ctxpack evidence'
// (which holds --ctx).

// underEvidence places cmd under the evidence command.
func underEvidence(f *cmdutil.Factory, cmd *cobra.Command) *cobra.Command {
	return clitest.Replace(NewCmdEvidence(f), cmd)
}

// ws is the workspace options of --ctx dir.
func ws(dir string) WorkspaceOptions { return WorkspaceOptions{Dir: dir} }

var (
	ctxDir       = ws(app.DefaultWorkspace)
	defaultIndex = cmdutil.IndexFlags{Wait: app.DefaultIndexWait}
)

func TestNewCmdAdd(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AddOptions]{
		{Name: "selector", Args: "evidence add core/flow.sh::100,200#flow,bug", Want: AddOptions{WorkspaceOptions: ctxDir, Add: app.AddRequest{Selector: "core/flow.sh::100,200#flow,bug", Rank: -1}}},
		{
			Name: "flags",
			Args: "evidence add docs/policy.md --role system --rank 0 --kind policy --link",
			Want: AddOptions{WorkspaceOptions: ctxDir, Add: app.AddRequest{Selector: "docs/policy.md", Rank: 0, Role: "system", Kind: "policy", Link: true}},
		},
		{Name: "stdin is read when it runs", Args: "evidence add - --role user", Stdin: "a request", Want: AddOptions{WorkspaceOptions: ctxDir, Add: app.AddRequest{Selector: "-", Rank: -1, Role: "user"}}},
		{Name: "ctx before", Args: "evidence --ctx flows/a add x", Want: AddOptions{WorkspaceOptions: ws("flows/a"), Add: app.AddRequest{Selector: "x", Rank: -1}}},
		{Name: "ctx after", Args: "ev add x --ctx flows/b --budget 100", Want: AddOptions{WorkspaceOptions: ws("flows/b"), Add: app.AddRequest{Selector: "x", Rank: -1}}, Globals: cmdutil.Globals{Budget: 100}},
		{Name: "bad rank", Args: "evidence add x --rank 1000", WantErr: `--rank: evidence: rank "1000" is not a number from 0 to 999`},
		{Name: "no selector", Args: "evidence add", WantErr: "evidence add: missing SELECTOR (PATH[::RANGE][#TAGS], or - for text on standard input)"},
		{Name: "not an assembly", Args: "evidence add x --overflow drop", WantErr: "evidence add: unknown flag --overflow"},
	}, NewCmdAdd, underEvidence)
}

func TestNewCmdToggle(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[ToggleOptions]{
		{Name: "flip", Args: "evidence toggle 200_test_flow_sh", Want: ToggleOptions{WorkspaceOptions: ctxDir, ID: "200_test_flow_sh"}},
		{Name: "off", Args: "evidence toggle off 300-399", Want: ToggleOptions{WorkspaceOptions: ctxDir, ID: "300-399", Want: "off"}},
		{Name: "on", Args: "evidence toggle on 300_example --ctx c", Want: ToggleOptions{WorkspaceOptions: ws("c"), ID: "300_example", Want: "on"}},
		{Name: "neither on nor off", Args: "evidence toggle maybe x", WantErr: `evidence toggle: the first of two arguments is on or off (got "maybe")`},
		{Name: "three", Args: "evidence toggle on a b", WantErr: `evidence toggle: takes at most 2 arguments, got 3: "on" "a" "b" (quote an argument that holds spaces)`},
		{Name: "none", Args: "evidence toggle", WantErr: "evidence toggle: missing ID"},
	}, NewCmdToggle, underEvidence)
}

func TestNewCmdAssemble(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AssembleOptions]{
		{Name: "defaults", Args: "evidence assemble", Want: AssembleOptions{PlanOptions: PlanOptions{WorkspaceOptions: ctxDir}}},
		{
			Name:    "flags",
			Args:    "evidence assemble --budget 8000 --overflow truncate --depth meta --flow-id fix-parser --out out/ --dry-run",
			Want:    AssembleOptions{PlanOptions: PlanOptions{WorkspaceOptions: ctxDir, Overflow: "truncate", Depth: "meta", FlowID: "fix-parser"}, Out: "out/", DryRun: true},
			Globals: cmdutil.Globals{Budget: 8000},
		},
		{Name: "argument", Args: "evidence assemble x", WantErr: `evidence assemble: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
	}, NewCmdAssemble, underEvidence)
}

func TestNewCmdPlanCommands(t *testing.T) {
	for name, newCmd := range map[string]clitest.NewCmd[PlanOptions]{"status": NewCmdStatus, "plan": NewCmdPlan, "budget": NewCmdBudget} {
		clitest.RunCases(t, []clitest.Case[PlanOptions]{
			{Name: name, Args: "evidence " + name + " --overflow drop --depth full --flow-id f --format json", Want: PlanOptions{WorkspaceOptions: ctxDir, Overflow: "drop", Depth: "full", FlowID: "f"}, Globals: cmdutil.Globals{Format: "json"}},
			{Name: name + " argument", Args: "evidence " + name + " x", WantErr: "evidence " + name + `: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
		}, newCmd, underEvidence)
	}
}

func TestNewCmdWorkspaceCommands(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[RankOptions]{
		{Name: "rank", Args: "evidence rank 100_flow_sh 50", Want: RankOptions{WorkspaceOptions: ctxDir, ID: "100_flow_sh", Rank: 50}},
		{Name: "rank not a number", Args: "evidence rank x abc", WantErr: `evidence: rank "abc" is not a number from 0 to 999`},
		{Name: "rank alone", Args: "evidence rank x", WantErr: "evidence rank: missing RANK"},
	}, NewCmdRank, underEvidence)
	clitest.RunCases(t, []clitest.Case[RemoveOptions]{
		{Name: "remove", Args: "evidence rm 100_flow_sh 200_test", Want: RemoveOptions{WorkspaceOptions: ctxDir, IDs: []string{"100_flow_sh", "200_test"}}},
		{Name: "remove nothing", Args: "evidence remove", WantErr: "evidence remove: missing ID"},
	}, NewCmdRemove, underEvidence)
	clitest.RunCases(t, []clitest.Case[FocusOptions]{
		{Name: "focus", Args: "evidence focus error handling", Want: FocusOptions{WorkspaceOptions: ctxDir, Query: "error handling", Top: 20, Index: defaultIndex}},
		{
			Name: "focus flags",
			Args: "evidence focus off --top 5 --no-update --index x.db --wait 1s",
			Want: FocusOptions{WorkspaceOptions: ctxDir, Query: "off", Top: 5, NoUpdate: true, Index: cmdutil.IndexFlags{File: "x.db", Wait: time.Second}},
		},
	}, NewCmdFocus, underEvidence)
	clitest.RunCases(t, []clitest.Case[DepsOptions]{
		{Name: "deps", Args: "evidence deps 100_flow_sh --no-update", Want: DepsOptions{WorkspaceOptions: ctxDir, ID: "100_flow_sh", NoUpdate: true, Index: defaultIndex}},
	}, NewCmdDeps, underEvidence)
	clitest.RunCases(t, []clitest.Case[EnvOptions]{
		{Name: "env", Args: "evidence env --absolute", Want: EnvOptions{WorkspaceOptions: ctxDir, Absolute: true}},
	}, NewCmdEnv, underEvidence)
	clitest.RunCases(t, []clitest.Case[StaleOptions]{
		{Name: "stale", Args: "evidence stale --ctx x", Want: StaleOptions{WorkspaceOptions: ws("x")}},
	}, NewCmdStale, underEvidence)
	clitest.RunCases(t, []clitest.Case[RebaseOptions]{
		{Name: "rebase", Args: "evidence rebase", Want: RebaseOptions{WorkspaceOptions: ctxDir}},
	}, NewCmdRebase, underEvidence)
}

func TestNewCmdAsk(t *testing.T) {
	clitest.RunCases(t, []clitest.Case[AskOptions]{
		{Name: "question", Args: "evidence ask what is missing for authentication?", Want: AskOptions{WorkspaceOptions: ctxDir, Question: "what is missing for authentication?", Top: app.DefaultAskTop, Index: defaultIndex}},
		{
			Name:    "flags",
			Args:    "evidence ask retry --sections gaps,redundancy --top 5 --no-update --ctx c --budget 900 --format json",
			Want:    AskOptions{WorkspaceOptions: ws("c"), Question: "retry", Sections: []string{"gaps", "redundancy"}, Top: 5, NoUpdate: true, Index: defaultIndex},
			Globals: cmdutil.Globals{Budget: 900, Format: "json"},
		},
		{Name: "no question", Args: "evidence ask", WantErr: "evidence ask: missing QUESTION"},
	}, NewCmdAsk, underEvidence)
}
