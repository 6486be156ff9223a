// Package store keeps what a team and its agents have learned — memories,
// experiences and values — and the project's git commits, in one SQLite
// database (.ctxpack/sources.db by default), and searches them with the
// code index's terms and BM25 (DESIGN §6).
//
// # Use
//
//	s, err := store.Open(store.DefaultPath(root), store.Options{})
//	m, err := s.AddMemory(ctx, store.Memory{Content: "totals are integers of cents", Importance: -1})
//	st, err := s.SyncCommits(ctx, root)
//	hits, err := s.SearchExperiences(ctx, "flaky test", store.ExperienceQuery{Domain: "testing", Outcome: store.OutcomeFalsified, K: 10})
//	props, err := s.DeriveValues(ctx, store.DeriveOptions{}) // then AddValue the ones to keep
//
// # Contracts
//
//   - Authored data. Unlike the code index, which is a cache rebuilt at
//     will, the store holds what people wrote: the package never drops,
//     deletes or replaces the database. Rows go only through Remove*,
//     and commits only through SyncCommits. A file that is not an SQLite
//     database, or an SQLite database with other tables and no store's
//     meta table, is an error naming the path, and is left untouched.
//   - Format. The database records FormatVersion. Open refuses a newer
//     one and migrates an older one in place, in one transaction (unless
//     read-only, where it is an error).
//   - Read-only. With Options.ReadOnly nothing is created or written: a
//     missing file reads as an empty store (no rows, no errors), and
//     every write returns ErrReadOnly.
//   - Transactions. Every Add, Remove and SyncCommits is one SQLite
//     transaction (WAL mode), so a crash leaves the store as it was before
//     or after it. Each search reads one consistent state.
//   - Ids. Memories, experiences and values get increasing ids that are
//     never given again after a removal. Commits are keyed by sha.
//   - Search. Query terms are lexical.QueryTerms of the query; a row matches
//     when it holds any of them, as lexical.Terms of its fields, in a
//     contentless FTS5 table (ascii tokenizer). Scores are minus FTS5's
//     bm25() with per-column weights (fts.go, axes.go), quantized to 1e-6
//     (rank.Quantize). Hits are ordered by score descending, then ID
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
//     processes may use one database: writers wait for each other (busy
//     timeout 10 s), readers never wait for a writer.
//   - Errors start with "store: ". Bad input to an Add is a
//     *ValidationError naming the field; a bad experiences file is a
//     *ParseError naming the file and line. The package never prints and
//     keeps no mutable package-level state.
package store
