package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// repo makes a git repository in a temporary directory; commit adds the
// files (nil content removes one) and commits them at the given time.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) commit(when int64, author, msg string, files map[string][]byte) string {
	r.t.Helper()
	for name, data := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if data == nil {
			r.git("rm", "-q", "--", name)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.git("add", "--", name)
	}
	date := fmt.Sprintf("%d +0000", when)
	cmd := exec.Command("git", "-C", r.dir, "-c", "user.name="+author, "-c", "user.email="+strings.ToLower(author)+"@example.com",
		"commit", "-q", "--allow-empty", "-F", "-")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	cmd.Stdin = strings.NewReader(msg)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git commit: %v\n%s", err, out)
	}
	return r.git("rev-parse", "HEAD")
}

func TestLog(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	first := r.commit(1_700_000_000, "Ada", "Add the invoice module\n\nTotals are integers of minor units.\n", map[string][]byte{
		"src/invoice.py":     []byte("def total():\n    return 0\n"),
		"docs/read me.md":    []byte("one\ntwo\nthree\n"),
		"assets/logo.bin":    {0, 1, 2, 3, 0, 255},
		"src/ünïcode\tt.txt": []byte("x\n"),
	})
	second := r.commit(1_700_000_100, "Grace", "Round half-even\x1e"+strings.Repeat("a", 40)+" is not a record  \n\n", map[string][]byte{
		"src/invoice.py":  []byte("def total():\n    return round(0)\n\n"),
		"docs/read me.md": nil,
	})
	empty := r.commit(1_700_000_200, "Ada", "An empty commit", nil)

	got, err := Log(ctx, r.dir, "", Tip{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Commit{
		{SHA: empty, Author: "Ada", Email: "ada@example.com", Time: 1_700_000_200, Message: "An empty commit"},
		{SHA: second, Author: "Grace", Email: "grace@example.com", Time: 1_700_000_100,
			Message: "Round half-even\x1e" + strings.Repeat("a", 40) + " is not a record",
			Files: []File{
				{Path: "docs/read me.md", Added: 0, Deleted: 3},
				{Path: "src/invoice.py", Added: 2, Deleted: 1},
			}, Insertions: 2, Deletions: 4},
		{SHA: first, Author: "Ada", Email: "ada@example.com", Time: 1_700_000_000,
			Message: "Add the invoice module\n\nTotals are integers of minor units.",
			Files: []File{
				{Path: "assets/logo.bin", Added: -1, Deleted: -1},
				{Path: "docs/read me.md", Added: 3},
				{Path: "src/invoice.py", Added: 2},
				{Path: "src/ünïcode\tt.txt", Added: 1},
			}, Insertions: 6},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Log (-want +got):\n%s", d)
	}

	// Since a commit: only the newer ones; since HEAD: none.
	got, err = Log(ctx, r.dir, first, Tip{})
	if err != nil || len(got) != 2 || got[0].SHA != empty || got[1].SHA != second {
		t.Errorf("Log since the first commit: %v, %v", got, err)
	}
	if got, err := Log(ctx, r.dir, empty, Tip{}); err != nil || len(got) != 0 {
		t.Errorf("Log since HEAD: %v, %v", got, err)
	}

	// A rewritten history: the commit read last is gone from HEAD's.
	r.git("reset", "-q", "--hard", first)
	if _, err := Log(ctx, r.dir, second, Tip{}); !errors.Is(err, ErrRewritten) {
		t.Errorf("Log since a commit reset away: %v; want ErrRewritten", err)
	}
	if _, err := Log(ctx, r.dir, "nothex", Tip{}); err == nil || !strings.Contains(err.Error(), "not a commit hash") {
		t.Errorf("Log since a bad hash: %v", err)
	}

	// Up to a given head: HEAD is first's again, the log reads second's.
	if head, err := Head(ctx, r.dir); err != nil || head != (Tip{SHA: first}) {
		t.Errorf("Head = %+v, %v; want %s at the top", head, err, first)
	}
	got, err = Log(ctx, r.dir, first, Tip{SHA: empty})
	if err != nil || len(got) != 2 || got[0].SHA != empty || got[1].SHA != second {
		t.Errorf("Log from first to a given head: %v, %v", got, err)
	}
	if _, err := Log(ctx, r.dir, "", Tip{SHA: "HEAD"}); err == nil || !strings.Contains(err.Error(), "not a commit hash") {
		t.Errorf("Log up to a head that is no hash: %v", err)
	}
}

// A project in a folder of a larger repository (found by its .ctxpack):
// its history is the commits that changed its files, named from its root.
func TestLogSubdirectory(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	first := r.commit(1_700_000_000, "Ada", "Start both services", map[string][]byte{
		"services/billing/invoice.py": []byte("def total():\n    return 0\n"),
		"services/shipping/label.py":  []byte("def label():\n    pass\n"),
		"README.md":                   []byte("two services\n"),
	})
	r.commit(1_700_000_100, "Grace", "Shipping labels carry the weight", map[string][]byte{
		"services/shipping/label.py": []byte("def label(weight):\n    pass\n"),
	})
	r.commit(1_700_000_150, "Grace", "An empty commit", nil)
	third := r.commit(1_700_000_200, "Ada", "Round invoice totals", map[string][]byte{
		"services/billing/invoice.py": []byte("def total():\n    return round(0)\n"),
		"README.md":                   []byte("two services, rounded\n"),
	})
	billing := filepath.Join(r.dir, "services", "billing")

	head, err := Head(ctx, billing)
	if err != nil || head != (Tip{SHA: third, Prefix: "services/billing/"}) {
		t.Fatalf("Head of the folder = %+v, %v", head, err)
	}
	got, err := Log(ctx, billing, "", head)
	if err != nil {
		t.Fatal(err)
	}
	want := []Commit{
		{SHA: third, Author: "Ada", Email: "ada@example.com", Time: 1_700_000_200, Message: "Round invoice totals",
			Files: []File{{Path: "invoice.py", Added: 1, Deleted: 1}}, Insertions: 1, Deletions: 1},
		{SHA: first, Author: "Ada", Email: "ada@example.com", Time: 1_700_000_000, Message: "Start both services",
			Files: []File{{Path: "invoice.py", Added: 2}}, Insertions: 2},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Log of a folder (-want +got):\n%s", d)
	}
	// Since the first: only the third, whatever came between.
	if got, err := Log(ctx, billing, first, head); err != nil || len(got) != 1 || got[0].SHA != third {
		t.Errorf("Log of a folder since the first commit: %v, %v", got, err)
	}
	// The top of the same repository reads every commit, the empty one too.
	if got, err := Log(ctx, r.dir, "", Tip{}); err != nil || len(got) != 4 {
		t.Errorf("Log of the top: %d commits, %v; want 4", len(got), err)
	}
}

func TestLogNotRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	if _, err := Log(context.Background(), dir, "", Tip{}); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Log outside a repository: %v", err)
	}
	if _, err := Head(context.Background(), dir); !errors.Is(err, ErrNotRepository) || strings.Contains(err.Error(), dir) {
		t.Errorf("Head outside a repository: %v; want ErrNotRepository, without the path", err)
	}
	r := newRepo(t) // no commits yet
	if _, err := Log(context.Background(), r.dir, "", Tip{}); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Log of a repository without commits: %v", err)
	}
	if _, err := Head(context.Background(), r.dir); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Head of a repository without commits: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	sha := strings.Repeat("b", 40)
	tests := []struct {
		name, in, want string
	}{
		{"junk before", "hello\x1e" + sha + "\x00a\x00e\x001\x00m\x00", "output before the first commit"},
		{"short record", "\x1e" + sha + "\x00a\x00e\x00", "ends after 3 of its 5 fields"},
		{"bad hash", "\x1exyz\x00a\x00e\x001\x00m\x00", "not a commit hash"},
		{"bad time", "\x1e" + sha + "\x00a\x00e\x00noon\x00m\x00", `time "noon"`},
		{"bad numstat", "\x1e" + sha + "\x00a\x00e\x001\x00m\x00\x00\n1\t2\x00", "is not ADDED TAB DELETED TAB PATH"},
		{"bad count", "\x1e" + sha + "\x00a\x00e\x001\x00m\x00\x00\nx\t2\tp\x00", `"x" is not a line count`},
		{"negative count", "\x1e" + sha + "\x00a\x00e\x001\x00m\x00\x00\n-2\t2\tp\x00", `"-2" is not a line count`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "history: ") {
			t.Errorf("%s: %v; want an error that says %q", tt.name, err, tt.want)
		}
	}
	if got, err := Parse(nil); err != nil || len(got) != 0 {
		t.Errorf("Parse of nothing: %v, %v", got, err)
	}
}

// encode writes commits as git log writes them in Log's format.
func encode(cs []Commit) []byte {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\x1e%s\x00%s\x00%s\x00%d\x00%s\n\x00", c.SHA, c.Author, c.Email, c.Time, c.Message)
		if len(c.Files) > 0 {
			b.WriteString("\x00\n")
		}
		for _, f := range c.Files {
			count := func(n int) string {
				if n < 0 {
					return "-"
				}
				return fmt.Sprint(n)
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\x00", count(f.Added), count(f.Deleted), f.Path)
		}
	}
	return []byte(b.String())
}

// FuzzParse: Parse never panics, and what git would write for any
// commits reads back as those commits.
func FuzzParse(f *testing.F) {
	f.Add([]byte("\x1e"+strings.Repeat("c", 40)+"\x00a\x00e\x001\x00msg\n\x00\x00\n1\t2\tp\x00-\t-\tq\x00"), "Ada", "line one\nline two", "src/a b.go", 3, 4)
	f.Add([]byte("\x1e\x1e\x00\x00"), "", "\x1e"+strings.Repeat("d", 40), "p\tq", -1, 0)
	f.Fuzz(func(t *testing.T, data []byte, author, msg, path string, added, deleted int) {
		Parse(data) // must not panic

		clean := func(s string) string { return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "?") }
		author, msg, path = clean(author), strings.TrimRight(clean(msg), " \t\r\n"), clean(path)
		path = strings.Trim(path, "\x00")
		if path == "" || !utf8.ValidString(path) {
			path = "p"
		}
		added, deleted = max(added, -1), max(deleted, -1)
		if (added < 0) != (deleted < 0) {
			added, deleted = -1, -1
		}
		c := Commit{SHA: strings.Repeat("e", 40), Author: author, Email: author + "@x", Time: 42, Message: msg,
			Files: []File{{Path: path, Added: added, Deleted: deleted}}, Insertions: max(added, 0), Deletions: max(deleted, 0)}
		plain := Commit{SHA: strings.Repeat("f", 64), Author: "b", Email: "b@x", Time: 7, Message: "second"}
		got, err := Parse(encode([]Commit{c, plain}))
		if err != nil {
			t.Fatalf("Parse of %q: %v", encode([]Commit{c, plain}), err)
		}
		if d := cmp.Diff([]Commit{c, plain}, got); d != "" {
			t.Errorf("round trip (-want +got):\n%s", d)
		}
	})
}

// BenchmarkLog reads the whole history of the repository named by
// $CTXPACK_HISTORY_REPO (a work tree or a bare repository), for example
// a fetched public one; without it, of this repository.
func BenchmarkLog(b *testing.B) {
	dir := os.Getenv("CTXPACK_HISTORY_REPO")
	if dir == "" {
		dir = "../.."
	}
	var n, files int
	for b.Loop() {
		cs, err := Log(context.Background(), dir, "", Tip{})
		if err != nil {
			b.Skipf("%s: %v", dir, err)
		}
		n, files = len(cs), 0
		for _, c := range cs {
			files += len(c.Files)
		}
	}
	b.ReportMetric(float64(n), "commits")
	b.ReportMetric(float64(files), "files")
}
