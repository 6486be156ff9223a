//go:build !unix && !windows

package index

import "os"

// tryLock cannot lock on this platform: concurrent updates are then
// serialized by SQLite's write lock alone.
func tryLock(f *os.File) error { return nil }

func unlockFile(f *os.File) error { return nil }
