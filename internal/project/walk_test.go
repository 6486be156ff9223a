package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mapFS builds a MapFS from path → content; a content starting with "->"
// makes a symlink to the rest.
func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, c := range files {
		if target, ok := strings.CutPrefix(c, "->"); ok {
			m[p] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
			continue
		}
		m[p] = &fstest.MapFile{Data: []byte(c)}
	}
	return m
}

func paths(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

// TestShowPath: a path is shown as it is unless NameProblem finds it
// unsafe to print, then quoted.
func TestShowPath(t *testing.T) {
	for in, want := range map[string]string{
		"src/a.go":        "src/a.go",
		"dir/ünï code.go": "dir/ünï code.go",
		"a\nb":            `"a\nb"`,
		"esc\x1b[31m":     `"esc\x1b[31m"`,
		"bad\xff":         `"bad\xff"`,
		"rlo\u202e":       `"rlo\u202e"`,
	} {
		if got := ShowPath(in); got != want {
			t.Errorf("ShowPath(%q) = %s, want %s", in, got, want)
		}
	}
}

func skippedStrings(skipped []Skipped) []string {
	out := []string{}
	for _, s := range skipped {
		out = append(out, s.Path+": "+s.Reason)
	}
	return out
}

func TestWalk(t *testing.T) {
	all := WalkOptions{IncludeHidden: true}
	tests := []struct {
		name        string
		files       map[string]string
		roots       []string
		opt         WalkOptions
		want        []string
		wantSkipped []string
	}{
		{
			name:  "bytewise order, not directory order",
			files: map[string]string{"a-c": "", "a.d": "", "a/b-/x": "", "a/b/y": "", "a0": "", "A": "", "_": "", "é": "", "z": ""},
			opt:   all,
			want:  []string{"A", "_", "a-c", "a.d", "a/b-/x", "a/b/y", "a0", "z", "é"},
		},
		{
			name:  "a file cannot be re-included when its directory is excluded",
			files: map[string]string{".gitignore": "logs/\n!logs/keep.txt\nout/*\n!out/keep.txt\n", "logs/keep.txt": "", "out/keep.txt": "", "out/drop.txt": ""},
			opt:   all,
			want:  []string{".gitignore", "out/keep.txt"},
		},
		{
			name: "nested ignore files apply relative to their directory",
			files: map[string]string{
				".gitignore": "*.tmp\n", "sub/.gitignore": "/only-here\n!keep.tmp\nx/y\n",
				"a.tmp": "", "only-here": "", "sub/only-here": "", "sub/deep/only-here": "", "sub/keep.tmp": "",
				"sub/deep/keep.tmp": "", "sub/x/y": "", "sub/z/x/y": "", "x/y": "",
			},
			opt: all,
			want: []string{".gitignore", "only-here", "sub/.gitignore", "sub/deep/keep.tmp", "sub/deep/only-here",
				"sub/keep.tmp", "sub/z/x/y", "x/y"},
		},
		{
			name:  ".ctxpackignore takes precedence over .gitignore in the same directory",
			files: map[string]string{".gitignore": "*.md\n", ".ctxpackignore": "!README.md\nvendor/\n", "README.md": "", "CHANGES.md": "", "vendor/v.go": "", "main.go": ""},
			opt:   all,
			want:  []string{".ctxpackignore", ".gitignore", "README.md", "main.go"},
		},
		{
			name:  "a deeper .gitignore overrides a shallower .ctxpackignore",
			files: map[string]string{".ctxpackignore": "*.gen.go\n", "sub/.gitignore": "!*.gen.go\n", "a.gen.go": "", "sub/b.gen.go": ""},
			opt:   all,
			want:  []string{".ctxpackignore", "sub/.gitignore", "sub/b.gen.go"},
		},
		{
			name:  "IgnoreFiles: custom names, and none",
			files: map[string]string{".gitignore": "*.md\n", ".myignore": "*.go\n", "a.md": "", "b.go": ""},
			opt:   WalkOptions{IncludeHidden: true, IgnoreFiles: []string{".myignore"}},
			want:  []string{".gitignore", ".myignore", "a.md"},
		},
		{
			name:  "IgnoreFiles empty: nothing is ignored",
			files: map[string]string{".gitignore": "*\n", "a.md": ""},
			opt:   WalkOptions{IncludeHidden: true, IgnoreFiles: []string{}},
			want:  []string{".gitignore", "a.md"},
		},
		{
			name: ".git is skipped, .git/info/exclude is honoured",
			files: map[string]string{
				".git/HEAD": "ref", ".git/info/exclude": "secret.txt\n", "secret.txt": "", "sub/.git": "gitdir: x", "sub/a": "", "sub/secret.txt": "",
			},
			opt:  all,
			want: []string{"sub/a"},
		},
		{
			name: "ctxpack's generated files are skipped, only at the root",
			files: map[string]string{
				".ctxpack/config.yaml": "", ".ctxpack/index.db": "", ".ctxpack/index.db-wal": "", ".ctxpack/cache/x.json": "",
				".ctxpack/records.jsonl": "", ".ctxpack/records.jsonl.lock": "", ".ctxpack/records.jsonl.tmp-1": "",
				".ctxpack/index.db.lock": "", ".ctxpack/sources.db": "", ".ctxpack/sources.db-wal": "", ".ctxpack/sources.db-shm": "",
				".ctxpack/sources.db-journal": "", ".ctxpack/sources.db-wal.stale-1": "",
				".ctxpack/work/tasks/TASK-1.md": "", "sub/.ctxpack/index.db": "", "sub/.ctxpack/cache/y": "",
			},
			opt:  all,
			want: []string{".ctxpack/config.yaml", ".ctxpack/work/tasks/TASK-1.md", "sub/.ctxpack/cache/y", "sub/.ctxpack/index.db"},
		},
		{
			name:  "hidden entries are left out unless asked for; hidden ignore files still apply",
			files: map[string]string{".gitignore": "*.log\n", ".env": "", ".config/x": "", "a.log": "", "a.go": "", "sub/.hidden/y": ""},
			opt:   WalkOptions{},
			want:  []string{"a.go"},
		},
		{
			name:        "binary and oversized files are reported",
			files:       map[string]string{"bin": "ab\x00cd", "big": strings.Repeat("x", 3*1024*1024+300*1024), "small": "hello", "late-nul": strings.Repeat("x", 8000) + "\x00", "empty": "", "logo.ai": "%PDF-1.5\r%\xe2\xe3\r\n1 0 obj\r<</Metadata 2 0 R>>", "pdf.txt": "a %PDF- in the middle"},
			opt:         all,
			want:        []string{"empty", "late-nul", "pdf.txt", "small"},
			wantSkipped: []string{"big: too large (3.3 MiB > 1 MiB limit)", "bin: binary", "logo.ai: binary"},
		},
		{
			name:        "size limit: exact bytes when rounding hides the difference",
			files:       map[string]string{"a": strings.Repeat("x", 1025), "b": strings.Repeat("x", 1024)},
			opt:         WalkOptions{IncludeHidden: true, MaxFileBytes: 1024},
			want:        []string{"b"},
			wantSkipped: []string{"a: too large (1025 B > 1024 B limit)"},
		},
		{
			name:  "a root directory inherits the ignore files above it",
			files: map[string]string{".gitignore": "*.log\n", "src/.gitignore": "gen/\n", "src/pkg/a.go": "", "src/pkg/a.log": "", "src/pkg/gen/g.go": "", "other.go": ""},
			roots: []string{"src/pkg"},
			opt:   all,
			want:  []string{"src/pkg/a.go"},
		},
		{
			name:  "explicit roots are listed even when ignored or hidden",
			files: map[string]string{".gitignore": "*.log\nbuild/\n", "a.log": "", "build/out.txt": "", "build/x.log": "", ".env": ""},
			roots: []string{"a.log", "build", ".env"},
			opt:   WalkOptions{},
			want:  []string{".env", "a.log", "build/out.txt"},
		},
		{
			name:  "overlapping roots list each file once",
			files: map[string]string{"a/b/c.go": "", "a/d.go": "", "bin": "\x00"},
			roots: []string{"a", ".", "a/b", "a/b/c.go", "./a/", "bin", "bin"},
			opt:   all,
			want:  []string{"a/b/c.go", "a/d.go"}, wantSkipped: []string{"bin: binary"},
		},
		{
			name: "symlinks: to files inside are listed; others are reported",
			files: map[string]string{
				"real/a.go": "package a", "link.go": "->real/a.go", "dirlink": "->real", "up": "->../x", "abs": "->/etc/passwd",
				"broken": "->nope", "chain": "->link.go", "sub/rel": "->../real/a.go", "sub/escape": "->../../x",
				"loop1": "->loop2", "loop2": "->loop1", "via": "->dirlink/a.go",
			},
			opt:  all,
			want: []string{"chain", "link.go", "real/a.go", "sub/rel", "via"},
			wantSkipped: []string{
				"abs: symlink outside root", "broken: unreadable: broken symlink", "dirlink: symlink to directory (not followed)",
				"loop1: unreadable: too many levels of symbolic links", "loop2: unreadable: too many levels of symbolic links",
				"sub/escape: symlink outside root", "up: symlink outside root",
			},
		},
		{
			name:  "an ignored symlink is left out; dir-only patterns do not match symlinks",
			files: map[string]string{".gitignore": "l1\nl2/\n", "l1": "->a", "l2": "->a", "a": "x"},
			opt:   all,
			want:  []string{".gitignore", "a", "l2"},
		},
		{
			name: "names that cannot be shown safely are reported, folders with their files; ignored ones stay silent",
			files: map[string]string{
				"ok.go": "", "a\nb.go": "", "tab\tx": "", "esc\x1b[2J": "", "del\x7f": "", "c1\u009b": "", "rlo\u202egp.exe": "",
				"ls\u2028x": "", "bad\xff.txt": "", "d\rir/x.go": "", "ignored\n.log": "", ".gitignore": "*.log\n", "ünï.go": "",
			},
			opt:  all,
			want: []string{".gitignore", "ok.go", "ünï.go"},
			wantSkipped: []string{
				"a\nb.go: its name holds U+000A, a control character, which would break or fake lines of the output; rename it to include it",
				"bad\xff.txt: its name is not valid UTF-8, so it cannot be shown as it is; rename it to include it",
				"c1\u009b: its name holds U+009B, a control character, which would break or fake lines of the output; rename it to include it",
				"d\rir: its name holds U+000D, a control character, which would break or fake lines of the output; rename it to include it",
				"del\x7f: its name holds U+007F, a control character, which would break or fake lines of the output; rename it to include it",
				"esc\x1b[2J: its name holds U+001B, a control character, which would break or fake lines of the output; rename it to include it",
				"ls\u2028x: its name holds U+2028, a control character, which would break or fake lines of the output; rename it to include it",
				"rlo\u202egp.exe: its name holds U+202E, a control character, which would break or fake lines of the output; rename it to include it",
				"tab\tx: its name holds U+0009, a control character, which would break or fake lines of the output; rename it to include it",
			},
		},
		{
			name:  "a named root whose name cannot be shown safely is reported",
			files: map[string]string{"a\nb.go": "", "ok.go": ""},
			roots: []string{"a\nb.go", "ok.go"},
			opt:   all,
			want:  []string{"ok.go"},
			wantSkipped: []string{
				"a\nb.go: its name holds U+000A, a control character, which would break or fake lines of the output; rename it to include it",
			},
		},
		{
			name:  "a root that is a symlink to a directory is walked",
			files: map[string]string{"real/a.go": "", "link": "->real"},
			roots: []string{"link"},
			opt:   all,
			want:  []string{"link/a.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, skipped, err := Walk(mapFS(tt.files), tt.roots, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantSkipped == nil {
				tt.wantSkipped = []string{}
			}
			if d := cmp.Diff(tt.want, paths(files)); d != "" {
				t.Errorf("files (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantSkipped, skippedStrings(skipped)); d != "" {
				t.Errorf("skipped (-want +got):\n%s", d)
			}
			// Reverse gives the same lists backwards.
			opt := tt.opt
			opt.Reverse = true
			rfiles, rskipped, err := Walk(mapFS(tt.files), tt.roots, opt)
			if err != nil {
				t.Fatal(err)
			}
			slices.Reverse(rfiles)
			slices.Reverse(rskipped)
			if !slices.Equal(files, rfiles) || !slices.Equal(skipped, rskipped) {
				t.Errorf("Reverse is not the reverse")
			}
		})
	}
}

func TestWalkFileInfo(t *testing.T) {
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	fsys := fstest.MapFS{"a.txt": {Data: []byte("hello"), ModTime: mtime}}
	files, _, err := Walk(fsys, nil, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{Path: "a.txt", Size: 5, ModTime: mtime}}
	if d := cmp.Diff(want, files); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestWalkErrors(t *testing.T) {
	fsys := mapFS(map[string]string{"a/b.go": ""})
	for _, tt := range []struct {
		roots []string
		want  string
		is    error
	}{
		{[]string{"../x"}, `project: walk: invalid root "../x": want a slash path inside the project, without ".."`, nil},
		{[]string{"/etc"}, `project: walk: invalid root "/etc"`, nil},
		{[]string{"a", "nope"}, "project: walk: ", fs.ErrNotExist},
	} {
		_, _, err := Walk(fsys, tt.roots, WalkOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Walk(%q) error = %v, want prefix %q", tt.roots, err, tt.want)
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("Walk(%q) error = %v, want errors.Is %v", tt.roots, err, tt.is)
		}
	}
}

// TestWalkDeterministic checks that the result does not depend on the
// number of workers or on the order files were created in.
func TestWalkDeterministic(t *testing.T) {
	build := func(order []int) string {
		dir := t.TempDir()
		for _, i := range order {
			p := filepath.Join(dir, "d"+string(rune('a'+i%7)), fmt.Sprintf("f%d.txt", i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			content := "text"
			if i%11 == 0 {
				content = "bin\x00"
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	var order []int
	for i := range 200 {
		order = append(order, i)
	}
	dir1 := build(order)
	slices.Reverse(order)
	dir2 := build(order)

	var first []string
	for _, dir := range []string{dir1, dir2} {
		for _, workers := range []int{1, 2, 7, 64} {
			files, skipped, err := Walk(os.DirFS(dir), nil, WalkOptions{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			got := append(paths(files), skippedStrings(skipped)...)
			if first == nil {
				first = got
				continue
			}
			if d := cmp.Diff(first, got); d != "" {
				t.Fatalf("workers=%d: result differs (-first +got):\n%s", workers, d)
			}
		}
	}
	if len(first) < 50 {
		t.Fatalf("tree too small: %d entries", len(first))
	}
}

func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop reads")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"ok.txt": "", "secret.txt": "", "locked/x.txt": ""})
	if err := os.Chmod(filepath.Join(dir, "secret.txt"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755) })
	files, skipped, err := Walk(os.DirFS(dir), nil, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ok.txt"}, paths(files)); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	want := []string{"locked: unreadable: permission denied", "secret.txt: unreadable: permission denied"}
	if d := cmp.Diff(want, skippedStrings(skipped)); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
}

// TestWalkOSSymlinks checks symlink handling through os.DirFS, whose
// ReadLink returns targets as the file system holds them.
func TestWalkOSSymlinks(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"root/a.go": "package a", "outside.go": "package o"})
	root := filepath.Join(dir, "root")
	for target, link := range map[string]string{
		"a.go": "in.go", "../outside.go": "out.go", filepath.Join(root, "a.go"): "abs.go", ".": "self",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	files, skipped, err := Walk(os.DirFS(root), nil, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a.go", "in.go"}, paths(files)); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	want := []string{"abs.go: symlink outside root", "out.go: symlink outside root", "self: symlink to directory (not followed)"}
	if d := cmp.Diff(want, skippedStrings(skipped)); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
}

func TestWalkConfigOptions(t *testing.T) {
	got := Defaults().Walk.Options()
	want := WalkOptions{MaxFileBytes: DefaultMaxFileBytes, IncludeHidden: true}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// deniedFS is a file system on which some names cannot be opened.
type deniedFS struct {
	fs.FS
	denied []string
}

func (d deniedFS) Open(name string) (fs.File, error) {
	if slices.Contains(d.denied, name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.FS.Open(name)
}

// TestWalkDenied covers unreadable files and directories on any user
// (TestWalkUnreadable needs a user that permissions stop).
func TestWalkDenied(t *testing.T) {
	fsys := deniedFS{
		FS:     mapFS(map[string]string{"ok.txt": "", "secret.txt": "", "locked/x.txt": "", "sub/.gitignore": "*.txt\n", "sub/a.txt": "", "sub/b.md": ""}),
		denied: []string{"secret.txt", "locked", "sub/.gitignore"},
	}
	files, skipped, err := Walk(fsys, nil, WalkOptions{IncludeHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ok.txt", "sub/a.txt", "sub/b.md"}, paths(files)); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	want := []string{
		"locked: unreadable: permission denied",
		"secret.txt: unreadable: permission denied",
		"sub/.gitignore: unreadable: permission denied",
	}
	if d := cmp.Diff(want, skippedStrings(skipped)); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	// An unreadable root directory is an error.
	if _, _, err := Walk(fsys, []string{"locked"}, WalkOptions{}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Walk(locked) error = %v, want permission denied", err)
	}
}

func TestBinary(t *testing.T) {
	for _, tc := range []struct {
		head string
		bin  bool
		why  string
	}{
		{"plain text", false, ""},
		{"", false, ""},
		{"ab\x00cd", true, "a NUL byte in its first 8000 bytes"},
		{strings.Repeat("x", 8000) + "\x00", false, ""},
		{"%PDF-1.5\r%\xe2\xe3\r\n", true, "a PDF"},
		{"%PDF", false, ""},
		{" %PDF-1.5", false, ""},
	} {
		bin, why := Binary([]byte(tc.head))
		if bin != tc.bin || why != tc.why {
			t.Errorf("Binary(%.20q) = %v, %q; want %v, %q", tc.head, bin, why, tc.bin, tc.why)
		}
	}
}
