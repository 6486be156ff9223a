//go:build unix

package project

import "syscall"

// openNonblock opens a named pipe without waiting for a writer; it changes
// nothing for regular files and directories.
const openNonblock = syscall.O_NONBLOCK
