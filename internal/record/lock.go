package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ctxpack/ctxpack/internal/filelock"
)

// openLock opens the file at p (created if missing) and takes an
// exclusive advisory lock on it (package filelock), waiting up to wait;
// the operating system releases it if the process dies. The lock file is
// a separate file so that rotating the log (a rename) never hands a
// waiting process a lock on the old file; it also holds the log's state
// (see Append). Close it with unlock.
func openLock(p string, wait time.Duration) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("record: lock: %w", err)
	}
	switch err := filelock.Lock(context.Background(), f, filelock.Options{Timeout: wait}); {
	case errors.Is(err, filelock.ErrLocked):
		f.Close()
		return nil, fmt.Errorf("record: %s: another ctxpack has held the records lock for %s; the record is not written", p, wait)
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("record: lock %s: %w", p, err)
	}
	return f, nil
}

// unlock releases and closes a file from openLock.
func unlock(f *os.File) {
	filelock.Unlock(f)
	f.Close()
}
