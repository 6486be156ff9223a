//go:build unix

package project

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// specialFiles makes, in a new directory, a regular file, a named pipe
// nobody writes to, a socket, a symlink to /dev/zero, a directory and a
// sparse file of 8 MiB.
func specialFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Skipf("a unix socket: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sparse"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "sparse"), 8<<20); err != nil {
		t.Fatal(err)
	}
	return dir
}

// guard fails the test when f has not returned after a minute: reading
// a named pipe blocks for ever, and /dev/zero never ends.
func guard(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s has not returned after a minute", what)
	}
}

// TestReadTextNotRegular: ReadText reads regular files only; a named pipe,
// a socket, a character device and a directory are refused at once with
// an error that names the path and says what it is, with the file system
// of os.DirFS as with DirFS.
func TestReadTextNotRegular(t *testing.T) {
	dir := specialFiles(t)
	for _, fsys := range []struct {
		name string
		fs   fs.FS
	}{{"os.DirFS", os.DirFS(dir)}, {"DirFS", DirFS(dir)}} {
		for _, tt := range []struct{ path, want string }{
			{"pipe", "pipe is a named pipe (FIFO), not a regular file"},
			{"sock", "sock is a socket, not a regular file"},
			{"zero", "zero is a character device, not a regular file"},
			{"sub", "sub is a directory, not a regular file"},
		} {
			guard(t, fsys.name+" ReadText("+tt.path+")", func() {
				_, _, err := ReadText(fsys.fs, tt.path)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: ReadText(%s): %v, want an error saying %q", fsys.name, tt.path, err, tt.want)
				}
			})
		}
		text, _, err := ReadText(fsys.fs, "ok.txt")
		if err != nil || text != "hello\n" {
			t.Errorf("%s: ReadText(ok.txt) = %q, %v", fsys.name, text, err)
		}
	}
}

// TestReadLimits: the readers that take a limit refuse a file over it,
// naming its size and the limit, without reading it.
func TestReadLimits(t *testing.T) {
	dir := specialFiles(t)
	fsys := DirFS(dir)
	const want = "sparse is too large (8 MiB > 1 MiB limit)"
	_, _, err := ReadTextLimit(fsys, "sparse", 1<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadTextLimit(sparse, 1 MiB): %v, want %q", err, want)
	}
	if _, err := ReadFile(fsys, "sparse", 1<<20); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadFile(sparse, 1 MiB): %v, want %q", err, want)
	}
	if _, err := ReadPath(filepath.Join(dir, "sparse"), 1<<20); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "sparse")+" is too large") {
		t.Errorf("ReadPath(sparse, 1 MiB): %v, want the whole path", err)
	}
	if text, _, err := ReadTextLimit(fsys, "ok.txt", 6); err != nil || text != "hello\n" {
		t.Errorf("ReadTextLimit(ok.txt, its size) = %q, %v", text, err)
	}
	if _, _, err := ReadTextLimit(fsys, "ok.txt", 5); !errors.As(err, &tl) || tl.Size != 6 || tl.Limit != 5 {
		t.Errorf("ReadTextLimit(ok.txt, 5): %v", err)
	}
}

// TestDirFS: DirFS opens a named pipe without blocking, and its ReadFile
// (which fs.ReadFile uses) refuses what is not a regular file; otherwise
// it is os.DirFS.
func TestDirFS(t *testing.T) {
	dir := specialFiles(t)
	fsys := DirFS(dir)
	guard(t, "DirFS.Open(pipe)", func() {
		f, err := fsys.Open("pipe")
		if err != nil {
			t.Errorf("Open(pipe): %v", err)
			return
		}
		info, err := f.Stat()
		if err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("Open(pipe).Stat() = %v, %v", info, err)
		}
		f.Close()
	})
	guard(t, "fs.ReadFile(DirFS, pipe)", func() {
		var nr *NotRegularError
		if _, err := fs.ReadFile(fsys, "pipe"); !errors.As(err, &nr) {
			t.Errorf("fs.ReadFile(pipe): %v, want a *NotRegularError", err)
		}
	})
	if data, err := fs.ReadFile(fsys, "ok.txt"); err != nil || string(data) != "hello\n" {
		t.Errorf("fs.ReadFile(ok.txt) = %q, %v", data, err)
	}
	if _, err := fsys.Open("../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Open(../x): %v, want fs.ErrInvalid", err)
	}
	if _, err := fsys.Open("missing"); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "open missing:") {
		t.Errorf("Open(missing): %v", err)
	}
	if _, ok := fsys.(fs.ReadLinkFS); !ok {
		t.Error("DirFS is no fs.ReadLinkFS: Walk could not follow symlinks")
	}
	if target, err := fsys.(fs.ReadLinkFS).ReadLink("zero"); err != nil || target != "/dev/zero" {
		t.Errorf("ReadLink(zero) = %q, %v", target, err)
	}
	files, skipped, err := Walk(fsys, nil, WalkOptions{})
	if err != nil || len(files) != 1 || len(skipped) != 4 {
		t.Errorf("Walk: %v files, %v skipped, %v; want ok.txt, and pipe, sock, sparse and zero skipped", files, skipped, err)
	}
}
