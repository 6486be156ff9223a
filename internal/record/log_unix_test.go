//go:build unix

package record

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLogNamedPipe: a records log that is a named pipe is neither read
// nor appended to (either would wait for ever for another process): both
// are errors that say what the file is.
func TestLogNamedPipe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ctxpack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l := Log{Path: filepath.Join(dir, "records.jsonl"), Name: RelPath}
	if err := syscall.Mkfifo(l.Path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	const want = ".ctxpack/records.jsonl is a named pipe (FIFO), not a regular file"
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := l.Append(rec(1)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Append: %v, want %q", err, want)
		}
		if _, _, err := l.Read(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read: %v, want %q", err, want)
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Append or Read of a named pipe has not returned after a minute")
	}
}
