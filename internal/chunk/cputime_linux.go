//go:build cgo && linux

package chunk

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the calling OS thread has used, and whether
// the platform measures it. Unlike the wall clock it does not grow while
// the thread waits for a core, so a parse's limit holds the same on a
// loaded machine as on an idle one.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
