package render

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TreeFile is one entry of a directory tree (Tree): a file, or with
// Lines a span of one, and its size in tokens.
type TreeFile struct {
	Path   string // slash path relative to the project root
	Lines  [2]int // the span, for a part of the file; zero for the whole
	Tokens int
	Rank   int // lower is more relevant: the directories of the least relevant files are folded first
}

// Tree renders files as a directory tree, one line per file ("app.py
// 15,200", or "views.rst:8-15 120" for a span), under a line per
// directory ("src/flask/"), indented two spaces a level; a directory with
// one subdirectory and no files shares its line with it. When that takes
// more than maxLines lines, directories are folded into one line each
// ("docs/ (42 files, 61,200 tokens)", or "parts" when some entries are
// spans), among those with no unfolded
// subdirectory the one whose most relevant file is least relevant first
// (ties: the one that saves the most lines, then by path), until it fits
// or everything is one line. It is a pure function of files,
// whatever their order.
func Tree(files []TreeFile, maxLines int) string {
	return tree(files, maxLines, true)
}

// Structure is Tree without sizes: the names alone ("app.py"), and a
// folded directory's count of files ("docs/ (42 files)"), as the
// directory structure at the top of a pack shows them. Directories are
// folded by the files' Rank as in Tree.
func Structure(files []TreeFile, maxLines int) string {
	return tree(files, maxLines, false)
}

func tree(files []TreeFile, maxLines int, sizes bool) string {
	root := &treeDir{noSizes: !sizes}
	for _, f := range files {
		d := root
		parts := strings.Split(f.Path, "/")
		for _, name := range parts[:len(parts)-1] {
			d = d.child(name)
		}
		d.files = append(d.files, treeEntry{name: parts[len(parts)-1], lines: f.Lines, tokens: f.Tokens, rank: f.Rank})
	}
	root.finish("", true)
	root.unit = "files"
	for _, f := range files {
		if f.Lines[0] > 0 {
			root.unit = "parts" // spans of files: a file may be listed more than once
		}
	}
	for root.lines(true) > max(maxLines, 1) {
		best := root.foldable()
		if best == nil {
			break
		}
		best.folded = true
		best.unit = root.unit
	}
	var s strings.Builder
	if root.folded {
		s.WriteString("./ " + root.summary() + "\n")
		return s.String()
	}
	root.write(&s, "", true)
	return s.String()
}

type treeEntry struct {
	name   string
	lines  [2]int
	tokens int
	rank   int
}

type treeDir struct {
	name   string // as shown: one or more path elements joined by "/"
	path   string // from the root, for ties
	dirs   []*treeDir
	files  []treeEntry
	folded bool
	count  int    // files under it
	tokens int    // their tokens
	best   int    // the least rank under it
	unit   string // what a folded line counts: "files", or "parts" when some are spans
	// noSizes leaves the tokens out (Structure); set on the root.
	noSizes bool
}

func (d *treeDir) child(name string) *treeDir {
	for _, c := range d.dirs {
		if c.name == name {
			return c
		}
	}
	c := &treeDir{name: name, noSizes: d.noSizes}
	d.dirs = append(d.dirs, c)
	return c
}

// finish merges one-subdirectory chains, sorts and totals, below d, in
// the directory parent ("" or ending in "/"); the root has no name.
func (d *treeDir) finish(parent string, root bool) {
	for !root && len(d.dirs) == 1 && len(d.files) == 0 {
		c := d.dirs[0]
		d.name += "/" + c.name
		d.dirs, d.files = c.dirs, c.files
	}
	if !root {
		d.path = parent + d.name + "/"
	}
	slices.SortFunc(d.dirs, func(a, b *treeDir) int { return cmp.Compare(a.name, b.name) })
	slices.SortFunc(d.files, func(a, b treeEntry) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.lines[0], b.lines[0]), cmp.Compare(a.lines[1], b.lines[1]))
	})
	d.best = math.MaxInt
	for _, c := range d.dirs {
		c.finish(d.path, false)
		d.count += c.count
		d.tokens += c.tokens
		d.best = min(d.best, c.best)
	}
	for _, f := range d.files {
		d.count++
		d.tokens += f.tokens
		d.best = min(d.best, f.rank)
	}
}

// lines is how many lines d takes as it stands; the root (top) has no line
// of its own.
func (d *treeDir) lines(top bool) int {
	if d.folded {
		return 1
	}
	n := len(d.files)
	if !top {
		n++
	}
	for _, c := range d.dirs {
		n += c.lines(false)
	}
	return n
}

// foldable returns the unfolded directory with no unfolded subdirectory
// to fold next (see Tree), the root last of all; nil when everything is
// folded.
func (d *treeDir) foldable() *treeDir {
	var best *treeDir
	saves := 0
	var walk func(t *treeDir) bool // reports whether t or anything below it is unfolded
	walk = func(t *treeDir) bool {
		if t.folded {
			return false
		}
		open := false
		for _, c := range t.dirs {
			if walk(c) {
				open = true
			}
		}
		if !open && t != d {
			n := t.lines(false) - 1
			if best == nil || t.best > best.best || t.best == best.best && n > saves {
				best, saves = t, n
			}
		}
		return true
	}
	walk(d)
	if best == nil && !d.folded {
		return d
	}
	return best
}

func (d *treeDir) summary() string {
	if d.noSizes {
		return "(" + count(d.count, strings.TrimSuffix(d.unit, "s"), d.unit) + ")"
	}
	return "(" + count(d.count, strings.TrimSuffix(d.unit, "s"), d.unit) + ", " + count(d.tokens, "token", "tokens") + ")"
}

func (d *treeDir) write(s *strings.Builder, indent string, top bool) {
	inner := indent
	if !top {
		s.WriteString(indent + d.name + "/")
		if d.folded {
			s.WriteString(" " + d.summary() + "\n")
			return
		}
		s.WriteString("\n")
		inner += "  "
	}
	for _, f := range d.files {
		s.WriteString(inner + f.name)
		if f.lines[0] > 0 {
			s.WriteString(":" + strconv.Itoa(f.lines[0]) + "-" + strconv.Itoa(f.lines[1]))
		}
		if !d.noSizes {
			s.WriteString(" " + Thousands(f.tokens))
		}
		s.WriteString("\n")
	}
	for _, c := range d.dirs {
		c.write(s, inner, false)
	}
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Thousands writes n in decimal with a comma between groups of three
// digits: 61200 is "61,200".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
