package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	r.commit(1700000000, "Ada", "base", map[string][]byte{
		"a.txt": []byte("one\n"), "sub/b.go": []byte("package b\n"), "gone.txt": []byte("bye\n"),
		"logo.bin": {0, 1, 2},
	})
	r.git("checkout", "-q", "-b", "feature")
	r.commit(1700001000, "Ada", "feature", map[string][]byte{"sub/b.go": []byte("package b\n\nfunc B() {}\n"), "gone.txt": nil})
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(r.dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", []byte("one\ntwo\n"))     // changed, not staged
	write("new file ü.txt", []byte("new\n")) // untracked: not a change
	write("logo.bin", []byte{0, 1, 2, 3})
	r.git("add", "logo.bin") // staged

	type entry struct {
		Path           string
		Added, Deleted int
	}
	summary := func(c *Changes) []entry {
		var out []entry
		for _, f := range c.Files {
			out = append(out, entry{f.Path, f.Added, f.Deleted})
			if !strings.HasPrefix(f.Patch, "diff --git ") {
				t.Errorf("%s: patch starts %.30q", f.Path, f.Patch)
			}
		}
		return out
	}
	head, err := Diff(ctx, r.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []entry{{"a.txt", 1, 0}, {"logo.bin", -1, -1}}; !cmp.Equal(summary(head), want) {
		t.Errorf("against HEAD: %v, want %v", summary(head), want)
	}
	if !strings.Contains(head.Files[0].Patch, "+two\n") || strings.Contains(head.Files[0].Patch, "logo.bin") {
		t.Errorf("a.txt's patch:\n%s", head.Files[0].Patch)
	}
	if head.Base != r.git("rev-parse", "HEAD") {
		t.Errorf("base %s, want HEAD", head.Base)
	}

	branch, err := Diff(ctx, r.dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	want := []entry{{"a.txt", 1, 0}, {"gone.txt", 0, 1}, {"logo.bin", -1, -1}, {"sub/b.go", 2, 0}}
	if !cmp.Equal(summary(branch), want) {
		t.Errorf("since main: %v, want %v", summary(branch), want)
	}
	if branch.Base != r.git("rev-parse", "main") {
		t.Errorf("base %s, want main's", branch.Base)
	}

	// Below the top: only the folder's files, named from it.
	sub, err := Diff(ctx, filepath.Join(r.dir, "sub"), "main")
	if err != nil {
		t.Fatal(err)
	}
	if want := []entry{{"b.go", 2, 0}}; !cmp.Equal(summary(sub), want) {
		t.Errorf("sub since main: %v, want %v", summary(sub), want)
	}

	for _, bad := range []string{"nope", "--output=/tmp/x", "main..feature"} {
		if _, err := Diff(ctx, r.dir, bad); !errors.Is(err, ErrUnknownRef) {
			t.Errorf("Diff(%q) = %v, want ErrUnknownRef", bad, err)
		}
	}
	if _, err := Diff(ctx, t.TempDir(), ""); !errors.Is(err, ErrNotRepository) {
		t.Errorf("outside a repository: %v", err)
	}
}

func TestRecent(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	for i, msg := range []string{"one", "two", "three"} {
		r.commit(int64(1700000000+1000*i), "Ada", msg, map[string][]byte{"f.txt": []byte(msg)})
	}
	got, err := Recent(ctx, r.dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, c := range got {
		msgs = append(msgs, c.Message)
	}
	if want := []string{"three", "two"}; !cmp.Equal(msgs, want) {
		t.Errorf("Recent 2: %v, want %v", msgs, want)
	}
	if _, err := Recent(ctx, r.dir, 0); err == nil {
		t.Error("Recent 0: no error")
	}
}

func FuzzSplitPatch(f *testing.F) {
	f.Add("diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/y b/y\n+c\n")
	f.Add("")
	f.Add("diff --git a/x b/x\n+diff --git in a line\n")
	f.Fuzz(func(t *testing.T, patch string) {
		blocks := splitPatch(patch)
		if strings.Join(blocks, "") != patch {
			t.Fatalf("blocks %q do not join to %q", blocks, patch)
		}
		for i, b := range blocks {
			if b == "" {
				t.Fatalf("block %d is empty", i)
			}
			if i > 0 && !strings.HasPrefix(b, "diff --git ") {
				t.Fatalf("block %d starts %.20q", i, b)
			}
		}
	})
}
