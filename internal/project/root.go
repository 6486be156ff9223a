package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The artifact directories, in order of preference.
const (
	DirCtxpack   = ".ctxpack"
	DirContextia = ".contextia" // the Contextia layout, read as-is
)

// FindRoot walks up from start, like git, to the nearest directory holding
// a .ctxpack or .contextia directory or .git (a directory, or the file of a
// worktree or submodule); the nearest marker wins, so a stray ~/.ctxpack
// never captures the projects below it. With no marker it returns start
// itself, or its directory when start is a file. The result is absolute
// and clean. Directories that cannot be read are treated as not holding
// anything.
func FindRoot(start string) (string, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("project: find root: %w", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("project: find root: %w", err)
	}
	if !info.IsDir() {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; {
		if isDir(filepath.Join(dir, DirCtxpack)) || isDir(filepath.Join(dir, DirContextia)) {
			return dir, nil
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return abs, nil
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// ArtifactDir returns the folder that holds the project's artifacts and
// configuration: DirCtxpack or DirContextia, whichever holds config.yaml,
// system/ or work/ (DirCtxpack when both do); failing that, whichever
// exists (DirCtxpack first); "" when neither does. A .ctxpack/ that holds
// only ctxpack's own index, made by `ctxpack index` in a Contextia
// project, does not hide .contextia/.
func ArtifactDir(fsys fs.FS) string {
	dirs := []string{DirCtxpack, DirContextia}
	for _, d := range dirs {
		for _, marker := range []string{"config.yaml", "system", "work"} {
			if _, err := fs.Stat(fsys, d+"/"+marker); err == nil {
				return d
			}
		}
	}
	for _, d := range dirs {
		if info, err := fs.Stat(fsys, d); err == nil && info.IsDir() {
			return d
		}
	}
	return ""
}

// ConfigPath returns the path of the project's configuration file in fsys:
// config.yaml in ArtifactDir(fsys), or in .ctxpack when there is none yet.
func ConfigPath(fsys fs.FS) string {
	d := ArtifactDir(fsys)
	if d == "" {
		d = DirCtxpack
	}
	return d + "/config.yaml"
}

// Resolve maps p, a path the user gave (relative to cwd, or absolute), to a
// slash path relative to root ("." for root itself). root must be absolute;
// a relative cwd is taken relative to root.
//
// It refuses paths that leave root: through "..", as an absolute path
// elsewhere, or through a symlink whose target is outside root (checked for
// the part of p that exists; a broken symlink is refused). A path that
// reaches root through another name of it (root itself behind a symlink) is
// accepted. p need not exist.
func Resolve(root, cwd, p string) (string, error) {
	if p == "" {
		return "", errors.New("project: empty path")
	}
	if !filepath.IsAbs(root) {
		return "", fmt.Errorf("project: resolve %s: project root %q is not absolute", p, root)
	}
	root = filepath.Clean(root)
	if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(root, cwd)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	rel, inside := within(root, abs)

	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("project: resolve %s: %w", p, err)
	}
	realAbs, err := evalExisting(abs)
	if err != nil {
		return "", fmt.Errorf("project: resolve %s: %w", p, err)
	}
	realRel, realInside := within(realRoot, realAbs)
	switch {
	case inside && realInside:
		return filepath.ToSlash(rel), nil
	case realInside:
		return filepath.ToSlash(realRel), nil
	case inside:
		return "", fmt.Errorf("project: %s: a symlink leads outside the project root %s (to %s)", p, root, realAbs)
	default:
		return "", fmt.Errorf("project: %s: outside the project root %s", p, root)
	}
}

// within reports whether p is root or below it, and p relative to root.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:2] == ".." && os.IsPathSeparator(rel[2]) {
		return "", false
	}
	return rel, true
}

// evalExisting resolves the symlinks in the longest existing prefix of the
// absolute path p and appends the rest. A broken symlink is an error.
func evalExisting(p string) (string, error) {
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if info, lerr := os.Lstat(p); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return "", fmt.Errorf("broken symlink %s: %w", p, err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
