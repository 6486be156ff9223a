// Package chunk splits source files into syntactic units (DESIGN §5) and
// extracts the summary and detailed levels of code files (DESIGN §3). It is
// what the repository index stores and what pack mode shows of a file it
// cannot show whole.
//
// Contracts:
//
//   - Tiling. Split's chunks cover the source exactly: the first starts at
//     byte 0, each starts where the one before it ends, the last ends at
//     len(src), none is empty, none is longer than MaxChunkBytes, and Seq
//     counts from 0. StartLine and EndLine are 1-based and inclusive: the
//     lines of the chunk's first and last bytes, counted by "\n". Nothing
//     is dropped and nothing repeated, whatever the input: syntax errors,
//     binary bytes, invalid UTF-8, one-line minified files. An empty
//     source has no chunks.
//   - Units. A unit is a top-level declaration (function, method, type,
//     class, interface, enum, impl, module, macro, variable, constant),
//     top-level code that declares nothing (a "block"), the preamble
//     (package clause, imports and the comments before them), a Markdown
//     section (an ATX heading outside fenced code and the text up to the
//     next heading), or a blank-line block of any other file. The comments
//     and attributes above a unit belong to it, a comment that ends its
//     last line too, and the blank lines after it. Bytes no unit claims
//     (a stray ";", a closing "}" of an #ifdef) go to the unit before them.
//     Chunk.Kind is one of the Kind constants; Chunk.Symbol names the unit:
//     "Add", "(*Server).ServeHTTP" and "Amount.String" for Go methods,
//     "Invoice.total" for Python and JavaScript members, "Money::new" for
//     Rust and C++ members, "## Rounding" for a section, "" for preambles
//     and blocks. A var or const group is named by its first eight names.
//   - Sizes. A unit longer than MaxChunkBytes is split: a container (class,
//     interface, impl, trait, namespace, module) into its header and its
//     members, each handled the same way, anything else at line boundaries
//     into parts of about equal size, cut after a blank line where one is
//     near; a single line longer than MaxChunkBytes is cut at a UTF-8
//     character boundary. Parts keep the kind, and the second part on add
//     " (part 2)" and so on to the symbol. Then adjacent chunks of one kind
//     that are each shorter than MinChunkBytes are merged until the merged
//     chunk reaches MinChunkBytes; the merged symbol lists the symbols,
//     ", "-separated. Parts of a split unit are never merged.
//   - Parsers (Backend). Go files are parsed with go/parser in every build
//     (the language's own parser, and ten times faster than tree-sitter's Go
//     grammar). Built with cgo, Python, JavaScript (and JSX), TypeScript,
//     TSX, Java, Rust, C and C++ are parsed with tree-sitter; a .h file that
//     uses C++ constructs is read as C++. Without cgo, and for C#, Kotlin,
//     Swift and Scala, and whenever a parse fails, heuristics find the
//     units: brackets, strings, comments and keywords for the C family,
//     indentation for Python. So do files tree-sitter mostly fails on (an
//     error at the root, or error nodes over half the file: C headers
//     that open extern "C" { inside an #ifdef), files over 1 MiB for
//     tree-sitter, and over 4 MiB for go/parser. Markdown is read by ATX
//     headings and everything else by blank lines, in every build.
//   - Bounded time. The heuristics, the Markdown and the blank-line readers
//     run in time linear in the input (times the nesting they look into,
//     at most six levels). A tree-sitter parse is cancelled, and the
//     heuristics used instead, after a number of parser operations
//     proportional to the input (six times what real code needs), or after
//     250 ms plus 8 µs a byte, whichever comes first.
//   - Determinism. Split and Levels are pure functions of (path, src) for
//     a given Version and Backend: no clock, no randomness, no map order.
//     The one exception is the time limit of a tree-sitter parse: input
//     that pathological (long runs of bytes that are syntax errors) may be
//     chunked by tree-sitter on a fast machine and by the heuristics on a
//     slow one. The slowest file of Go's source tree, Python's standard
//     library, /usr/include and npm (libstdc++'s simd_builtin.h) took an
//     eighth of its limit on a busy 2-core machine. The chunks
//     differ between backends, so an index records Version and Backend and
//     rebuilds when either changes, and every plan names the chunker (Name)
//     and its digest covers it.
//   - Levels. Levels returns, for a code file, the summary: the file's doc
//     comment (Go's package comment, Python's module docstring, Rust's //!
//     comments, else the first comment at the top that is not a licence
//     and not a declaration's doc, else, for Java, C#, Kotlin and Scala,
//     the doc comment of the file's only class), a blank line, and one line
//     per top-level unit, "kind: signature", with the members of
//     containers indented by two spaces under them; and the detailed level:
//     the file with every multi-line or long function body, and every
//     multi-line literal value of a variable, replaced by a comment in the
//     file's own language that counts the lines it stands for, never by
//     text that reads as real code: "{ /* … 12 lines elided */ }" (the
//     brackets of a literal kept: "[ /* … 3 lines elided */ ]"), and in
//     Python, after the docstring, "# … 12 lines elided" on its own line,
//     indented as the body (a literal: "{  # … 3 lines elided", the
//     closing bracket on the next line). A body no longer than its
//     comment is kept as written, and so is everything else (doc comments,
//     signatures, type definitions, imports, top-level code), so it reads
//     like a header file. A signature is the declaration's text up to its
//     body, white space collapsed, at most 200 bytes; an elided value
//     shows there as "{ … }". For Markdown the summary is the lead
//     paragraph and the heading lines, the detailed level each heading
//     with its first paragraph. Both levels are extractive (only bytes of
//     the file, the elision comments and the "kind: " words) and
//     deterministic. A level is "" when it would be empty, would not be
//     shorter than the file, or (detailed) would elide nothing; plain text
//     has neither.
//   - Errors. Nothing here fails: a file that cannot be parsed is chunked
//     by the next reader in line. Nothing is printed or logged.
//   - Concurrency. Split, Levels and Language are safe for concurrent use.
//     The only package state is the tree-sitter grammars, loaded once on
//     first use (sync.Once) and read-only after; every call makes its own
//     parser, tree and cursor and frees them before it returns.
package chunk
