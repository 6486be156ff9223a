package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A chunk whose file changed after the index was updated is not shown:
// it is in the plan's dropped with the reason, and one warning names the
// file.
func TestRetrieveStaleChunksDropped(t *testing.T) {
	dir := t.TempDir()
	src := "package billing\n\n// RoundTotal rounds the invoice total half-even.\nfunc RoundTotal(c int) int { return c }\n\n// Convert converts a currency amount.\nfunc Convert(c int) int { return c }\n"
	if err := os.WriteFile(filepath.Join(dir, "billing.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ix := IndexOptions{File: filepath.Join(t.TempDir(), "index.db")}
	ctx := context.Background()
	if _, err := p.Retrieve(ctx, "round the invoice total", Request{Budget: 500, Index: ix, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "billing.go"), []byte(strings.ToUpper(src)), 0o644); err != nil {
		t.Fatal(err)
	}
	ix.NoUpdate = true
	_, err = p.Retrieve(ctx, "round the invoice total", Request{Budget: 500, Index: ix, Format: "json"})
	// Nothing is left to show: an *EmptyError, with the plan of what was
	// left out and why.
	var ee *EmptyError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "nothing found for") {
		t.Fatalf("got %v, want nothing found", err)
	}
	res := &Result{Plan: *ee.Plan}
	if len(res.Plan.Parts) != 0 || len(res.Plan.Dropped) == 0 {
		t.Fatalf("parts %v, dropped %v: want every chunk dropped", res.Plan.Parts, res.Plan.Dropped)
	}
	for _, d := range res.Plan.Dropped {
		if d.Path != "billing.go" || d.Reason != "the file changed since it was indexed" {
			t.Errorf("dropped %+v", d)
		}
	}
	n := 0
	for _, w := range res.Plan.Warnings {
		if strings.Contains(w, "billing.go") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %q: want one naming billing.go", res.Plan.Warnings)
	}
}

// Search ranks as retrieval does, whatever k is: the best hit for k = 1
// is the first of k = 10's and of retrieval's, and with files it returns
// k files when the index has them, however many chunks each matches.
func TestSearchRankingIndependentOfK(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The notes match the query best by BM25; the code ranks first by
	// relevance (file type).
	write("notes.md", "# Invoice totals\n\nThe invoice total is rounded: invoice total, invoice total, rounding of the invoice total.\n")
	write("billing/invoice.go", "package billing\n\n// Total adds the invoice lines.\nfunc Total(lines []int) int { return 0 }\n")
	for i := range 12 {
		var b strings.Builder
		fmt.Fprintf(&b, "package ledger\n")
		for j := range 3 {
			fmt.Fprintf(&b, "\n// Ledger%d%d keeps a ledger of entries.\nfunc Ledger%d%d(entries []int) int {\n", i, j, i, j)
			for n := range 30 {
				fmt.Fprintf(&b, "\tentries = append(entries, %d)\n", n)
			}
			b.WriteString("\treturn len(entries)\n}\n")
		}
		write(fmt.Sprintf("ledger/l%02d.go", i), b.String())
	}
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ix := IndexOptions{File: filepath.Join(t.TempDir(), "index.db")}
	ctx := context.Background()

	files, _, err := p.RankFiles(ctx, "invoice total", ix)
	if err != nil || len(files) == 0 {
		t.Fatalf("RankFiles: %v, %v", files, err)
	}
	var first string
	for _, k := range []int{1, 2, 10, 100} {
		hits, _, _, err := p.Search(ctx, "invoice total", k, false, ix)
		if err != nil || len(hits) == 0 {
			t.Fatalf("k=%d: %v, %v", k, hits, err)
		}
		top := fmt.Sprintf("%s#%d %.6f", hits[0].Path, hits[0].Seq, hits[0].Relevance)
		if first == "" {
			first = top
		}
		if top != first {
			t.Errorf("k=%d: best hit %s, k=1: %s", k, top, first)
		}
		if hits[0].Path != files[0].Path || hits[0].Relevance != files[0].Relevance {
			t.Errorf("k=%d: best hit %s %.6f, retrieval's best file %s %.6f", k, hits[0].Path, hits[0].Relevance, files[0].Path, files[0].Relevance)
		}
	}
	for _, k := range []int{1, 5, 12} {
		hits, _, _, err := p.Search(ctx, "ledger entries", k, true, ix)
		if err != nil || len(hits) != k {
			t.Errorf("files, k=%d: %d hits, %v; want %d files", k, len(hits), err, k)
		}
	}
}
