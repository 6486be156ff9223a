package app

import (
	"errors"
	"slices"
	"testing"
)

// TestEvidenceOps lists, toggles, ranks, rebases and removes workspace
// files through the facade.
func TestEvidenceOps(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{"a.go": numbered("a", 20), "b.go": numbered("b", 10)})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "a.go::1,5"})
	mustAdd(t, p, ws, AddRequest{Selector: "b.go"})
	mustAdd(t, p, ws, AddRequest{Selector: "a.go::6,9", Link: true})

	ids := func() []string {
		t.Helper()
		list, _, err := p.EvidenceEntries(ws)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range list {
			out = append(out, e.ID+" "+e.State)
		}
		return out
	}
	if got, want := ids(), []string{"100_a_go active", "110_b_go active", "120_a_go linked"}; !slices.Equal(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}

	toggled, _, err := p.ToggleEvidence(ws, "110", "")
	if err != nil || len(toggled) != 1 || toggled[0].Entry.State != "skipped" || toggled[0].Note != "" {
		t.Fatalf("flip 110: %+v, %v", toggled, err)
	}
	toggled, _, err = p.ToggleEvidence(ws, "100-199", "on")
	if err != nil || len(toggled) != 3 {
		t.Fatalf("range on: %+v, %v", toggled, err)
	}
	var notes int
	for _, tg := range toggled {
		if tg.Note != "" {
			notes++
		}
	}
	if notes != 2 { // the active file and the link are left as they were
		t.Errorf("range on left %d files with a note, want 2: %+v", notes, toggled)
	}
	var link *LinkActiveError
	if _, _, err := p.ToggleEvidence(ws, "120", "off"); !errors.As(err, &link) {
		t.Errorf("turning a link off: %v, want a *LinkActiveError", err)
	}
	if _, _, err := p.ToggleEvidence(ws, "100", "sideways"); err == nil {
		t.Error("state sideways: no error")
	}

	moved, _, err := p.RankEvidence(ws, "110_b_go", 500)
	if err != nil || moved.Entry.Rank != "500" || moved.From.Path != "ctx/evidence/110_b_go.evidence.md" || moved.From.ID != "110_b_go" {
		t.Fatalf("rank: %+v, %v", moved, err)
	}
	var taken *RankTakenError
	if _, _, err := p.RankEvidence(ws, "100", 500); !errors.As(err, &taken) {
		t.Errorf("a taken rank: %v, want a *RankTakenError", err)
	}
	if _, _, err := p.RankEvidence(ws, "999", 300); err == nil {
		t.Error("rank of a file that is not there: no error")
	}
	renamed, _, err := p.RebaseEvidence(ws)
	if err != nil || len(renamed) == 0 {
		t.Fatalf("rebase: %+v, %v", renamed, err)
	}
	if got, want := ids(), []string{"100_a_go active", "110_a_go linked", "120_b_go active"}; !slices.Equal(got, want) {
		t.Errorf("after rebase %q, want %q", got, want)
	}
	removed, _, err := p.RemoveEvidence(ws, []string{"120", "100"})
	if err != nil || len(removed) != 2 {
		t.Fatalf("remove: %+v, %v", removed, err)
	}
	if got := ids(); !slices.Equal(got, []string{"110_a_go linked"}) {
		t.Errorf("after remove %q", got)
	}

	if err := CheckSelector("a.go::1,5#x"); err != nil {
		t.Error(err)
	}
	if CheckSelector("../a.go") == nil || CheckRankRange("399-300") == nil || CheckRankRange("300-399") != nil {
		t.Error("CheckSelector or CheckRankRange let a bad one through, or refused a good one")
	}
	if !slices.Equal(EvidenceRoles(), []string{"system", "user", "evidence"}) || MaxEvidenceRank != 999 {
		t.Errorf("roles %v, max rank %d", EvidenceRoles(), MaxEvidenceRank)
	}
}

// TestEvidenceNames checks what the front ends parse and compare of
// workspace files: ranks, roles, kinds, states and sources.
func TestEvidenceNames(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "050": 50, "999": 999} {
		if n, err := ParseEvidenceRank(s); n != want || err != nil {
			t.Errorf("ParseEvidenceRank(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "1000", "-1", "x"} {
		if _, err := ParseEvidenceRank(s); err == nil {
			t.Errorf("ParseEvidenceRank(%q): no error", s)
		}
	}
	for _, r := range EvidenceRoles() {
		if err := CheckEvidenceRole(r); err != nil {
			t.Error(err)
		}
	}
	if err := CheckEvidenceRole("assistant"); err == nil || !slices.Contains(EvidenceRoles(), EvidenceRole) {
		t.Errorf("role assistant: %v; evidence role %q", err, EvidenceRole)
	}
	if !ValidEvidenceKind("flow_sh-2") || ValidEvidenceKind("flow.sh") || ValidEvidenceKind("") {
		t.Error("ValidEvidenceKind took a bad kind or refused a good one")
	}
	if p, ok := EvidenceSourceFile("file://core/a%20b.sh"); p != "core/a b.sh" || !ok {
		t.Errorf("EvidenceSourceFile of a file: %q, %v", p, ok)
	}
	if _, ok := EvidenceSourceFile("stdin:"); ok {
		t.Error("EvidenceSourceFile of stdin: took it as a file")
	}
	if EvidenceActive != StatusActive || EvidenceSkipped != StatusSkipped || EvidenceLinked != StatusLinked {
		t.Error("a workspace file's state is not its plan status")
	}
}
