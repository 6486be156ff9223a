// Package check validates a project's artifacts and the annotations in its
// code (DESIGN §4, `ctxpack check`), and keeps a baseline of known
// findings.
//
// Rules, with their default severities (Rules lists them; check.rules in
// the configuration changes them or turns them off):
//
//	duplicate-id            error    two files claim one id; reported at every file after the first
//	malformed-frontmatter   error    a file Load could not read (no frontmatter, bad YAML, no id, …)
//	missing-required-field  error    see DefaultRequiredFields and check.required_fields
//	broken-link             warning  a link or superseded_by to an id no artifact has
//	superseded-link         warning  a link or annotation to a superseded artifact, naming its replacement
//	deprecated-link         warning  a link or annotation to a deprecated artifact
//	broken-ref              warning  @spec/@decision in code: missing id, wrong type, or the
//	                                 artifact has paths and none matches the file (a spec always must)
//	broken-path             warning  a paths glob that matches no file of the project
//	orphan-spec             warning  a spec no other artifact links to and no annotation names
//	                                 (superseded and deprecated specs are left alone)
//	unknown-status          warning  a status artifact.KnownStatus does not know
//
// Links from an artifact that is itself past (deprecated, superseded, done
// or completed) to superseded or deprecated artifacts are history and are
// not reported; its links to missing artifacts are.
//
// Annotations are read from every file Walk lists outside .ctxpack/ and
// .contextia/ (so .gitignore is honoured, and binary files and files over
// the walk's size limit are not read); see ScanAnnotations for the syntax
// and the lexer's limits. A paths glob has git's wildmatch syntax
// (project.MatchGlob), is relative to the project root (a leading "./" or
// "/" is dropped), and also matches every file under a directory it
// matches: "src/billing" governs src/billing/a.go.
//
// Contracts:
//
//   - Determinism. Run's findings depend only on the artifacts and the
//     files, never on map order, walk order or the number of workers; they
//     are sorted by path, line, rule and message. Messages never hold line
//     numbers, so a baseline entry (rule, path, message) survives edits
//     elsewhere in the file.
//   - Every finding has a path relative to the project root and a 1-based
//     line.
//   - The package never prints; the CLI formats Findings (Finding.String)
//     and the Summary.
//   - The zero Config and the zero Options check every rule at its
//     default severity. Every function is safe for concurrent use.
package check
