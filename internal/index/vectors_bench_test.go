package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ctxpack/ctxpack/internal/project"
)

// fixedEmbedder embeds every text as the same vector.
type fixedEmbedder struct{ v []float32 }

func (f fixedEmbedder) ID() string { return "fixed" }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = f.v
	}
	return out, nil
}

// BenchmarkNearest measures an exact scan over n synthetic vectors of
// dimension 256 (one chunk each), the database reads included, and
// reports the bytes the vectors table and its key index take per vector
// (with a 5-byte embedder id; a real one adds about twice its length).
func BenchmarkNearest(b *testing.B) {
	const dim = 256
	for _, n := range []int{20_000, 200_000} {
		b.Run(fmt.Sprintf("vectors=%d/dim=%d", n, dim), func(b *testing.B) {
			dir := b.TempDir()
			ix, _ := build(b, dir, filepath.Join(b.TempDir(), "index.db"), Options{})
			fillVectors(b, ix, n, dim)
			r := rand.New(rand.NewPCG(9, 9))
			e := fixedEmbedder{v: randomUnit(r, dim)}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				hits, err := ix.Nearest(ctx, e, "query", 10)
				if err != nil || len(hits) != 10 {
					b.Fatal(len(hits), err)
				}
			}
			var size int64
			ix.db.QueryRow(`SELECT sum(pgsize) FROM dbstat WHERE name IN ('vectors', 'sqlite_autoindex_vectors_1')`).Scan(&size)
			if size > 0 {
				b.ReportMetric(float64(size)/float64(n), "B/vector")
			}
		})
	}
}

// fillVectors adds n chunks with random vectors to ix, directly.
func fillVectors(b *testing.B, ix *Index, n, dim int) {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tx, err := ix.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	chunk, _ := tx.Prepare(`INSERT INTO chunks (path, seq, byte_start, byte_end, start_line, end_line, kind, symbol, cid) VALUES (?, ?, 0, 10, 1, 2, 'function', 'F', ?)`)
	vec, _ := tx.Prepare(`INSERT INTO vectors (cid, embedder, dim, vec) VALUES (?, 'fixed', ?, ?)`)
	for i := range n {
		cid := project.ContentID(fmt.Sprint(i))
		if _, err := chunk.Exec(fmt.Sprintf("pkg%03d/file%03d.go", i/1000, i%1000/10), i%10, cid); err != nil {
			b.Fatal(err)
		}
		if _, err := vec.Exec(cid, dim, encodeVector(randomUnit(r, dim))); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ix.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
}
