// Package cache is ctxpack's file cache: values keyed by a string, kept as
// one JSON file each under a directory (an assembly cache lives in
// .ctxpack/cache/assemblies/, a summary cache in .ctxpack/cache/summaries/).
//
// # Contracts
//
//   - A cache never changes an answer (DESIGN §2). An entry records the
//     sha256 of its key and of its content; Get checks both, and an entry
//     that does not verify (cut short, edited, another key's) is a miss and
//     is deleted. A value is stored only if JSON gives it back exactly:
//     one holding a string that is not valid UTF-8 (which encoding/json
//     would replace with U+FFFD) is refused with ErrNotExact.
//   - Atomic. Put writes a temporary file in the directory and renames it
//     over the entry, so a reader sees the old entry, the new one or none,
//     never half of one; a crash leaves at most a temporary file, which a
//     later Put removes once it is an hour old.
//   - Bounded. After each Put, entries are evicted, least recently used
//     first (oldest modification time; Get touches the entries it
//     returns; ties by name), until the directory holds at most MaxBytes.
//   - Failures are the caller's to ignore. Get reports only hits and
//     misses; Put returns an error, which callers treat as a warning at
//     most, since the answer is the same without the cache.
//
// Several processes may use one directory at once: entries are replaced
// whole, and a reader of an entry being evicted still reads it whole
// (POSIX) or misses.
//
// The zero Store is not usable; make one with New. A Store is safe for
// concurrent use.
package cache
