package ctxpack

import (
	"context"
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
	res, err := p.Retrieve(ctx, "round the invoice total", Request{Budget: 500, Index: ix, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
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
