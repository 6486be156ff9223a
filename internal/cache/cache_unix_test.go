//go:build unix

package cache

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestGetNotRegular: an entry that is a named pipe, or a link to a
// device, is a miss, and is never read (a pipe would block, /dev/zero
// never end); Put replaces it.
func TestGetNotRegular(t *testing.T) {
	s := New(t.TempDir(), 0)
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(s.path("pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/null", s.path("null")); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, key := range []string{"pipe", "null"} {
			var v string
			if s.Get(key, &v) {
				t.Errorf("Get(%s) hit", key)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Get of a named pipe has not returned after a minute")
	}
	if err := s.Put("pipe", "v"); err != nil {
		t.Fatal(err)
	}
	var v string
	if !s.Get("pipe", &v) || v != "v" {
		t.Errorf("after Put: %q", v)
	}
}
