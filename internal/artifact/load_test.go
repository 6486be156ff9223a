package artifact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func link(target string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
}

func art(id string, extra ...string) *fstest.MapFile {
	return file("---\nid: " + id + "\ntitle: " + id + "\n" + strings.Join(extra, "\n") + "\n---\nbody of " + id + "\n")
}

// summary lists a Set's artifacts as "path id type" and its problems as
// their messages.
func summary(s *Set) (list, problems []string) {
	for _, a := range s.List {
		list = append(list, a.Path+" "+a.ID+" "+string(a.Type))
	}
	for _, p := range s.Problems {
		problems = append(problems, p.Error())
	}
	return list, problems
}

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		".ctxpack/config.yaml":                     file("budget: 100\n"),
		".ctxpack/system/identity.md":              file("---\nproject: acme\n---\n# Acme\n"),
		".ctxpack/system/specs/SPEC-1.md":          art("SPEC-1", "links: {norms: [NORM-1]}"),
		".ctxpack/system/specs/dup.md":             art("SPEC-1"),
		".ctxpack/system/specs/bad.md":             file("---\nid: SPEC-2\ntitle: [\n---\n"),
		".ctxpack/system/specs/README.txt":         file("not an artifact"),
		".ctxpack/system/specs/.#SPEC-1.md":        link("user@host.123"),
		".ctxpack/system/specs/sub/SPEC-9.md":      art("SPEC-9"),
		".ctxpack/system/specs/dir.md/SPEC-8.md":   art("SPEC-8"),
		".ctxpack/system/rationale/DEC-1.md":       art("DEC-1"),
		".ctxpack/system/norms/NORM-1.md":          art("NORM-1"),
		".ctxpack/work/tasks/TASK-1.md":            art("TASK-1", "links: {specs: [SPEC-1]}"),
		".ctxpack/work/active/TASK-2/TASK-2.md":    art("TASK-2"),
		".ctxpack/work/active/TASK-2/logs/ses.md":  file("# log\n"),
		".ctxpack/work/archive/2025/TASK-0.md":     art("TASK-0"),
		".ctxpack/work/archive/.old/TASK-X.md":     art("TASK-X"),
		".ctxpack/work/archive/2025/PROP-1.md":     art("PROP-1"),
		".ctxpack/other/SPEC-5.md":                 art("SPEC-5"),
		"docs/SPEC-6.md":                           art("SPEC-6"),
		".contextia/system/specs/SPEC-CONTEXT.md":  art("SPEC-CONTEXT"),
		".ctxpack/system/specs/identity-clash.md":  file("---\ntype: identity\n---\n"),
		".ctxpack/system/rationale/DEC-empty.md":   file(""),
		".ctxpack/system/rationale/DEC-nofront.md": file("# DEC\n"),
	}
	set, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if set.Dir != ".ctxpack" {
		t.Errorf("Dir = %q", set.Dir)
	}
	list, problems := summary(set)
	wantList := []string{
		".ctxpack/system/identity.md identity identity",
		".ctxpack/system/norms/NORM-1.md NORM-1 norm",
		".ctxpack/system/rationale/DEC-1.md DEC-1 decision",
		".ctxpack/system/specs/SPEC-1.md SPEC-1 spec",
		".ctxpack/system/specs/dup.md SPEC-1 spec",
		".ctxpack/system/specs/identity-clash.md identity identity",
		".ctxpack/work/active/TASK-2/TASK-2.md TASK-2 task",
		".ctxpack/work/archive/2025/TASK-0.md TASK-0 task",
		".ctxpack/work/tasks/TASK-1.md TASK-1 task",
	}
	wantProblems := []string{
		"artifact: .ctxpack/system/rationale/DEC-empty.md: empty file; an artifact starts with a line ---, its YAML frontmatter (id, title, …) and a line ---",
		"artifact: .ctxpack/system/rationale/DEC-nofront.md:1: no frontmatter: the file must start with a line ---, then YAML fields such as id and title, then a line ---",
		"artifact: .ctxpack/system/specs/bad.md:3: invalid YAML in frontmatter: did not find expected node content; close the quote or bracket opened here",
		"artifact: .ctxpack/system/specs/dup.md:2: duplicate id SPEC-1 (also in .ctxpack/system/specs/SPEC-1.md); give one of them another id",
		"artifact: .ctxpack/system/specs/identity-clash.md: duplicate id identity (also in .ctxpack/system/identity.md); give one of them another id",
	}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
	var ids []string
	for id, a := range set.ByID {
		ids = append(ids, id+" "+a.Path)
	}
	wantIDs := []string{
		"DEC-1 .ctxpack/system/rationale/DEC-1.md",
		"NORM-1 .ctxpack/system/norms/NORM-1.md",
		"SPEC-1 .ctxpack/system/specs/SPEC-1.md",
		"TASK-0 .ctxpack/work/archive/2025/TASK-0.md",
		"TASK-1 .ctxpack/work/tasks/TASK-1.md",
		"TASK-2 .ctxpack/work/active/TASK-2/TASK-2.md",
		"identity .ctxpack/system/identity.md",
	}
	if diff := cmp.Diff(wantIDs, ids, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("ByID (-want +got):\n%s", diff)
	}
	a := set.ByID["SPEC-1"]
	if want := "sha256:"; !strings.HasPrefix(a.CID, want) {
		t.Errorf("CID = %q", a.CID)
	}
	if a.Line["links.norms[NORM-1]"] != 4 {
		t.Errorf("Line = %v", a.Line)
	}
}

func TestLoadContextia(t *testing.T) {
	set, err := Load(fstest.MapFS{
		".contextia/system/identity.md":         file("---\ntype: identity\nversion: 1\n---\n# my-project\n"),
		".contextia/system/specs/SPEC-001-x.md": art("SPEC-001", "decisions: [DEC-001]", "status: approved"),
	})
	if err != nil {
		t.Fatal(err)
	}
	list, problems := summary(set)
	want := []string{".contextia/system/identity.md identity identity", ".contextia/system/specs/SPEC-001-x.md SPEC-001 spec"}
	if diff := cmp.Diff(want, list); diff != "" || len(problems) > 0 || set.Dir != ".contextia" {
		t.Errorf("Dir %q, problems %q, List (-want +got):\n%s", set.Dir, problems, diff)
	}
	if got := set.ByID["SPEC-001"].Links.Decisions; len(got) != 1 || got[0] != "DEC-001" {
		t.Errorf("Contextia top-level decisions = %q", got)
	}
}

func TestLoadEmpty(t *testing.T) {
	for name, fsys := range map[string]fs.FS{
		"no artifact dir":    fstest.MapFS{"src/a.go": file("package a\n")},
		"empty artifact dir": fstest.MapFS{".ctxpack": &fstest.MapFile{Mode: fs.ModeDir}},
		"folders are files":  fstest.MapFS{".ctxpack/system": file("x"), ".ctxpack/work/tasks": file("x")},
	} {
		t.Run(name, func(t *testing.T) {
			set, err := Load(fsys)
			if err != nil {
				t.Fatal(err)
			}
			if len(set.List) != 0 || set.ByID == nil || len(set.ByID) != 0 {
				t.Errorf("set = %+v", set)
			}
			if name == "folders are files" {
				_, problems := summary(set)
				want := []string{
					"artifact: .ctxpack/system: not a directory; artifacts go in .md files inside it",
					"artifact: .ctxpack/work/tasks: not a directory; artifacts go in .md files inside it",
				}
				if diff := cmp.Diff(want, problems); diff != "" {
					t.Errorf("Problems (-want +got):\n%s", diff)
				}
			} else if len(set.Problems) > 0 {
				t.Errorf("Problems = %v", set.Problems)
			}
		})
	}
}

// failFS fails to list the directories in fail.
type failFS struct {
	fstest.MapFS
	fail map[string]bool
}

func (f failFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if f.fail[name] {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.ReadDir(name)
}

func TestLoadListErrors(t *testing.T) {
	m := fstest.MapFS{
		".ctxpack/system/specs/SPEC-1.md": art("SPEC-1"),
		".ctxpack/system/norms/NORM-1.md": art("NORM-1"),
	}
	_, err := Load(failFS{m, map[string]bool{".ctxpack": true}})
	if err == nil || err.Error() != "artifact: cannot list .ctxpack: readdir .ctxpack: permission denied" {
		t.Errorf("Load = %v", err)
	}
	set, err := Load(failFS{m, map[string]bool{".ctxpack/system/specs": true}})
	if err != nil {
		t.Fatal(err)
	}
	list, problems := summary(set)
	if diff := cmp.Diff([]string{".ctxpack/system/norms/NORM-1.md NORM-1 norm"}, list); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"artifact: .ctxpack/system/specs: cannot list: permission denied"}, problems); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
}

func TestLoadSymlinksMapFS(t *testing.T) {
	set, err := Load(fstest.MapFS{
		".ctxpack/shared/SPEC-7.md":         art("SPEC-7"),
		".ctxpack/system/specs/in.md":       link("../../shared/SPEC-7.md"),
		".ctxpack/system/specs/chain.md":    link("in.md"),
		".ctxpack/system/specs/out.md":      link("../../../../etc/passwd"),
		".ctxpack/system/specs/abs.md":      link("/etc/passwd"),
		".ctxpack/system/specs/broken.md":   link("nope.md"),
		".ctxpack/system/specs/loop.md":     link("loop.md"),
		".ctxpack/system/specs/dir.md":      link("../../shared"),
		".ctxpack/system/norms":             link("../../../elsewhere"),
		".ctxpack/system/rationale":         link("../shared"),
		".ctxpack/system/identity.md":       link("../../README.md"),
		"README.md":                         file("---\nproject: x\n---\n"),
		".ctxpack/work/archive/TASK-1.md":   link("/tmp/TASK-1.md"),
		".ctxpack/work/active/linked":       link("../../shared"),
		".ctxpack/work/active/TASK-3/x.txt": file(""),
	})
	if err != nil {
		t.Fatal(err)
	}
	list, problems := summary(set)
	wantList := []string{
		".ctxpack/system/identity.md identity identity",
		".ctxpack/system/rationale/SPEC-7.md SPEC-7 spec",
		".ctxpack/system/specs/chain.md SPEC-7 spec",
		".ctxpack/system/specs/in.md SPEC-7 spec",
	}
	wantProblems := []string{
		".ctxpack/system/norms: symlink leads outside the project; not followed (artifacts must be inside the project)",
		".ctxpack/system/specs/abs.md: symlink leads outside the project; not followed (artifacts must be inside the project)",
		".ctxpack/system/specs/broken.md: broken symlink; not followed",
		".ctxpack/system/specs/chain.md:2: duplicate id SPEC-7 (also in .ctxpack/system/rationale/SPEC-7.md); give one of them another id",
		".ctxpack/system/specs/dir.md: not a regular file",
		".ctxpack/system/specs/in.md:2: duplicate id SPEC-7 (also in .ctxpack/system/rationale/SPEC-7.md); give one of them another id",
		".ctxpack/system/specs/loop.md: cannot follow symlink: too many levels of symbolic links",
		".ctxpack/system/specs/out.md: symlink leads outside the project; not followed (artifacts must be inside the project)",
		".ctxpack/work/archive/TASK-1.md: symlink leads outside the project; not followed (artifacts must be inside the project)",
	}
	for i := range wantProblems {
		wantProblems[i] = "artifact: " + wantProblems[i]
	}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
}

// countFS counts the bytes read from the files of an os.DirFS.
type countFS struct {
	fsys fs.FS
	read atomic.Int64
}

type countFile struct {
	fs.File
	c *countFS
}

func (f countFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.c.read.Add(int64(n))
	return n, err
}

func (f countFile) ReadDir(n int) ([]fs.DirEntry, error) {
	return f.File.(fs.ReadDirFile).ReadDir(n)
}

func (c *countFS) Open(name string) (fs.File, error) {
	f, err := c.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return countFile{f, c}, nil
}

func (c *countFS) ReadLink(name string) (string, error)   { return fs.ReadLink(c.fsys, name) }
func (c *countFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(c.fsys, name) }

func writeFile(t testing.TB, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
}

func TestLoadDisk(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	dir := filepath.Join(root, ".ctxpack")
	writeFile(t, filepath.Join(outside, "SPEC-OUT.md"), "---\nid: SPEC-OUT\n---\n")
	writeFile(t, filepath.Join(outside, "norms", "NORM-OUT.md"), "---\nid: NORM-OUT\n---\n")
	writeFile(t, filepath.Join(dir, "system", "specs", "SPEC-1.md"), "---\nid: SPEC-1\n---\n# One\n")
	writeFile(t, filepath.Join(root, "shared", "SPEC-2.md"), "---\nid: SPEC-2\n---\n")
	symlink(t, filepath.Join(outside, "SPEC-OUT.md"), filepath.Join(dir, "system", "specs", "abs.md"))
	symlink(t, "../../../../outside/SPEC-OUT.md", filepath.Join(dir, "system", "specs", "rel.md"))
	symlink(t, "../../../shared/SPEC-2.md", filepath.Join(dir, "system", "specs", "in.md"))
	symlink(t, filepath.Join(outside, "norms"), filepath.Join(dir, "system", "norms"))

	// A 50 MB file, sparse: it must be reported from its size, not read.
	huge, err := os.Create(filepath.Join(dir, "system", "specs", "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	huge.Close()

	fsys := &countFS{fsys: os.DirFS(root)}
	set, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	list, problems := summary(set)
	wantList := []string{
		".ctxpack/system/specs/SPEC-1.md SPEC-1 spec",
		".ctxpack/system/specs/in.md SPEC-2 spec",
	}
	wantProblems := []string{
		"artifact: .ctxpack/system/norms: symlink leads outside the project; not followed (artifacts must be inside the project)",
		"artifact: .ctxpack/system/specs/abs.md: symlink leads outside the project; not followed (artifacts must be inside the project)",
		"artifact: .ctxpack/system/specs/huge.md: file is 50 MiB, over the 1 MiB limit for artifacts; split it",
		"artifact: .ctxpack/system/specs/rel.md: symlink leads outside the project; not followed (artifacts must be inside the project)",
	}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
	if n := fsys.read.Load(); n > 1<<10 {
		t.Errorf("Load read %d bytes; the large file must not be read", n)
	}
	if text := set.ByID["SPEC-1"].Text(Full); text != "# One\n" {
		t.Errorf("Text = %q", text)
	}

	// The artifact directory itself behind a symlink that leaves.
	root2 := filepath.Join(base, "project2")
	if err := os.MkdirAll(root2, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, outside, filepath.Join(root2, ".ctxpack"))
	set, err = Load(os.DirFS(root2))
	if err != nil {
		t.Fatal(err)
	}
	_, problems = summary(set)
	want := []string{"artifact: .ctxpack: symlink leads outside the project; not followed (artifacts must be inside the project)"}
	if diff := cmp.Diff(want, problems); diff != "" || len(set.List) > 0 {
		t.Errorf("List %v, Problems (-want +got):\n%s", set.List, diff)
	}
}

func TestLoadUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs file permissions that bind the user")
	}
	root := t.TempDir()
	name := filepath.Join(root, ".ctxpack", "system", "specs", "SPEC-1.md")
	writeFile(t, name, "---\nid: SPEC-1\n---\n")
	if err := os.Chmod(name, 0); err != nil {
		t.Fatal(err)
	}
	set, err := Load(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	_, problems := summary(set)
	want := []string{"artifact: .ctxpack/system/specs/SPEC-1.md: cannot read: permission denied"}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
}

// generate returns a project of n artifacts spread over the four folders,
// linked to each other.
func generate(n int) fstest.MapFS {
	m := fstest.MapFS{".ctxpack/system/identity.md": file("---\nproject: big\nlanguages: [go]\n---\n# Big\n\nA big project.\n")}
	folders := []struct{ dir, prefix string }{
		{"work/tasks", "TASK"}, {"system/specs", "SPEC"}, {"system/rationale", "DEC"}, {"system/norms", "NORM"},
	}
	for i := range n {
		f := folders[i%4]
		id := fmt.Sprintf("%s-%05d", f.prefix, i)
		m[".ctxpack/"+f.dir+"/"+id+".md"] = file(fmt.Sprintf(`---
id: %s
title: Artifact number %d
status: current
links:
  specs: [SPEC-%05d, SPEC-%05d]
  decisions: [DEC-%05d]
  norms: [NORM-%05d]
paths: [src/pkg%d/**]
owner: team-%d
---
Lead paragraph of %s, which says what it is about.

## Behaviour

WHEN something happens
THEN something else happens.

## Notes

More text, more text, more text.
`, id, i, (i+1)%n, (i+5)%n, (i+2)%n, (i+3)%n, i%50, i%7, id))
	}
	return m
}

func TestLoad10k(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	m := generate(10000)
	set, err := Load(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.List) != 10001 || len(set.ByID) != 10001 || len(set.Problems) != 0 {
		t.Fatalf("List %d, ByID %d, Problems %v", len(set.List), len(set.ByID), set.Problems)
	}
	for i := 1; i < len(set.List); i++ {
		if set.List[i-1].Path >= set.List[i].Path {
			t.Fatalf("List not sorted at %d: %s, %s", i, set.List[i-1].Path, set.List[i].Path)
		}
	}
}

// TestLoadDeterministic loads the same project with one and with several
// goroutines, and checks that the sets are equal.
func TestLoadDeterministic(t *testing.T) {
	m := generate(400)
	m[".ctxpack/system/specs/dup-a.md"] = art("SPEC-00001")
	m[".ctxpack/system/specs/dup-b.md"] = art("SPEC-00001")
	m[".ctxpack/system/specs/bad.md"] = file("---\nid: [\n---\n")
	prev := runtime.GOMAXPROCS(1)
	one, err := Load(m)
	runtime.GOMAXPROCS(max(prev, 4))
	many, err2 := Load(m)
	runtime.GOMAXPROCS(prev)
	if err := errors.Join(err, err2); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(one, many); diff != "" {
		t.Errorf("GOMAXPROCS 1 vs 4 (-1 +4):\n%s", diff)
	}
	if len(one.Problems) != 3 {
		t.Errorf("Problems = %v", one.Problems)
	}
}

func BenchmarkLoad10k(b *testing.B) {
	m := generate(10000)
	b.Run("mapfs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("disk", func(b *testing.B) {
		root := b.TempDir()
		for name, f := range m {
			writeFile(b, filepath.Join(root, filepath.FromSlash(name)), string(f.Data))
		}
		fsys := os.DirFS(root)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(fsys); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	data := generate(1)[".ctxpack/work/tasks/TASK-00000.md"].Data
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(".ctxpack/work/tasks/TASK-00000.md", data); err != nil {
			b.Fatal(err)
		}
	}
}
