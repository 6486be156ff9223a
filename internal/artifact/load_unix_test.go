//go:build unix

package artifact

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadFIFO checks that Load does not open a named pipe (which would
// block until a writer comes) and reports it.
func TestLoadFIFO(t *testing.T) {
	root := t.TempDir()
	specs := filepath.Join(root, ".ctxpack", "system", "specs")
	writeFile(t, filepath.Join(specs, "SPEC-1.md"), "---\nid: SPEC-1\n---\n")
	if err := syscall.Mkfifo(filepath.Join(specs, "fifo.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("fifo.md", filepath.Join(specs, "to-fifo.md")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	set, err := Load(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	list, problems := summary(set)
	want := []string{
		"artifact: .ctxpack/system/specs/fifo.md: not a regular file",
		"artifact: .ctxpack/system/specs/to-fifo.md: not a regular file",
	}
	if diff := cmp.Diff(want, problems); diff != "" || len(list) != 1 {
		t.Errorf("List %v, Problems (-want +got):\n%s", list, diff)
	}
}
