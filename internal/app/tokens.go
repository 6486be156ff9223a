package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
	"golang.org/x/sync/errgroup"
)

// TokensMaxFileBytes is the size above which counting skips a file: it
// measures, so its limit is far above the assembly default.
const TokensMaxFileBytes = 256 << 20

// TokensTooLarge is what SkipWarnings says of the files counting skips
// for their size.
var TokensTooLarge = "over " + project.HumanBytes(TokensMaxFileBytes) + ", which counting never reads"

// TokenFile is one file to count.
type TokenFile struct {
	FS    fs.FS  // the files
	Path  string // slash path in FS
	Shown string // the path as reported
}

// TokenFiles lists the files that paths name, each a file or a folder
// relative to base (or absolute), for CountFiles: a file as itself, a
// folder as every file under it (hidden ones too, up to
// TokensMaxFileBytes), each shown under the argument that named it. A
// file named that is not a regular file or is over TokensMaxFileBytes is
// listed, and CountFiles refuses it without reading it.
// skipped are the files a walk passed over (SkipWarnings words them).
// Paths need not be in a project; one that does not exist is a
// *PathError.
func TokenFiles(base string, paths []string) (files []TokenFile, skipped []Skip, err error) {
	for _, arg := range paths {
		abs := arg
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(base, arg)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, nil, &PathError{Path: arg, Err: err}
		}
		if !st.IsDir() {
			files = append(files, TokenFile{FS: project.DirFS(filepath.Dir(abs)), Path: filepath.Base(abs), Shown: project.ShowPath(arg)})
			continue
		}
		dir := project.DirFS(abs)
		walked, skips, err := project.Walk(dir, []string{"."}, project.WalkOptions{MaxFileBytes: TokensMaxFileBytes, IncludeHidden: true, KeepSecretFiles: keepAll})
		if err != nil {
			return nil, nil, fmt.Errorf("tokens: %s: %w", arg, err)
		}
		for _, s := range skips {
			skipped = append(skipped, Skip{Path: joinShown(arg, s.Path), Kind: s.Kind(), Reason: s.Reason})
		}
		for _, f := range walked {
			files = append(files, TokenFile{FS: dir, Path: f.Path, Shown: project.ShowPath(joinShown(arg, f.Path))})
		}
	}
	return files, skipped, nil
}

// joinShown shows a walked file under the argument it was found from.
func joinShown(arg, rel string) string {
	if arg == "." || arg == "./" {
		return rel
	}
	return strings.TrimSuffix(arg, "/") + "/" + rel
}

// CountFiles counts the tokens of each file in parallel with the
// tokenizer named (the default when ""): counts[i] is the count of
// files[i], or errs[i] says why it could not be read, in the words of a
// walk's skipped files ("not a regular file", "too large (…)"): only
// regular files of at most TokensMaxFileBytes are read. progress, when set,
// is called with the number done so far, from one goroutine at a time.
// Cancelling ctx leaves the files not yet counted with its error. An
// unknown tokenizer is err.
func CountFiles(ctx context.Context, tokenizerName string, files []TokenFile, progress func(done int)) (counts []int, errs []error, err error) {
	tok, err := getTokenizer(cmp.Or(tokenizerName, tokenizer.Default))
	if err != nil {
		return nil, nil, err
	}
	counts, errs = countFiles(ctx, tok, files, progress)
	return counts, errs, nil
}

func countFiles(ctx context.Context, tok tokenizer.Tokenizer, files []TokenFile, progress func(done int)) (counts []int, errs []error) {
	counts = make([]int, len(files))
	errs = make([]error, len(files))
	var mu sync.Mutex
	done := 0
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range files {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				errs[i] = err
			} else if text, _, err := project.ReadTextLimit(files[i].FS, files[i].Path, TokensMaxFileBytes); err != nil {
				errs[i] = errors.New(project.ReadReason(err))
			} else {
				counts[i] = tok.Count(text)
			}
			mu.Lock()
			done++
			if progress != nil {
				progress(done)
			}
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	return counts, errs
}

// TokenCount is the token count of one file.
type TokenCount struct {
	Path   string `json:"path"`
	Tokens int    `json:"tokens"`
}

// TokenSkip is a file that was not counted, and why.
type TokenSkip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// TokenReport is the token count of files of the project.
type TokenReport struct {
	Tokenizer string       `json:"tokenizer"`
	Files     []TokenCount `json:"files"`
	Total     int          `json:"total"`
	Skipped   []TokenSkip  `json:"skipped"`
	// The views TokenReport.Shape adds, when asked.
	TopFiles   []TokenCount  `json:"top_files,omitempty"`
	TopFolders []TokenFolder `json:"top_folders,omitempty"`
	Tree       *TokenNode    `json:"tree,omitempty"`
}

// Tokens counts the tokens of the files of the project under paths
// (relative to the project's working directory; a path that leaves the
// root, also through a symlink, is refused), directories walked as pack
// walks them but with hidden files, in path order. Binary, oversized and
// unreadable files are skipped with a reason.
func (p *Project) Tokens(ctx context.Context, paths []string, tokenizerName string) (*TokenReport, error) {
	tok, err := p.Tokenizer(tokenizerName)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("ctxpack: tokens: no paths")
	}
	rep := &TokenReport{Tokenizer: tok.Name(), Files: []TokenCount{}, Skipped: []TokenSkip{}}
	var files []TokenFile
	for _, a := range paths {
		rel, err := project.Resolve(p.Root, p.Dir, a)
		if err != nil {
			return nil, err
		}
		st, err := fs.Stat(p.FS, rel)
		if err != nil {
			return nil, fmt.Errorf("ctxpack: tokens: %w", err)
		}
		if !st.IsDir() {
			files = append(files, TokenFile{FS: p.FS, Path: rel, Shown: rel})
			continue
		}
		o := p.Config.Walk.Options()
		o.KeepSecretFiles = keepAll // counted, never shown
		o.MaxFileBytes, o.IncludeHidden = TokensMaxFileBytes, true
		walked, skipped, err := project.Walk(p.FS, []string{rel}, o)
		if err != nil {
			return nil, fmt.Errorf("ctxpack: tokens: %s: %w", a, err)
		}
		for _, s := range skipped {
			rep.Skipped = append(rep.Skipped, TokenSkip{Path: s.Path, Reason: s.Reason})
		}
		for _, f := range walked {
			files = append(files, TokenFile{FS: p.FS, Path: f.Path, Shown: f.Path})
		}
	}
	counts, errs := countFiles(ctx, tok, files, nil)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ctxpack: tokens: %w", err)
	}
	for i, f := range files {
		if errs[i] != nil {
			rep.Skipped = append(rep.Skipped, TokenSkip{Path: f.Shown, Reason: errs[i].Error()})
			continue
		}
		rep.Files = append(rep.Files, TokenCount{Path: f.Shown, Tokens: counts[i]})
		rep.Total += counts[i]
	}
	return rep, nil
}

// keepAll keeps every secret file in a walk that only counts tokens.
func keepAll(string) bool { return true }

// CountReader counts the tokens of what r holds (standard input, for
// `ctxpack tokens -`), as CountFiles counts a file: invalid UTF-8 counted
// as ctxpack emits it, and no more than TokensMaxFileBytes read (more is
// an error saying so).
func CountReader(tokenizerName string, r io.Reader) (int, error) {
	tok, err := getTokenizer(cmp.Or(tokenizerName, tokenizer.Default))
	if err != nil {
		return 0, err
	}
	data, err := io.ReadAll(io.LimitReader(r, TokensMaxFileBytes+1))
	if err != nil {
		return 0, fmt.Errorf("ctxpack: reading standard input: %w", err)
	}
	if len(data) > TokensMaxFileBytes {
		return 0, fmt.Errorf("ctxpack: standard input is over %d MiB, the most tokens counts at once", TokensMaxFileBytes>>20)
	}
	text := string(data)
	if !utf8.ValidString(text) {
		text = tokenizer.ToValidUTF8(text)
	}
	return tok.Count(text), nil
}

// TokenFolder is a folder of a token report: the files counted under it,
// at any depth, and their tokens.
type TokenFolder struct {
	Path   string `json:"path"` // with a trailing slash
	Tokens int    `json:"tokens"`
	Files  int    `json:"files"`
}

// TokenNode is a file or a folder of a token report's tree.
type TokenNode struct {
	Name   string `json:"name"` // the last element of the path; a folder's ends in a slash
	Tokens int    `json:"tokens"`
	// Files is the number of files under a folder; 0 for a file.
	Files    int          `json:"files,omitempty"`
	Children []*TokenNode `json:"children,omitempty"`
	// Hidden sums a folder's children under TokenShape.MinTokens, which
	// Children leaves out.
	Hidden *TokenHidden `json:"hidden,omitempty"`

	raw string // the name unquoted, which orders the children
}

// TokenHidden is what a tree leaves out of a folder for its size.
type TokenHidden struct {
	Entries int `json:"entries"` // files and folders not shown
	Tokens  int `json:"tokens"`
}

// TokenShape asks a token report for views beside its list of files.
type TokenShape struct {
	// Top, when positive, lists the Top largest files and folders.
	Top int
	// Tree shows the counts as a tree of folders.
	Tree bool
	// MinTokens leaves out of the tree every file and folder with fewer
	// tokens, summed in their folder's Hidden.
	MinTokens int
}

// Check refuses a shape no report can take: a negative Top or
// MinTokens, or MinTokens without Tree, each an *InputError. Front ends
// call it before counting anything.
func (o TokenShape) Check() error {
	switch {
	case o.Top < 0:
		return &InputError{Field: "top", Msg: "must be a number of files and folders, at least 1, not " + strconv.Itoa(o.Top)}
	case o.MinTokens < 0:
		return &InputError{Field: "min-tokens", Msg: "must be a number of tokens, at least 0, not " + strconv.Itoa(o.MinTokens)}
	case o.MinTokens > 0 && !o.Tree:
		return &InputError{Field: "min-tokens", Msg: "hides entries of the tree: ask for the tree too"}
	}
	return nil
}

// Shape adds the views o asks for to r: TopFiles and TopFolders (the
// largest first, ties by path), and Tree. A shape Check refuses is its
// error.
func (r *TokenReport) Shape(o TokenShape) error {
	if err := o.Check(); err != nil {
		return err
	}
	if !o.Tree && o.Top == 0 {
		return nil
	}
	root := r.tree()
	if o.Top > 0 {
		files := slices.Clone(r.Files)
		slices.SortFunc(files, func(a, b TokenCount) int {
			return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), strings.Compare(a.Path, b.Path))
		})
		r.TopFiles = files[:min(o.Top, len(files))]
		var folders []TokenFolder
		var walk func(n *TokenNode, prefix string)
		walk = func(n *TokenNode, prefix string) {
			for _, c := range n.Children {
				if c.Files > 0 { // a folder; a file counts none
					folders = append(folders, TokenFolder{Path: prefix + c.Name, Tokens: c.Tokens, Files: c.Files})
					walk(c, prefix+c.Name)
				}
			}
		}
		walk(root, "")
		slices.SortFunc(folders, func(a, b TokenFolder) int {
			return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), strings.Compare(a.Path, b.Path))
		})
		r.TopFolders = folders[:min(o.Top, len(folders))]
		if r.TopFolders == nil {
			r.TopFolders = []TokenFolder{}
		}
	}
	if o.Tree {
		if o.MinTokens > 0 {
			hide(root, o.MinTokens)
		}
		r.Tree = root
	}
	return nil
}

// tree builds the folder tree of r's files, children in bytewise order of
// their names. A quoted path (a name ShowPath quotes) is split as the
// path it quotes, and each element shown as ShowPath shows it.
func (r *TokenReport) tree() *TokenNode {
	root := &TokenNode{Name: "."}
	folders := map[string]*TokenNode{"": root}
	for _, f := range r.Files {
		raw := f.Path
		if strings.HasPrefix(raw, `"`) {
			if u, err := strconv.Unquote(raw); err == nil {
				raw = u
			}
		}
		elems := strings.Split(raw, "/")
		if strings.HasPrefix(raw, "/") { // an absolute path: its first folder is "/"
			elems = append([]string{""}, elems[1:]...)
		}
		parent, key := root, ""
		root.Tokens += f.Tokens
		root.Files++
		for _, e := range elems[:len(elems)-1] {
			key += e + "/"
			n := folders[key]
			if n == nil {
				n = &TokenNode{Name: project.ShowPath(e) + "/", raw: e + "/"}
				folders[key] = n
				parent.Children = append(parent.Children, n)
			}
			n.Tokens += f.Tokens
			n.Files++
			parent = n
		}
		parent.Children = append(parent.Children, &TokenNode{Name: project.ShowPath(elems[len(elems)-1]), raw: elems[len(elems)-1], Tokens: f.Tokens})
	}
	var sortTree func(n *TokenNode)
	sortTree = func(n *TokenNode) {
		slices.SortStableFunc(n.Children, func(a, b *TokenNode) int { return strings.Compare(a.raw, b.raw) })
		for _, c := range n.Children {
			sortTree(c)
		}
	}
	sortTree(root)
	return root
}

// hide moves the children of n and below with fewer than minTokens into
// their folder's Hidden.
func hide(n *TokenNode, minTokens int) {
	kept := n.Children[:0]
	for _, c := range n.Children {
		if c.Tokens < minTokens {
			if n.Hidden == nil {
				n.Hidden = &TokenHidden{}
			}
			n.Hidden.Entries++
			n.Hidden.Tokens += c.Tokens
			continue
		}
		hide(c, minTokens)
		kept = append(kept, c)
	}
	n.Children = kept
	if len(n.Children) == 0 {
		n.Children = nil
	}
}
