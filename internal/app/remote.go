package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/remote"
)

// Remote is the repository a project opened with OpenRemote comes from.
type Remote struct {
	URL    string // without a user or password it held (remote.Display)
	Ref    string // as asked; "" for the remote's default branch
	Commit string // the commit packed
	Reused bool   // the cache held it already: nothing was fetched
}

// RemoteError is a remote repository that cannot be packed: its URL
// cannot be cloned, or it has no such ref. It is the caller's mistake, as
// a *PathError is.
type RemoteError struct{ Err error }

func (e *RemoteError) Error() string { return Message(e.Err) }
func (e *RemoteError) Unwrap() error { return e.Err }

// IsRemoteURL reports whether a pack's path argument is a repository URL
// ("https://…", "file://…", "git@host:owner/repo") rather than a path.
func IsRemoteURL(s string) bool { return remote.IsURL(s) }

// ShowURL is a repository URL as messages show it: without a user or
// password it holds, quoted when it holds a control character.
func ShowURL(url string) string { return remote.Show(url) }

// RemoteCacheDir is where remote repositories are cloned:
// os.UserCacheDir()/ctxpack/remote ($XDG_CACHE_HOME/ctxpack/remote or
// ~/.cache/ctxpack/remote on Linux).
func RemoteCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("ctxpack: remote: no cache directory for the clone: %w", err)
	}
	return filepath.Join(d, "ctxpack", "remote"), nil
}

// OpenRemote brings the repository at url, at ref ("" for its default
// branch), into the cache (a shallow clone, reused while ref resolves to
// the commit it holds: internal/remote) and opens it as a project.
//
// The repository is not trusted: its own .ctxpack/config.yaml is not
// read (a configuration could name an embedding endpoint and an API key
// variable, or turn redaction off); the project has ctxpack's defaults,
// or the configuration file configPath names (relative to the working
// directory dir). Paths of a request are relative to the clone's root.
// Nothing is recorded for it (Project.Record writes nothing: the clone
// is a cache no one reads records from); the repository index a
// --query ranking needs is kept in the clone's .ctxpack, in the cache.
func OpenRemote(ctx context.Context, url, ref, dir, configPath string) (*Project, error) {
	cache, err := RemoteCacheDir()
	if err != nil {
		return nil, err
	}
	co, err := remote.Fetch(ctx, remote.Options{URL: url, Ref: ref, CacheDir: cache})
	if err != nil {
		var ue *remote.URLError
		var re *remote.RefError
		if errors.As(err, &ue) || errors.As(err, &re) {
			return nil, &RemoteError{Err: err}
		}
		return nil, err
	}
	p := &Project{Root: co.Dir, Dir: co.Dir, FS: project.DirFS(co.Dir), Config: project.Defaults()}
	p.Remote = &Remote{URL: remote.Display(url), Ref: ref, Commit: co.Commit, Reused: co.Reused}
	if configPath != "" {
		abs := configPath
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("ctxpack: config file: %w", err)
		}
		if err := p.loadConfig(project.DirFS(filepath.Dir(abs)), filepath.Base(abs)); err != nil {
			return nil, err
		}
	}
	return p, nil
}
