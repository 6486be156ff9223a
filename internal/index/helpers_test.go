package index

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// epoch is the modification time test files get, and testNow the clock
// the tests give Update: far enough apart that no file is too recent to
// trust.
var (
	epoch   = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	testNow = func() time.Time { return epoch.Add(time.Hour) }
)

// writeTree writes files under dir with modification time epoch.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		writeFile(t, dir, name, content, epoch)
	}
}

func writeFile(t testing.TB, dir, name, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// build opens the index at db (creating it), updates it from dir and
// returns it open, with the update's stats.
func build(t testing.TB, dir, db string, opts Options) (*Index, *Stats) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = testNow
	}
	ix, _, err := Open(db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	st, err := ix.Update(context.Background(), os.DirFS(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ix, st
}

// dump prints the index's rows in a canonical order: files (without the
// recheck mark), chunks (with their ids when withIDs), meta, and the
// full-text index's vocabulary with document and occurrence counts per
// column.
func dump(t testing.TB, ix *Index, withIDs bool) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	q := func(title, query string) {
		fmt.Fprintf(&b, "== %s\n", title)
		rows, err := ix.db.QueryContext(ctx, query)
		if err != nil {
			t.Fatal(query, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if i > 0 {
					b.WriteByte('\t')
				}
				fmt.Fprint(&b, v)
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	q("files", `SELECT path, size, mtime_ns, cid, lang, lines, chunks, skip FROM files ORDER BY path`)
	idCol := ""
	if withIDs {
		idCol = "id, "
	}
	q("chunks", `SELECT `+idCol+`path, seq, byte_start, byte_end, start_line, end_line, kind, symbol, cid FROM chunks ORDER BY path, seq`)
	q("meta", `SELECT key, value FROM meta ORDER BY key`)
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, chunk_terms, 'col')`); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "== vocabulary\n")
	rows, err := conn.QueryContext(ctx, `SELECT term, col, doc, cnt FROM temp.vocab ORDER BY term, col`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var term, col string
		var doc, cnt int
		if err := rows.Scan(&term, &col, &doc, &cnt); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\n", term, col, doc, cnt)
	}
	return b.String()
}

// answers runs queries and prints their hits, scores and reasons, chunk
// and file mode.
func answers(t testing.TB, ix *Index, queries []string) string {
	t.Helper()
	var b strings.Builder
	for _, q := range queries {
		for _, files := range []bool{false, true} {
			hits, err := ix.Search(context.Background(), q, 10, SearchOptions{Files: files})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%q files=%t\n", q, files)
			for _, h := range hits {
				fmt.Fprintf(&b, "  %s#%d %d-%d %s %.6f %v [%s]\n", h.Path, h.Seq, h.StartLine, h.EndLine, h.Symbol, h.Score, h.Signals, h.Why())
			}
		}
	}
	return b.String()
}

// vocabulary for generated projects.
var genWords = []string{
	"invoice", "total", "currency", "rounding", "parse", "server", "request", "handler",
	"token", "budget", "index", "search", "chunk", "file", "reader", "writer", "cache",
	"lock", "update", "state", "root", "merkle", "config", "walk", "ignore", "binary",
	"amount", "convert", "rate", "ledger", "account", "balance", "report", "query",
}

// genProject returns a deterministic synthetic project of n source files
// (Go, Python, Markdown) built from seed.
func genProject(seed uint64, n int) map[string]string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	word := func() string { return genWords[r.IntN(len(genWords))] }
	ident := func() string {
		w := word()
		return strings.ToUpper(w[:1]) + w[1:] + strings.ToUpper(w[:1]) + word()[1:]
	}
	files := make(map[string]string, n)
	for i := range n {
		dir := fmt.Sprintf("pkg%02d/sub%d", i%37, i%5)
		switch i % 7 {
		case 5:
			var b strings.Builder
			fmt.Fprintf(&b, "# %s %s\n\n", word(), word())
			for j := range 2 + r.IntN(4) {
				fmt.Fprintf(&b, "## %s %d\n\nThe %s %s the %s of the %s.\n\n", word(), j, word(), word(), word(), word())
			}
			files[fmt.Sprintf("%s/doc%d.md", dir, i)] = b.String()
		case 6:
			var b strings.Builder
			for range 1 + r.IntN(5) {
				fmt.Fprintf(&b, "def %s_%s(%s):\n    return %s + %d\n\n", word(), word(), word(), word(), r.IntN(100))
			}
			files[fmt.Sprintf("%s/mod%d.py", dir, i)] = b.String()
		default:
			var b strings.Builder
			fmt.Fprintf(&b, "package sub%d\n\n", i%5)
			for range 1 + r.IntN(8) {
				fmt.Fprintf(&b, "// %s returns the %s %s.\nfunc %s(%s int) int {\n\treturn %s * %d\n}\n\n", ident(), word(), word(), ident(), word(), word(), r.IntN(1000))
			}
			files[fmt.Sprintf("%s/file%d.go", dir, i)] = b.String()
		}
	}
	return files
}

// mutate changes a deterministic share of files: edits, additions,
// deletions, and touches that keep the content.
func mutate(seed uint64, files map[string]string) (edited map[string]string, touched []string) {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make(map[string]string, len(files))
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c := files[name]
		switch x := r.IntN(100); {
		case x < 5: // deleted
		case x < 12:
			out[name] = c + fmt.Sprintf("\nfunc Extra%d() {}\n", r.IntN(1000))
		case x < 15:
			out[name] = c
			touched = append(touched, name)
		default:
			out[name] = c
		}
	}
	for i := range len(files) / 20 {
		out[fmt.Sprintf("added/new%d_%d.go", seed, i)] = fmt.Sprintf("package added\n\nfunc New%d%s() {}\n", i, genWords[r.IntN(len(genWords))])
	}
	return out, touched
}

// syncTree makes dir hold exactly files: new and changed files get
// modification time mtime, as do the touched ones.
func syncTree(t testing.TB, dir string, files map[string]string, touched []string, mtime time.Time) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".ctxpack/") {
			return nil
		}
		if _, ok := files[rel]; !ok {
			return os.Remove(p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if old, err := os.ReadFile(p); err == nil && string(old) == content {
			continue
		}
		writeFile(t, dir, name, content, mtime)
	}
	for _, name := range touched {
		if _, ok := files[name]; ok {
			if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// openDB opens a second connection to an index's database, for tests that
// tamper with it.
func openDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
