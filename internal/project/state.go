package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IsStateFile reports whether name, an entry of .ctxpack/, is one of
// ctxpack's own state files, which change whenever a command runs and so
// are never walked, indexed or part of a state root: the index and the
// sources store (index.db*, sources.db*, with their SQLite side files
// -wal, -shm and -journal, lock files and anything set aside beside
// them), the records (records.jsonl*), the caches (cache/) and the
// .gitignore that keeps all of these out of git (StateIgnoreText), which
// ctxpack writes when it first keeps state there. The configuration and
// the artifacts (system/, work/) are not state.
func IsStateFile(name string) bool {
	if name == "cache" || name == StateIgnoreName {
		return true
	}
	for _, prefix := range statePrefixes {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// statePrefixes are the names of ctxpack's state files in .ctxpack/ but
// for their suffixes (IsStateFile).
var statePrefixes = [...]string{"index.db", "sources.db", "records.jsonl"}

// StateIgnoreName is the name of the ignore file ctxpack keeps in
// .ctxpack/ (WriteStateIgnore).
const StateIgnoreName = ".gitignore"

// StateIgnoreText is the .ctxpack/.gitignore ctxpack writes: every state
// file of IsStateFile but the ignore file itself, which is meant to be
// committed with the configuration and the artifacts.
func StateIgnoreText() string {
	var b strings.Builder
	b.WriteString(`# ctxpack's state, which every command may rewrite: the index, the store
# of memories, experiences and values, the budget records, the caches, with
# their side files and locks. ctxpack writes this file when it first keeps
# state here and never changes it afterwards: edit it as you like. The
# configuration and the artifacts (config.yaml, system/, work/) and this
# file are meant to be committed.
`)
	for _, p := range statePrefixes {
		b.WriteString("/" + p + "*\n")
	}
	b.WriteString("/cache/\n")
	return b.String()
}

// WriteStateIgnore writes .ctxpack/.gitignore (StateIgnoreText) under
// root, an OS path, making .ctxpack/ if it is missing, unless the file
// exists: a user's own ignore file is never changed, not even to add a
// line. It reports whether it wrote the file.
func WriteStateIgnore(root string) (bool, error) {
	dir := filepath.Join(root, DirCtxpack)
	p := filepath.Join(dir, StateIgnoreName)
	if _, err := os.Lstat(p); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return false, fmt.Errorf("project: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return false, nil // another process wrote it first
	}
	if err != nil {
		return false, fmt.Errorf("project: %w", err)
	}
	_, err = f.WriteString(StateIgnoreText())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return false, fmt.Errorf("project: write %s: %w", filepath.ToSlash(filepath.Join(DirCtxpack, StateIgnoreName)), err)
	}
	return true, nil
}

// IsArtifactPath reports whether the slash path p is inside one of the
// artifact folders, .ctxpack/ or .contextia/ (or is one): the artifacts
// and the configuration, which ctxpack reads as such, and its state. The
// repository index leaves them out, so that an artifact is never also a
// chunk of code.
func IsArtifactPath(p string) bool {
	for _, d := range [...]string{DirCtxpack, DirContextia} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
