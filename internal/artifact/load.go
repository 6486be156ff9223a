package artifact

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
	"golang.org/x/sync/errgroup"
)

// identityFile is the identity's path in the artifact directory.
const identityFile = "system/identity.md"

var errNotSupported = errors.New("symlink in a file system that cannot read links")

// candidate is a file Load will read: the path it is listed under and the
// path to open (different when the listed path is a symlink).
type candidate struct {
	path, open string
	problem    *ParseError // set when the file is not to be read
}

// Load reads every artifact of the project in fsys, whose root is the
// project root: system/identity.md, work/tasks/*.md, system/specs/*.md,
// system/rationale/*.md and system/norms/*.md under .ctxpack (or
// .contextia, see project.ArtifactDir), and for the Contextia layout
// work/active/**/TASK-*.md and work/archive/**/TASK-*.md.
//
// Hidden files (".name") and files not ending in ".md" are ignored. A
// symlink is followed only when every link on the way stays inside fsys;
// symlinked directories inside work/active and work/archive are not
// followed. Files that cannot be read as artifacts (unreadable, not
// regular, over MaxBytes, malformed, leading outside through a symlink)
// and ids claimed by more than one file are reported in Set.Problems; the
// rest are in Set.List and Set.ByID. With no artifact directory the Set is
// empty. The error is non-nil only when the artifact directory exists but
// cannot be listed.
func Load(fsys fs.FS) (*Set, error) {
	set := &Set{ByID: make(map[string]*Artifact)}
	dir := project.ArtifactDir(fsys)
	if dir == "" {
		return set, nil
	}
	set.Dir = dir
	links, _ := fsys.(fs.ReadLinkFS)
	if links != nil {
		if _, err := project.ResolveLink(links, dir); err != nil {
			msg := linkProblem(err)
			if !errors.Is(err, project.ErrOutside) && !errors.Is(err, fs.ErrNotExist) {
				msg = "cannot read: " + project.ErrorText(err)
			}
			set.Problems = append(set.Problems, &ParseError{Path: dir, Msg: msg})
			return set, nil
		}
	}
	if _, err := fs.ReadDir(fsys, dir); err != nil {
		return nil, fmt.Errorf("artifact: cannot list %s: %w", dir, err)
	}

	l := lister{fsys: fsys, links: links}
	l.file(dir + "/" + identityFile)
	// Flat folders hold *.md files; Contextia's working folders are
	// searched at any depth for TASK-*.md.
	for _, f := range []string{"work/tasks", "system/specs", "system/rationale", "system/norms"} {
		l.flat(dir + "/" + f)
	}
	for _, f := range []string{"work/active", "work/archive"} {
		l.tree(dir + "/" + f)
	}
	cands := l.cands
	slices.SortFunc(cands, func(a, b candidate) int { return strings.Compare(a.path, b.path) })
	cands = slices.CompactFunc(cands, func(a, b candidate) bool { return a.path == b.path })

	results := readAll(fsys, cands)
	for i, c := range cands {
		r := results[i]
		if r.err != nil {
			set.Problems = append(set.Problems, r.err)
			continue
		}
		a := r.a
		set.List = append(set.List, a)
		if first, ok := set.ByID[a.ID]; ok {
			set.Problems = append(set.Problems, &ParseError{
				Path: c.path, Line: a.Line["id"],
				Msg: fmt.Sprintf("duplicate id %s (also in %s); give one of them another id", a.ID, first.Path),
			})
			continue
		}
		set.ByID[a.ID] = a
	}
	set.Problems = append(set.Problems, l.problems...)
	slices.SortStableFunc(set.Problems, func(a, b *ParseError) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Msg, b.Msg))
	})
	set.Problems = slices.CompactFunc(set.Problems, func(a, b *ParseError) bool { return *a == *b })
	return set, nil
}

// lister collects the candidate files and the problems met while listing.
type lister struct {
	fsys     fs.FS
	links    fs.ReadLinkFS
	cands    []candidate
	problems []*ParseError
}

func (l *lister) problem(p, msg string) {
	l.problems = append(l.problems, &ParseError{Path: p, Msg: msg})
}

// folder checks that the folder p exists and can be entered without
// leaving the project; when it cannot, it records why (unless p simply
// does not exist) and returns false.
func (l *lister) folder(p string) bool {
	real := p
	if l.links != nil {
		r, err := project.ResolveLink(l.links, p)
		if err != nil {
			var le *project.LinkError
			switch {
			case errors.As(err, &le):
				l.problem(le.Link, linkProblem(err))
			case errors.Is(err, fs.ErrNotExist):
				if info, lerr := l.links.Lstat(p); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
					l.problem(p, linkProblem(err))
				}
			default:
				l.problem(p, "cannot read: "+project.ErrorText(err))
			}
			return false
		}
		real = r
	}
	info, err := fs.Stat(l.fsys, real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false
	case err != nil:
		l.problem(p, "cannot read: "+project.ErrorText(err))
		return false
	case !info.IsDir():
		l.problem(p, "not a directory; artifacts go in .md files inside it")
		return false
	}
	return true
}

// file adds the single file p (the identity) if it exists.
func (l *lister) file(p string) {
	if !l.folder(path.Dir(p)) {
		return
	}
	info, err := fs.Lstat(l.fsys, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		l.cands = append(l.cands, candidate{path: p, problem: &ParseError{Path: p, Msg: "cannot read: " + project.ErrorText(err)}})
	default:
		l.add(p, info.Mode().Type())
	}
}

// flat adds the *.md files directly in folder p.
func (l *lister) flat(p string) {
	if !l.folder(p) {
		return
	}
	entries, err := fs.ReadDir(l.fsys, p)
	if err != nil {
		l.problem(p, "cannot list: "+project.ErrorText(err))
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || e.IsDir() {
			continue
		}
		l.add(p+"/"+name, e.Type())
	}
}

// tree adds the TASK-*.md files at any depth in folder p.
func (l *lister) tree(p string) {
	if !l.folder(p) {
		return
	}
	err := fs.WalkDir(l.fsys, p, func(q string, e fs.DirEntry, err error) error {
		if err != nil {
			l.problem(q, "cannot list: "+project.ErrorText(err))
			return nil
		}
		name := e.Name()
		if q != p && strings.HasPrefix(name, ".") {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() || !strings.HasPrefix(name, "TASK-") || !strings.HasSuffix(name, ".md") {
			return nil
		}
		l.add(q, e.Type())
		return nil
	})
	if err != nil {
		l.problem(p, "cannot list: "+project.ErrorText(err))
	}
}

// add adds the file p whose type bits are mode.
func (l *lister) add(p string, mode fs.FileMode) {
	c := candidate{path: p, open: p}
	switch {
	case mode&fs.ModeSymlink != 0:
		if l.links == nil {
			c.problem = &ParseError{Path: p, Msg: linkProblem(errNotSupported)}
			break
		}
		real, err := project.ResolveLink(l.links, p)
		if err != nil {
			c.problem = &ParseError{Path: p, Msg: linkProblem(err)}
			break
		}
		// Check the target's type before opening it: opening a named
		// pipe would block.
		info, err := l.links.Lstat(real)
		switch {
		case err != nil:
			c.problem = &ParseError{Path: p, Msg: "cannot read: " + project.ErrorText(err)}
		case !info.Mode().IsRegular():
			c.problem = &ParseError{Path: p, Msg: "not a regular file"}
		}
		c.open = real
	case !mode.IsRegular():
		c.problem = &ParseError{Path: p, Msg: "not a regular file"}
	}
	l.cands = append(l.cands, c)
}

// result is what reading one candidate gave.
type result struct {
	a   *Artifact
	err *ParseError
}

// readAll reads and parses the candidates in parallel; results[i] belongs
// to cands[i].
func readAll(fsys fs.FS, cands []candidate) []result {
	results := make([]result, len(cands))
	workers := min(runtime.GOMAXPROCS(0), (len(cands)+15)/16)
	if workers <= 1 {
		for i, c := range cands {
			results[i] = readOne(fsys, c)
		}
		return results
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for i, c := range cands {
		g.Go(func() error {
			results[i] = readOne(fsys, c)
			return nil
		})
	}
	g.Wait()
	return results
}

// readOne reads and parses one candidate, never more than MaxBytes+1 bytes
// of it.
func readOne(fsys fs.FS, c candidate) result {
	if c.problem != nil {
		return result{err: c.problem}
	}
	fail := func(msg string) result { return result{err: &ParseError{Path: c.path, Msg: msg}} }
	f, err := fsys.Open(c.open)
	if err != nil {
		return fail("cannot read: " + project.ErrorText(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fail("cannot read: " + project.ErrorText(err))
	}
	if !info.Mode().IsRegular() {
		return fail("not a regular file")
	}
	if info.Size() > MaxBytes {
		return fail(tooLarge(info.Size()))
	}
	data := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > MaxBytes {
			return fail(tooLarge(int64(len(data))) + " (it grew while being read)")
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail("cannot read: " + project.ErrorText(err))
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, min(cap(data), MaxBytes+1-len(data)))
		}
	}
	a, perr := parse(c.path, data)
	if perr != nil {
		return result{err: perr}
	}
	return result{a: a}
}

// linkProblem is the message for an error from project.ResolveLink.
func linkProblem(err error) string {
	switch {
	case errors.Is(err, project.ErrOutside):
		return "symlink leads outside the project; not followed (artifacts must be inside the project)"
	case errors.Is(err, errNotSupported):
		return "symlink not followed: this file system cannot tell where it leads"
	case errors.Is(err, fs.ErrNotExist):
		return "broken symlink; not followed"
	}
	return "cannot follow symlink: " + project.ErrorText(err)
}
