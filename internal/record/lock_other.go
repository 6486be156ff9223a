//go:build !unix

package record

import "os"

// tryLock cannot lock on systems without flock: appends from several
// processes at once may interleave there.
func tryLock(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }
