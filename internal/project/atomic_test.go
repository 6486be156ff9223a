package project

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "f.json")
	if err := WriteFileAtomic(name, []byte("one"), ".f.json.*", 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(name, []byte("two"), ".f.json.*", 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil || string(data) != "two" {
		t.Errorf("content %q, %v; want two", data, err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want the replaced file's 0600", fi.Mode().Perm())
	}
	entries, err := os.ReadDir(filepath.Dir(name))
	if err != nil || len(entries) != 1 {
		t.Errorf("the directory holds %v (%v); want the file alone, no temporary left", entries, err)
	}
	// A failed rename leaves no temporary file: here the target is a directory.
	if err := os.MkdirAll(filepath.Join(dir, "d", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "d", "x"), []byte("z"), "x.*", 0o644); err == nil {
		t.Errorf("replacing a non-empty directory worked")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "d")); len(entries) != 1 {
		t.Errorf("a failed write left %v", entries)
	}
}
