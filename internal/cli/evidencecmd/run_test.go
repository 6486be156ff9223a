package evidencecmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// TestRun calls the run functions with Options made by hand, as a test
// or another front end can: add a span, turn it off, print the exports.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "flow.sh"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, out, errOut := cmdutil.Test("")
	f := cmdutil.NewFactory(ios)
	f.Globals.Dir = dir
	w := workspaceOptions(f)
	w.Dir = "ctx"
	step := func(name string, err error, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v (stderr %q)", name, err, errOut)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s printed %q, want %q in it", name, out, want)
		}
		out.Reset()
	}
	step("add", addRun(t.Context(), &AddOptions{WorkspaceOptions: w, Add: app.AddRequest{Selector: "flow.sh::1,2", Rank: -1}}),
		"✓ Added evidence: ctx/evidence/100_flow_sh.evidence.md")
	step("env", envRun(&EnvOptions{WorkspaceOptions: w}), "export EVIDENCE_COUNT=1\nexport e1=ctx/evidence/100_flow_sh.evidence.md\n")
	step("toggle", toggleRun(&ToggleOptions{WorkspaceOptions: w, ID: "100_flow_sh", Want: "off"}), "✓ off 100_flow_sh")
	step("env", envRun(&EnvOptions{WorkspaceOptions: w}), "export EVIDENCE_COUNT=0\n")
}
