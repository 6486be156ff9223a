package check

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/project"
	"golang.org/x/sync/errgroup"
)

// Options configure Run.
type Options struct {
	Config Config
	// Walk configures the walk over the project's files, which are read for
	// annotations and matched against paths globs.
	Walk project.WalkOptions
	// Workers is how many goroutines read files; 0 means GOMAXPROCS. The
	// report does not depend on it.
	Workers int
}

// Report is what Run found.
type Report struct {
	// Findings are sorted by path, line, rule and message; rules that are
	// off leave none.
	Findings []Finding
	Counts   Counts
}

// Counts are the artifacts checked, by type.
type Counts struct {
	Specs, Decisions, Norms, Tasks int
}

// Run checks the artifacts in set and the project's files in fsys (rooted
// at the project root) and returns the findings. Files under .ctxpack/ and
// .contextia/, and nested projects (directories with their own), are not
// read for annotations nor matched against paths. It fails only when the
// project cannot be walked or ctx is done.
func Run(ctx context.Context, fsys fs.FS, set *artifact.Set, opt Options) (*Report, error) {
	files, names, err := walk(fsys, opt.Walk)
	if err != nil {
		return nil, err
	}
	anns, err := annotations(ctx, fsys, files, opt.Workers)
	if err != nil {
		return nil, err
	}
	c := &checker{set: set, cfg: opt.Config, names: names}
	c.artifacts()
	c.annotations(anns)
	c.paths()
	c.orphans(anns)

	r := &Report{Findings: c.out}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	SortFindings(r.Findings)
	for _, a := range set.List {
		switch a.Type {
		case artifact.Spec:
			r.Counts.Specs++
		case artifact.Decision:
			r.Counts.Decisions++
		case artifact.Norm:
			r.Counts.Norms++
		case artifact.Task:
			r.Counts.Tasks++
		}
	}
	return r, nil
}

// isArtifactDir reports whether dir names an artifact directory.
func isArtifactDir(dir string) bool {
	return dir == project.DirCtxpack || dir == project.DirContextia
}

// walk lists the project's files outside the artifact directories and
// outside nested projects (directories with their own .ctxpack or
// .contextia, which are checked on their own): the text files to read, and
// the sorted names of every file found, skipped ones (binary, too large)
// included, for paths globs.
func walk(fsys fs.FS, opt project.WalkOptions) ([]string, []string, error) {
	opt.Reverse = false
	found, skipped, err := project.Walk(fsys, nil, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("check: %w", err)
	}
	all := make([]string, 0, len(found)+len(skipped))
	for _, f := range found {
		all = append(all, f.Path)
	}
	for _, s := range skipped {
		all = append(all, s.Path)
	}
	// Every other directory that holds an artifact directory is the root
	// of a nested project.
	nested := make(map[string]bool)
	for _, p := range all {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if isArtifactDir(path.Base(d)) && path.Dir(d) != "." {
				nested[path.Dir(d)] = true
			}
		}
	}
	outside := func(p string) bool {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if nested[d] || isArtifactDir(d) {
				return false
			}
		}
		return true
	}
	var files, names []string
	for _, f := range found {
		if outside(f.Path) {
			files = append(files, f.Path)
		}
	}
	for _, p := range all {
		if outside(p) {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	return files, slices.Compact(names), nil
}

// fileAnnotations are the annotations of one file.
type fileAnnotations struct {
	path string
	anns []Annotation
}

// annotations reads files in parallel and returns their annotations in
// file order. A file that cannot be read is passed over: the walk has just
// seen it, so it went away or changed under us.
func annotations(ctx context.Context, fsys fs.FS, files []string, workers int) ([]fileAnnotations, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([][]Annotation, len(files))
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			text, _, err := project.ReadText(fsys, files[i])
			if err == nil {
				out[i] = ScanAnnotations(files[i], text)
			}
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var res []fileAnnotations
	for i, a := range out {
		if len(a) > 0 {
			res = append(res, fileAnnotations{files[i], a})
		}
	}
	return res, nil
}

// checker collects findings.
type checker struct {
	set   *artifact.Set
	cfg   Config
	names []string // every file outside the artifact directories, sorted
	out   []Finding
}

// add records a finding unless its rule is off. A line below 1 becomes 1.
func (c *checker) add(rule, p string, line int, id, format string, args ...any) {
	sev := c.cfg.Severity(rule)
	if sev == Off {
		return
	}
	c.out = append(c.out, Finding{Rule: rule, Severity: sev, Path: p, Line: max(line, 1), Message: fmt.Sprintf(format, args...), ID: id})
}

// lineOf returns the line of the first of keys a has, or 1.
func lineOf(a *artifact.Artifact, keys ...string) int {
	for _, k := range keys {
		if n := a.Line[k]; n > 0 {
			return n
		}
	}
	return 1
}

// name is how a message names an artifact: its id, or "this <type>".
func name(a *artifact.Artifact) string {
	switch {
	case a.ID != "":
		return a.ID
	case a.Type != "":
		return "this " + string(a.Type)
	}
	return "this artifact"
}

// artifacts checks each artifact on its own and its links.
func (c *checker) artifacts() {
	readable := make(map[string]bool, len(c.set.List))
	first := make(map[string]*artifact.Artifact, len(c.set.List))
	for _, a := range c.set.List {
		readable[a.Path] = true
		if a.ID == "" {
			continue
		}
		if f, ok := first[a.ID]; ok {
			c.add(DuplicateID, a.Path, lineOf(a, "id"), a.ID, "%s is already defined in %s", a.ID, f.Path)
			continue
		}
		first[a.ID] = a
	}
	for _, p := range c.set.Problems {
		if readable[p.Path] {
			continue // an id another file claims too: duplicate-id has it
		}
		c.add(MalformedFrontmatter, p.Path, p.Line, "", "%s", p.Msg)
	}
	for _, a := range c.set.List {
		c.required(a)
		if a.Status != "" && !artifact.KnownStatus(a.Status) {
			c.add(UnknownStatus, a.Path, lineOf(a, "status"), a.ID, "%s has status %q; statuses are draft, current, in_progress, done, deprecated, superseded", name(a), a.Status)
		}
		c.links(a)
	}
}

// required reports the fields a's type requires that it lacks, at the
// field's line when it is there but empty, else at the top of the file.
func (c *checker) required(a *artifact.Artifact) {
	for _, f := range c.cfg.Required(a.Type) {
		if !hasField(a, f) {
			c.add(MissingRequiredField, a.Path, lineOf(a, f), a.ID, "%s has no %s (required for %ss)", name(a), f, a.Type)
		}
	}
}

// hasField reports whether a has field f with a value.
func hasField(a *artifact.Artifact, f string) bool {
	switch f {
	case "id":
		return a.ID != ""
	case "type":
		return a.Line["type"] > 0
	case "title":
		return a.Title != ""
	case "status":
		return a.Status != ""
	case "superseded_by":
		return a.SupersededBy != ""
	case "paths":
		return len(a.Paths) > 0
	case "links":
		l := a.Links
		return len(l.Specs)+len(l.Decisions)+len(l.Norms)+len(l.Tasks) > 0
	case "links.specs":
		return len(a.Links.Specs) > 0
	case "links.decisions":
		return len(a.Links.Decisions) > 0
	case "links.norms":
		return len(a.Links.Norms) > 0
	case "links.tasks":
		return len(a.Links.Tasks) > 0
	}
	for _, e := range a.Extra {
		if e.Key == f {
			return e.Value != ""
		}
	}
	return false
}

// historical reports whether a is past: its own links to superseded or
// deprecated artifacts are history, not problems.
func historical(a *artifact.Artifact) bool {
	switch a.Status {
	case artifact.Deprecated, artifact.Superseded, artifact.Done, "completed":
		return true
	}
	return false
}

// links checks a's links and superseded_by.
func (c *checker) links(a *artifact.Artifact) {
	for _, kind := range []struct {
		key string
		ids []string
	}{{"specs", a.Links.Specs}, {"decisions", a.Links.Decisions}, {"norms", a.Links.Norms}, {"tasks", a.Links.Tasks}} {
		for _, id := range kind.ids {
			line := lineOf(a, "links."+kind.key+"["+id+"]", "links."+kind.key, "links")
			t, ok := c.set.ByID[id]
			switch {
			case !ok:
				c.add(BrokenLink, a.Path, line, a.ID, "%s links to %s, which does not exist", name(a), id)
			case historical(a) || id == a.ID:
			case t.Status == artifact.Superseded:
				c.add(SupersededLink, a.Path, line, a.ID, "%s links to %s, which is %s", name(a), id, supersededBy(t))
			case t.Status == artifact.Deprecated:
				c.add(DeprecatedLink, a.Path, line, a.ID, "%s links to %s, which is deprecated", name(a), id)
			}
		}
	}
	if s := a.SupersededBy; s != "" {
		if _, ok := c.set.ByID[s]; !ok {
			c.add(BrokenLink, a.Path, lineOf(a, "superseded_by"), a.ID, "%s is superseded by %s, which does not exist", name(a), s)
		}
	}
}

// supersededBy says what replaced a superseded artifact.
func supersededBy(t *artifact.Artifact) string {
	if t.SupersededBy == "" {
		return "superseded (and names no superseded_by)"
	}
	return "superseded by " + t.SupersededBy
}

// annotations checks every annotation in code against its artifact.
func (c *checker) annotations(files []fileAnnotations) {
	for _, f := range files {
		for _, an := range f.anns {
			tag := "@" + an.Kind + " " + an.ID
			t, ok := c.set.ByID[an.ID]
			switch {
			case !ok:
				c.add(BrokenRef, f.path, an.Line, an.ID, "%s, which does not exist", tag)
			case string(t.Type) != an.Kind:
				c.add(BrokenRef, f.path, an.Line, an.ID, "%s, but %s is a %s", tag, an.ID, t.Type)
			case t.Status == artifact.Superseded:
				c.add(SupersededLink, f.path, an.Line, an.ID, "%s, which is %s", tag, supersededBy(t))
			case t.Status == artifact.Deprecated:
				c.add(DeprecatedLink, f.path, an.Line, an.ID, "%s, which is deprecated", tag)
			case t.Type == artifact.Spec && len(t.Paths) == 0:
				c.add(BrokenRef, f.path, an.Line, an.ID, "%s, but %s lists no paths", tag, an.ID)
			case len(t.Paths) > 0 && !governs(t.Paths, f.path):
				c.add(BrokenRef, f.path, an.Line, an.ID, "%s, but %s does not list this path", tag, an.ID)
			}
		}
	}
}

// paths reports paths globs that match no file.
func (c *checker) paths() {
	for _, a := range c.set.List {
		for _, g := range a.Paths {
			if !c.anyFile(g) {
				c.add(BrokenPath, a.Path, lineOf(a, "paths["+g+"]", "paths"), a.ID, "%s paths: %s matches no file", name(a), g)
			}
		}
	}
}

// anyFile reports whether glob g matches any file of the project: only the
// files that begin with its literal prefix need matching.
func (c *checker) anyFile(g string) bool {
	prefix := artifact.GlobPrefix(g) // artifact globs are clean (artifact.CleanGlob)
	i := sort.SearchStrings(c.names, prefix)
	for ; i < len(c.names) && strings.HasPrefix(c.names[i], prefix); i++ {
		if artifact.Governs(g, c.names[i]) {
			return true
		}
	}
	return false
}

// orphans reports specs that nothing links to and no annotation names.
// Superseded and deprecated specs are expected to be left alone.
func (c *checker) orphans(files []fileAnnotations) {
	named := make(map[string]bool)
	for _, a := range c.set.List {
		l := a.Links
		for _, ids := range [][]string{l.Specs, l.Decisions, l.Norms, l.Tasks, {a.SupersededBy}} {
			for _, id := range ids {
				if id != a.ID {
					named[id] = true
				}
			}
		}
	}
	for _, f := range files {
		for _, an := range f.anns {
			named[an.ID] = true
		}
	}
	for _, a := range c.set.List {
		if a.Type != artifact.Spec || a.ID == "" || named[a.ID] || a.Status == artifact.Superseded || a.Status == artifact.Deprecated {
			continue
		}
		if c.set.ByID[a.ID] != a {
			continue // a duplicate: duplicate-id has it
		}
		c.add(OrphanSpec, a.Path, lineOf(a, "id"), a.ID, "%s is linked from no task or other artifact, and no code has @spec %s", a.ID, a.ID)
	}
}

// governs reports whether one of globs matches the file p.
func governs(globs []string, p string) bool {
	for _, g := range globs {
		if artifact.Governs(g, p) {
			return true
		}
	}
	return false
}
