package project

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxFileBytes is the size above which Walk skips a file unless
// WalkOptions.MaxFileBytes says otherwise: 1 MiB.
const DefaultMaxFileBytes = 1 << 20

// BinaryProbeBytes is how much of a file's beginning decides that it is
// binary (Binary); Walk reads no more of it.
const BinaryProbeBytes = 8000

// Binary reports whether a file whose text begins with head is binary, and
// says why in the words of a skip reason's detail: git's rule, a NUL byte
// in the first 8000 bytes; or a PDF's signature ("%PDF-"), since a PDF
// (an Illustrator .ai file is one) can hold no NUL for many kilobytes and
// is never useful as text: requests' ext/requests-logo.ai put 4,781
// tokens of PDF objects into retrieved contexts. Walk, evidence and
// summarize decide with it, so a file is binary for all of them or none.
func Binary(head []byte) (bool, string) {
	head = head[:min(len(head), BinaryProbeBytes)]
	switch {
	case bytes.IndexByte(head, 0) >= 0:
		return true, "a NUL byte in its first 8000 bytes"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return true, "a PDF"
	}
	return false, ""
}

// DefaultIgnoreFiles returns the per-directory ignore files Walk honours when
// WalkOptions.IgnoreFiles is nil: .gitignore, then .ctxpackignore (which
// takes precedence in the same directory).
func DefaultIgnoreFiles() []string { return []string{".gitignore", ".ctxpackignore"} }

// File is a regular file found by Walk.
type File struct {
	Path    string // slash-separated, relative to the walk's fs root
	Size    int64
	ModTime time.Time
}

// Skipped is a file Walk found but did not list, with the reason.
type Skipped struct {
	Path   string
	Reason string // "binary", "too large (3.2 MiB > 1 MiB limit)", "unreadable: …", "symlink outside root", …
}

// The kinds of reasons a walk skips a file for (Skipped.Kind), by which
// skipped files are counted.
const (
	SkipBinary     = "binary"
	SkipTooLarge   = "too large"
	SkipSecretFile = "secrets file"
	SkipUnreadable = "unreadable"
	SkipSymlink    = "symlink"
	SkipSpecial    = "not a regular file"
	SkipName       = "name"
	SkipLockFile   = "lock file"
	SkipGenerated  = "generated"
	SkipOutput     = "output" // the file a command writes its output to (OutputReason)
)

// OutputReason is the reason a file is left out of the input for being
// where the command writes its output (-o FILE): the output of an earlier
// run would be packed into the next.
const OutputReason = "the output of this command (-o), left out of its input"

// Kind is the kind of s's reason: one of the Skip constants.
func (s Skipped) Kind() string {
	switch r := s.Reason; {
	case r == "binary":
		return SkipBinary
	case strings.HasPrefix(r, "too large"):
		return SkipTooLarge
	case r == SecretFileReason:
		return SkipSecretFile
	case strings.HasPrefix(r, "unreadable"):
		return SkipUnreadable
	case strings.HasPrefix(r, "symlink"):
		return SkipSymlink
	case r == "not a regular file":
		return SkipSpecial
	case r == LockFileReason:
		return SkipLockFile
	case strings.HasPrefix(r, generatedReasonPrefix):
		return SkipGenerated
	case r == OutputReason:
		return SkipOutput
	}
	return SkipName // NameProblem's reasons
}

// WalkOptions configures Walk. The zero value walks with the defaults and
// leaves out hidden files.
type WalkOptions struct {
	// MaxFileBytes is the largest file listed; larger files are reported in
	// Skipped. 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// IncludeHidden lists files and descends into directories whose names
	// start with ".". A .git entry is skipped either way.
	IncludeHidden bool
	// Reverse returns both lists in reverse order: a test knob that proves
	// downstream code sorts for itself.
	Reverse bool
	// IgnoreFiles names the per-directory ignore files, in gitignore syntax.
	// In one directory a later name takes precedence over an earlier one.
	// nil means DefaultIgnoreFiles(); an empty non-nil slice means none.
	IgnoreFiles []string
	// KeepSecretFiles reports whether to list a file that is a secret by
	// its name (IsSecretFile); Walk reports every other one in Skipped,
	// with SecretFileReason. nil keeps none. A root that names such a
	// file is listed: it was named explicitly.
	KeepSecretFiles func(path string) bool
	// Select, when not nil, lists (or skips) only the files it reports
	// true for, roots that name files included; the others are left out
	// silently, as ignored files are. Directories are entered either
	// way. Walk calls it from one goroutine, in walk order.
	Select func(path string) bool
	// Prune, when not nil, leaves out silently the directories it reports
	// true for, and everything under them (roots included).
	Prune func(dir string) bool
	// SkipGenerated reports lock files (IsLockFile) and generated files
	// in Skipped, with LockFileReason and a "generated: …" reason: a
	// file whose leading comments mark it generated (Generated), or one
	// the .gitattributes file at fsys's root marks linguist-generated.
	// A file KeepGenerated reports true for is listed whatever it is,
	// even when a root names it: the caller decides what naming a file
	// means.
	SkipGenerated bool
	KeepGenerated func(path string) bool
	// Workers is how many goroutines read files for binary detection.
	// 0 means GOMAXPROCS. The result does not depend on it.
	Workers int
}

// Options returns the WalkOptions that c asks for.
func (c WalkConfig) Options() WalkOptions {
	return WalkOptions{MaxFileBytes: c.MaxFileBytes, IncludeHidden: c.IncludeHidden}
}

// Walk lists the regular files under each of roots (slash paths relative to
// fsys; nil or empty means "."), in bytewise path order (reversed with
// opt.Reverse), with each path listed once even when roots overlap.
//
// It honours the ignore files named by opt.IgnoreFiles in every directory it
// enters and in the directories above each root, and .git/info/exclude at
// fsys's root, with git's semantics; the user's global excludes file is
// never read, so the result depends on the tree alone. It always leaves out
// .git entries and ctxpack's own state files (IsStateFile: the databases
// under .ctxpack/ with their side files, the records, the caches).
// Ignored, hidden and generated entries are left out
// silently; binary files (Binary: a NUL byte in the first 8000 bytes, or a PDF), files larger
// than the limit, unreadable files and directories, symlinks that lead
// outside fsys or to directories, other non-regular files, and files and
// directories whose names cannot be shown safely (NameProblem: a newline,
// an escape or another control character, invalid UTF-8) are reported in
// Skipped, sorted the same way.
//
// With opt.SkipGenerated, lock files and generated files are reported in
// Skipped too (LockFileReason, "generated: …"), unless
// opt.KeepGenerated keeps them; opt.Select leaves out silently the files
// it does not select.
//
// A root that names a file is listed as itself even when it is ignored or
// hidden: it was named explicitly. So is a root directory: it is walked even
// when ignored, while the rules still apply inside it.
//
// A symlink to a regular file inside fsys is listed under the link's path
// when fsys implements fs.ReadLinkFS; absolute link targets count as leaving
// the root. Apart from ignore files, Walk reads at most the first 8000
// bytes of each file.
//
// Walk returns an error only when a root cannot be walked at all: an invalid
// or missing root, or an unreadable root directory.
func Walk(fsys fs.FS, roots []string, opt WalkOptions) ([]File, []Skipped, error) {
	if len(roots) == 0 {
		roots = []string{"."}
	}
	clean := make([]string, len(roots))
	for i, r := range roots {
		c := path.Clean(r)
		if !fs.ValidPath(c) {
			return nil, nil, fmt.Errorf("project: walk: invalid root %q: want a slash path inside the project, without \"..\"", r)
		}
		clean[i] = c
	}

	w := &walker{
		fsys:          fsys,
		maxBytes:      opt.MaxFileBytes,
		includeHidden: opt.IncludeHidden,
		ignoreNames:   opt.IgnoreFiles,
		keepSecret:    opt.KeepSecretFiles,
		sel:           opt.Select,
		prune:         opt.Prune,
		skipGenerated: opt.SkipGenerated,
		keepGenerated: opt.KeepGenerated,
	}
	if w.skipGenerated {
		w.attrs = parseGeneratedAttributes(w.readIgnore(".gitattributes"))
	}
	if w.maxBytes <= 0 {
		w.maxBytes = DefaultMaxFileBytes
	}
	if w.ignoreNames == nil {
		w.ignoreNames = DefaultIgnoreFiles()
	}
	w.links, _ = fsys.(fs.ReadLinkFS)
	if len(clean) > 1 {
		w.seen = make(map[string]bool)
	}

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	work := make(chan probeItem, 256)
	results := make([]probeResult, workers)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i] = probe(fsys, work, w.maxBytes) })
	}
	w.work = work

	var err error
	for _, r := range clean {
		if err = w.walkRoot(r); err != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}

	var files []File
	skipped := w.skipped
	for _, r := range results {
		files = append(files, r.files...)
		skipped = append(skipped, r.skipped...)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(skipped, func(a, b Skipped) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Reason, b.Reason))
	})
	skipped = slices.CompactFunc(skipped, func(a, b Skipped) bool { return a.Path == b.Path })
	if opt.Reverse {
		slices.Reverse(files)
		slices.Reverse(skipped)
	}
	return files, skipped, nil
}

// A walker lists candidates in one goroutine; probe workers read them.
type walker struct {
	fsys          fs.FS
	links         fs.ReadLinkFS // nil when fsys cannot read symlinks
	maxBytes      int64
	includeHidden bool
	ignoreNames   []string
	seen          map[string]bool // paths already sent, when there are several roots
	work          chan<- probeItem
	skipped       []Skipped
	exclude       *ignoreList // .git/info/exclude, read on first use
	keepSecret    func(path string) bool
	sel           func(path string) bool
	prune         func(dir string) bool
	skipGenerated bool
	keepGenerated func(path string) bool
	attrs         attributes // linguist-generated in the root's .gitattributes
}

func (w *walker) skip(p, reason string) {
	w.skipped = append(w.skipped, Skipped{Path: p, Reason: reason})
}

// send queues a regular file (or a symlink to one) for probing.
func (w *walker) send(p string) {
	if w.seen != nil {
		if w.seen[p] {
			return
		}
		w.seen[p] = true
	}
	item := probeItem{path: p}
	if w.skipGenerated && (w.keepGenerated == nil || !w.keepGenerated(p)) {
		if IsLockFile(p) {
			w.skip(p, LockFileReason)
			return
		}
		if w.attrs.generated(p) {
			w.skip(p, generatedReason(generatedAttributeName+" in .gitattributes"))
			return
		}
		item.checkGenerated = true
	}
	w.work <- item
}

// selected reports whether the walk lists (or skips) the file at p.
func (w *walker) selected(p string) bool { return w.sel == nil || w.sel(p) }

func (w *walker) walkRoot(root string) error {
	info, err := fs.Lstat(w.fsys, root)
	if err != nil {
		return fmt.Errorf("project: walk: %w", err)
	}
	mode := info.Mode()
	if !mode.IsDir() && !w.selected(root) {
		return nil
	}
	if why := NameProblem(root); why != "" {
		w.skip(root, why)
		return nil
	}
	if mode&fs.ModeSymlink != 0 {
		target, ok := w.followLink(root)
		if !ok {
			return nil
		}
		if mode, err = w.modeOf(target); err != nil {
			w.skip(root, unreadable(err))
			return nil
		}
	}
	switch {
	case mode.IsRegular():
		w.send(root)
		return nil
	case mode.IsDir():
		if w.prune != nil && root != "." && w.prune(root) {
			return nil
		}
		return w.walkDir(root, w.rootStack(root), true)
	default:
		w.skip(root, "not a regular file")
		return nil
	}
}

// rootStack returns the ignore lists that apply inside root before root's
// own: .git/info/exclude and the ignore files of root's parent directories.
func (w *walker) rootStack(root string) []*ignoreList {
	if w.exclude == nil {
		l := parseIgnore(w.readIgnore(".git/info/exclude"), "")
		w.exclude = &l
	}
	stack := []*ignoreList{w.exclude}
	if root == "." {
		return stack
	}
	dirs := []string{"."}
	for i, c := range root {
		if c == '/' {
			dirs = append(dirs, root[:i])
		}
	}
	for _, d := range dirs {
		for _, name := range w.ignoreNames {
			if data := w.readIgnore(join(d, name)); data != nil {
				l := parseIgnore(data, base(d))
				stack = append(stack, &l)
			}
		}
	}
	return stack
}

// readIgnore returns the contents of the ignore file p, or nil when it is
// missing or not a regular file (git does not follow symlinked ignore files).
func (w *walker) readIgnore(p string) []byte {
	info, err := fs.Lstat(w.fsys, p)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	data, err := fs.ReadFile(w.fsys, p)
	if err != nil {
		w.skip(p, unreadable(err))
		return nil
	}
	return data
}

// walkDir lists dir's entries; stack holds the ignore lists of the
// directories above dir.
func (w *walker) walkDir(dir string, stack []*ignoreList, isRoot bool) error {
	entries, err := fs.ReadDir(w.fsys, dir)
	if err != nil {
		if isRoot {
			return fmt.Errorf("project: walk: %w", err)
		}
		w.skip(dir, unreadable(err))
		return nil
	}
	for _, name := range w.ignoreNames {
		i, ok := slices.BinarySearchFunc(entries, name, func(e fs.DirEntry, name string) int {
			return strings.Compare(e.Name(), name)
		})
		if !ok || !entries[i].Type().IsRegular() {
			continue
		}
		p := join(dir, name)
		data, err := fs.ReadFile(w.fsys, p)
		if err != nil {
			w.skip(p, unreadable(err))
			continue
		}
		l := parseIgnore(data, base(dir))
		stack = append(stack, &l)
	}
	for _, e := range entries {
		name := e.Name()
		if name == ".git" || (!w.includeHidden && name[0] == '.') {
			continue
		}
		if dir == DirCtxpack && IsStateFile(name) {
			continue
		}
		p := join(dir, name)
		t := e.Type()
		if ignored(stack, p, t.IsDir()) || (!t.IsDir() && !w.selected(p)) || (t.IsDir() && w.prune != nil && w.prune(p)) {
			continue
		}
		if why := NameProblem(name); why != "" {
			w.skip(p, why)
			continue
		}
		if !t.IsDir() && IsSecretFile(p) && (w.keepSecret == nil || !w.keepSecret(p)) {
			w.skip(p, SecretFileReason)
			continue
		}
		switch {
		case t.IsDir():
			if err := w.walkDir(p, stack, false); err != nil {
				return err
			}
		case t.IsRegular():
			w.send(p)
		case t&fs.ModeSymlink != 0:
			target, ok := w.followLink(p)
			if !ok {
				continue
			}
			switch mode, err := w.modeOf(target); {
			case err != nil:
				w.skip(p, unreadable(err))
			case mode.IsRegular():
				w.send(p)
			case mode.IsDir():
				w.skip(p, "symlink to directory (not followed)")
			default:
				w.skip(p, "not a regular file")
			}
		default:
			w.skip(p, "not a regular file")
		}
	}
	return nil
}

func (w *walker) modeOf(p string) (fs.FileMode, error) {
	info, err := w.links.Lstat(p)
	if err != nil {
		return 0, err
	}
	return info.Mode(), nil
}

// ErrOutside is what ResolveLink's errors wrap when a symlink leads out of
// the file system it is resolved in.
var ErrOutside = errors.New("symlink outside root")

// LinkError is a symlink that leads out of the file system: Link is the
// symlink (or, for a path that climbs out with "..", the path itself).
type LinkError struct{ Link string }

func (e *LinkError) Error() string { return e.Link + ": " + ErrOutside.Error() }
func (e *LinkError) Unwrap() error { return ErrOutside }

// followLink resolves the symlink p inside fsys. It reports false, after
// recording why in Skipped, when the link cannot be followed.
func (w *walker) followLink(p string) (string, bool) {
	if w.links == nil {
		w.skip(p, "symlink (target cannot be checked)")
		return "", false
	}
	target, err := ResolveLink(w.links, p)
	switch {
	case errors.Is(err, ErrOutside):
		w.skip(p, "symlink outside root")
		return "", false
	case errors.Is(err, fs.ErrNotExist):
		w.skip(p, "unreadable: broken symlink")
		return "", false
	case err != nil:
		w.skip(p, unreadable(err))
		return "", false
	}
	return target, true
}

// maxLinkHops bounds symlink resolution, as the kernel's ELOOP limit does.
const maxLinkHops = 40

// ResolveLink resolves every symlink in the slash path name within fsys
// and returns the result, a path with no symlinks in it. When a link leads
// out of fsys (through "..", or with an absolute target) it fails with a
// *LinkError, which wraps ErrOutside; when a part of the path does not
// exist, with an error wrapping fs.ErrNotExist. Resolution stops after
// maxLinkHops links, as the kernel's ELOOP limit does.
func ResolveLink(fsys fs.ReadLinkFS, name string) (string, error) {
	resolved, lastLink := ".", name
	rest := strings.Split(name, "/")
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if resolved == "." {
				return "", &LinkError{Link: lastLink}
			}
			resolved = path.Dir(resolved)
			continue
		}
		next := join(resolved, c)
		info, err := fsys.Lstat(next)
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", errors.New("too many levels of symbolic links")
		}
		target, err := fsys.ReadLink(next)
		if err != nil {
			return "", err
		}
		lastLink = next
		target = strings.ReplaceAll(target, `\`, "/")
		if path.IsAbs(target) || (len(target) >= 2 && target[1] == ':') {
			return "", &LinkError{Link: next}
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return resolved, nil
}

// probeResult is what one probe worker found.
type probeResult struct {
	files   []File
	skipped []Skipped
}

// probeItem is a file queued for probing: its path, and whether its head
// is to be read for a generated-file marker.
type probeItem struct {
	path           string
	checkGenerated bool
}

// probe stats each queued file and reads its first 8000 bytes to tell text
// from binary (and, when asked, generated from written).
func probe(fsys fs.FS, work <-chan probeItem, maxBytes int64) probeResult {
	var r probeResult
	buf := make([]byte, BinaryProbeBytes)
	for it := range work {
		f, reason := probeFile(fsys, it, maxBytes, buf)
		if reason != "" {
			r.skipped = append(r.skipped, Skipped{Path: it.path, Reason: reason})
			continue
		}
		r.files = append(r.files, f)
	}
	return r
}

func probeFile(fsys fs.FS, it probeItem, maxBytes int64, buf []byte) (File, string) {
	p := it.path
	f, err := fsys.Open(p)
	if err != nil {
		return File{}, unreadable(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return File{}, unreadable(err)
	}
	if !info.Mode().IsRegular() {
		return File{}, "not a regular file"
	}
	size := info.Size()
	if size > maxBytes {
		s, l := formatBytes(size, maxBytes)
		return File{}, "too large (" + s + " > " + l + " limit)"
	}
	// Read only as much as the file holds, so a small file costs one read.
	n, err := io.ReadFull(f, buf[:min(size, BinaryProbeBytes)])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return File{}, unreadable(err)
	}
	if bin, _ := Binary(buf[:n]); bin {
		return File{}, "binary"
	}
	if it.checkGenerated {
		if why := Generated(buf[:n]); why != "" {
			return File{}, generatedReason(why)
		}
	}
	return File{Path: p, Size: size, ModTime: info.ModTime()}, ""
}

// NameProblem says why a file name (or a slash path) cannot be shown
// safely, or returns "" when it can. A name that is not valid UTF-8, or
// holds a control character (a newline, a tab, a carriage return, an
// escape that starts a terminal sequence, any other C0 or C1 control or
// DEL), a Unicode bidirectional control or a line or paragraph separator,
// would break a key or a header of the output or make a line show what is
// not there: a newline could start a fake "=== CODE: … ===" header, an
// escape could recolour or rewrite a terminal. Walk leaves such files out
// with this reason; ShowPath quotes such names where they are shown.
func NameProblem(name string) string {
	if !utf8.ValidString(name) {
		return "its name is not valid UTF-8, so it cannot be shown as it is; rename it to include it"
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return fmt.Sprintf("its name holds %U, a control character, which would break or fake lines of the output; rename it to include it", r)
		}
	}
	return ""
}

// ShowPath returns p as messages should show it: as it is, or quoted, with
// Go's escapes, when NameProblem finds it unsafe to print.
func ShowPath(p string) string {
	if NameProblem(p) == "" {
		return p
	}
	return strconv.Quote(p)
}

// unreadable returns the Skipped reason for err, without the path (which the
// Skipped entry carries) so that reasons do not depend on where fsys lives.
func unreadable(err error) string { return "unreadable: " + ErrorText(err) }

// ErrorText returns err's message without the path a *fs.PathError
// carries: for messages that name the file themselves and must not depend
// on where the file system lives.
func ErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}

// formatBytes formats a size and a limit in binary units, falling back to
// exact byte counts when rounding would make them look equal.
func formatBytes(size, limit int64) (string, string) {
	s, l := HumanBytes(size), HumanBytes(limit)
	if s == l {
		return strconv.FormatInt(size, 10) + " B", strconv.FormatInt(limit, 10) + " B"
	}
	return s, l
}

// HumanBytes is n bytes in binary units, as Walk's reasons give sizes:
// "512 B", "1 MiB", "3.2 MiB".
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n), -1
	for v >= unit && i < 5 {
		v /= unit
		i++
	}
	suffix := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}[i]
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " " + suffix
}

// join joins a directory (or ".") and a name.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// base returns the ignore-list base for a directory: "" or "dir/".
func base(dir string) string {
	if dir == "." {
		return ""
	}
	return dir + "/"
}
