package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPreimageLines(t *testing.T) {
	tests := []struct {
		name, diff string
		want       []int
		wantErr    bool
	}{
		{"no hunks", "diff --git a/a.py b/a.py\nold mode 100644\nnew mode 100755\n", nil, false},
		{"one line changed", "@@ -7 +7 @@ def f():\n-a\n+b\n", []int{7}, false},
		{"lines removed", "@@ -10,3 +9,0 @@\n-a\n-b\n-c\n", []int{10, 11, 12}, false},
		{"pure insertion", "@@ -4,0 +5,2 @@\n+x\n+y\n", []int{4}, false},
		{"insertion at the top", "@@ -0,0 +1 @@\n+x\n", []int{1}, false},
		{"several hunks, sorted, no repeats", "@@ -20,2 +20 @@\n-a\n-b\n+c\n@@ -3,0 +4 @@\n+d\n@@ -3 +5 @@\n-e\n+f\n", []int{3, 20, 21}, false},
		{"bad header", "@@ -x +1 @@\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := preimageLines(tt.diff)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Errorf("preimageLines = %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// testRepo is a git repository in a temporary directory whose commits
// have fixed dates, so their hashes are the same in every run.
type testRepo struct {
	t   *testing.T
	dir string
	n   int
}

func newRepo(t *testing.T) *testRepo {
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	date := fmt.Sprintf("2020-01-01T00:%02d:00Z", r.n)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (an empty content deletes the file) and commits
// them with msg; it returns the commit's hash.
func (r *testRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for name, content := range files {
		p := filepath.Join(r.dir, name)
		if content == "" {
			if err := os.Remove(p); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.n++
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func lines(n int, prefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

// replace returns text with line i (1-based) replaced by s.
func replace(text string, i int, s string) string {
	ls := strings.SplitAfter(text, "\n")
	ls[i-1] = s + "\n"
	return strings.Join(ls, "")
}

// history builds a repository whose commits each meet one case of the
// selection, and returns it with the hashes of the commits by name.
func history(t *testing.T) (*testRepo, map[string]string) {
	r := newRepo(t)
	a, b := lines(30, "a"), lines(30, "b")
	h := map[string]string{}
	h["root"] = r.commit("Initial import of the project with its modules and tests", map[string]string{
		"pkg/a.py": a, "pkg/b.py": b, "tests/test_a.py": "def test(): pass\n", "README.md": "hi\n",
	})
	a2 := replace(replace(a, 5, "fixed 5"), 20, "fixed 20")
	h["fix"] = r.commit("Fix crash when the input file is empty (#12)\n\nThe reader indexed the first line.\n\nSigned-off-by: t <t@example.com>", map[string]string{
		"pkg/a.py": a2, "tests/test_a.py": "def test(): assert True\n", "CHANGES.md": "- fix\n",
	})
	b2 := strings.Replace(b, "b 10\n", "b 10\ninserted\n", 1)
	h["insert"] = r.commit("Raise an error instead of returning None when the key is missing", map[string]string{
		"pkg/b.py": b2, "pkg/a.py": replace(a2, 1, "changed 1"),
	})
	a2 = replace(a2, 1, "changed 1")
	a2 = replace(a2, 2, "short")
	h["short"] = r.commit("Fix crash", map[string]string{"pkg/a.py": a2})
	h["docs"] = r.commit("docs: the reader should say what it does when the file is empty", map[string]string{"README.md": "more\n"})
	h["testonly"] = r.commit("The reader test should fail when the file is empty and it does not", map[string]string{"tests/test_a.py": "def test(): assert False\n"})
	a2 = replace(a2, 3, "win")
	h["adds"] = r.commit("Fix the reader failing on Windows paths by adding a path module", map[string]string{
		"pkg/a.py": a2, "pkg/paths.py": "x\n",
	})
	b2 = replace(b2, 3, "feature")
	h["feature"] = r.commit("Add a new command that lists the plugins and their versions", map[string]string{"pkg/b.py": b2})
	r.git("checkout", "-q", "-b", "topic")
	h["topic"] = r.commit("Fix the wrong column reported for tabs in the reader output", map[string]string{"pkg/b.py": replace(b2, 4, "tabs")})
	r.git("checkout", "-q", "main")
	h["main"] = r.commit("Fix the writer crashing when the output folder is read-only", map[string]string{"pkg/a.py": replace(a2, 7, "ro")})
	r.n++
	r.git("merge", "-q", "--no-ff", "-m", "Merge branch 'topic' which fixes the tabs bug in the reader", "topic")
	h["merge"] = r.git("rev-parse", "HEAD")
	return r, h
}

func TestSelectPairs(t *testing.T) {
	r, h := history(t)
	spec := repoSpec{Name: "o/r", Lang: "python", Dir: r.dir}
	pairs, rep, err := selectPairs(spec, 10, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]pair{}
	for _, p := range pairs {
		got[p.Commit] = p
	}
	want := map[string]pair{
		h["fix"]: {
			Base: h["root"], Commit: h["fix"], GoldFiles: []string{"pkg/a.py"},
			GoldLines: map[string][]int{"pkg/a.py": {5, 20}}, ID: "o__r-" + h["fix"][:12], Language: "python",
			Problem: "Fix crash when the input file is empty\n\nThe reader indexed the first line.", Repo: "o/r",
		},
		h["insert"]: {
			Base: h["fix"], Commit: h["insert"], GoldFiles: []string{"pkg/a.py", "pkg/b.py"},
			GoldLines: map[string][]int{"pkg/a.py": {1}, "pkg/b.py": {10}}, ID: "o__r-" + h["insert"][:12], Language: "python",
			Problem: "Raise an error instead of returning None when the key is missing", Repo: "o/r",
		},
		h["topic"]: {
			Base: h["feature"], Commit: h["topic"], GoldFiles: []string{"pkg/b.py"},
			GoldLines: map[string][]int{"pkg/b.py": {4}}, ID: "o__r-" + h["topic"][:12], Language: "python",
			Problem: "Fix the wrong column reported for tabs in the reader output", Repo: "o/r",
		},
		h["main"]: {
			Base: h["feature"], Commit: h["main"], GoldFiles: []string{"pkg/a.py"},
			GoldLines: map[string][]int{"pkg/a.py": {7}}, ID: "o__r-" + h["main"][:12], Language: "python",
			Problem: "Fix the writer crashing when the output folder is read-only", Repo: "o/r",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pairs (-want +got):\n%s", diff)
	}
	if !slices.IsSortedFunc(pairs, func(a, b pair) int { return strings.Compare(a.Commit, b.Commit) }) {
		t.Errorf("pairs are not in hash order")
	}
	wantRej := map[string]int{"root": 1, "merge": 1, "short": 1, "docs": 1, "no-source": 1, "adds-or-deletes-source": 1, "not-issue-like": 1}
	if diff := cmp.Diff(wantRej, rep.Rejected); diff != "" {
		t.Errorf("rejected (-want +got):\n%s", diff)
	}
	if rep.Head != h["merge"] || rep.Commits != 11 || rep.Candidates != 4 || rep.Selected != 4 {
		t.Errorf("report = %+v", rep)
	}

	// -per-repo takes the first pairs in hash order.
	two, _, err := selectPairs(spec, 2, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pairs[:2], two); diff != "" {
		t.Errorf("per-repo 2 (-want +got):\n%s", diff)
	}

	// A repository over the size limit gives nothing, and says why.
	none, rep, err := selectPairs(spec, 10, 10)
	if err != nil || len(none) != 0 || !strings.Contains(rep.Skipped, "over the") {
		t.Errorf("over the limit: %d pairs, %q, %v", len(none), rep.Skipped, err)
	}
}

func TestSelectPairsCapsRepeatedGoldFiles(t *testing.T) {
	r := newRepo(t)
	text := lines(40, "x")
	r.commit("Initial import of the project with its modules and tests", map[string]string{"x.go": text})
	for i := 1; i <= maxPerGoldSet+3; i++ {
		text = replace(text, i, "fixed")
		r.commit(fmt.Sprintf("Fix the parser failing on input number %d of the corpus", i), map[string]string{"x.go": text})
	}
	pairs, rep, err := selectPairs(repoSpec{Name: "o/r", Lang: "go", Dir: r.dir}, 100, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != maxPerGoldSet || rep.Rejected["repeated-gold-files"] != 3 {
		t.Errorf("got %d pairs, rejected %v; want %d pairs and 3 repeated", len(pairs), rep.Rejected, maxPerGoldSet)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	r, _ := history(t)
	dir := t.TempDir()
	list := filepath.Join(dir, "repos.txt")
	if err := os.WriteFile(list, []byte("# test\n\no/r python "+r.dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var outs [][]byte
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("pairs%d.jsonl", i))
		var log bytes.Buffer
		if err := run(list, out, "", 10, 1<<30, &log); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
		side, err := os.ReadFile(sidecar(out))
		if err != nil {
			t.Fatal(err)
		}
		var reps []repoReport
		if err := json.Unmarshal(side, &reps); err != nil || len(reps) != 1 || reps[0].Head == "" {
			t.Errorf("sidecar %s: %v %s", sidecar(out), err, side)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Errorf("two runs differ:\n%s\n%s", outs[0], outs[1])
	}
	if n := bytes.Count(outs[0], []byte("\n")); n != 4 {
		t.Errorf("%d pairs, want 4:\n%s", n, outs[0])
	}
}

func TestBuildTree(t *testing.T) {
	r, h := history(t)
	bare := filepath.Join(t.TempDir(), "r.git")
	r.git("clone", "-q", "--mirror", r.dir, bare)
	r.git("--git-dir", bare, "tag", "v1", h["merge"])
	trees := t.TempDir()
	dst := filepath.Join(trees, "o__r-x")
	if err := os.MkdirAll(dst+".partial/junk", 0o755); err != nil { // an interrupted run
		t.Fatal(err)
	}
	built, err := buildTree(bare, dst, h["insert"])
	if err != nil || !built {
		t.Fatalf("buildTree = %v, %v", built, err)
	}
	tr := &testRepo{t: t, dir: dst}
	if got := tr.git("rev-parse", "HEAD"); got != h["insert"] {
		t.Errorf("HEAD = %s, want %s", got, h["insert"])
	}
	if got := tr.git("for-each-ref"); got != "" {
		t.Errorf("refs left: %s", got)
	}
	all := strings.Fields(tr.git("log", "--all", "--reflog", "--format=%H"))
	if want := []string{h["insert"], h["fix"], h["root"]}; !slices.Equal(all, want) {
		t.Errorf("git log --all sees %v, want %v", all, want)
	}
	b, err := os.ReadFile(filepath.Join(dst, "pkg", "b.py"))
	if err != nil || !strings.Contains(string(b), "inserted") {
		t.Errorf("pkg/b.py not checked out at the base: %v", err)
	}
	if _, err := os.Stat(dst + ".partial"); !os.IsNotExist(err) {
		t.Errorf("the partial tree is left: %v", err)
	}
	// A second run keeps the tree.
	if built, err := buildTree(bare, dst, h["fix"]); err != nil || built {
		t.Errorf("second buildTree = %v, %v; want false, nil", built, err)
	}
	if got := tr.git("rev-parse", "HEAD"); got != h["insert"] {
		t.Errorf("HEAD after a second run = %s, want %s", got, h["insert"])
	}
}
