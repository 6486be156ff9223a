// Package store keeps what a team and its agents have learned — memories,
// experiences and values — and the project's git commits, in an SQLite
// file (.ctxpack/sources.db by default) or in a PostgreSQL database a
// team shares, and searches them with the code index's terms and BM25
// (DESIGN §6, §9).
//
// # Use
//
//	s, err := store.Open(store.DefaultPath(root), store.Options{})
//	s, err := store.Open("postgres://ctxpack@db:5432/team", store.Options{Namespace: "billing", Shared: []string{"team"}})
//	m, err := s.AddMemory(ctx, store.Memory{Content: "totals are integers of cents", Importance: -1})
//	st, err := s.SyncCommits(ctx, root)
//	hits, err := s.SearchExperiences(ctx, "flaky test", store.ExperienceQuery{Domain: "testing", Outcome: store.OutcomeFalsified, K: 10})
//	props, err := s.DeriveValues(ctx, store.DeriveOptions{}) // then AddValue the ones to keep
//
// # Contracts
//
//   - Backends. The same rows give the same answers, byte for byte, on
//     SQLite and on PostgreSQL (backend.go): every query is written once,
//     ids are counted by the store (seq), and ranking is computed in Go
//     from terms tables the store keeps itself, never by an engine's
//     full-text scoring.
//   - Namespaces. Every row belongs to a namespace (Options.Namespace,
//     DefaultNamespace when none is given): several projects share one
//     database, each reading and writing its own rows, and reading the
//     memories, experiences and values of Options.Shared too. Ids are
//     counted per namespace; a row of a shared namespace says which
//     (Memory.Namespace…), and its key carries it ("value:3@team").
//   - Authored data. Unlike the code index, which is a cache rebuilt at
//     will, the store holds what people wrote: the package never drops,
//     deletes or replaces the database. Rows go only through Remove*,
//     and commits only through SyncCommits. A file that is not an SQLite
//     database, or a database with other tables and no store's meta
//     table, is an error naming it, and is left untouched.
//   - Format. The database records FormatVersion. Open refuses a newer
//     one and migrates an older one in place, in one transaction (unless
//     read-only, where it is an error).
//   - Read-only. With Options.ReadOnly nothing is created or written: a
//     missing file, or a database without the store's tables, reads as
//     an empty store (no rows, no errors), and every write returns
//     ErrReadOnly.
//   - Transactions. Every Add, Remove, SyncCommits and Import is one
//     transaction (SQLite in WAL mode; PostgreSQL at READ COMMITTED), so a
//     crash or a lost connection leaves the store as it was before or
//     after it: never a partial row. Each search reads one consistent
//     state (PostgreSQL: REPEATABLE READ). A read whose PostgreSQL
//     connection was lost runs once more on a new one; a write is never
//     run again, and its error says the database could not be reached.
//   - Ids. Memories, experiences and values get increasing ids that are
//     never given again after a removal. Commits are keyed by sha.
//   - Search. Query terms are lexical.QueryTerms of the query; a row matches
//     when it holds any of them, as lexical.Terms of its fields, kept in
//     the terms table (one row a term and row, with its count in each
//     column) and term_docs (each row's length). Scores are BM25 as FTS5's
//     bm25() computes it, with per-column weights (terms.go, axes.go),
//     computed in Go, quantized to 1e-6 (rank.Quantize). Hits are ordered by score descending, then ID
//     ascending (commits: time descending, then sha ascending). Match
//     lists the query terms each hit holds. Experiences are searched on
//     one of four axes (see Axis), each its own table so that a term's
//     rarity is measured among the experiences on that axis.
//   - Deterministic. Lists, searches, StateRoot and DeriveValues depend
//     only on the rows: never on map order, goroutines or the clock. The
//     clock (Options.Now) only dates rows added with Created 0.
//   - State root. StateRoot is project.StateRoot over one key per row
//     ("memory:12", "commit:<sha>") and the content id of the row's
//     canonical form, computed when it is added.
//   - Concurrency. A *Store is safe for concurrent use, and several
//     processes may use one database: writers wait for each other (SQLite:
//     busy timeout 10 s; PostgreSQL: the namespace's seq row), readers
//     never wait for a writer.
//   - Errors start with "store: ". Bad input to an Add is a
//     *ValidationError naming the field; a bad experiences file is a
//     *ParseError naming the file and line. The package never prints and
//     keeps no mutable package-level state.
package store
