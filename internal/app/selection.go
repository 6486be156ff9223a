package app

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
)

// A pack's selection (docs/selection.md): what its paths, globs and file
// list choose among the project's files, decided here for every front end.
//
//   - A path names a file or a directory, relative to the working
//     directory (Project.Dir). A path with a glob character ("*", "?",
//     "[") that names no file is a glob.
//   - A glob (a path, Request.Include, Request.Exclude) has .gitignore's
//     semantics (project.Glob), relative to the working directory. Include
//     and exclude entries may each hold several globs separated by commas;
//     braces expand ("*.{ts,tsx}").
//   - Request.Files is a list of files (and directories), relative to the
//     working directory, one per entry; the entry's number is its line.
//   - The files packed are those under the paths and the list's entries,
//     or matched by a path glob (the whole project when there is none of
//     these), that match an include glob when there are any, and match no
//     exclude glob. Ignore files still apply, except to a file named.
//   - Lock files and generated files are left out with their reasons
//     unless Request.IncludeGenerated, the configuration's
//     walk.include_generated, or they are named: by a path, or by a glob
//     (a path or an include) whose last element holds no glob character
//     ("uv.lock", "**/go.sum"). A file list does not name its files for
//     this: `git ls-files | ctxpack pack --files-from -` leaves go.sum out.
//   - A path or include glob that matches no file is an error naming it,
//     and so is a list entry that names no file or leaves the root.
type selection struct {
	roots []string // walk roots: slash paths, sorted, distinct
	// literal are the roots named by paths and the list, under which
	// every file is in (when globs are also given).
	literal      []string
	globs        []*selGlob // path globs
	include      []*selGlob
	exclude      []project.Glob
	literalPaths []string // the roots the paths name (not the list's), sorted
	listed       int      // the list's entries, distinct
	// named are the files kept even when generated: files named by a
	// path (not a list), and those the naming globs match.
	named  map[string]bool
	naming []project.Glob // globs whose last element is literal
}

// selGlob is a glob that must match a file, it or another expansion of
// the same entry: hit is shared among them.
type selGlob struct {
	g   project.Glob
	hit *entryHit
}

// entryHit is a glob entry as the user gave it, and whether any of its
// expansions matched a file that is not excluded.
type entryHit struct {
	src     string
	matched bool
}

// globEntry is one glob as given (src), and its brace expansions.
type globEntry struct {
	src  string
	alts []string
}

// SplitFileList splits the text of a file list (ctxpack pack
// --files-from) into its entries: lines, without a trailing carriage
// return, or with nul, NUL-separated entries (git ls-files -z). Entry i
// is line i+1; blank entries stay, so that numbers stay lines, and
// selection skips them.
func SplitFileList(data []byte, nul bool) []string {
	sep := []byte("\n")
	if nul {
		sep = []byte{0}
	}
	data = bytes.TrimSuffix(data, sep)
	if len(data) == 0 {
		return nil
	}
	parts := bytes.Split(data, sep)
	out := make([]string, len(parts))
	for i, p := range parts {
		if !nul {
			p = bytes.TrimSuffix(p, []byte("\r"))
		}
		out[i] = string(p)
	}
	return out
}

// splitGlobs splits include or exclude entries at the commas outside
// braces and expands the braces of each.
func splitGlobs(entries []string) []globEntry {
	var out []globEntry
	for _, e := range entries {
		depth, start := 0, 0
		for i := 0; i <= len(e); i++ {
			if i < len(e) {
				switch e[i] {
				case '\\':
					i++
					continue
				case '{':
					depth++
					continue
				case '}':
					if depth > 0 {
						depth--
					}
					continue
				case ',':
					if depth > 0 {
						continue
					}
				default:
					continue
				}
			}
			if s := strings.TrimSpace(e[start:min(i, len(e))]); s != "" {
				out = append(out, globEntry{src: s, alts: expandBraces(s)})
			}
			start = i + 1
		}
	}
	return out
}

// expandBraces expands the first "{a,b}" group of s, recursively; a
// brace without a matching one or a comma is kept as it is.
func expandBraces(s string) []string {
	open := -1
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			inner := s[open+1 : i]
			alts := splitTop(inner)
			if len(alts) < 2 {
				rest := expandBraces(s[i+1:])
				out := make([]string, len(rest))
				for j, r := range rest {
					out[j] = s[:i+1] + r
				}
				return out
			}
			var out []string
			for _, a := range alts {
				out = append(out, expandBraces(s[:open]+a+s[i+1:])...)
			}
			return out
		}
	}
	return []string{s}
}

// splitTop splits s at the commas outside braces.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// cwdRel is the working directory relative to the root, a slash path.
func (p *Project) cwdRel() (string, error) {
	return project.Resolve(p.Root, p.Dir, ".")
}

// parseGlob parses a glob given relative to the working directory,
// absolute ones (inside the root) included.
func (p *Project) parseGlob(src, cwd string) (project.Glob, error) {
	pat := filepath.ToSlash(src)
	if filepath.IsAbs(src) {
		// Anchored at its directory, which must be inside the root.
		lit, rest := splitGlobLiteral(src)
		rel, err := project.Resolve(p.Root, p.Dir, lit)
		if err != nil {
			return project.Glob{}, &PathError{Path: src, Err: err}
		}
		switch {
		case rest != "":
			pat, cwd = "./"+rest, rel
		case rel == ".":
			pat, cwd = "**", "." // the root itself: everything
		default:
			pat, cwd = "./"+path.Base(rel), path.Dir(rel)
		}
	}
	g, err := project.ParseGlob(src, pat, cwd)
	if err != nil {
		return g, &PathError{Path: src, Err: err}
	}
	return g, nil
}

// splitGlobLiteral splits an OS path at its first element with a glob
// character: the directory before it and the slash rest.
func splitGlobLiteral(s string) (string, string) {
	elems := strings.Split(filepath.ToSlash(s), "/")
	for i, e := range elems {
		if project.HasGlobMeta(e) {
			return filepath.FromSlash(strings.Join(elems[:i], "/") + "/"), strings.Join(elems[i:], "/")
		}
	}
	return s, ""
}

// namesFile reports whether a glob names files by their name: its last
// element holds no glob character.
func namesFile(src string) bool {
	s := strings.TrimSuffix(filepath.ToSlash(src), "/")
	return !project.HasGlobMeta(s[strings.LastIndexByte(s, '/')+1:])
}

// selection resolves a pack request's paths, globs and file list.
func (p *Project) selection(req Request) (*selection, error) {
	s := &selection{named: map[string]bool{}}
	cwd, err := p.cwdRel()
	if err != nil {
		return nil, err
	}
	for _, a := range req.Paths {
		r, err := project.Resolve(p.Root, p.Dir, a)
		if err == nil {
			_, err = fs.Lstat(p.FS, r)
		}
		if err != nil {
			if project.HasGlobMeta(a) {
				gs, err := p.parseEntry(globEntry{src: a, alts: expandBraces(a)}, cwd, s)
				if err != nil {
					return nil, err
				}
				s.globs = append(s.globs, gs...)
				continue
			}
			return nil, &PathError{Path: a, Err: err}
		}
		s.literal = append(s.literal, r)
		s.literalPaths = append(s.literalPaths, r)
		s.named[r] = true
	}
	slices.Sort(s.literalPaths)
	s.literalPaths = slices.Compact(s.literalPaths)
	if err := p.listed(req, s); err != nil {
		return nil, err
	}
	for _, e := range splitGlobs(req.Include) {
		gs, err := p.parseEntry(e, cwd, s)
		if err != nil {
			return nil, err
		}
		s.include = append(s.include, gs...)
	}
	for _, e := range splitGlobs(req.Exclude) {
		for _, alt := range e.alts {
			g, err := p.parseGlob(alt, cwd)
			if err != nil {
				return nil, err
			}
			s.exclude = append(s.exclude, g)
		}
	}
	s.roots = slices.Clone(s.literal)
	for _, g := range s.globs {
		// Nothing is under a folder that does not exist; check says so
		// when no expansion of the entry matches.
		if base := g.g.Base(); fileExists(p.FS, base) {
			s.roots = append(s.roots, base)
		}
	}
	if len(s.roots) == 0 && len(s.globs) > 0 {
		return nil, noMatch(s.globs[0].hit.src)
	}
	if len(s.roots) == 0 {
		s.roots = []string{"."}
	}
	slices.Sort(s.roots)
	s.roots = slices.Compact(s.roots)
	slices.Sort(s.literal)
	s.literal = slices.Compact(s.literal)
	return s, nil
}

// parseEntry parses each expansion of a glob entry, relative to cwd,
// sharing one hit, and adds those that name files to s.naming.
func (p *Project) parseEntry(e globEntry, cwd string, s *selection) ([]*selGlob, error) {
	hit := &entryHit{src: e.src}
	out := make([]*selGlob, 0, len(e.alts))
	for _, alt := range e.alts {
		g, err := p.parseGlob(alt, cwd)
		if err != nil {
			return nil, err
		}
		out = append(out, &selGlob{g: g, hit: hit})
		if namesFile(alt) {
			s.naming = append(s.naming, g)
		}
	}
	return out, nil
}

// fileExists reports whether the slash path p exists in fsys.
func fileExists(fsys fs.FS, p string) bool {
	_, err := fs.Stat(fsys, p)
	return err == nil
}

// listed adds the entries of req.Files to s: each a file or directory
// under the root, relative to the working directory; blank entries are
// skipped and duplicates folded.
func (p *Project) listed(req Request, s *selection) error {
	from := req.FilesFrom
	if from == "" {
		from = "the file list"
	}
	n := 0
	seen := map[string]bool{}
	defer func() { s.listed = len(seen) }()
	for i, e := range req.Files {
		if strings.TrimSpace(e) == "" {
			continue
		}
		n++
		r, err := project.Resolve(p.Root, p.Dir, e)
		if err == nil {
			_, err = fs.Lstat(p.FS, r)
		}
		if err != nil {
			return &PathError{Path: e, Err: &ListError{From: from, Line: i + 1, Path: e, Err: err}}
		}
		seen[r] = true
		s.literal = append(s.literal, r)
	}
	if len(req.Files) > 0 && n == 0 {
		return &PathError{Path: from, Err: fmt.Errorf("ctxpack: %s: the file list names no file (only blank lines)", from)}
	}
	return nil
}

// ListError is an entry of a file list that is not a file of the
// project, with its line.
type ListError struct {
	From string // where the list came from: a file name, or "standard input"
	Line int
	Path string
	Err  error
}

func (e *ListError) Error() string {
	why := Message(e.Err)
	if errors.Is(e.Err, fs.ErrNotExist) {
		why = "no such file or directory (list entries are relative to the working directory)"
	} else {
		why = strings.TrimPrefix(why, e.Path+": ")
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.From, e.Line, ShowPath(e.Path), why)
}

// noMatch is the error of a glob entry that matches no file.
func noMatch(src string) error {
	return &PathError{Path: src, Err: fmt.Errorf("ctxpack: %s: the glob matches no file (globs are relative to the working directory, with .gitignore's rules: \"*\" stays in one folder, \"**\" crosses folders; ignored and excluded files are not matched)", src)}
}

// walkSelect is the walk's Select for s, nil when s selects every file
// under its roots. It marks the globs that match.
func (s *selection) walkSelect() func(string) bool {
	if len(s.globs) == 0 && len(s.include) == 0 && len(s.exclude) == 0 {
		return nil
	}
	return func(path string) bool {
		for _, g := range s.exclude {
			if g.Match(path) {
				return false
			}
		}
		in := len(s.globs) == 0 || under(s.literal, path)
		for _, g := range s.globs {
			if g.g.Match(path) {
				g.hit.matched, in = true, true
			}
		}
		if !in {
			return false
		}
		if len(s.include) > 0 {
			any := false
			for _, g := range s.include {
				if g.g.Match(path) {
					g.hit.matched, any = true, true
				}
			}
			if !any {
				return false
			}
		}
		return true
	}
}

// target names what s selects, for the plan's target: the paths' roots
// (roots, as the collector joined them) when nothing else selects;
// otherwise the paths, the path globs (relative to the root), the list's
// size and the include and exclude globs.
func (s *selection) target(roots string) string {
	if len(s.globs) == 0 && len(s.include) == 0 && len(s.exclude) == 0 && s.listed == 0 {
		return roots
	}
	out := slices.Clone(s.literalPaths)
	for _, g := range s.globs {
		out = append(out, g.g.Pattern())
	}
	if s.listed > 0 {
		out = append(out, fmt.Sprintf("(%d listed %s)", s.listed, plural(s.listed, "path", "paths")))
	}
	if len(out) == 0 {
		out = append(out, ".")
	}
	for _, g := range s.include {
		out = append(out, "--include "+g.g.Pattern())
	}
	for _, g := range s.exclude {
		out = append(out, "--exclude "+g.Pattern())
	}
	return strings.Join(out, " ")
}

// walkPrune is the walk's Prune for s: the directories an exclude glob
// matches, nil when there is none.
func (s *selection) walkPrune() func(string) bool {
	if len(s.exclude) == 0 {
		return nil
	}
	return func(dir string) bool {
		for _, g := range s.exclude {
			if g.MatchDir(dir) {
				return true
			}
		}
		return false
	}
}

// keepGenerated is the walk's KeepGenerated for s: the files named by a
// path or matched by a naming glob, or every file with all.
func (s *selection) keepGenerated(all bool) func(string) bool {
	if all {
		return func(string) bool { return true }
	}
	return func(path string) bool {
		if s.named[path] {
			return true
		}
		for _, g := range s.naming {
			if g.Match(path) {
				return true
			}
		}
		return false
	}
}

// check fails, after the walk, on the first glob that matched no file.
func (s *selection) check() error {
	for _, g := range append(slices.Clone(s.globs), s.include...) {
		if !g.hit.matched {
			return noMatch(g.hit.src)
		}
	}
	return nil
}

// under reports whether path is one of roots or below one.
func under(roots []string, path string) bool {
	for _, r := range roots {
		if r == "." || path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}
