//go:build !unix

package project

// openNonblock is 0 where there are no named pipes to open.
const openNonblock = 0
