package project

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// NotRegularError is a path whose content was to be read but that names
// something else than a regular file: a named pipe, a socket, a device or
// a directory. Reading a named pipe blocks until some other process
// writes, and a device such as /dev/zero never ends: ctxpack reads
// neither.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return e.Path + " is " + e.Reason()
}

// Reason is the error without the path, as a walk's Skipped reasons read.
func (e *NotRegularError) Reason() string {
	return FileKind(e.Mode) + ", not a regular file: ctxpack reads only regular files"
}

// FileKind names what a file mode is, for messages: "a named pipe
// (FIFO)", "a socket", "a character device", "a directory"….
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "an irregular file"
}

// TooLargeError is a file over the size limit of what reads it whole.
type TooLargeError struct {
	Path  string
	Size  int64 // its size, or for a file that grew while read, the bytes read
	Limit int64
	Grew  bool // it was within the limit when opened and grew past it while read
}

func (e *TooLargeError) Error() string { return e.Path + " is " + e.Reason() }

// Reason is the error without the path, in the words of a walk's Skipped
// reasons: "too large (3.2 MiB > 1 MiB limit)".
func (e *TooLargeError) Reason() string {
	s, l := formatBytes(e.Size, e.Limit)
	if e.Grew {
		return "too large (over " + l + " limit: it grew while being read)"
	}
	return "too large (" + s + " > " + l + " limit)"
}

// ReadReason is the reason a file could not be read, without its path
// when the error carries one: for lists of skipped files, whose entries
// name the file themselves.
func ReadReason(err error) string {
	var nr *NotRegularError
	var tl *TooLargeError
	switch {
	case errors.As(err, &nr):
		return nr.Reason()
	case errors.As(err, &tl):
		return tl.Reason()
	}
	return unreadable(err)
}

// DirFS is os.DirFS(dir), except that it opens files without blocking: a
// named pipe opens at once instead of waiting for a writer, so that the
// mode of what was opened can be checked before anything is read (which
// ReadText, ReadFile, Walk and the artifact loader do), and ReadFile
// refuses what is not a regular file. It implements fs.StatFS,
// fs.ReadDirFS, fs.ReadFileFS and fs.ReadLinkFS as os.DirFS does.
func DirFS(dir string) fs.FS {
	return dirFS{osFS: os.DirFS(dir).(osFS), dir: dir}
}

// osFS is what os.DirFS implements besides Open.
type osFS interface {
	fs.StatFS
	fs.ReadDirFS
	fs.ReadLinkFS
}

type dirFS struct {
	osFS
	dir string
}

func (d dirFS) Open(name string) (fs.File, error) {
	full, err := d.join("open", name)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(full, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name // as os.DirFS reports it
		}
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file name whole; anything else is a
// *NotRegularError.
func (d dirFS) ReadFile(name string) ([]byte, error) {
	return ReadFile(d, name, 0)
}

// join is dir/name for a valid fs.FS name, as os.DirFS makes it.
func (d dirFS) join(op, name string) (string, error) {
	if !fs.ValidPath(name) || runtime.GOOS == "windows" && strings.ContainsAny(name, `\:`) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if d.dir == "" {
		return "", &fs.PathError{Op: op, Path: name, Err: errors.New("os: DirFS with empty root")}
	}
	return filepath.Join(d.dir, filepath.FromSlash(name)), nil
}

// OpenRegular opens the regular file name of fsys for reading its
// content, refusing anything else with a *NotRegularError and, when
// limit > 0, a file over limit bytes with a *TooLargeError. The mode and
// size are checked before the file is opened when fsys implements
// fs.StatFS, and always on the file opened, which is what counts: a file
// swapped for a named pipe in between is refused too (and with an fsys
// from DirFS, opening the pipe does not block).
func OpenRegular(fsys fs.FS, name string, limit int64) (fs.File, fs.FileInfo, error) {
	if sfs, ok := fsys.(fs.StatFS); ok {
		info, err := sfs.Stat(name)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				pe.Op = "open" // what the caller asked for, as fs.ReadFile reports it
			}
			return nil, nil, err
		}
		if err := checkRegular(name, info, limit); err != nil {
			return nil, nil, err
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := checkRegular(name, info, limit); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

func checkRegular(name string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return &NotRegularError{Path: name, Mode: info.Mode()}
	}
	if limit > 0 && info.Size() > limit {
		return &TooLargeError{Path: name, Size: info.Size(), Limit: limit}
	}
	return nil
}

// ReadFile reads the regular file name of fsys whole, as OpenRegular
// opens it: what is not a regular file is a *NotRegularError, and when
// limit > 0, a file over limit bytes (also one that grows past it while
// being read) is a *TooLargeError.
func ReadFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	var b bytesBuilder
	if err := readInto(fsys, name, limit, &b); err != nil {
		return nil, err
	}
	return b.buf, nil
}

// ReadPath is ReadFile for a path of the operating system.
func ReadPath(path string, limit int64) ([]byte, error) {
	data, err := ReadFile(DirFS(filepath.Dir(path)), filepath.Base(path), limit)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Path = path
	}
	var nr *NotRegularError
	if errors.As(err, &nr) {
		nr.Path = path
	}
	var tl *TooLargeError
	if errors.As(err, &tl) {
		tl.Path = path
	}
	return data, err
}

// builder is where readInto reads a file to.
type builder interface {
	io.Writer
	Grow(n int)
}

type bytesBuilder struct{ buf []byte }

func (b *bytesBuilder) Grow(n int) { b.buf = make([]byte, 0, n) }
func (b *bytesBuilder) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// readInto reads the regular file name whole into b, in one allocation
// of its size when its size is known.
func readInto(fsys fs.FS, name string, limit int64, b builder) error {
	f, info, err := OpenRegular(fsys, name, limit)
	if err != nil {
		return err
	}
	defer f.Close()
	if size := info.Size(); size > 0 && size < math.MaxInt32 {
		b.Grow(int(size))
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	buf := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(buf)
	n, err := io.CopyBuffer(b, onlyReader{r}, *buf)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok { // as fs.ReadFile reports it: by name
			err = &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return err
	}
	if limit > 0 && n > limit {
		return &TooLargeError{Path: name, Size: n, Limit: limit, Grew: true}
	}
	return nil
}
