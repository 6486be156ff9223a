//go:build unix || windows

package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func open(t *testing.T, p string) *os.File {
	t.Helper()
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestLock: two opens of one file exclude each other; a waiter gives up
// after its timeout, having been told once that it waits, or when its
// context is done; it gets the lock once the holder unlocks.
func TestLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, p), open(t, p)
	ctx := context.Background()
	if err := Lock(ctx, a, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock of a held lock: %v", err)
	}

	told := 0
	start := time.Now()
	err := Lock(ctx, b, Options{Timeout: 50 * time.Millisecond, Poll: 5 * time.Millisecond, Waiting: func() { told++ }})
	if !errors.Is(err, ErrLocked) || told != 1 {
		t.Errorf("Lock of a held lock: %v, told %d times; want ErrLocked, told once", err, told)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("gave up after %s, before the timeout", waited)
	}
	if err := Lock(ctx, b, Options{Timeout: -1, Waiting: func() { t.Error("told to wait with no timeout") }}); !errors.Is(err, ErrLocked) {
		t.Errorf("Lock with no timeout: %v", err)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Lock(cctx, b, Options{Timeout: time.Minute}); !errors.Is(err, context.Canceled) {
		t.Errorf("Lock with a done context: %v", err)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(20 * time.Millisecond)
		Unlock(a)
	}()
	if err := Lock(ctx, b, Options{Timeout: 10 * time.Second}); err != nil {
		t.Errorf("Lock after the holder unlocks: %v", err)
	}
	<-done
	if err := Unlock(b); err != nil {
		t.Error(err)
	}
}
