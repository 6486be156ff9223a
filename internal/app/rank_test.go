package app

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
)

// rankFixture: z/hub.go is used by three files, a/leaf.go by none; by path
// alone the leaf would come first.
func rankFixture() map[string]string {
	return map[string]string{
		"a/leaf.go":  "package a\n\n// Leaf is used by nobody.\nfunc Leaf() int { return 1 }\n",
		"b/b.go":     "package b\n\nfunc B() int { return z.Hub() + 1 }\n",
		"c/c.go":     "package c\n\nfunc C() int { return z.Hub() * 2 }\n",
		"d/d.go":     "package d\n\nfunc D() int { return z.Hub() - z.Hub() }\n",
		"z/hub.go":   "package z\n\n// Hub is used by everyone.\nfunc Hub() int { return 42 }\n",
		"README.md":  "# demo\n",
		"config.yml": "name: demo\n",
	}
}

func planPart(t *testing.T, p render.Plan, path string) (int, render.PlanPart) {
	t.Helper()
	for i, pp := range p.Parts {
		if pp.Path == path {
			return i, pp
		}
	}
	t.Fatalf("%s is not in the plan", path)
	return 0, render.PlanPart{}
}

// TestPackRanksByStructure: under a budget, the file the others refer to
// ranks above a leaf, with its factors in the components; without a
// budget, files are ranked by kind only.
func TestPackRanksByStructure(t *testing.T) {
	p, err := Open(writeProject(t, rankFixture()), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Pack(context.Background(), Request{Budget: 2000, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	hi, hub := planPart(t, res.Plan, "z/hub.go")
	li, leaf := planPart(t, res.Plan, "a/leaf.go")
	if hi > li || *hub.Score <= *leaf.Score {
		t.Errorf("hub at %d (score %v), leaf at %d (score %v): the hub should rank first", hi, *hub.Score, li, *leaf.Score)
	}
	if hub.Components["centrality"] != 1 || leaf.Components["centrality"] >= 1 {
		t.Errorf("centrality: hub %v, leaf %v", hub.Components, leaf.Components)
	}
	for _, pp := range res.Plan.Parts {
		keys := slices.Sorted(maps.Keys(pp.Components))
		// No git history in the fixture: recency is left out.
		if !slices.Equal(keys, []string{"centrality", "file_type"}) {
			t.Errorf("%s: components %v", pp.Path, pp.Components)
		}
		want := (0.6*pp.Components["centrality"] + 0.1*pp.Components["file_type"]) / 0.7
		if d := *pp.Score - want; d > 1e-6 || d < -1e-6 {
			t.Errorf("%s: score %v, want the weighted mean %v", pp.Path, *pp.Score, want)
		}
	}

	// Without a budget (overflow allow): kind of file, then path.
	res, err = p.Pack(context.Background(), Request{Format: "json", Overflow: "allow"})
	if err != nil {
		t.Fatal(err)
	}
	hi, hub = planPart(t, res.Plan, "z/hub.go")
	li, _ = planPart(t, res.Plan, "a/leaf.go")
	if hi < li || len(hub.Components) != 1 {
		t.Errorf("unbudgeted: hub at %d with %v, leaf at %d", hi, hub.Components, li)
	}
}

// TestPackRecency: with git history, recency is a factor: the newest file
// 1, a file a week older 0.5.
func TestPackRecency(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	files := rankFixture()
	dir := writeProject(t, files)
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b",
			"GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q")
	git("1700000000 +0000", "add", ".")
	git("1700000000 +0000", "commit", "-qm", "one")
	if err := os.WriteFile(filepath.Join(dir, "a", "leaf.go"), []byte(files["a/leaf.go"]+"\n// Changed.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("1700604800 +0000", "commit", "-qam", "a week later")

	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Pack(context.Background(), Request{Budget: 2000, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	_, hub := planPart(t, res.Plan, "z/hub.go")
	_, leaf := planPart(t, res.Plan, "a/leaf.go")
	if hub.Components["recency"] != 0.5 || leaf.Components["recency"] != 1 {
		t.Errorf("recency: hub %v, leaf %v", hub.Components, leaf.Components)
	}
	want := (0.6*hub.Components["centrality"] + 0.3*0.5 + 0.1*hub.Components["file_type"]) / 1.0
	if d := *hub.Score - want; d > 1e-6 || d < -1e-6 {
		t.Errorf("hub: score %v, want %v", *hub.Score, want)
	}

	// Retrieval mode weighs the same git history: the recency factor of
	// each retrieved chunk, relative to the newest retrieved file, for the
	// chunks that match about as well as the best (retrieve.RecencyMargin).
	res, err = p.Retrieve(context.Background(), "Leaf nobody, Hub everyone", Request{Budget: 2000, Format: "json",
		Index: IndexOptions{File: filepath.Join(t.TempDir(), "index.db")}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	best := func(path string) render.PlanPart {
		var b render.PlanPart
		for _, pp := range res.Plan.Parts {
			if pp.Path == path && pp.Score != nil && (b.Score == nil || *pp.Score > *b.Score) {
				b = pp
			}
		}
		return b
	}
	// Leaf matches best and changed last: recency 1. Hub matches less
	// well, by more than the margin: its recency (0.5) does not count.
	hub, leaf = best("z/hub.go"), best("a/leaf.go")
	if hub.Components["recency"] != 0 || leaf.Components["recency"] != 1 {
		t.Errorf("retrieval recency: hub %v, leaf %v", hub.Components, leaf.Components)
	}
}
