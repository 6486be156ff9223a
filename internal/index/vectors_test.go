package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/embed"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/google/go-cmp/cmp"
)

// fakeEmbedder is a deterministic embedder: a text's vector counts its
// terms (Terms) in dim hashed buckets, so texts that share words are
// close. It records what it was asked to embed.
type fakeEmbedder struct {
	id  string
	dim int
	// fail, when set, is called before each call with its number (from
	// 1) and may return an error for it.
	fail func(call int) error

	mu    sync.Mutex
	calls int
	texts []string
}

func newFakeEmbedder(dim int) *fakeEmbedder {
	return &fakeEmbedder{id: fmt.Sprintf("fake:%d", dim), dim: dim}
}

func (f *fakeEmbedder) ID() string { return f.id }

func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.calls++
	call := f.calls
	f.mu.Unlock()
	if f.fail != nil {
		if err := f.fail(call); err != nil {
			return nil, err
		}
	}
	f.mu.Lock()
	f.texts = append(f.texts, texts...)
	f.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, s := range texts {
		out[i] = fakeVector(s, f.dim)
	}
	return out, nil
}

func fakeVector(s string, dim int) []float32 {
	v := make([]float32, dim)
	for _, t := range lexical.Terms(s) {
		h := fnv.New32a()
		h.Write([]byte(t))
		v[h.Sum32()%uint32(dim)]++
	}
	return v
}

// took returns and forgets the texts embedded so far.
func (f *fakeEmbedder) took() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.texts
	f.texts = nil
	return t
}

// cids returns the content ids of the chunks, and of the vectors of
// embedder id, as sorted sets.
func cids(t *testing.T, ix *Index, id string) (chunks, vectors []string) {
	t.Helper()
	read := func(q string, args ...any) []string {
		rows, err := ix.db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	return read(`SELECT DISTINCT cid FROM chunks ORDER BY cid`), read(`SELECT cid FROM vectors WHERE embedder = ? ORDER BY cid`, id)
}

func contentIDs(texts []string) []string {
	var out []string
	for _, s := range texts {
		out = append(out, project.ContentID(s))
	}
	slices.Sort(out)
	return out
}

func TestEmbedAndNearest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(512)

	var progress []Progress
	st, err := ix.Embed(ctx, os.DirFS(dir), e, func(p Progress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	chunkCIDs, vecCIDs := cids(t, ix, e.ID())
	if d := cmp.Diff(chunkCIDs, vecCIDs); d != "" {
		t.Errorf("vectors (-chunks +vectors):\n%s", d)
	}
	if d := cmp.Diff(chunkCIDs, contentIDs(e.took())); d != "" {
		t.Errorf("texts embedded (-chunks +embedded): each chunk text once\n%s", d)
	}
	var chunks int
	ix.db.QueryRow(`SELECT count(*) FROM chunks`).Scan(&chunks)
	want := EmbedStats{Embedder: "fake:512", Dim: 512, Chunks: chunks, Embedded: len(chunkCIDs), Covered: chunks}
	if d := cmp.Diff(want, *st); d != "" {
		t.Errorf("stats (-want +got):\n%s", d)
	}
	if last := progress[len(progress)-1]; last != (Progress{Phase: "embed", Done: len(chunkCIDs), Total: len(chunkCIDs)}) {
		t.Errorf("last progress %+v", last)
	}

	// Nothing new: nothing is embedded.
	calls := e.calls
	st, err = ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err != nil || st.Embedded != 0 || st.Missing != 0 || e.calls != calls {
		t.Errorf("second Embed: %+v, %v, %d calls", st, err, e.calls-calls)
	}

	hits, err := ix.Nearest(ctx, e, "round the invoice total", 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 4 || hits[0].Path != "billing/invoice.go" || hits[0].Symbol != "RoundTotal" {
		t.Fatalf("hits %+v", hits)
	}
	q := fakeVector("round the invoice total", 512)
	embed.Normalize(q)
	for i, h := range hits {
		if i > 0 && CompareHits(hits[i-1], h) >= 0 {
			t.Errorf("hits %d and %d out of order: %+v, %+v", i-1, i, hits[i-1], h)
		}
		if h.Score != float64(rank.Quantize(h.Score))/rank.Quantum || !cmp.Equal(h.Signals, []Signal{{"embed", h.Score}}) {
			t.Errorf("hit %d: score %v, signals %v", i, h.Score, h.Signals)
		}
		// The score is the cosine of the query and the chunk's text, up
		// to int8 quantization.
		text, _, _ := project.ReadText(os.DirFS(dir), h.Path)
		v := fakeVector(text[h.Start:h.End], 512)
		embed.Normalize(v)
		if d := math.Abs(embed.Dot(q, v) - h.Score); d > 0.01 || project.ContentID(text[h.Start:h.End]) != h.CID || h.StartLine < 1 || h.EndLine < h.StartLine {
			t.Errorf("hit %d %+v: cosine %v", i, h, embed.Dot(q, v))
		}
	}
	for _, q := range []string{"", "  \n"} {
		if hits, err := ix.Nearest(ctx, e, q, 5); hits != nil || err != nil {
			t.Errorf("Nearest(%q) = %v, %v", q, hits, err)
		}
	}
	if hits, err := ix.Nearest(ctx, e, "invoice", 0); hits != nil || err != nil {
		t.Errorf("Nearest with k=0: %v, %v", hits, err)
	}
	// A query with no word the fake embedder knows has the zero vector.
	if hits, err := ix.Nearest(ctx, e, "!!!", 5); hits != nil || err != nil {
		t.Errorf("Nearest with a zero query vector = %v, %v", hits, err)
	}
	// Another embedder has no vectors: everything is missing.
	other := newFakeEmbedder(8)
	hits, err = ix.Nearest(ctx, other, "invoice", 5)
	var me *MissingVectorsError
	if len(hits) != 0 || !errors.As(err, &me) || *me != (MissingVectorsError{Embedder: "fake:8", Missing: chunks, Chunks: chunks}) {
		t.Errorf("Nearest with another embedder: %v, %v", hits, err)
	}
}

// TestNearestTies checks the order among equal scores: chunks sharing a
// content id, and different texts with the same vector, come in path
// order, whatever the order of their content ids.
func TestNearestTies(t *testing.T) {
	ctx := context.Background()
	// Two texts with the same words (the same fake vector); the one whose
	// content id sorts first goes in the file whose path sorts last.
	t1, t2 := "alpha beta\n", "beta alpha\n"
	if project.ContentID(t1) > project.ContentID(t2) {
		t1, t2 = t2, t1
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"z.txt":     t1,
		"a.txt":     t2,
		"m/dup.txt": t2, // the same text as a.txt: one vector
		"other.txt": "gamma delta\n",
	})
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(32)
	st, err := ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Embedded != 3 || st.Chunks != 4 {
		t.Errorf("stats %+v; want 3 texts embedded for 4 chunks", st)
	}
	if st.Covered != 4 || st.Missing != 0 {
		t.Errorf("stats %+v; want the 4 chunks given a vector, none missing", st)
	}
	for k, want := range map[int][]string{
		1: {"a.txt"},
		2: {"a.txt", "m/dup.txt"},
		3: {"a.txt", "m/dup.txt", "z.txt"},
		9: {"a.txt", "m/dup.txt", "z.txt", "other.txt"},
	} {
		hits, err := ix.Nearest(ctx, e, "alpha", k)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Path)
		}
		if !cmp.Equal(got, want) {
			t.Errorf("k=%d: %q, want %q", k, got, want)
		}
		if len(hits) >= 3 && (hits[0].Score != hits[2].Score || hits[0].Score <= 0) {
			t.Errorf("k=%d: scores %v %v %v", k, hits[0].Score, hits[1].Score, hits[2].Score)
		}
	}
}

// TestEmbedIncremental changes a file: Update, then Embed embeds only the
// new texts and drops the vectors of the old ones.
func TestEmbedIncremental(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(64)
	if _, err := ix.Embed(ctx, os.DirFS(dir), e, nil); err != nil {
		t.Fatal(err)
	}
	e.took()
	before, _ := cids(t, ix, e.ID())

	writeFile(t, dir, "billing/invoice.go", "package billing\n\n// Invoice is a bill.\ntype Invoice struct{ total int64 }\n\n// Discount lowers an invoice by a percentage.\nfunc Discount(inv *Invoice, pct int64) {\n\tinv.total -= inv.total * pct / 100\n}\n", epoch.Add(time.Minute))
	os.Remove(filepath.Join(dir, "notes.txt"))
	if _, err := ix.Update(ctx, os.DirFS(dir), nil); err != nil {
		t.Fatal(err)
	}
	after, _ := cids(t, ix, e.ID())
	added := slices.DeleteFunc(slices.Clone(after), func(c string) bool { return slices.Contains(before, c) })
	gone := slices.DeleteFunc(slices.Clone(before), func(c string) bool { return slices.Contains(after, c) })
	if len(added) == 0 || len(gone) == 0 {
		t.Fatalf("the edit changed no chunk: added %v, gone %v", added, gone)
	}
	// Until Embed runs, the new chunks are missing and the old vectors
	// are not used.
	hits, err := ix.Nearest(ctx, e, "discount percentage", 3)
	var me *MissingVectorsError
	if !errors.As(err, &me) || me.Missing != len(added) {
		t.Errorf("Nearest before Embed: %v", err)
	}
	for _, h := range hits {
		if slices.Contains(gone, h.CID) {
			t.Errorf("a stale vector was used: %+v", h)
		}
	}

	e.took() // the queries
	st, err := ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(added, contentIDs(e.took())); d != "" {
		t.Errorf("embedded (-new texts +embedded):\n%s", d)
	}
	if st.Embedded != len(added) || st.Deleted != len(gone) || st.Missing != 0 || st.Stale != 0 {
		t.Errorf("stats %+v; want %d embedded, %d deleted", st, len(added), len(gone))
	}
	chunkCIDs, vecCIDs := cids(t, ix, e.ID())
	if d := cmp.Diff(chunkCIDs, vecCIDs); d != "" {
		t.Errorf("vectors (-chunks +vectors):\n%s", d)
	}
	hits, err = ix.Nearest(ctx, e, "discount percentage", 1)
	if err != nil || len(hits) != 1 || hits[0].Symbol != "Discount" {
		t.Errorf("Nearest after Embed: %+v, %v", hits, err)
	}
}

// TestEmbedStale changes a file after Update: its chunks are skipped, and
// reported, until the next Update.
func TestEmbedStale(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(64)
	writeFile(t, dir, "notes.txt", "all new text\n\nand more\n", epoch.Add(time.Minute))
	os.Remove(filepath.Join(dir, "README.md"))
	st, err := ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stale int
	ix.db.QueryRow(`SELECT count(*) FROM chunks WHERE path IN ('notes.txt', 'README.md')`).Scan(&stale)
	if st.Stale != stale || st.Missing != stale || stale == 0 {
		t.Errorf("stats %+v; want %d stale and missing", st, stale)
	}
	if st.Covered != st.Chunks-stale {
		t.Errorf("stats %+v; want the %d chunks not stale given a vector", st, st.Chunks-stale)
	}
	for _, s := range e.took() {
		if strings.Contains(s, "all new text") || strings.Contains(s, "Shop") {
			t.Errorf("embedded a text the index does not have: %q", s)
		}
	}
	_, err = ix.Nearest(ctx, e, "tokens", 3)
	var me *MissingVectorsError
	if !errors.As(err, &me) || me.Missing != stale {
		t.Errorf("Nearest: %v; want %d missing", err, stale)
	}
	if _, err := ix.Update(ctx, os.DirFS(dir), nil); err != nil {
		t.Fatal(err)
	}
	if st, err := ix.Embed(ctx, os.DirFS(dir), e, nil); err != nil || st.Missing != 0 || st.Stale != 0 || st.Embedded == 0 {
		t.Errorf("after Update: %+v, %v", st, err)
	} else if st.Covered < st.Embedded {
		t.Errorf("after Update: %+v; want at least one chunk given each vector", st)
	}
	if _, err := ix.Nearest(ctx, e, "tokens", 3); err != nil {
		t.Errorf("Nearest after Update and Embed: %v", err)
	}
}

// TestEmbedInterrupted fails the embedder after its first batch: that
// batch stays, searches work and count the rest as missing, and the next
// Embed finishes the job.
func TestEmbedInterrupted(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, genProject(3, 400))
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(32)
	e.fail = func(call int) error {
		if call == 2 {
			return errors.New("embed: POST http://127.0.0.1:9/v1/embeddings: connection refused")
		}
		return nil
	}
	_, err := ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err == nil || err.Error() != "index: embed: POST http://127.0.0.1:9/v1/embeddings: connection refused" {
		t.Fatalf("error %v", err)
	}
	chunkCIDs, vecCIDs := cids(t, ix, e.ID())
	if len(vecCIDs) != embedBatchTexts || len(chunkCIDs) <= embedBatchTexts {
		t.Fatalf("%d vectors for %d texts; want the first batch of %d", len(vecCIDs), len(chunkCIDs), embedBatchTexts)
	}
	var missing int
	ix.db.QueryRow(`SELECT count(*) FROM chunks WHERE cid NOT IN (SELECT cid FROM vectors)`).Scan(&missing)
	hits, err := ix.Nearest(ctx, e, "total amount", 5)
	var me *MissingVectorsError
	if len(hits) != 5 || !errors.As(err, &me) || me.Missing != missing {
		t.Errorf("Nearest after an interrupted Embed: %d hits, %v; want 5 and %d missing", len(hits), err, missing)
	}
	e.fail = nil
	e.took()
	st, err := ix.Embed(ctx, os.DirFS(dir), e, nil)
	if err != nil || st.Embedded != len(chunkCIDs)-embedBatchTexts || st.Missing != 0 {
		t.Errorf("Embed again: %+v, %v", st, err)
	}
	if _, err := ix.Nearest(ctx, e, "total amount", 5); err != nil {
		t.Error(err)
	}
}

// TestEmbedConcurrent runs Embed, Update, Search and Nearest at once (run
// with -race): searches see a consistent index throughout, and the end
// state is the same as if they had run in turn.
func TestEmbedConcurrent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, genProject(5, 120))
	ix, _ := build(t, dir, filepath.Join(dir, ".ctxpack", "index.db"), Options{})
	e := newFakeEmbedder(32)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	wg.Go(func() {
		if _, err := ix.Embed(ctx, os.DirFS(dir), e, nil); err != nil {
			errs <- err
		}
	})
	wg.Go(func() {
		if _, err := ix.Update(ctx, os.DirFS(dir), nil); err != nil {
			errs <- err
		}
	})
	for range 2 {
		wg.Go(func() {
			for range 5 {
				if _, err := ix.Nearest(ctx, e, "total amount", 5); err != nil && !errors.As(err, new(*MissingVectorsError)) {
					errs <- err
				}
				if _, err := ix.Search(ctx, "total amount", 5, SearchOptions{}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, err := ix.Nearest(ctx, e, "total amount", 5); err != nil {
		t.Errorf("after the Embed: %v", err)
	}
}

// badEmbedder returns what it is told to.
type badEmbedder struct {
	id  string
	out func(texts []string) [][]float32
}

func (b badEmbedder) ID() string { return b.id }
func (b badEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return b.out(texts), nil
}

func TestEmbedErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	db := filepath.Join(dir, ".ctxpack", "index.db")

	// Not built yet.
	fresh, _, err := Open(db, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var nc *NotCurrentError
	if _, err := fresh.Embed(ctx, os.DirFS(dir), newFakeEmbedder(4), nil); !errors.As(err, &nc) {
		t.Errorf("Embed on a missing index: %v", err)
	}
	if _, err := fresh.Nearest(ctx, newFakeEmbedder(4), "x", 1); !errors.As(err, &nc) {
		t.Errorf("Nearest on a missing index: %v", err)
	}
	fresh.Close()

	ix, _ := build(t, dir, db, Options{LockTimeout: -1})
	if _, err := ix.Embed(ctx, os.DirFS(dir), nil, nil); err == nil || err.Error() != "index: embed: no embedder" {
		t.Errorf("nil embedder: %v", err)
	}
	ro, _, err := Open(db, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Embed(ctx, os.DirFS(dir), newFakeEmbedder(4), nil); err == nil || err.Error() != "index: embed: the index was opened read-only" {
		t.Errorf("read-only: %v", err)
	}

	tests := []struct {
		name string
		out  func(texts []string) [][]float32
		want string
	}{
		{"count", func(texts []string) [][]float32 { return make([][]float32, len(texts)-1) }, "index: embed: bad returned %d vectors for %d texts"},
		{"empty", func(texts []string) [][]float32 { return make([][]float32, len(texts)) }, "index: embed: bad: vector 0: empty"},
		{"nan", func(texts []string) [][]float32 {
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = []float32{1, float32(math.NaN())}
			}
			return out
		}, "index: embed: bad: vector 0: component 1 is NaN"},
		{"dimensions", func(texts []string) [][]float32 {
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = make([]float32, 2+i%2)
			}
			return out
		}, "index: embed: bad returned a vector of dimension 3, but its vectors in the index have 2; the model behind this id changed: give it another id (model name), or rebuild the index"},
	}
	var n int
	ix.db.QueryRow(`SELECT count(DISTINCT cid) FROM chunks`).Scan(&n)
	for _, tt := range tests {
		_, err := ix.Embed(ctx, os.DirFS(dir), badEmbedder{id: "bad", out: tt.out}, nil)
		want := tt.want
		if strings.Contains(want, "%d") {
			want = fmt.Sprintf(want, n-1, n)
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: error\n got %v\nwant %s", tt.name, err, want)
		}
	}
	var stored int
	ix.db.QueryRow(`SELECT count(*) FROM vectors`).Scan(&stored)
	if stored != 0 {
		t.Errorf("%d vectors stored by failed Embeds", stored)
	}

	// Same ID, another dimension: the index notices.
	if _, err := ix.Embed(ctx, os.DirFS(dir), newFakeEmbedder(16), nil); err != nil {
		t.Fatal(err)
	}
	changed := newFakeEmbedder(8)
	changed.id = "fake:16"
	if _, err := ix.Nearest(ctx, changed, "invoice", 3); err == nil || !strings.Contains(err.Error(), "query vector of dimension 8, but its vectors in the index have 16") {
		t.Errorf("Nearest with another dimension: %v", err)
	}

	// Another update holds the lock.
	lk, err := lock(ctx, ix.path, time.Second, testNow, nil)
	if err != nil {
		t.Fatal(err)
	}
	var le *LockError
	if _, err := ix.Embed(ctx, os.DirFS(dir), newFakeEmbedder(4), nil); !errors.As(err, &le) {
		t.Errorf("Embed while locked: %v", err)
	}
	lk.unlock()
}

func TestEncodeVector(t *testing.T) {
	b := encodeVector([]float32{3, 4})
	if got := []int8{int8(b[4]), int8(b[5])}; !cmp.Equal(got, []int8{95, 127}) {
		t.Errorf("components %v", got)
	}
	if s := math.Float32frombits(binary.LittleEndian.Uint32(b)); s != float32(1/math.Sqrt(95*95+127*127)) {
		t.Errorf("scale %v", s)
	}
	if got := dotStored([]float32{0.6, 0.8}, b); math.Abs(got-1) > 1e-4 {
		t.Errorf("cos = %v, want about 1", got)
	}
	zero := encodeVector(make([]float32, 5))
	if !cmp.Equal(zero, make([]byte, 9)) || dotStored([]float32{1, 0, 0, 0, 0}, zero) != 0 {
		t.Errorf("zero vector: %v", zero)
	}

	// On random vectors the stored cosine stays within the bound of the
	// encoding's doc comment, and decodes to a unit vector.
	r := rand.New(rand.NewPCG(1, 1))
	var worst float64
	for range 2000 {
		dim := 1 + r.IntN(300)
		v, q := make([]float32, dim), make([]float32, dim)
		for i := range v {
			v[i], q[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		embed.Normalize(q)
		b := encodeVector(v)
		u := slices.Clone(v)
		embed.Normalize(u)
		d := math.Abs(dotStored(q, b) - embed.Dot(q, u))
		var l1, m float64
		for i := range q {
			l1 += math.Abs(float64(q[i]))
			m = max(m, math.Abs(float64(u[i])))
		}
		if bound := 0.5*m/127*l1*1.01 + 1e-6; d > bound {
			t.Fatalf("dim %d: error %v above the bound %v", dim, d, bound)
		}
		worst = max(worst, d)
		var norm float64
		for _, x := range decodeVector(b) {
			norm += float64(x) * float64(x)
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Fatalf("decoded norm² %v", norm)
		}
	}
	t.Logf("largest cosine error over 2000 random vectors: %.2g", worst)
}

// TestQuantizationRanking measures how int8 storage changes rankings:
// top-10 lists over 20,000 random unit vectors of dimension 256, against
// exact float32 cosines.
func TestQuantizationRanking(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const n, dim, queries, k = 20000, 256, 100, 10
	r := rand.New(rand.NewPCG(2, 3))
	vecs := make([][]float32, n)
	stored := make([][]byte, n)
	for i := range vecs {
		vecs[i] = randomUnit(r, dim)
		stored[i] = encodeVector(vecs[i])
	}
	same, first := 0, 0
	var maxDiff float64
	for range queries {
		q := randomUnit(r, dim)
		exact := embed.NewTop(k, func(a, b int) int { return a - b })
		quant := embed.NewTop(k, func(a, b int) int { return a - b })
		for i := range vecs {
			exact.Push(i, embed.Dot(q, vecs[i]))
			quant.Push(i, dotStored(q, stored[i]))
			maxDiff = max(maxDiff, math.Abs(embed.Dot(q, vecs[i])-dotStored(q, stored[i])))
		}
		e, g := exact.BestWithTies()[:k], quant.BestWithTies()[:k] // the k best, without ties
		for _, x := range e {
			if slices.ContainsFunc(g, func(y embed.Scored[int]) bool { return y.Key == x.Key }) {
				same++
			}
		}
		if e[0].Key == g[0].Key {
			first++
		}
	}
	overlap := float64(same) / (queries * k)
	t.Logf("int8 against float32: top-%d overlap %.3f, same first hit %d/%d, largest score change %.2g", k, overlap, first, queries, maxDiff)
	if overlap < 0.9 {
		t.Errorf("top-%d overlap %.3f", k, overlap)
	}
}

func randomUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	embed.Normalize(v)
	return v
}

// decodeVector returns the unit vector a stored vector stands for (zero
// for a zero vector).
func decodeVector(b []byte) []float32 {
	scale := float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	out := make([]float32, len(b)-4)
	for i, c := range b[4:] {
		out[i] = float32(scale * float64(int8(c)))
	}
	return out
}
