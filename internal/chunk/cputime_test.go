//go:build cgo && linux

package chunk

import (
	"runtime"
	"testing"
	"time"
)

// A parse's clock counts the thread's CPU time, not time spent waiting:
// on a loaded machine a parse that waits for a core must not run out of
// time and fall back to the heuristics, which would chunk the same file
// another way.
func TestParseClockIgnoresWaiting(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	elapsed := parseClock()
	time.Sleep(300 * time.Millisecond)
	if e := elapsed(); e >= 100*time.Millisecond {
		t.Errorf("after a 300 ms sleep the parse clock reads %v: it counts waiting", e)
	}
	spin := time.Now()
	for time.Since(spin) < 50*time.Millisecond {
	}
	if e := elapsed(); e <= 0 {
		t.Errorf("after 50 ms of work the parse clock reads %v: it counts nothing", e)
	}
}
