//go:build cgo && !linux

package chunk

import "time"

// threadCPU reports that this platform's thread CPU time is not measured
// here: parses are limited by the wall clock (see parseClock).
func threadCPU() (time.Duration, bool) { return 0, false }
