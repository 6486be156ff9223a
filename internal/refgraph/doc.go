// Package refgraph ranks the files of a project by structure: it builds the
// graph of references between files and computes its PageRank, the idea of
// Aider's repository map, done deterministically. ctxpack's budgeted pack
// uses the result as the centrality factor of a file's score.
//
// Contracts:
//
//   - Definitions. A file defines the names of its top-level units, the
//     names chunk.Split gives them, last part only ("(*Server).ServeHTTP"
//     defines ServeHTTP, "Invoice.total" total, "Money::new" new):
//     functions, methods, types, classes, interfaces, enums, modules,
//     macros, variables and constants, with class members in the
//     languages that have them. They are found by a lexical scan, not a
//     parse (goDefs for Go, exact for every name chunk.Split gives a Go
//     file; otherDefs for Python, JavaScript, TypeScript, C, C++, Java,
//     C#, Kotlin, Scala, Rust and Swift, which finds nine in ten of those
//     names and some members besides): go/parser and tree-sitter read
//     65 MB/s and about 5 MB/s, too slow for the budget of a pack over a
//     large tree. Documentation, data and other files define nothing. Go's
//     predeclared identifiers (len, error, append…) and the keywords and
//     built-in types of the other languages define nothing either.
//   - Uses. A file uses every identifier token of its text (ASCII letters,
//     digits and '_', and non-ASCII bytes) that is not in a comment or a
//     string or character literal of its language; in documentation and
//     other files every word counts.
//   - Edges. A file that uses a name gets an edge to each file that
//     defines it, unless: the name is shorter than MinIdentLen; the file
//     defines the name itself (a self-reference); or the name is defined
//     in more than MaxDefiners of the files the use can see. A use sees
//     the definitions of its own language family (Go, Python, JavaScript
//     and TypeScript, C and C++, JVM languages, C#, Rust, Swift); a file
//     of no family (documentation) sees the definitions of every family
//     whose names are not words of prose (letters only, lower case after
//     the first: "list", "Server"), so that it refers to ServeHTTP,
//     buf_append or utf8 but not to whatever defines "list". An
//     unexported Go name is seen only by the Go files of its directory.
//     The weight of the edge from A to B sums, over the names A uses and
//     B defines, sqrt(uses of the name in A) × ln(1 + files / files using
//     the name) / definers the use sees: names used more often weigh
//     more, but less than in proportion, and names that are rare, or
//     defined in one place, weigh more than common ones (Aider weighs
//     names defined in many files down, and uses the square root too).
//   - Ranking. PageRank with damping Damping: rank flows along edges in
//     proportion to their weight; a file with no edges spreads its rank
//     evenly. The iteration starts from the uniform vector and stops when
//     the ranks change by less than Tolerance in total, or after
//     MaxIterations. Centrality is each file's rank divided by the largest,
//     rounded to millionths (DESIGN §2); with no edges every file has 1.
//   - Determinism. Build's result depends only on the set of files: not
//     on their order, GOMAXPROCS, goroutine scheduling or map order. Files
//     are nodes in path order; parallel work is stored by file index, each
//     sum is taken in a fixed order, and convergence is measured serially.
//   - Memory. Build holds every text at once. A collector that reads a
//     large tree can make the same graph holding none: Scan each file's
//     definitions, number them with NewNames, then find each file's uses
//     with Names.Uses (reading the file again) and make the graph with
//     Names.Graph. Scan and Uses keep nothing of the text they are given.
//   - Concurrency. Build uses up to GOMAXPROCS goroutines; Scan and
//     Names.Uses may be called from many; a Graph is immutable and safe
//     for concurrent use. The zero Graph is empty.
package refgraph
