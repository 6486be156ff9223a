//go:build unix

package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipes: a workspace file or focus record that is a named pipe
// is an error that says what it is, never read (reading it would wait for
// ever for a writer).
func TestNamedPipes(t *testing.T) {
	w := newWorkspace(t, "000_p.system.md")
	if err := os.MkdirAll(filepath.Join(w.Dir, EvidenceDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(w.Dir, EvidenceDir, "100_x.evidence.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(w.Dir, FocusFile), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		entries, _, err := w.List()
		if err != nil {
			t.Error(err)
			return
		}
		for _, e := range entries {
			if _, err := w.Read(e, 0); e.Role == Evidence && (err == nil || !strings.Contains(err.Error(), "ctx/evidence/100_x.evidence.md is a named pipe (FIFO), not a regular file")) {
				t.Errorf("Read(%s): %v", e.Rel, err)
			}
		}
		if _, err := w.Focused(); err == nil || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a regular file") {
			t.Errorf("Focused: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("reading a named pipe of the workspace has not returned after a minute")
	}
}
