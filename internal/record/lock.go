package record

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// errLocked is what tryLock returns when another process holds the lock.
var errLocked = errors.New("locked")

// openLock opens the file at p (created if missing) and takes an
// exclusive advisory lock on it, waiting up to wait; the operating system
// releases it if the process dies. The lock file is a separate file so
// that rotating the log (a rename) never hands a waiting process a lock on
// the old file; it also holds the log's state (see Append). Close it with
// unlock.
func openLock(p string, wait time.Duration) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("record: lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := tryLock(f)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, errLocked) {
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

// unlock releases and closes a file from openLock.
func unlock(f *os.File) {
	unlockFile(f)
	f.Close()
}
