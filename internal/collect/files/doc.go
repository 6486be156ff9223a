// Package files is pack mode's collector: it turns the paths of a pack
// into one part per file, ranked, for the engine (internal/pack) to fit.
// It walks, reads and ranks; it never renders, fits or allocates.
//
// Collect walks the request's roots (internal/project's Walk: bytewise
// path order, ignore files honoured, binary and oversized files
// skipped), reads every file listed, in parallel, and makes each a part
// with a meta level (language, lines, bytes) and its full text through a
// pack.Loader: the collection holds each file's length, line count,
// content id and checksum, not its text, and the engine reads the file
// again when it needs the text. A part also gives its extractive summary
// and detailed levels lazily, through pack.Part.More (called only when a
// level below full is wanted). Under a budget (Request.Ranked) parts are
// scored by structure:
//
//	score = (0.6 × centrality + 0.3 × recency + 0.1 × file_type) / weights
//
// centrality is the file's PageRank in the graph of references between
// the files (internal/refgraph), recency 0.5^(days older than the newest
// file / 7) from git commit times (0 for files git does not know; the
// factor and its weight are left out when git knows none), file_type the
// priority of the file's kind (source 1, tests 0.9, requirements 0.8,
// docs 0.7, config 0.6, other 0.5). With Request.Query the score is the
// file's relevance to the query, as Request.Relevance gives it, instead.
// Without either, the score is the file_type priority alone. Every factor
// is rounded to millionths before it is weighed and is reported in the
// part's Components.
//
// Contracts:
//
//   - Determinism. The collection depends only on the files' contents,
//     their git history and the request: parts are in walk order, whatever
//     order the parallel reads finish in, whatever GOMAXPROCS and whatever
//     the order the walk visits files in (Request.Reverse); warnings are
//     sorted.
//   - Memory. What Collect keeps of a file is a few hundred bytes; its
//     text is read on up to GOMAXPROCS goroutines at a time and dropped.
//     The reference graph needs each text twice: once for the names the
//     file defines, once (after every file's) for the names it uses.
//   - Failures. A file that cannot be read is skipped with a warning;
//     invalid UTF-8 is replaced with U+FFFD, with a warning. Collect fails
//     only when a root cannot be walked, git history cannot be read, the
//     query ranking fails, a file changes between two reads, or ctx is
//     done. A part's Loader fails when its file is no longer the one read
//     (its length and CRC-32C differ), which fails the assembly: the
//     output never mixes two versions of a file. Env.FS must stay
//     readable until the parts are assembled.
//   - Concurrency. Collect reads on up to GOMAXPROCS goroutines and
//     returns when they are done; it is safe for concurrent use when
//     Env.FS is.
package files
