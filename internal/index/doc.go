// Package index is the repository index: the files of a project, chunked
// by syntax (package chunk), with a full-text index of the chunks'
// code-aware terms and, when an embedder is configured, a vector per chunk
// text, kept in one SQLite database (.ctxpack/index.db by default) and
// updated incrementally. The artifact folders, .ctxpack/ and .contextia/,
// are never indexed: ctxpack reads its artifacts as artifacts (links mode,
// the artifacts source), and an artifact that were also a chunk of code
// would come twice.
//
// # Use
//
//	ix, state, err := index.Open(index.DefaultPath(root), index.Options{})
//	stats, err := ix.Update(ctx, os.DirFS(root), nil) // rebuilds if state.Reason != Current
//	hits, err := ix.Search(ctx, "invoice rounding", 10, index.SearchOptions{})
//	es, err := ix.Embed(ctx, os.DirFS(root), e, nil) // e: an embed.Embedder
//	hits, err = ix.Nearest(ctx, e, "invoice rounding", 10)
//
// # Contracts
//
//   - Format. The database records FormatVersion and a hash of what its
//     rows depend on besides the files (the chunker's version and a
//     fingerprint of its behaviour). Open never changes an index; it
//     reports a State: Current, or why Update will rebuild it
//     (Missing, VersionMismatch, OptionsMismatch, Corrupt). Walk settings
//     are not in the hash: every Update walks again, so new limits add and
//     remove files incrementally. A file that is an SQLite database but not
//     an index, or not an SQLite database at all, is never replaced.
//   - Damage. A read that finds the database damaged (SQLite's
//     SQLITE_CORRUPT or SQLITE_NOTADB) fails with *DamagedError and marks
//     the index (index.db.damaged beside it, when it can be written), so
//     that the next Update, in any process, deletes it and builds it again
//     (State Corrupt, "damaged: …"); so does an Update that meets damage
//     itself. An index holds only what it derives from the files: nothing
//     is lost.
//   - Incremental. A file whose size and modification time match the
//     index is not read, beyond the first 8000 bytes that every walk
//     reads to tell binary files (project.Walk). One that differs is read
//     and hashed; if its content id is unchanged only its size and time
//     are written, else it is chunked and its terms made again. A file
//     modified within two seconds of an update's start is read again by
//     the next update, since its time may not show a second change.
//   - Atomic. An update's writes are one SQLite transaction (WAL mode): a
//     crash or SIGKILL at any moment leaves the index as it was before the
//     update or as it is after it, never a mix.
//   - Exclusive. Updates of one index are serialized by an advisory lock
//     on the file next to it (index.db.lock), which the operating system
//     releases when its holder dies; a second update waits up to
//     Options.LockTimeout and then fails with *LockError naming the holder.
//     Searches and Status never wait for an update: they read the last
//     committed state.
//   - Deterministic. After an update the index's rows, the state root and
//     every search result depend only on the files: not on
//     Options.Workers, GOMAXPROCS, walk order, timing, or whether the
//     index was built in one update or many. The state root is
//     project.StateRoot over the (path, content id) of the indexed files.
//   - Vectors. Embed stores one vector per (content id, embedder ID), made
//     from the chunk's text as the files hold it, so chunks with the same
//     text share one and an unchanged chunk is never embedded again; it
//     embeds only content ids with no vector for the embedder, and deletes
//     the vectors of content ids no chunk has. Update does not embed and
//     does not delete vectors (a rebuild drops them all). Embed holds the
//     update lock and commits batch by batch, so an interrupted Embed loses
//     at most its current batch and the index stays correct. Nearest reads
//     the vectors of the chunks that have one and reports how many have
//     none (*MissingVectorsError). Vectors are stored as int8 with a scale
//     (see vectors.go); Nearest's scores are the exact cosines of those.
//   - Ranking. Search scores chunks with FTS5's bm25() over three columns
//     of terms (symbol, path, body; Weights), quantizes scores to 1e-6,
//     and orders hits by score descending, then path, then sequence.
//     Nearest scores them by cosine similarity, quantized the same way,
//     in the same order.
//   - Terms. Terms and QueryTerms are one function for documents and
//     queries, but for the English stop words a query leaves out; see
//     Terms and QueryTerms for the rules.
//   - Errors start with "index: ". The package never prints and keeps no
//     mutable package-level state. An *Index is safe for concurrent use.
package index
