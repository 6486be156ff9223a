package evidence

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
)

// Role is what a workspace file is to the model (the mdctx seed's
// Anthropic-style roles).
type Role string

// The roles, in assembly order.
const (
	System   Role = "system"   // constraints, policies, output contracts
	User     Role = "user"     // the request
	Evidence Role = "evidence" // code, documentation, relevant files
)

// Roles lists the roles in assembly order.
func Roles() []Role { return []Role{System, User, Evidence} }

// ParseRole parses a role name.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles() {
		if s == string(r) {
			return r, nil
		}
	}
	return "", fmt.Errorf("evidence: unknown role %q (valid: system, user, evidence)", s)
}

func (r Role) order() int { return slices.Index(Roles(), r) }

// State is whether a workspace file takes part in assembly.
type State string

// The states, by file name ending.
const (
	Active  State = "active"  // <name>.md: assembled
	Skipped State = "skipped" // <name>.md.skip: left out
	Linked  State = "linked"  // <name>.link: a symlink to a project file, or a file holding a selector; read afresh at each assembly, always active
)

// The ranks: three digits. Ranks below EvidenceRank are the seed's system
// messages band (000-099); evidence starts at EvidenceRank.
const (
	MaxRank      = 999
	EvidenceRank = 100
	rankStep     = 10
)

// EvidenceDir is the folder of a workspace that holds evidence files;
// system and user files are kept at its top.
const EvidenceDir = "evidence"

// FocusFile records the files focus turned off, so that focus off turns
// back on exactly those.
const FocusFile = ".focus"

// maxKind is the longest kind a file name may have.
const maxKind = 64

// Entry is one file of a workspace.
type Entry struct {
	Rank  int
	Kind  string
	Role  Role
	State State
	Rel   string // slash path relative to the workspace folder: "evidence/100_flow_sh.evidence.md"
}

// ID is the entry's name without role and state: "100_flow_sh".
func (e Entry) ID() string { return RankString(e.Rank) + "_" + e.Kind }

// Name is the entry's file name.
func (e Entry) Name() string { return path.Base(e.Rel) }

// RankString is a rank as file names show it: three digits.
func RankString(rank int) string { return fmt.Sprintf("%03d", rank) }

// FileName is the name of a file with the given rank, kind, role and state.
func FileName(rank int, kind string, role Role, state State) string {
	name := RankString(rank) + "_" + kind + "." + string(role)
	switch state {
	case Skipped:
		return name + ".md.skip"
	case Linked:
		return name + ".link"
	}
	return name + ".md"
}

// ParseName parses a workspace file name, <rank>_<kind>.<role>.md with an
// optional .skip, or <rank>_<kind>.<role>.link. The rank is three digits;
// the kind is 1 to 64 of A-Z a-z 0-9 _ -.
func ParseName(name string) (Entry, bool) {
	var state State
	rest := name
	switch {
	case strings.HasSuffix(rest, ".md.skip"):
		state, rest = Skipped, strings.TrimSuffix(rest, ".md.skip")
	case strings.HasSuffix(rest, ".md"):
		state, rest = Active, strings.TrimSuffix(rest, ".md")
	case strings.HasSuffix(rest, ".link"):
		state, rest = Linked, strings.TrimSuffix(rest, ".link")
	default:
		return Entry{}, false
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot < 0 {
		return Entry{}, false
	}
	role, err := ParseRole(rest[dot+1:])
	if err != nil {
		return Entry{}, false
	}
	rest = rest[:dot]
	if len(rest) < 5 || rest[3] != '_' {
		return Entry{}, false
	}
	rank, ok := parseRank(rest[:3])
	if !ok {
		return Entry{}, false
	}
	kind := rest[4:]
	if !ValidKind(kind) {
		return Entry{}, false
	}
	return Entry{Rank: rank, Kind: kind, Role: role, State: state, Rel: name}, true
}

// parseRank parses one to three decimal digits.
func parseRank(s string) (int, bool) {
	if s == "" || len(s) > 3 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// ParseRank parses a rank as commands take it: 0 to 999, with or without
// leading zeros.
func ParseRank(s string) (int, error) {
	n, ok := parseRank(s)
	if !ok {
		return 0, fmt.Errorf("evidence: rank %q is not a number from 0 to %d", s, MaxRank)
	}
	return n, nil
}

// ValidKind reports whether s can be a kind: 1 to 64 of A-Z a-z 0-9 _ -.
func ValidKind(s string) bool {
	if s == "" || len(s) > maxKind {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// KindOf is the kind a file's evidence gets by default: its base name,
// lower-cased, with every run of other characters than a-z and 0-9 made
// one "_" ("core/flow.sh" → "flow_sh").
func KindOf(p string) string {
	var b strings.Builder
	under := false
	for _, c := range strings.ToLower(path.Base(p)) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(c)
			if b.Len() >= maxKind-1 {
				break
			}
			continue
		}
		under = true
	}
	if b.Len() == 0 {
		return "evidence"
	}
	return b.String()
}

// Workspace is a ctx/ folder.
type Workspace struct {
	Root  string // absolute project root: links may not lead out of it
	Dir   string // absolute path of the folder
	Shown string // the folder as people see it: slash path relative to the project root ("ctx")

	// renameFile, when set, renames files for Rebase and Recover instead
	// of os.Rename: a test's way to stop a rebase half way.
	renameFile func(from, to string) error
}

// renameOS renames the file at the OS path from to to.
func (w *Workspace) renameOS(from, to string) error {
	if w.renameFile != nil {
		return w.renameFile(from, to)
	}
	return os.Rename(from, to)
}

// abs is the absolute path of a slash path relative to the folder.
func (w *Workspace) abs(rel string) string { return filepath.Join(w.Dir, filepath.FromSlash(rel)) }

// ShownPath is where an entry is, as people see it: "ctx/evidence/100_flow_sh.evidence.md".
func (w *Workspace) ShownPath(e Entry) string { return path.Join(w.Shown, e.Rel) }

// Exists reports whether the folder exists.
func (w *Workspace) Exists() bool {
	info, err := os.Stat(w.Dir)
	return err == nil && info.IsDir()
}

// List returns the workspace's files in assembly order (role, rank, kind,
// path), from its top and its evidence folder, and a warning for every
// other file there. Names starting with "." are not listed. A workspace
// that an interrupted rebase left with files under temporary names is an
// *InterruptedError, which names them: what is assembled from a list
// without them would silently lack them.
func (w *Workspace) List() ([]Entry, []string, error) {
	if err := w.checkOwn(); err != nil {
		return nil, nil, err
	}
	left, err := w.leftovers()
	if err != nil {
		return nil, nil, err
	}
	if len(left) > 0 {
		return nil, nil, &InterruptedError{Shown: w.Shown, Files: left}
	}
	var entries []Entry
	var warnings []string
	for _, sub := range []string{"", EvidenceDir} {
		des, err := os.ReadDir(w.abs(sub))
		if errors.Is(err, fs.ErrNotExist) {
			if sub == "" {
				return nil, nil, fmt.Errorf("evidence: %s: no such workspace (adding a file creates it): %w", w.Shown, fs.ErrNotExist)
			}
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("evidence: %w", err)
		}
		for _, de := range des {
			name := de.Name()
			rel := path.Join(sub, name)
			if strings.HasPrefix(name, ".") || sub == "" && name == EvidenceDir && de.IsDir() {
				continue
			}
			e, ok := ParseName(name)
			switch {
			case de.IsDir():
				warnings = append(warnings, fmt.Sprintf("%s: a folder in the workspace; ignored (only %s/ holds files)", path.Join(w.Shown, rel), EvidenceDir))
				continue
			case !ok:
				warnings = append(warnings, fmt.Sprintf("%s: not a workspace file name (<rank>_<kind>.<role>.md, .md.skip or .link, with a 3-digit rank and role system, user or evidence); ignored", path.Join(w.Shown, rel)))
				continue
			}
			if de.Type()&fs.ModeSymlink != 0 && e.State != Linked {
				warnings = append(warnings, fmt.Sprintf("%s: a symlink that is not a .link file; ignored (name it %s)", path.Join(w.Shown, rel), FileName(e.Rank, e.Kind, e.Role, Linked)))
				continue
			}
			e.Rel = rel
			entries = append(entries, e)
		}
	}
	SortEntries(entries)
	return entries, warnings, nil
}

// SortEntries puts entries in assembly order: role, rank, kind, path.
func SortEntries(entries []Entry) {
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(
			cmp.Compare(a.Role.order(), b.Role.order()),
			cmp.Compare(a.Rank, b.Rank),
			strings.Compare(a.Kind, b.Kind),
			strings.Compare(a.Rel, b.Rel),
		)
	})
}

// Find returns the entry id names: a file name, a path relative to the
// folder, an id ("100_flow_sh") or a rank ("100") that one entry has.
func Find(entries []Entry, id string) (Entry, error) {
	var found []Entry
	for _, e := range entries {
		if id == e.Rel || id == e.Name() || id == e.ID() {
			found = append(found, e)
		}
	}
	if len(found) == 0 {
		if r, ok := parseRank(id); ok {
			for _, e := range entries {
				if e.Rank == r {
					found = append(found, e)
				}
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		msg := fmt.Sprintf("evidence: no workspace file %q", id)
		ids := make([]string, len(entries))
		for i, e := range entries {
			ids[i] = e.ID()
		}
		if s := project.Suggest(id, ids); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		} else if len(ids) > 0 {
			msg += " (the workspace's status lists them)"
		}
		return Entry{}, errors.New(msg)
	}
	names := make([]string, len(found))
	for i, e := range found {
		names[i] = e.Rel
	}
	return Entry{}, fmt.Errorf("evidence: %q names %d files: %s; give the file name", id, len(found), strings.Join(names, ", "))
}

// NextRank is the rank a new file of role gets: ten past the highest
// rank of its band (000-099 for system and user, 100-999 for evidence),
// or the lowest free rank of the band when that is past its end.
func NextRank(entries []Entry, role Role) (int, error) {
	lo, hi := EvidenceRank, MaxRank
	if role != Evidence {
		lo, hi = 0, EvidenceRank-1
	}
	taken := map[int]bool{}
	top := -1
	for _, e := range entries {
		if e.Rank >= lo && e.Rank <= hi {
			taken[e.Rank] = true
			top = max(top, e.Rank)
		}
	}
	if top < 0 {
		return lo, nil
	}
	if next := (top/rankStep + 1) * rankStep; next <= hi {
		return next, nil
	}
	for r := lo; r <= hi; r++ {
		if !taken[r] {
			return r, nil
		}
	}
	return 0, fmt.Errorf("evidence: every rank from %s to %s is taken", RankString(lo), RankString(hi))
}

// rankOwner is the entry other than self that has rank, if any.
func rankOwner(entries []Entry, rank int, self string) (Entry, bool) {
	for _, e := range entries {
		if e.Rank == rank && e.Rel != self {
			return e, true
		}
	}
	return Entry{}, false
}

// Write creates a file of the workspace (the folder too, when missing):
// in the evidence folder for evidence, at the top for system and user.
// It fails when the rank is taken, and never replaces a file.
func (w *Workspace) Write(entries []Entry, e Entry, data []byte) (Entry, error) {
	if e.Rank < 0 || e.Rank > MaxRank {
		return Entry{}, fmt.Errorf("evidence: rank %d is not from 0 to %d", e.Rank, MaxRank)
	}
	if !ValidKind(e.Kind) {
		return Entry{}, fmt.Errorf("evidence: kind %q is not 1 to %d of A-Z a-z 0-9 _ -", e.Kind, maxKind)
	}
	if o, ok := rankOwner(entries, e.Rank, ""); ok {
		return Entry{}, &RankTakenError{Rank: e.Rank, By: o.Rel}
	}
	dir := ""
	if e.Role == Evidence {
		dir = EvidenceDir
	}
	if err := w.checkOwn(); err != nil {
		return Entry{}, err
	}
	e.Rel = path.Join(dir, FileName(e.Rank, e.Kind, e.Role, e.State))
	if err := os.MkdirAll(w.abs(dir), 0o755); err != nil {
		return Entry{}, fmt.Errorf("evidence: %w", err)
	}
	if err := KeepOutOfIndex(w.Dir, WorkspacePatterns); err != nil {
		return Entry{}, err
	}
	f, err := os.OpenFile(w.abs(e.Rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return Entry{}, fmt.Errorf("evidence: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(w.abs(e.Rel))
		return Entry{}, fmt.Errorf("evidence: write %s: %w", w.ShownPath(e), err)
	}
	if err := f.Close(); err != nil {
		os.Remove(w.abs(e.Rel))
		return Entry{}, fmt.Errorf("evidence: write %s: %w", w.ShownPath(e), err)
	}
	return e, nil
}

// RankTakenError is a rank asked for that another file has. Front ends
// add their own advice (another rank, a rebase).
type RankTakenError struct {
	Rank int
	By   string // the file that has it, relative to the workspace
}

func (e *RankTakenError) Error() string {
	return fmt.Sprintf("evidence: rank %s is taken by %s", RankString(e.Rank), e.By)
}

// LinkActiveError is a link asked to be turned off: links are always
// active. Front ends say how to remove it.
type LinkActiveError struct {
	Path string // relative to the project root
	ID   string
}

func (e *LinkActiveError) Error() string {
	return fmt.Sprintf("evidence: %s is a link, which is always active", e.Path)
}

// IgnoreFile is the ignore file KeepOutOfIndex writes: the project walk
// honours it in every folder.
const IgnoreFile = ".ctxpackignore"

// ignoreMarker starts the block KeepOutOfIndex writes.
const ignoreMarker = "# ctxpack evidence:"

// The patterns that keep a workspace's files, and what assemble writes,
// out of the walk: only those names, so that a workspace or build folder
// that holds other files too hides nothing else.
var (
	WorkspacePatterns = []string{"/" + EvidenceDir + "/", "/[0-9][0-9][0-9]_*.md", "/[0-9][0-9][0-9]_*.md.skip", "/[0-9][0-9][0-9]_*.link", "/" + FocusFile}
	BuildPatterns     = []string{"/prompt.mdctx", "/ctxplan.json"}
)

// KeepOutOfIndex makes the ignore file of dir hold patterns, appending a
// block of those it lacks: a workspace and its
// build folder hold copies of project text, which the index, retrieval and
// pack would otherwise find twice. It never removes a line.
func KeepOutOfIndex(dir string, patterns []string) error {
	p := filepath.Join(dir, IgnoreFile)
	if info, err := os.Lstat(p); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("evidence: %s is not a regular file", p)
	}
	old, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("evidence: %w", err)
	}
	have := map[string]bool{}
	for line := range strings.SplitSeq(string(old), "\n") {
		have[strings.TrimSpace(line)] = true
	}
	var missing []string
	for _, pat := range patterns {
		if !have[pat] {
			missing = append(missing, pat)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	block := ignoreMarker + " copies of project text, kept out of ctxpack's index and packs\n" + strings.Join(missing, "\n") + "\n"
	if len(old) > 0 {
		block = "\n" + block
		if !strings.HasSuffix(string(old), "\n") {
			block = "\n" + block
		}
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	if _, err := f.WriteString(block); err != nil {
		f.Close()
		return fmt.Errorf("evidence: %w", err)
	}
	return f.Close()
}

// checkOwn refuses a workspace whose evidence folder or focus record is
// a symlink: its files would be read and written through it, perhaps
// outside the project.
func (w *Workspace) checkOwn() error {
	for _, name := range []string{EvidenceDir, FocusFile, IgnoreFile} {
		info, err := os.Lstat(w.abs(name))
		if err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("evidence: %s is a symlink; a workspace's files are kept in its own folders", path.Join(w.Shown, name))
		}
	}
	return nil
}

// rename moves e to the same folder under the name of to, refusing to
// replace a file.
func (w *Workspace) rename(e Entry, to Entry) (Entry, error) {
	to.Rel = path.Join(path.Dir(e.Rel), FileName(to.Rank, to.Kind, to.Role, to.State))
	if to.Rel == e.Rel {
		return e, nil
	}
	if _, err := os.Lstat(w.abs(to.Rel)); err == nil {
		return Entry{}, fmt.Errorf("evidence: cannot rename %s: %s exists", w.ShownPath(e), w.ShownPath(to))
	}
	if err := os.Rename(w.abs(e.Rel), w.abs(to.Rel)); err != nil {
		return Entry{}, fmt.Errorf("evidence: %w", err)
	}
	return to, nil
}

// SetState turns an active or skipped file on (Active) or off (Skipped)
// by renaming it. Links are always active.
func (w *Workspace) SetState(e Entry, s State) (Entry, error) {
	if e.State == Linked {
		return Entry{}, &LinkActiveError{Path: path.Join(w.Shown, e.Rel), ID: e.ID()}
	}
	if s != Active && s != Skipped {
		return Entry{}, fmt.Errorf("evidence: a file can be turned on or off, not %s", s)
	}
	to := e
	to.State = s
	return w.rename(e, to)
}

// SetRank gives e another rank; the rank must be free.
func (w *Workspace) SetRank(entries []Entry, e Entry, rank int) (Entry, error) {
	if rank < 0 || rank > MaxRank {
		return Entry{}, fmt.Errorf("evidence: rank %d is not from 0 to %d", rank, MaxRank)
	}
	if o, ok := rankOwner(entries, rank, e.Rel); ok {
		return Entry{}, &RankTakenError{Rank: rank, By: o.Rel}
	}
	to := e
	to.Rank = rank
	return w.rename(e, to)
}

// Remove deletes the files ids name (as Find takes them), each once,
// after finding them all, and returns them; on an error, those deleted
// before it.
func (w *Workspace) Remove(entries []Entry, ids []string) ([]Entry, error) {
	var targets []Entry
	for _, id := range ids { // every id is found before anything is deleted
		e, err := Find(entries, id)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(targets, func(t Entry) bool { return t.Rel == e.Rel }) {
			targets = append(targets, e)
		}
	}
	for i, e := range targets {
		if err := os.Remove(w.abs(e.Rel)); err != nil {
			return targets[:i], fmt.Errorf("evidence: remove %s: %s", w.ShownPath(e), project.ErrorText(err))
		}
	}
	return targets, nil
}

// Renamed is one file a rebase renumbered.
type Renamed struct{ From, To Entry }

// Read returns an active or skipped file's bytes, refusing one larger
// than limit bytes (0 is no limit).
func (w *Workspace) Read(e Entry, limit int64) ([]byte, error) {
	data, err := project.ReadPath(w.abs(e.Rel), limit)
	var nr *project.NotRegularError
	var tl *project.TooLargeError
	switch {
	case errors.As(err, &nr):
		return nil, fmt.Errorf("evidence: %s is %s; remove it from the workspace", w.ShownPath(e), nr.Reason())
	case errors.As(err, &tl):
		return nil, fmt.Errorf("evidence: %s is over %d bytes (walk.max_file_bytes); trim it or raise the limit", w.ShownPath(e), limit)
	case err != nil:
		return nil, fmt.Errorf("evidence: %s: %s", w.ShownPath(e), project.ErrorText(err))
	}
	return data, nil
}

// Link returns what a .link file names, as a selector of a project file:
// a symlink's target (the whole file), or the selector a regular .link
// file holds on its first line. A symlink that leads out of the project
// root, or is broken, is an error.
func (w *Workspace) Link(e Entry) (Selector, error) {
	abs := w.abs(e.Rel)
	info, err := os.Lstat(abs)
	if err != nil {
		return Selector{}, fmt.Errorf("evidence: %s: %s", w.ShownPath(e), project.ErrorText(err))
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		data, err := w.Read(e, 4096)
		if err != nil {
			return Selector{}, err
		}
		line, _, _ := strings.Cut(string(data), "\n")
		line = strings.TrimSuffix(line, "\r")
		s, err := ParseSelector(line)
		if err != nil {
			return Selector{}, fmt.Errorf("evidence: %s:1: %w", w.ShownPath(e), err)
		}
		return s, nil
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Selector{}, fmt.Errorf("evidence: %s: broken link: %s", w.ShownPath(e), project.ErrorText(err))
	}
	root, err := filepath.EvalSymlinks(w.Root)
	if err != nil {
		return Selector{}, fmt.Errorf("evidence: project root: %s", project.ErrorText(err))
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		// The target is not named: messages reach the plan, which holds no
		// absolute path.
		return Selector{}, fmt.Errorf("evidence: %s: the link leads outside the project root; links must name project files", w.ShownPath(e))
	}
	s, err := ParseSelector(filepath.ToSlash(rel))
	if err != nil {
		return Selector{}, fmt.Errorf("evidence: %s: %w", w.ShownPath(e), err)
	}
	return s, nil
}

// Focused returns the files focus turned off (paths relative to the
// folder), in the order it recorded them; none when no focus is on.
func (w *Workspace) Focused() ([]string, error) {
	if err := w.checkOwn(); err != nil {
		return nil, err
	}
	data, err := project.ReadPath(w.abs(FocusFile), 0) // a regular file: a named pipe would block
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, nil
}

// SetFocused records the files focus turned off; none removes the record.
func (w *Workspace) SetFocused(rels []string) error {
	if err := w.checkOwn(); err != nil {
		return err
	}
	if len(rels) == 0 {
		if err := os.Remove(w.abs(FocusFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("evidence: %w", err)
		}
		return nil
	}
	data := "# files ctxpack evidence focus turned off; ctxpack evidence focus off turns them back on\n" + strings.Join(rels, "\n") + "\n"
	if err := os.WriteFile(w.abs(FocusFile), []byte(data), 0o644); err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	return nil
}

// ParseRankRange parses a rank range, "300-399": two ranks, the first
// not above the second.
func ParseRankRange(s string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		return 0, 0, false
	}
	lo, okA := parseRank(a)
	hi, okB := parseRank(b)
	if !okA || !okB || lo > hi {
		return 0, 0, false
	}
	return lo, hi, true
}

// Toggled is one file a toggle reached: From as it was, To as it is now.
// Note, when not empty, says why it was left as it was.
type Toggled struct {
	From, To Entry
	Note     string
}

// Toggle turns the files that target names on (want Active) or off (want
// Skipped), or flips one (want ""). target is a rank range ("300-399",
// which needs want) or what Find takes. Links are always active: one
// named alone is an error, links in a range are left with a note, as are
// files already in the state wanted. Every file is found before any is
// renamed.
func (w *Workspace) Toggle(entries []Entry, target string, want State) ([]Toggled, error) {
	if want != "" && want != Active && want != Skipped {
		return nil, fmt.Errorf("evidence: a file can be turned on or off, not %s", want)
	}
	var targets []Entry
	if lo, hi, ok := ParseRankRange(target); ok {
		if want == "" {
			return nil, fmt.Errorf("evidence: a range needs on or off (toggle off %s)", target)
		}
		for _, e := range entries {
			if e.Rank >= lo && e.Rank <= hi {
				targets = append(targets, e)
			}
		}
		if len(targets) == 0 {
			return nil, fmt.Errorf("evidence: no workspace file is ranked %s", target)
		}
	} else {
		e, err := Find(entries, target)
		if err != nil {
			return nil, err
		}
		if e.State == Linked {
			return nil, &LinkActiveError{Path: path.Join(w.Shown, e.Rel), ID: e.ID()}
		}
		targets = []Entry{e}
	}
	var out []Toggled
	for _, e := range targets {
		to := want
		if to == "" {
			to = Skipped
			if e.State == Skipped {
				to = Active
			}
		}
		switch {
		case e.State == Linked:
			out = append(out, Toggled{From: e, To: e, Note: "a link, always active"})
			continue
		case e.State == to:
			out = append(out, Toggled{From: e, To: e, Note: "already " + OnOff(to)})
			continue
		}
		ne, err := w.SetState(e, to)
		if err != nil {
			return out, err
		}
		out = append(out, Toggled{From: e, To: ne})
	}
	return out, nil
}

// OnOff is "on" for Active and Linked, "off" for Skipped.
func OnOff(s State) string {
	if s == Skipped {
		return "off"
	}
	return "on"
}
