package index

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectTerms(t *testing.T) {
	dir := t.TempDir()
	// "common" is in every file, "rare" in one; "widget" and "gadget"
	// in two each.
	writeTree(t, dir, map[string]string{
		"a.go": "package a\n// common rare widget\n",
		"b.go": "package b\n// common widget gadget\n",
		"c.go": "package c\n// common gadget\n",
		"d.go": "package d\n// common plain\n",
		"e.go": "package e\n// common plain\n",
	})
	ix, _ := build(t, dir, filepath.Join(t.TempDir(), "index.db"), Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		name, query string
		limit       int
		stem        bool
		want        TermSelection
	}{
		{
			name:  "at most limit terms: all kept, none looked up",
			query: "common nowhere rare", limit: 3,
			want: TermSelection{Terms: []string{"common", "nowhere", "rare"}, Total: 3},
		},
		{
			name:  "absent dropped, rarest kept, query order",
			query: "widget common nowhere rare", limit: 2,
			want: TermSelection{Terms: []string{"widget", "rare"}, Total: 4, Absent: 1},
		},
		{
			name:  "uses in the query count",
			query: "gadget rare gadget gadget gadget widget", limit: 1,
			want: TermSelection{Terms: []string{"gadget"}, Total: 3},
		},
		{
			name:  "ties in query order",
			query: "widget gadget common", limit: 1,
			want: TermSelection{Terms: []string{"widget"}, Total: 3},
		},
		{
			name:  "a stem's frequency sums the terms it begins",
			query: "widgets gadget common", limit: 1, stem: true,
			want: TermSelection{Terms: []string{"widgets"}, Total: 3},
		},
		{
			name:  "no limit",
			query: "widget common nowhere rare", limit: 0,
			want: TermSelection{Terms: []string{"widget", "common", "nowhere", "rare"}, Total: 4},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ix.SelectTerms(ctx, tc.query, tc.limit, tc.stem)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("SelectTerms(%q, %d) (-want +got):\n%s", tc.query, tc.limit, d)
			}
			if got.Dropped() != tc.want.Total-len(tc.want.Terms) {
				t.Errorf("Dropped() = %d", got.Dropped())
			}
		})
	}
}

// TestSearchTerms checks that SearchOptions.Terms replaces the query's own
// terms.
func TestSearchTerms(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go": "package a\n// alpha\n",
		"b.go": "package b\n// beta\n",
	})
	ix, _ := build(t, dir, filepath.Join(t.TempDir(), "index.db"), Options{})
	hits, err := ix.Search(context.Background(), "alpha beta", 10, SearchOptions{Terms: []string{"beta"}})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, h := range hits {
		paths = append(paths, h.Path+" "+h.Why())
	}
	if got, want := strings.Join(paths, "; "), "b.go body: beta"; got != want {
		t.Errorf("hits = %q, want %q", got, want)
	}
}
