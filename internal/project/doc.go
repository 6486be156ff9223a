// Package project reads a project from disk: it finds the project root,
// loads .ctxpack/config.yaml, applies ignore rules, walks the tree in a
// fixed order, reads files as text and computes content ids and the state
// root.
//
// Everything except FindRoot and Resolve takes an fs.FS rooted at the
// project root, and every path in and out is slash-separated and relative
// to that root.
//
// Contracts:
//
//   - Order. Walk returns files, and the files it skipped, in bytewise
//     (strings.Compare) path order, each path once, whatever order the file
//     system lists directories in and however many workers read files.
//     WalkOptions.Reverse reverses both lists, so tests can prove that
//     downstream code sorts for itself.
//   - Determinism. Walk, LoadConfig, StateRoot and ContentID depend only on
//     the bytes in the tree (and, for Walk, sizes and the ModTime it
//     returns): not on the clock, the environment, the user's global git
//     configuration, map order or goroutine scheduling. Warnings come in
//     file order.
//   - What Walk leaves out silently: entries matched by the per-directory
//     ignore files (.gitignore and .ctxpackignore by default, with git's
//     semantics, including negation and the rule that a file cannot be
//     re-included when a parent directory is excluded) and by
//     .git/info/exclude; any .git entry; ctxpack's own state files
//     (IsStateFile: .ctxpack/index.db*, .ctxpack/sources.db*,
//     .ctxpack/records.jsonl* and .ctxpack/cache/); hidden entries unless
//     WalkOptions.IncludeHidden.
//   - What Walk reports in Skipped, with the reason: binary files (Binary:
//     a NUL byte in the first 8000 bytes, git's rule, or a PDF), files larger than the
//     limit (1 MiB by default), unreadable files and directories, symlinks
//     that are broken, lead outside the root or point at a directory (not
//     followed), other non-regular files, and files and directories whose
//     names could not be shown safely (NameProblem: a control character
//     such as a newline or an escape, invalid UTF-8), which would break
//     part keys and spoof output lines; with WalkOptions.SkipGenerated,
//     package managers' lock files (IsLockFile) and generated files
//     (Generated: Go's "Code generated … DO NOT EDIT." line or an
//     at-sign generated marker in the leading comments; linguist-generated
//     in the root's .gitattributes). Nothing found is dropped without
//     an ignore rule, a reason, or the caller's WalkOptions.Select.
//   - Walk reads ignore files whole and, of every other file, at most the
//     first 8000 bytes; it never opens anything that is not a regular file.
//   - Config. Its zero value is not useful: start from Defaults().
//     LoadConfig reports every error with file and line, keeps unknown keys
//     (warning about those inside known sections) and keeps unknown
//     top-level sections in Config.Extra for the features that own them.
//   - Errors start with "project: ", name the path (and line) involved and
//     wrap their cause with %w. The package never prints and keeps no
//     package-level state; every function is safe for concurrent use.
package project
