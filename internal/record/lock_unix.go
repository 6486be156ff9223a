//go:build unix

package record

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive advisory lock on the file at p (created if
// missing), waiting up to wait; the operating system releases it if the
// process dies. The lock file is a separate file so that rotating the log
// (a rename) never hands a waiting process a lock on the old file.
func lockFile(p string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("record: lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("record: lock %s: %w", p, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("record: %s: another ctxpack has held the records lock for %s; the record is not written", p, wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
