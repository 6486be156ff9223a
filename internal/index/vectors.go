package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/embed"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Vectors are stored one per (content id, embedder) in the vectors table,
// quantized to int8 (vec):
//
//	bytes 0–3   scale, float32 little-endian
//	bytes 4…    dim components, int8
//
// The embedder's vector x is scaled to unit length, then each component
// becomes round(127 · x_i / max_j |x_j|); scale is 1/‖c‖ of those
// integers c, so scale · Σ query_i·c_i is exactly the cosine between the
// query and the stored vector (a zero vector is stored as zeros with
// scale 0, and scores 0). Quantizing moves a score by at most about
// ½ · max_j |x_j| / 127 · Σ|query_i| (x and the query of unit length):
// at most 0.0036 over 2,000 random vectors of up to 300 components, and
// 98.9% of the top-10 lists over 20,000 random vectors of 256 agree with
// float32's (TestEncodeVector, TestQuantizationRanking). So near ties can
// swap; the ranking is otherwise that of the float32 vectors, and just as
// deterministic. A vector takes dim+4 bytes, a quarter of float32's, and
// a row stays within one SQLite page up to about 3,900 components.

// Batches of Embed: texts per call of the embedder, and a bound on their
// bytes. Each batch is written and committed on its own.
const (
	embedBatchTexts = 256
	embedBatchBytes = 1 << 20
)

// EmbedStats describe what an Embed did.
type EmbedStats struct {
	Embedder string // the embedder's ID
	Dim      int    // components of its vectors; 0 when it has none stored
	Chunks   int    // chunks in the index
	// Embedded is how many vectors were made: one per content id, shared
	// by the chunks with that text.
	Embedded int
	// Covered counts the chunks that had no vector for the embedder and
	// have one now: those of the content ids embedded (more than Embedded
	// when chunks share a text).
	Covered int
	// Stale counts chunks whose file's text no longer has the chunk's
	// content id (the file changed since the last Update): they were
	// skipped. Update, then Embed again.
	Stale int
	// Missing counts chunks still without a vector for the embedder
	// (the stale ones, unless another chunk had the same text); the other
	// Chunks − Missing have one.
	Missing int
	// Deleted counts vectors deleted, of any embedder, because no chunk
	// has their content id any more.
	Deleted int
}

// MissingVectorsError is returned by Nearest, together with its hits,
// when some chunks of the index have no vector for the embedder: the hits
// rank only the chunks that have one. Use errors.As to accept them.
type MissingVectorsError struct {
	Embedder        string
	Missing, Chunks int
}

func (e *MissingVectorsError) Error() string {
	return fmt.Sprintf("index: %d of %d chunks have no vector for %s yet; semantic search ranks only the others until they are embedded", e.Missing, e.Chunks, e.Embedder)
}

// Embed makes the vectors of the index's chunks with e: for every chunk
// whose content id has no vector for e.ID(), it reads the chunk's text
// from fsys (the project root; the file's text as project.ReadText gives
// it, cut at the chunk's byte offsets), embeds it, and stores the vector
// (see the encoding above). Chunks with the same content id share one
// vector, embedded once. A chunk whose text no longer has its content id
// (the file changed since the last Update) is skipped and counted
// (EmbedStats.Stale). Vectors, of any embedder, whose content id no chunk
// has any more are deleted.
//
// Embed holds the update lock, as Update does (and fails with *LockError
// after Options.LockTimeout). It writes in batches of up to 256 texts,
// each its own transaction, so an interrupted Embed keeps the vectors of
// the batches done and leaves the index answering searches correctly:
// the chunks not reached are reported by Nearest as missing. The vectors
// depend only on the chunk texts and e, not on batching or timing (for an
// embedder whose vectors do not depend on the batch). progress, if not
// nil, gets the phases "lock" and "embed"; in "embed", Done and Total
// count content ids. The index must be Current (*NotCurrentError
// otherwise: Update first).
func (ix *Index) Embed(ctx context.Context, fsys fs.FS, e embed.Embedder, progress func(Progress)) (_ *EmbedStats, err error) {
	defer func() { err = ix.damaged(err) }()
	if ix.opts.ReadOnly {
		return nil, errors.New("index: embed: the index was opened read-only")
	}
	if e == nil {
		return nil, errors.New("index: embed: no embedder")
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	lk, err := ix.lockUpdates(ctx, progress)
	if err != nil {
		return nil, err
	}
	defer lk.unlock()
	// Another process may have rebuilt the index since Open (readState may
	// mark it foreign: the write lock). Holding the update lock, no Update
	// can change it under the read lock held after.
	ix.mu.Lock()
	if ix.db == nil {
		ix.mu.Unlock()
		return nil, errors.New("index: embed: the index is closed")
	}
	st := ix.readState(ctx)
	ix.mu.Unlock()
	if st.Reason != Current {
		return nil, &NotCurrentError{Path: ix.path, State: st}
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.db == nil {
		return nil, errors.New("index: embed: the index is closed")
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("index: embed: %w", err)
	}
	defer conn.Close()
	em := &embedder{conn: conn, e: e, fsys: fsys, progress: progress, stats: EmbedStats{Embedder: e.ID()}}
	if err := em.run(ctx); err != nil {
		return nil, err
	}
	return &em.stats, nil
}

// embedder holds one Embed's state.
type embedder struct {
	conn     *sql.Conn
	e        embed.Embedder
	fsys     fs.FS
	progress func(Progress)
	stats    EmbedStats

	pending      []pendingText
	pendingBytes int
	done, total  int
}

type pendingText struct{ cid, text string }

// missingChunk is a chunk whose content id has no vector.
type missingChunk struct {
	path       string
	start, end int
	cid        string
}

func (em *embedder) run(ctx context.Context) error {
	id := em.e.ID()
	// Collect the vectors of content ids no chunk has.
	err := em.tx(ctx, func() error {
		res, err := em.conn.ExecContext(ctx, `DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM chunks WHERE chunks.cid = vectors.cid)`)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		em.stats.Deleted = int(n)
		return err
	})
	if err != nil {
		return fmt.Errorf("index: embed: delete unused vectors: %w", err)
	}
	if err := em.conn.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&em.stats.Chunks); err != nil {
		return fmt.Errorf("index: embed: %w", err)
	}
	err = em.conn.QueryRowContext(ctx, `SELECT dim FROM vectors WHERE embedder = ? LIMIT 1`, id).Scan(&em.stats.Dim)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("index: embed: %w", err)
	}
	missing, err := em.missing(ctx, id)
	if err != nil {
		return err
	}
	cids := make(map[string]bool) // content ids to embed → embedded yet
	for _, c := range missing {
		cids[c.cid] = false
	}
	em.total = len(cids)
	em.progress(Progress{Phase: "embed", Total: em.total})

	for i := 0; i < len(missing); {
		p := missing[i].path
		j := i
		for j < len(missing) && missing[j].path == p {
			j++
		}
		text, _, err := project.ReadText(em.fsys, p)
		for _, c := range missing[i:j] {
			if cids[c.cid] {
				continue // embedded, or queued, from an earlier chunk
			}
			if err != nil || c.start < 0 || c.start > c.end || c.end > len(text) || project.ContentID(text[c.start:c.end]) != c.cid {
				em.stats.Stale++
				continue
			}
			cids[c.cid] = true
			if err := em.add(ctx, c.cid, text[c.start:c.end]); err != nil {
				return err
			}
		}
		i = j
	}
	if err := em.flush(ctx); err != nil {
		return err
	}
	for _, c := range missing {
		if cids[c.cid] {
			em.stats.Covered++
		} else {
			em.stats.Missing++
		}
	}
	return nil
}

// missing returns the chunks whose content id has no vector for id, in
// path and sequence order.
func (em *embedder) missing(ctx context.Context, id string) ([]missingChunk, error) {
	rows, err := em.conn.QueryContext(ctx, `SELECT path, byte_start, byte_end, cid FROM chunks c
		WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.cid = c.cid AND v.embedder = ?)
		ORDER BY path, seq`, id)
	if err != nil {
		return nil, fmt.Errorf("index: embed: %w", err)
	}
	defer rows.Close()
	var out []missingChunk
	for rows.Next() {
		var c missingChunk
		if err := rows.Scan(&c.path, &c.start, &c.end, &c.cid); err != nil {
			return nil, fmt.Errorf("index: embed: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: embed: %w", err)
	}
	return out, nil
}

// add queues a text, embedding the batch when it is full.
func (em *embedder) add(ctx context.Context, cid, text string) error {
	em.pending = append(em.pending, pendingText{cid: cid, text: text})
	em.pendingBytes += len(text)
	if len(em.pending) >= embedBatchTexts || em.pendingBytes >= embedBatchBytes {
		return em.flush(ctx)
	}
	return nil
}

// flush embeds the queued texts and writes their vectors in one
// transaction.
func (em *embedder) flush(ctx context.Context) error {
	if len(em.pending) == 0 {
		return nil
	}
	texts := make([]string, len(em.pending))
	for i, p := range em.pending {
		texts[i] = p.text
	}
	vecs, err := em.e.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("index: %w", err) // "index: embed: POST …"
	}
	id := em.e.ID()
	if len(vecs) != len(texts) {
		return fmt.Errorf("index: embed: %s returned %d vectors for %d texts", id, len(vecs), len(texts))
	}
	for i, v := range vecs {
		if err := embed.CheckVector(v); err != nil {
			return fmt.Errorf("index: embed: %s: vector %d: %w", id, i, err)
		}
		if em.stats.Dim == 0 {
			em.stats.Dim = len(v)
		}
		if len(v) != em.stats.Dim {
			return fmt.Errorf("index: embed: %s returned a vector of dimension %d, but its vectors in the index have %d; the model behind this id changed: give it another id (model name), or rebuild the index", id, len(v), em.stats.Dim)
		}
	}
	err = em.tx(ctx, func() error {
		stmt, err := em.conn.PrepareContext(ctx, `INSERT OR REPLACE INTO vectors (cid, embedder, dim, vec) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, v := range vecs {
			if _, err := stmt.ExecContext(ctx, em.pending[i].cid, id, len(v), encodeVector(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("index: embed: write vectors: %w", err)
	}
	em.stats.Embedded += len(vecs)
	em.done += len(vecs)
	em.pending, em.pendingBytes = em.pending[:0], 0
	em.progress(Progress{Phase: "embed", Done: em.done, Total: em.total})
	return nil
}

// tx runs f in a write transaction on the embedder's connection.
func (em *embedder) tx(ctx context.Context, f func() error) error {
	if _, err := em.conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	if err := f(); err != nil {
		_, _ = em.conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		return err
	}
	if _, err := em.conn.ExecContext(ctx, `COMMIT`); err != nil {
		_, _ = em.conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		return err
	}
	return nil
}

// encodeVector quantizes v for the vectors table (see the encoding above).
func encodeVector(v []float32) []byte {
	out := make([]byte, 4+len(v))
	var maxAbs float64
	for _, x := range v {
		maxAbs = max(maxAbs, math.Abs(float64(x)))
	}
	if maxAbs == 0 {
		return out
	}
	// Scaling to unit length first does not change the direction; the
	// quantization step is relative to the largest component.
	step := maxAbs / 127
	var sq int64
	for i, x := range v {
		q := int64(math.Round(float64(x) / step))
		q = min(max(q, -127), 127)
		out[4+i] = byte(int8(q))
		sq += q * q
	}
	binary.LittleEndian.PutUint32(out, math.Float32bits(float32(1/math.Sqrt(float64(sq)))))
	return out
}

// dotStored returns scale · Σ q_i·c_i for a stored vector b of len(q)
// components: the cosine between the unit vector q and it. Each product
// is exact in float64 and the sum's order is fixed, so the result is the
// same on every platform.
func dotStored(q []float32, b []byte) float64 {
	scale := float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	c := b[4 : 4+len(q)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(q); i += 4 {
		s0 += float64(q[i]) * float64(int8(c[i]))
		s1 += float64(q[i+1]) * float64(int8(c[i+1]))
		s2 += float64(q[i+2]) * float64(int8(c[i+2]))
		s3 += float64(q[i+3]) * float64(int8(c[i+3]))
	}
	for ; i < len(q); i++ {
		s0 += float64(q[i]) * float64(int8(c[i]))
	}
	return scale * ((s0 + s1) + (s2 + s3))
}

// Nearest returns the k chunks whose vectors for e are closest to the
// query's: it embeds query with e and scans every vector of e.ID() whose
// content id a chunk has (exactly, no approximate index), scoring by
// cosine similarity quantized to 1e-6. Chunks with the same content id
// share a score. The order is total: score descending, then path, then
// sequence. Hits are filled like Search's, with Signals [{"embed", score}]
// and no Matched terms. A blank query, or one whose vector is zero, has
// no hits.
//
// When some chunks have no vector for e yet (Embed was not run since they
// were indexed, or was interrupted), Nearest returns the hits over the
// others together with a *MissingVectorsError that counts them. Nearest
// fails with *NotCurrentError when the index must be rebuilt first.
func (ix *Index) Nearest(ctx context.Context, e embed.Embedder, query string, k int) (_ []Hit, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.state.Reason != Current {
		return nil, &NotCurrentError{Path: ix.path, State: ix.state}
	}
	if e == nil {
		return nil, errors.New("index: nearest: no embedder")
	}
	if k <= 0 || strings.TrimSpace(query) == "" {
		return nil, nil
	}
	id := e.ID()
	vecs, err := e.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("index: nearest: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("index: nearest: %s returned %d vectors for one query", id, len(vecs))
	}
	if err := embed.CheckVector(vecs[0]); err != nil {
		return nil, fmt.Errorf("index: nearest: %s: query vector: %w", id, err)
	}
	q := slices.Clone(vecs[0])
	if !embed.Normalize(q) {
		return nil, nil
	}

	// A vector counts only if a chunk has its content id (Embed deletes
	// the others, Update does not).
	current, err := ix.chunkCIDs(ctx)
	if err != nil {
		return nil, err
	}
	top := embed.NewTop(k, func(a, b cidKey) int { return bytes.Compare(a[:], b[:]) })
	if err := ix.scanVectors(ctx, id, q, current, top); err != nil {
		return nil, err
	}
	hits, err := ix.chunksOf(ctx, top.BestWithTies())
	if err != nil {
		return nil, err
	}
	slices.SortFunc(hits, CompareHits)
	hits = hits[:min(k, len(hits))]

	missing, chunks := 0, 0
	for _, c := range current {
		chunks += c.chunks
		if !c.vector {
			missing += c.chunks
		}
	}
	if missing > 0 {
		return hits, &MissingVectorsError{Embedder: id, Missing: missing, Chunks: chunks}
	}
	return hits, nil
}

// cidKey is a content id ("sha256:" and 64 hex digits) as its 32 bytes;
// keys order as the ids do.
type cidKey [32]byte

func parseCID(b []byte) (cidKey, bool) {
	var k cidKey
	h, ok := bytes.CutPrefix(b, []byte("sha256:"))
	if !ok || len(h) != 64 {
		return k, false
	}
	_, err := hex.Decode(k[:], h)
	return k, err == nil
}

func (k cidKey) String() string { return "sha256:" + hex.EncodeToString(k[:]) }

// cidInfo is what Nearest knows of a content id of the chunks.
type cidInfo struct {
	chunks int  // how many chunks have it
	vector bool // whether it has a vector for the embedder
}

// chunkCIDs returns the content ids of the chunks, with their number of
// chunks. Reading them in one pass, and looking the vectors' ids up in
// memory, costs a fraction of what looking up each vector's id in the
// chunks table does.
func (ix *Index) chunkCIDs(ctx context.Context) (map[cidKey]*cidInfo, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT cid, count(*) FROM chunks GROUP BY cid`)
	if err != nil {
		return nil, fmt.Errorf("index: nearest: %w", err)
	}
	defer rows.Close()
	m := make(map[cidKey]*cidInfo)
	for rows.Next() {
		var cid sql.RawBytes
		var n int
		if err := rows.Scan(&cid, &n); err != nil {
			return nil, fmt.Errorf("index: nearest: %w", err)
		}
		k, ok := parseCID(cid)
		if !ok {
			return nil, fmt.Errorf("index: nearest: a chunk has the malformed content id %q; rebuild the index", cid)
		}
		m[k] = &cidInfo{chunks: n}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: nearest: %w", err)
	}
	return m, nil
}

// scanVectors scores every vector of the embedder id whose content id is
// in current (a chunk has it), pushing them to top, and marks those
// content ids as having a vector.
func (ix *Index) scanVectors(ctx context.Context, id string, q []float32, current map[cidKey]*cidInfo, top *embed.Top[cidKey]) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT cid, dim, vec FROM vectors WHERE embedder = ?`, id)
	if err != nil {
		return fmt.Errorf("index: nearest: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var cid, vec sql.RawBytes
		var dim int
		if err := rows.Scan(&cid, &dim, &vec); err != nil {
			return fmt.Errorf("index: nearest: %w", err)
		}
		if dim != len(q) || len(vec) != 4+dim {
			return fmt.Errorf("index: nearest: %s returned a query vector of dimension %d, but its vectors in the index have %d; the model behind this id changed: give it another id (model name), or rebuild the index", id, len(q), dim)
		}
		k, _ := parseCID(cid)
		c := current[k]
		if c == nil {
			continue // no chunk has this text any more
		}
		c.vector = true
		top.Push(k, dotStored(q, vec))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index: nearest: %w", err)
	}
	return nil
}

// chunksOf returns the chunks of the scored content ids as hits.
func (ix *Index) chunksOf(ctx context.Context, scored []embed.Scored[cidKey]) ([]Hit, error) {
	score := make(map[string]float64, len(scored))
	for _, s := range scored {
		score[s.Key.String()] = s.Score
	}
	var hits []Hit
	const batch = 500 // bound on SQL parameters per query
	for start := 0; start < len(scored); start += batch {
		part := scored[start:min(start+batch, len(scored))]
		args := make([]any, len(part))
		for i, s := range part {
			args[i] = s.Key.String()
		}
		rows, err := ix.chunkRows(ctx, `WHERE cid IN (?`+strings.Repeat(", ?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, h := range rows {
			h.id = 0
			h.Score = score[h.CID]
			h.Signals = []Signal{{Name: "embed", Value: h.Score}}
			hits = append(hits, h)
		}
	}
	return hits, nil
}
