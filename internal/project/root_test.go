package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// tempDir returns a temporary directory with its symlinks resolved, so
// results can be compared with it.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FindRoot(dir); err != nil || got != dir {
		t.Skipf("a directory above %s already marks a project root (%s)", dir, got)
	}
	return dir
}

func TestFindRoot(t *testing.T) {
	dir := tempDir(t)
	git := filepath.Join(dir, "git")
	art := filepath.Join(dir, "art")
	ctxa := filepath.Join(dir, "ctxa")
	both := filepath.Join(dir, "both")
	plain := filepath.Join(dir, "plain")
	mkdirs(t,
		filepath.Join(git, ".git"), filepath.Join(git, "a", "b"),
		filepath.Join(art, ".ctxpack"), filepath.Join(art, "sub", ".git"), filepath.Join(art, "sub", "deep"), filepath.Join(art, "other"),
		filepath.Join(ctxa, ".contextia"), filepath.Join(ctxa, "x"),
		filepath.Join(both, ".ctxpack"), filepath.Join(both, ".contextia"),
		filepath.Join(plain, "p"),
	)
	writeTree(t, dir, map[string]string{
		"git/a/file.go":      "",
		"wt/.git":            "gitdir: elsewhere",
		"wt/x/.ctxpack":      "a file, not a directory",
		"plain/p/readme.txt": "",
	})
	for _, tt := range []struct{ start, want string }{
		{filepath.Join(git, "a", "b"), git},
		{filepath.Join(git, "a", "file.go"), git},
		{git, git},
		{filepath.Join(art, "sub", "deep"), filepath.Join(art, "sub")}, // the nearest marker wins, even a .git under a .ctxpack project
		{filepath.Join(art, "other"), art},
		{filepath.Join(ctxa, "x"), ctxa},
		{both, both},
		{filepath.Join(dir, "wt", "x"), filepath.Join(dir, "wt")}, // .git file; .ctxpack file ignored
		{filepath.Join(plain, "p"), filepath.Join(plain, "p")},
		{filepath.Join(plain, "p", "readme.txt"), filepath.Join(plain, "p")},
		{filepath.Join(git, "a", "b", "..", "b") + string(filepath.Separator), git},
	} {
		got, err := FindRoot(tt.start)
		if err != nil || got != tt.want {
			t.Errorf("FindRoot(%s) = %q, %v; want %q", tt.start, got, err, tt.want)
		}
	}

	t.Chdir(filepath.Join(git, "a"))
	if got, err := FindRoot("."); err != nil || got != git {
		t.Errorf("FindRoot(.) = %q, %v; want %q", got, err, git)
	}
	if _, err := FindRoot(filepath.Join(dir, "missing")); err == nil || !strings.HasPrefix(err.Error(), "project: find root: ") {
		t.Errorf("FindRoot(missing) error = %v", err)
	}
}

func TestArtifactDir(t *testing.T) {
	for _, tt := range []struct {
		fsys      fstest.MapFS
		want, cfg string
	}{
		{fstest.MapFS{".ctxpack/config.yaml": {}}, ".ctxpack", ".ctxpack/config.yaml"},
		{fstest.MapFS{".contextia/config.yaml": {}}, ".contextia", ".contextia/config.yaml"},
		{fstest.MapFS{".ctxpack/x": {}, ".contextia/x": {}}, ".ctxpack", ".ctxpack/config.yaml"},
		// ctxpack index in a Contextia project makes .ctxpack/index.db:
		// .contextia/ still holds the artifacts and config.
		{fstest.MapFS{".ctxpack/index.db": {}, ".contextia/system/specs/SPEC-1.md": {}}, ".contextia", ".contextia/config.yaml"},
		{fstest.MapFS{".ctxpack/index.db": {}, ".contextia/config.yaml": {}}, ".contextia", ".contextia/config.yaml"},
		{fstest.MapFS{".ctxpack/work/tasks/T.md": {}, ".contextia/system/x": {}}, ".ctxpack", ".ctxpack/config.yaml"},
		{fstest.MapFS{".ctxpack": {Data: []byte("file")}}, "", ".ctxpack/config.yaml"},
		{fstest.MapFS{}, "", ".ctxpack/config.yaml"},
	} {
		if got := ArtifactDir(tt.fsys); got != tt.want {
			t.Errorf("ArtifactDir(%v) = %q, want %q", tt.fsys, got, tt.want)
		}
		if got := ConfigPath(tt.fsys); got != tt.cfg {
			t.Errorf("ConfigPath(%v) = %q, want %q", tt.fsys, got, tt.cfg)
		}
	}
}

func TestResolve(t *testing.T) {
	dir := tempDir(t)
	root := filepath.Join(dir, "root")
	writeTree(t, dir, map[string]string{"root/sub/a.go": "", "root/real/b.go": "", "outside/c.go": ""})
	for target, link := range map[string]string{
		filepath.Join(root, "real"):   filepath.Join(root, "inlink"),
		filepath.Join(dir, "outside"): filepath.Join(root, "outlink"),
		"missing":                     filepath.Join(root, "broken"),
		root:                          filepath.Join(dir, "rootlink"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(root, "sub")
	rootlink := filepath.Join(dir, "rootlink")
	for _, tt := range []struct {
		root, cwd, p string
		want         string // or the start of the error
	}{
		{root, sub, "a.go", "sub/a.go"},
		{root, sub, ".", "sub"},
		{root, root, ".", "."},
		{root, sub, "../real/b.go", "real/b.go"},
		{root, sub, filepath.Join(root, "real"), "real"},
		{root, "sub", "a.go", "sub/a.go"}, // a relative cwd is relative to root
		{root, sub, "new/file.go", "sub/new/file.go"},
		{root, root, "inlink/b.go", "inlink/b.go"},
		{root, root, "inlink/none/x.go", "inlink/none/x.go"},
		{rootlink, filepath.Join(rootlink, "sub"), "a.go", "sub/a.go"},
		{root, filepath.Join(rootlink, "sub"), "a.go", "sub/a.go"}, // cwd through another name of root
		{root, sub, "../..", "error: project: ../..: outside the project root"},
		{root, sub, "../../outside/c.go", "error: project: ../../outside/c.go: outside the project root"},
		{root, sub, "/etc/passwd", "error: project: /etc/passwd: outside the project root"},
		{root, root, "outlink/c.go", "error: project: outlink/c.go: a symlink leads outside the project root"},
		{root, root, "outlink", "error: project: outlink: a symlink leads outside the project root"},
		{root, root, "broken/x", "error: project: resolve broken/x: broken symlink"},
		{root, root, "", "error: project: empty path"},
		{"relative", root, "a", "error: project: resolve a: project root \"relative\" is not absolute"},
	} {
		got, err := Resolve(tt.root, tt.cwd, tt.p)
		if err != nil {
			got = "error: " + err.Error()
		}
		if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
			if !strings.HasPrefix(got, "error: "+want) {
				t.Errorf("Resolve(%s, %s, %q) = %q, want an error starting %q", tt.root, tt.cwd, tt.p, got, want)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("Resolve(%s, %s, %q) = %q, want %q", tt.root, tt.cwd, tt.p, got, tt.want)
		}
	}
}
