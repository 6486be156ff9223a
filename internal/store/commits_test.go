package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/google/go-cmp/cmp"
)

// repo is a git repository in a temporary directory, made with the git
// CLI.
type repo struct {
	t   testing.TB
	dir string
	n   int
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

var gitEnv = []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null"}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes file with new content and commits it with msg, a minute
// after the previous commit; it returns the sha.
func (r *repo) commit(file, msg string) string {
	r.t.Helper()
	r.n++
	p := filepath.Join(r.dir, file)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, fmt.Appendf(nil, "version %d\n", r.n), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.git("add", "--", file)
	date := fmt.Sprintf("%d +0000", 1_700_000_000+60*r.n)
	cmd := exec.Command("git", "-C", r.dir, "-c", "user.name=Ada Lovelace", "-c", "user.email=ada@example.com", "commit", "-q", "-m", msg)
	cmd.Env = append(os.Environ(), append(gitEnv, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git commit: %v\n%s", err, out)
	}
	return r.git("rev-parse", "HEAD")
}

func syncCommits(t *testing.T, s *Store, root string) CommitStats {
	t.Helper()
	st, err := s.SyncCommits(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSyncCommits(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	s := openTest(t)
	c1 := r.commit("src/invoice.go", "Add invoices")
	c2 := r.commit("src/invoice.go", "Round invoice totals per line")
	c3 := r.commit("docs/billing.md", "Document billing")

	if st, want := syncCommits(t, s, r.dir), (CommitStats{Added: 3, Head: c3, Total: 3}); st != want {
		t.Fatalf("first sync: %+v, want %+v", st, want)
	}
	stored := storedCommits(t, s)
	got := stored[slices.IndexFunc(stored, func(c history.Commit) bool { return c.SHA == c2 })]
	want := history.Commit{SHA: c2, Author: "Ada Lovelace", Email: "ada@example.com", Time: 1_700_000_120,
		Message: "Round invoice totals per line", Files: []history.File{{Path: "src/invoice.go", Added: 1, Deleted: 1}}, Insertions: 1, Deletions: 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the stored commit (-want +got):\n%s", d)
	}

	// Nothing new: nothing added, nothing written.
	root1, _ := s.StateRoot(ctx)
	if st, want := syncCommits(t, s, r.dir), (CommitStats{Head: c3, Total: 3}); st != want {
		t.Fatalf("no-op sync: %+v, want %+v", st, want)
	}

	// Incremental: only the new commit is read.
	c4 := r.commit("src/tax.go", "Add tax")
	if st, want := syncCommits(t, s, r.dir), (CommitStats{Added: 1, Head: c4, Total: 4}); st != want {
		t.Fatalf("incremental sync: %+v, want %+v", st, want)
	}
	if d := cmp.Diff([]string{c4, c3, c2, c1}, storedSHAs(t, s)); d != "" {
		t.Errorf("the stored commits, newest first (-want +got):\n%s", d)
	}
	if h, err := s.SearchCommits(ctx, "tax", 5); err != nil || len(h) != 1 || h[0].SHA != c4 {
		t.Errorf("SearchCommits(tax) = %v, %v", h, err)
	}

	// Rewritten: reset below the stored head and commit anew.
	r.git("reset", "-q", "--hard", c2)
	c5 := r.commit("src/invoice.go", "Rework invoices")
	if st, want := syncCommits(t, s, r.dir), (CommitStats{Added: 3, Rescanned: true, Head: c5, Total: 3}); st != want {
		t.Fatalf("sync after a rewrite: %+v, want %+v", st, want)
	}
	if d := cmp.Diff([]string{c5, c2, c1}, storedSHAs(t, s)); d != "" {
		t.Errorf("after a rewrite, the stored commits are not HEAD's (-want +got):\n%s", d)
	}
	if h, _ := s.SearchCommits(ctx, "tax billing", 5); h != nil {
		t.Errorf("the rewritten commits are still searched: %v", h)
	}
	if root2, _ := s.StateRoot(ctx); root2 == root1 {
		t.Error("the state root did not change")
	}

	// Not a repository: an error history.ErrNotRepository is, and the store
	// unchanged.
	before, _ := s.StateRoot(ctx)
	notRepo := t.TempDir()
	_, err := s.SyncCommits(ctx, notRepo)
	if !errors.Is(err, history.ErrNotRepository) || !strings.HasPrefix(err.Error(), "store: ") {
		t.Fatalf("not a repository: %v", err)
	}
	if strings.Contains(err.Error(), notRepo) {
		t.Errorf("the error names the absolute root, which a plan's warnings must not hold: %v", err)
	}
	if after, _ := s.StateRoot(ctx); after != before {
		t.Error("a failed sync changed the store")
	}
	if head, _ := getMeta(ctx, s.conn(s.db), metaCommitHead+"/"+s.ns); head != c5 {
		t.Errorf("a failed sync changed the stored head to %q", head)
	}
}

// A project in a folder of a larger repository stores the commits that
// changed its files, named from its root; a store that read them for
// another folder (before its root moved, or read at the top by an older
// ctxpack) reads them all again.
func TestSyncCommitsSubdirectory(t *testing.T) {
	r := newRepo(t)
	s := openTest(t)
	c1 := r.commit("billing/src/invoice.go", "Add invoices")
	r.commit("shipping/label.go", "Add shipping labels")
	c3 := r.commit("billing/src/invoice.go", "Round invoice totals")
	billing := filepath.Join(r.dir, "billing")

	if st, want := syncCommits(t, s, billing), (CommitStats{Added: 2, Head: c3, Total: 2}); st != want {
		t.Fatalf("sync of the folder: %+v, want %+v", st, want)
	}
	stored := storedCommits(t, s)
	if d := cmp.Diff([]string{c3, c1}, storedSHAs(t, s)); d != "" {
		t.Errorf("the folder's commits (-want +got):\n%s", d)
	}
	for _, c := range stored {
		if len(c.Files) != 1 || c.Files[0].Path != "src/invoice.go" {
			t.Errorf("commit %s: files %+v, want src/invoice.go, relative to the folder", c.SHA, c.Files)
		}
	}
	if h, err := s.SearchCommits(context.Background(), "shipping labels", 5); err != nil || h != nil {
		t.Errorf("a commit outside the folder is searched: %v, %v", h, err)
	}
	// HEAD has not moved, but the store is read for the top now.
	if st, want := syncCommits(t, s, r.dir), (CommitStats{Added: 3, Rescanned: true, Head: c3, Total: 3}); st != want {
		t.Fatalf("sync of the top after the folder: %+v, want %+v", st, want)
	}
	if st, want := syncCommits(t, s, r.dir), (CommitStats{Head: c3, Total: 3}); st != want {
		t.Fatalf("no-op sync of the top: %+v, want %+v", st, want)
	}
}

// storedCommits are the commits in the store, newest first.
func storedCommits(t *testing.T, s *Store) []history.Commit {
	t.Helper()
	rows, err := queryRows(context.Background(), s.conn(s.db), scanCommit, `SELECT `+commitCols+` FROM commits ORDER BY time DESC, sha`)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]history.Commit, len(rows))
	for i, r := range rows {
		out[i] = r.Commit
	}
	return out
}

func storedSHAs(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	for _, c := range storedCommits(t, s) {
		out = append(out, c.SHA)
	}
	return out
}

func TestFilesColumn(t *testing.T) {
	files := []history.File{{Path: "a\tb\nc.go", Added: 1, Deleted: 2}, {Path: "bin", Added: -1, Deleted: -1}, {Path: "ü/\xff.txt"}}
	got, err := decodeFiles(encodeFiles(files))
	if err != nil || !cmp.Equal(got, files) {
		t.Fatalf("decodeFiles(encodeFiles(x)) = %v, %v; want %v", got, err, files)
	}
	if got, err := decodeFiles(encodeFiles(nil)); err != nil || got != nil {
		t.Fatalf("no files: %v, %v", got, err)
	}
	for _, bad := range [][]byte{[]byte("1\t2\tpath"), []byte("x\t2\tp\x00"), []byte("1\tp\x00")} {
		if _, err := decodeFiles(bad); err == nil {
			t.Errorf("decodeFiles(%q) accepted", bytes.ReplaceAll(bad, []byte{0}, []byte(`\0`)))
		}
	}
}
