package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		name string
		want Entry
		ok   bool
	}{
		{"100_flow_sh.evidence.md", Entry{Rank: 100, Kind: "flow_sh", Role: Evidence, State: Active}, true},
		{"200_test_flow_sh.evidence.md.skip", Entry{Rank: 200, Kind: "test_flow_sh", Role: Evidence, State: Skipped}, true},
		{"300_example.evidence.link", Entry{Rank: 300, Kind: "example", Role: Evidence, State: Linked}, true},
		{"000_policy.system.md", Entry{Rank: 0, Kind: "policy", Role: System, State: Active}, true},
		{"010_request.user.md", Entry{Rank: 10, Kind: "request", Role: User, State: Active}, true},
		{"050_Mixed-Case_1.user.md.skip", Entry{Rank: 50, Kind: "Mixed-Case_1", Role: User, State: Skipped}, true},
		{"10_short.evidence.md", Entry{}, false},
		{"1000_long.evidence.md", Entry{}, false},
		{"abc_kind.evidence.md", Entry{}, false},
		{"100_.evidence.md", Entry{}, false},
		{"100_flow.sh.evidence.md", Entry{}, false},
		{"100_flow.assistant.md", Entry{}, false},
		{"100_flow.evidence.txt", Entry{}, false},
		{"100_flow.evidence.link.skip", Entry{}, false},
		{"100flow.evidence.md", Entry{}, false},
		{"notes.md", Entry{}, false},
		{".focus", Entry{}, false},
		{"100_" + strings.Repeat("k", 65) + ".evidence.md", Entry{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseName(tt.name)
		if ok != tt.ok {
			t.Errorf("ParseName(%q) ok = %v, want %v", tt.name, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		tt.want.Rel = tt.name
		if got != tt.want {
			t.Errorf("ParseName(%q) = %+v, want %+v", tt.name, got, tt.want)
		}
		if back := FileName(got.Rank, got.Kind, got.Role, got.State); back != tt.name {
			t.Errorf("FileName(ParseName(%q)) = %q", tt.name, back)
		}
	}
}

func TestKindOf(t *testing.T) {
	for in, want := range map[string]string{
		"core/flow.sh":                  "flow_sh",
		"tests/test_flow.sh":            "test_flow_sh",
		"src/Invoice Generator.PY":      "invoice_generator_py",
		"a/---.md":                      "md",
		"a/___":                         "evidence",
		"x/" + strings.Repeat("ab", 50): strings.Repeat("ab", 32)[:63],
	} {
		if got := KindOf(in); got != want || !ValidKind(got) {
			t.Errorf("KindOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNextRank(t *testing.T) {
	e := func(rank int) Entry { return Entry{Rank: rank} }
	tests := []struct {
		entries []Entry
		role    Role
		want    int
	}{
		{nil, Evidence, 100},
		{nil, System, 0},
		{nil, User, 0},
		{[]Entry{e(0)}, User, 10},
		{[]Entry{e(0), e(100), e(115)}, Evidence, 120},
		{[]Entry{e(0), e(100), e(115)}, System, 10},
		{[]Entry{e(95)}, System, 0},
		{[]Entry{e(0), e(95)}, User, 1},
		{[]Entry{e(995)}, Evidence, 100},
	}
	for _, tt := range tests {
		got, err := NextRank(tt.entries, tt.role)
		if err != nil || got != tt.want {
			t.Errorf("NextRank(%v, %s) = %d, %v; want %d", tt.entries, tt.role, got, err, tt.want)
		}
	}
	full := make([]Entry, 0, 100)
	for r := 0; r < 100; r++ {
		full = append(full, e(r))
	}
	if _, err := NextRank(full, System); err == nil {
		t.Error("NextRank with 000-099 taken: no error")
	}
}

// newWorkspace makes a workspace in a temporary project with the named
// files (name → contents), each in evidence/ when its role is evidence.
func newWorkspace(t *testing.T, names ...string) *Workspace {
	t.Helper()
	root := t.TempDir()
	w := &Workspace{Root: root, Dir: filepath.Join(root, "ctx"), Shown: "ctx"}
	for _, n := range names {
		e, ok := ParseName(n)
		if !ok {
			t.Fatalf("bad name %q", n)
		}
		dir := w.Dir
		if e.Role == Evidence {
			dir = filepath.Join(dir, EvidenceDir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func ids(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Rel
	}
	return out
}

func TestListOrderAndWarnings(t *testing.T) {
	w := newWorkspace(t, "100_b.evidence.md", "010_req.user.md", "000_pol.system.md", "090_late.system.md",
		"105_a.evidence.md.skip", "100_a.evidence.link", "005_req2.user.md")
	if err := os.WriteFile(filepath.Join(w.Dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, ".focus"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(w.Dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, warnings, err := w.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"000_pol.system.md", "090_late.system.md", "005_req2.user.md", "010_req.user.md",
		"evidence/100_a.evidence.link", "evidence/100_b.evidence.md", "evidence/105_a.evidence.md.skip"}
	if got := ids(entries); !slices.Equal(got, want) {
		t.Errorf("List = %v, want %v", got, want)
	}
	all := strings.Join(warnings, "\n")
	if len(warnings) != 2 || !strings.Contains(all, "ctx/notes.txt: not a workspace file name") || !strings.Contains(all, "ctx/other: a folder") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestFind(t *testing.T) {
	w := newWorkspace(t, "100_flow_sh.evidence.md", "110_parse.evidence.md.skip", "120_parse.evidence.md", "000_p.system.md")
	entries, _, _ := w.List()
	for id, want := range map[string]string{
		"100_flow_sh":                    "evidence/100_flow_sh.evidence.md",
		"100":                            "evidence/100_flow_sh.evidence.md",
		"110_parse.evidence.md.skip":     "evidence/110_parse.evidence.md.skip",
		"evidence/120_parse.evidence.md": "evidence/120_parse.evidence.md",
		"0":                              "000_p.system.md",
	} {
		e, err := Find(entries, id)
		if err != nil || e.Rel != want {
			t.Errorf("Find(%q) = %s, %v; want %s", id, e.Rel, err, want)
		}
	}
	for id, msg := range map[string]string{
		"100_flow_s": "did you mean 100_flow_sh?",
		"999":        `no workspace file "999"`,
	} {
		if _, err := Find(entries, id); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Find(%q) error = %v, want %q", id, err, msg)
		}
	}
}

func TestStateRankRemove(t *testing.T) {
	w := newWorkspace(t, "100_a.evidence.md", "110_b.evidence.md", "120_c.evidence.link")
	entries, _, _ := w.List()
	off, err := w.SetState(entries[0], Skipped)
	if err != nil || off.Rel != "evidence/100_a.evidence.md.skip" {
		t.Fatalf("SetState off = %+v, %v", off, err)
	}
	on, err := w.SetState(off, Active)
	if err != nil || on.Rel != "evidence/100_a.evidence.md" {
		t.Fatalf("SetState on = %+v, %v", on, err)
	}
	if _, err := w.SetState(entries[2], Skipped); err == nil || !strings.Contains(err.Error(), "always active") {
		t.Errorf("turning a link off: %v", err)
	}
	entries, _, _ = w.List()
	if _, err := w.SetRank(entries, entries[0], 110); err == nil || !strings.Contains(err.Error(), "rank 110 is taken by evidence/110_b.evidence.md") {
		t.Errorf("SetRank to a taken rank: %v", err)
	}
	moved, err := w.SetRank(entries, entries[0], 50)
	if err != nil || moved.Rel != "evidence/050_a.evidence.md" {
		t.Errorf("SetRank = %+v, %v", moved, err)
	}
	entries, _, _ = w.List()
	if removed, err := w.Remove(entries, []string{moved.ID(), moved.Rel}); err != nil || len(removed) != 1 {
		t.Fatalf("Remove = %v, %v; want the one file once", removed, err)
	}
	if _, err := w.Remove(entries, []string{"110_b", "nothing"}); err == nil {
		t.Fatal("Remove with an unknown id: no error")
	}
	entries, _, _ = w.List()
	if got := ids(entries); !slices.Equal(got, []string{"evidence/110_b.evidence.md", "evidence/120_c.evidence.link"}) {
		t.Errorf("after remove: %v", got)
	}
}

func TestRebase(t *testing.T) {
	w := newWorkspace(t, "000_p.system.md", "007_r.user.md", "100_a.evidence.md", "101_b.evidence.md.skip",
		"150_c.evidence.link", "150_d.evidence.md", "999_e.evidence.md")
	entries, _, _ := w.List()
	renamed, err := w.Rebase(entries)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range renamed {
		got = append(got, r.From.ID()+"->"+r.To.ID())
	}
	want := []string{"007_r->010_r", "101_b->110_b", "150_c->120_c", "150_d->130_d", "999_e->140_e"}
	if !slices.Equal(got, want) {
		t.Errorf("Rebase renamed %v, want %v", got, want)
	}
	entries, _, _ = w.List()
	wantFiles := []string{"000_p.system.md", "010_r.user.md", "evidence/100_a.evidence.md", "evidence/110_b.evidence.md.skip",
		"evidence/120_c.evidence.link", "evidence/130_d.evidence.md", "evidence/140_e.evidence.md"}
	if got := ids(entries); !slices.Equal(got, wantFiles) {
		t.Errorf("after rebase: %v", got)
	}
	// Contents moved with their names.
	data, err := os.ReadFile(filepath.Join(w.Dir, "evidence", "140_e.evidence.md"))
	if err != nil || string(data) != "999_e.evidence.md\n" {
		t.Errorf("140_e holds %q, %v", data, err)
	}
	if again, err := w.Rebase(entries); err != nil || len(again) != 0 {
		t.Errorf("second rebase renamed %v, %v", again, err)
	}
	// A band with more files than fit ten apart packs them closer.
	var many []string
	for i := range 30 {
		many = append(many, FileName(100+i, "k"+KindOf(string(rune('a'+i%26))+string(rune('a'+i/26))), Evidence, Active))
	}
	w = newWorkspace(t, many...)
	entries, _, _ = w.List()
	if _, err := w.Rebase(entries); err != nil {
		t.Fatal(err)
	}
	entries, _, _ = w.List()
	slices.SortFunc(entries, func(a, b Entry) int { return a.Rank - b.Rank })
	if entries[0].Rank != 100 || entries[1].Rank != 110 || entries[29].Rank != 390 {
		t.Errorf("30 files rebased to %d, %d … %d", entries[0].Rank, entries[1].Rank, entries[29].Rank)
	}
}

func TestWriteRefusesTakenRank(t *testing.T) {
	w := newWorkspace(t, "100_a.evidence.md")
	entries, _, _ := w.List()
	if _, err := w.Write(entries, Entry{Rank: 100, Kind: "b", Role: Evidence, State: Active}, []byte("x")); err == nil {
		t.Error("Write to a taken rank: no error")
	}
	e, err := w.Write(entries, Entry{Rank: 10, Kind: "req", Role: User, State: Active}, []byte("x"))
	if err != nil || e.Rel != "010_req.user.md" {
		t.Fatalf("Write = %+v, %v", e, err)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, IgnoreFile)); err != nil {
		t.Errorf("no %s after Write: %v", IgnoreFile, err)
	}
}

func TestLink(t *testing.T) {
	w := newWorkspace(t)
	if err := os.MkdirAll(filepath.Join(w.Dir, EvidenceDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.Root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) Entry {
		if err := os.WriteFile(filepath.Join(w.Dir, EvidenceDir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		e, _ := ParseName(name)
		e.Rel = EvidenceDir + "/" + name
		return e
	}
	s, err := w.Link(write("100_a.evidence.link", "a.go::1,1#t\n"))
	if err != nil || s.String() != "a.go::1,1#t" {
		t.Errorf("Link(selector file) = %v, %v", s, err)
	}
	if _, err := w.Link(write("110_b.evidence.link", "../x\n")); err == nil {
		t.Error("Link to ../x: no error")
	}
	sym := filepath.Join(w.Dir, EvidenceDir, "120_c.evidence.link")
	if err := os.Symlink(filepath.Join(w.Root, "a.go"), sym); err != nil {
		t.Skip("no symlinks:", err)
	}
	e, _ := ParseName("120_c.evidence.link")
	e.Rel = EvidenceDir + "/120_c.evidence.link"
	if s, err := w.Link(e); err != nil || s.String() != "a.go" {
		t.Errorf("Link(symlink) = %v, %v", s, err)
	}
	out := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(out, []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(w.Dir, EvidenceDir, "130_d.evidence.link")); err != nil {
		t.Fatal(err)
	}
	e, _ = ParseName("130_d.evidence.link")
	e.Rel = EvidenceDir + "/130_d.evidence.link"
	if _, err := w.Link(e); err == nil || !strings.Contains(err.Error(), "outside the project root") {
		t.Errorf("Link(symlink out) = %v", err)
	}
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{"100_flow_sh.evidence.md", "200_t.evidence.md.skip", "300_x.evidence.link", "000_p.system.md", "1_a.user.md", "100_a.b.evidence.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		e, ok := ParseName(name)
		if !ok {
			return
		}
		if back := FileName(e.Rank, e.Kind, e.Role, e.State); back != name {
			t.Fatalf("FileName(ParseName(%q)) = %q", name, back)
		}
		if e.Rank < 0 || e.Rank > MaxRank || !ValidKind(e.Kind) {
			t.Fatalf("ParseName(%q) = %+v", name, e)
		}
	})
}

func TestToggle(t *testing.T) {
	w := newWorkspace(t, "100_a.evidence.md", "110_b.evidence.md.skip", "120_c.evidence.link", "300_d.evidence.md")
	entries, _, _ := w.List()
	done, err := w.Toggle(entries, "100-199", Skipped)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range done {
		got = append(got, d.From.ID()+":"+string(d.To.State)+":"+d.Note)
	}
	want := []string{"100_a:skipped:", "110_b:skipped:already off", "120_c:linked:a link, always active"}
	if !slices.Equal(got, want) {
		t.Errorf("Toggle off 100-199 = %v, want %v", got, want)
	}
	entries, _, _ = w.List()
	if done, err := w.Toggle(entries, "110_b", ""); err != nil || done[0].To.State != Active {
		t.Errorf("flip 110_b = %+v, %v", done, err)
	}
	for target, msg := range map[string]string{
		"120_c":   "always active",
		"100-199": "a range needs on or off",
		"500-599": "no workspace file is ranked 500-599",
		"nothing": "no workspace file",
	} {
		if _, err := w.Toggle(entries, target, ""); err == nil || !strings.Contains(err.Error(), msg) {
			if target == "500-599" {
				_, err = w.Toggle(entries, target, Active)
			}
			if err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("Toggle(%q) error %v, want %q", target, err, msg)
			}
		}
	}
}

func TestSymlinkedFoldersRefused(t *testing.T) {
	w := newWorkspace(t, "000_p.system.md")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(w.Dir, EvidenceDir)); err != nil {
		t.Skip("no symlinks:", err)
	}
	if _, _, err := w.List(); err == nil || !strings.Contains(err.Error(), "ctx/evidence is a symlink") {
		t.Errorf("List with a symlinked evidence folder: %v", err)
	}
	if _, err := w.Write(nil, Entry{Rank: 100, Kind: "a", Role: Evidence, State: Active}, []byte("x")); err == nil {
		t.Error("Write through a symlinked evidence folder: no error")
	}
	if des, _ := os.ReadDir(outside); len(des) != 0 {
		t.Errorf("files written outside: %v", des)
	}
	w2 := newWorkspace(t, "000_p.system.md")
	if err := os.Symlink(filepath.Join(outside, "focus"), filepath.Join(w2.Dir, FocusFile)); err != nil {
		t.Fatal(err)
	}
	if err := w2.SetFocused([]string{"x"}); err == nil {
		t.Error("SetFocused through a symlink: no error")
	}
	if _, err := os.Stat(filepath.Join(outside, "focus")); err == nil {
		t.Error("the focus record was written outside")
	}
}

func TestKeepOutOfIndex(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, IgnoreFile)
	if err := os.WriteFile(p, []byte("*.log"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second call finds the block and adds nothing
		if err := KeepOutOfIndex(dir, BuildPatterns); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(p)
	want := "*.log\n\n" + ignoreMarker + " copies of project text, kept out of ctxpack's index and packs\n/prompt.mdctx\n/ctxplan.json\n"
	if string(data) != want {
		t.Errorf("ignore file:\n%s\nwant:\n%s", data, want)
	}
}
