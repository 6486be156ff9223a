// Package filelock takes exclusive advisory locks on open files: flock on
// Unix, LockFileEx on one byte far past the start on Windows (so that the
// holder may write a note at the start of the file for others to read),
// none on other systems, where TryLock always succeeds.
//
// A lock belongs to the open file, not to the process: two opens of one
// path in one process exclude each other too. The operating system
// releases a lock when its holder exits, however it exits.
package filelock

import (
	"context"
	"errors"
	"os"
	"time"
)

// ErrLocked is what TryLock returns when the lock is held elsewhere.
var ErrLocked = errors.New("filelock: locked")

// Options say how Lock waits.
type Options struct {
	// Timeout is how long to wait for the lock; 0 or less tries once.
	Timeout time.Duration
	// Poll is the time between tries; 0 is 10ms.
	Poll time.Duration
	// Waiting, when set, is called once, before the first wait.
	Waiting func()
}

// Lock takes the exclusive lock on f, trying again every Poll until
// Timeout has passed since the first try. It returns ErrLocked when the
// time is up, ctx.Err() when ctx is done first, or the error TryLock
// returned that is not ErrLocked. It does not close f.
func Lock(ctx context.Context, f *os.File, o Options) error {
	poll := o.Poll
	if poll <= 0 {
		poll = 10 * time.Millisecond
	}
	start := time.Now()
	for told := false; ; told = true {
		err := TryLock(f)
		if err == nil || !errors.Is(err, ErrLocked) {
			return err
		}
		waited := time.Since(start)
		if waited >= o.Timeout {
			return err
		}
		if !told && o.Waiting != nil {
			o.Waiting()
		}
		t := time.NewTimer(min(poll, o.Timeout-waited))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
