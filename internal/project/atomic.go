package project

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic replaces the file name with data, or creates it, through
// a temporary file in the same directory (made if missing) named by
// pattern, as os.CreateTemp takes it: a reader sees the old content or the
// new, never part of either. The file keeps the mode of the one it
// replaces; a new one gets perm. The errors are the operating system's,
// for the caller to wrap.
func WriteFileAtomic(name string, data []byte, pattern string, perm fs.FileMode) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return err
	}
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
