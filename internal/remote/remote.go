// Package remote brings a remote git repository onto the machine for
// packing: a shallow clone, at a ref, into a cache directory, reused when
// the ref still resolves to the commit it holds.
//
// Contracts:
//
//   - Only URLs are taken (https, http, ssh, git, file, and scp-like
//     user@host:path); git's transport helpers ("ext::…", any "X::…"), a
//     leading "-" and control characters are refused before git runs.
//   - git never prompts: it runs with GIT_TERMINAL_PROMPT=0 and ssh in
//     batch mode, so a repository that needs credentials fails instead of
//     hanging; hooks, LFS smudging and the caller's GIT_DIR-like variables
//     are turned off, so nothing but git's transport runs.
//   - A checkout lives in CacheDir/<16 hex digits of the URL's SHA-256>,
//     locked (internal/filelock) while it is fetched or checked, so two
//     processes never write it at once. It holds the commit's tree,
//     detached, and nothing else of git's history (depth 1).
//   - Errors start with "remote: ", name the URL or the ref, and carry
//     git's own last line of complaint.
package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/ctxpack/ctxpack/internal/filelock"
)

// Options say what to fetch and where to keep it.
type Options struct {
	URL string
	// Ref is a branch, a tag, a full ref name (refs/…) or a commit id;
	// "" is the remote's default branch (its HEAD).
	Ref string
	// CacheDir is the directory under which checkouts are kept.
	CacheDir string
	// LockTimeout is how long to wait for another process that holds the
	// checkout's lock; 0 is a minute.
	LockTimeout time.Duration
}

// Checkout is a repository brought onto the machine.
type Checkout struct {
	Dir    string // the work tree, absolute
	Commit string // the commit checked out: 40 (or 64) hex digits
	Reused bool   // the cache already held the commit: nothing was fetched
}

// URLError is a URL that cannot be cloned: refused before git runs, or
// refused by git.
type URLError struct {
	URL string
	Msg string
}

func (e *URLError) Error() string {
	return fmt.Sprintf("remote: %s cannot be cloned: %s", Show(e.URL), hideUser(e.Msg, e.URL))
}

// Show is url as an error shows it: Display's, quoted when it holds a
// control character, which could rewrite a terminal.
func Show(url string) string {
	d := Display(url)
	if strings.ContainsFunc(d, unicode.IsControl) {
		return strconv.Quote(d)
	}
	return d
}

// RefError is a ref the remote does not have.
type RefError struct {
	URL, Ref string
	Known    []string // some of the remote's branches and tags, sorted
}

func (e *RefError) Error() string {
	msg := fmt.Sprintf("remote: %s has no branch, tag or commit %q", Show(e.URL), e.Ref)
	if hexRef.MatchString(e.Ref) && len(e.Ref) < 40 {
		msg += "; a commit that is not a branch's or a tag's is fetched by its full id"
	}
	if len(e.Known) > 0 {
		msg += " (it has: " + strings.Join(e.Known, ", ") + ")"
	}
	return msg
}

// scpLike is git's scp-like syntax: [user@]host:path, with no "//" after
// the colon.
var scpLike = regexp.MustCompile(`^(?:[A-Za-z0-9._~-]+@)?[A-Za-z0-9.-]+:[^/]?`)

// IsURL reports whether s is written as a repository URL rather than a
// path: "scheme://…" or scp-like "user@host:path".
func IsURL(s string) bool {
	if i := strings.Index(s, "://"); i > 0 && !strings.ContainsAny(s[:i], "/\\") {
		return true
	}
	return strings.Contains(s, "@") && scpLike.MatchString(s) && !strings.Contains(s[:strings.IndexByte(s, ':')], "/")
}

// CheckURL refuses what git must not be given: a URL of an unknown
// scheme, a transport helper, an option, a control character.
func CheckURL(url string) error {
	if url == "" {
		return &URLError{URL: `""`, Msg: "the URL is empty"}
	}
	for _, r := range url {
		if unicode.IsControl(r) || r == ' ' {
			return &URLError{URL: url, Msg: "a URL holds no spaces or control characters"}
		}
	}
	if strings.HasPrefix(url, "-") {
		return &URLError{URL: url, Msg: "a URL does not start with \"-\""}
	}
	if strings.Contains(url, "::") {
		return &URLError{URL: url, Msg: "git transport helpers (\"ext::…\") are not taken; give an https, ssh, git or file URL"}
	}
	scheme, _, ok := strings.Cut(url, "://")
	if !ok {
		if IsURL(url) {
			return nil // scp-like: ssh
		}
		return &URLError{URL: url, Msg: "not a URL; give https://host/owner/repo, ssh://…, git@host:owner/repo or file:///path"}
	}
	switch strings.ToLower(scheme) {
	case "https", "http":
		return pageURL(url)
	case "ssh", "git", "file":
		return nil
	}
	return &URLError{URL: url, Msg: fmt.Sprintf("the scheme %q is not taken; give https, http, ssh, git or file", scheme)}
}

// Display is url as messages and outputs show it: without the user and
// password of a scheme URL ("https://TOKEN@host/o/r" is
// "https://host/o/r"), which can be a credential.
func Display(url string) string {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	host, path, _ := strings.Cut(rest, "/")
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if strings.Contains(rest, "/") {
		return scheme + "://" + host + "/" + path
	}
	return scheme + "://" + host
}

// hideUser removes url's user and password from a message of git's.
func hideUser(msg, url string) string {
	if d := Display(url); d != url {
		msg = strings.ReplaceAll(msg, url, d)
		if scheme, rest, ok := strings.Cut(url, "://"); ok {
			host, _, _ := strings.Cut(rest, "/")
			if i := strings.LastIndexByte(host, '@'); i >= 0 {
				msg = strings.ReplaceAll(msg, scheme+"://"+host[:i+1], scheme+"://")
				msg = strings.ReplaceAll(msg, host[:i+1], "")
			}
		}
	}
	return msg
}

// pageURL refuses the address of a page of a repository on a forge
// (https://github.com/o/r/tree/main/src), which people copy from their
// browser, saying which URL, ref and path to give instead.
func pageURL(url string) error {
	_, rest, _ := strings.Cut(url, "://")
	parts := strings.Split(rest, "/")
	if len(parts) < 5 {
		return nil
	}
	host := strings.ToLower(parts[0][strings.LastIndexByte(parts[0], '@')+1:])
	if host != "github.com" && host != "gitlab.com" && host != "codeberg.org" && host != "bitbucket.org" {
		return nil
	}
	i := 3
	if parts[i] == "-" { // GitLab: /o/r/-/tree/main
		i++
	}
	if i+1 >= len(parts) || (parts[i] != "tree" && parts[i] != "blob" && parts[i] != "src") {
		return nil
	}
	repo := "https://" + host + "/" + parts[1] + "/" + parts[2]
	hint := "--remote-ref " + parts[i+1]
	if p := strings.Join(parts[i+2:], "/"); p != "" {
		hint += " " + p
	}
	return &URLError{URL: url, Msg: fmt.Sprintf("the address of a page, not of a repository; give ctxpack pack %s %s (a ref with a \"/\" in it is given whole with --remote-ref)", repo, hint)}
}

// Key is the name of url's checkout under the cache directory.
func Key(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:8])
}

// Fetch brings o.URL at o.Ref into the cache and returns its checkout.
// When the checkout already holds the commit the ref resolves to, it is
// reused as it is; otherwise the commit is fetched (depth 1) and checked
// out, replacing what the checkout held (files ctxpack keeps in its
// .ctxpack folder stay).
func Fetch(ctx context.Context, o Options) (*Checkout, error) {
	if err := CheckURL(o.URL); err != nil {
		return nil, err
	}
	if strings.HasPrefix(o.Ref, "-") || strings.ContainsAny(o.Ref, " \t\n\x00") || strings.Contains(o.Ref, "..") {
		return nil, &RefError{URL: o.URL, Ref: o.Ref}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("remote: git is needed to clone %s, and is not installed: %w", Display(o.URL), err)
	}
	commit, name, err := resolve(ctx, o.URL, o.Ref)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("remote: cache: %w", err)
	}
	dir := filepath.Join(o.CacheDir, Key(o.URL))
	unlock, err := lock(ctx, dir+".lock", o.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer unlock()

	want := commit
	if want == "" {
		want = strings.ToLower(o.Ref) // a commit id the remote does not advertise
	}
	if head, err := git(ctx, dir, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err == nil && head == want && clean(ctx, dir) {
		return &Checkout{Dir: dir, Commit: head, Reused: true}, nil
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("remote: cache: %w", err)
		}
		if _, err := git(ctx, "", "init", "-q", "--", dir); err != nil {
			return nil, fmt.Errorf("remote: cache: %w", err)
		}
	}
	// A ref is fetched by its name, which every server allows; a commit
	// by its id.
	fetch := name
	if fetch == "" {
		fetch = want
	}
	if _, err := git(ctx, dir, "fetch", "-q", "--depth", "1", "--no-tags", "--", o.URL, fetch); err != nil {
		if commit == "" {
			return nil, &RefError{URL: o.URL, Ref: o.Ref}
		}
		return nil, &URLError{URL: o.URL, Msg: gitMessage(err)}
	}
	if _, err := git(ctx, dir, "checkout", "-q", "--force", "--detach", "FETCH_HEAD"); err != nil {
		return nil, fmt.Errorf("remote: %s: check out %s: %s", Display(o.URL), want, hideUser(gitMessage(err), o.URL))
	}
	if _, err := git(ctx, dir, "clean", "-q", "-f", "-f", "-d", "-x", "-e", "/.ctxpack/"); err != nil {
		return nil, fmt.Errorf("remote: %s: clean the checkout: %s", Display(o.URL), hideUser(gitMessage(err), o.URL))
	}
	head, err := git(ctx, dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("remote: %s: %s", Display(o.URL), hideUser(gitMessage(err), o.URL))
	}
	if commit == "" && head != want {
		return nil, &RefError{URL: o.URL, Ref: o.Ref}
	}
	// A ref that moved since ls-remote gives its newer commit: the one
	// checked out is the one reported.
	return &Checkout{Dir: dir, Commit: head}, nil
}

// hexRef is what a commit id, whole or abbreviated, looks like.
var hexRef = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// resolve asks the remote which commit ref names, and the full name of
// the remote's ref that does ("HEAD", "refs/heads/main"; "" for a commit
// id). The commit is "" when ref looks like a commit id the remote does
// not advertise (fetched by id then).
func resolve(ctx context.Context, url, ref string) (commit, name string, err error) {
	out, err := git(ctx, "", "ls-remote", "--", url)
	if err != nil {
		return "", "", &URLError{URL: url, Msg: gitMessage(err)}
	}
	refs := map[string]string{}
	var known []string
	for _, line := range strings.Split(out, "\n") {
		id, name, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		refs[name] = id
		if short, ok := strings.CutPrefix(name, "refs/heads/"); ok {
			known = append(known, short)
		} else if short, ok := strings.CutPrefix(name, "refs/tags/"); ok && !strings.HasSuffix(short, "^{}") {
			known = append(known, short)
		}
	}
	var names []string
	switch {
	case ref == "":
		names = []string{"HEAD"}
	case strings.HasPrefix(ref, "refs/"):
		names = []string{ref + "^{}", ref}
	default:
		names = []string{"refs/heads/" + ref, "refs/tags/" + ref + "^{}", "refs/tags/" + ref}
	}
	for _, n := range names {
		if id := refs[n]; id != "" {
			return id, strings.TrimSuffix(n, "^{}"), nil
		}
	}
	if ref == "" {
		return "", "", &URLError{URL: url, Msg: "the remote has no default branch (HEAD); give a ref"}
	}
	if hexRef.MatchString(ref) {
		// A commit a ref points at, by its id or a prefix that names one
		// commit; else one fetched by its full id.
		found := map[string]bool{}
		for _, id := range refs {
			if strings.HasPrefix(id, strings.ToLower(ref)) {
				found[id] = true
			}
		}
		if len(found) == 1 {
			for id := range found {
				return id, "", nil
			}
		}
		return "", "", nil
	}
	slices.Sort(known)
	known = slices.Compact(known)
	if len(known) > 10 {
		known = append(known[:10], "…")
	}
	return "", "", &RefError{URL: url, Ref: ref, Known: known}
}

// clean reports whether the checkout's tracked files are as committed.
func clean(ctx context.Context, dir string) bool {
	out, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=no")
	return err == nil && out == ""
}

// lock takes the checkout's lock file, waiting up to timeout.
func lock(ctx context.Context, path string, timeout time.Duration) (func(), error) {
	if timeout <= 0 {
		timeout = time.Minute
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("remote: cache: %w", err)
	}
	if err := filelock.Lock(ctx, f, filelock.Options{Timeout: timeout}); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("remote: %s is held by another ctxpack (waited %s)", path, timeout)
		}
		return nil, fmt.Errorf("remote: cache: %w", err)
	}
	return func() { f.Close() }, nil
}

// gitError is a git command that failed, with its standard error.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), gitMessage(e))
}

// gitMessage is what git complained with: its first "fatal: " or
// "error: " line without the prefix, else its last line, else the error
// itself.
func gitMessage(err error) string {
	var ge *gitError
	if !errors.As(err, &ge) {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(ge.stderr), "\n")
	for _, l := range lines {
		for _, p := range []string{"fatal: ", "error: "} {
			if m, ok := strings.CutPrefix(strings.TrimSpace(l), p); ok && m != "" {
				return m
			}
		}
	}
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return ge.err.Error()
}

// git runs git in dir ("" for none) with prompts, hooks, LFS smudging
// and the caller's repository variables off, and returns its standard
// output, trimmed.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	full := []string{
		"-c", "core.hooksPath=" + os.DevNull,
		"-c", "protocol.ext.allow=never",
		"-c", "advice.detachedHead=false",
		"-c", "core.fsmonitor=false",
	}
	if dir != "" {
		full = append(full, "-C", dir)
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = environ()
	if dir != "" {
		// Never a repository above the checkout, when its .git is missing.
		cmd.Env = append(cmd.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// environ is the process's environment for git: without the variables
// that would point it at another repository, with prompts off and LFS
// smudging off.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
			"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
			"GIT_TERMINAL_PROMPT", "GIT_LFS_SKIP_SMUDGE", "GCM_INTERACTIVE", "GIT_ASKPASS", "SSH_ASKPASS":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_LFS_SKIP_SMUDGE=1", "GCM_INTERACTIVE=never")
	if os.Getenv("GIT_SSH_COMMAND") == "" && os.Getenv("GIT_SSH") == "" {
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return env
}
