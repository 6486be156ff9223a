package app

import (
	"context"
	"path/filepath"
	"testing"
)

// TestSummaryCacheKeyedOnBuild: another build of ctxpack does not read the
// levels an earlier one cached (it may count or cut them differently),
// and a build that cannot be identified caches nothing, as without Cache.
func TestSummaryCacheKeyedOnBuild(t *testing.T) {
	ctx := context.Background()
	root := writeProject(t, retrievalFiles())
	p, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	entries := func() int {
		t.Helper()
		m, err := filepath.Glob(filepath.Join(root, ".ctxpack", "cache", "summaries", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		return len(m)
	}
	saved := buildID
	t.Cleanup(func() { buildID = saved })
	summarize := func(build string, cache bool) {
		t.Helper()
		buildID = func() string { return build }
		if _, err := p.Summarize(ctx, "billing/invoice.py", SummarizeOptions{Level: "summary", Cache: cache}); err != nil {
			t.Fatal(err)
		}
	}

	summarize("build a", false)
	if n := entries(); n != 0 {
		t.Fatalf("without Cache: %d entries", n)
	}
	summarize("", true)
	if n := entries(); n != 0 {
		t.Fatalf("with an unknown build: %d entries", n)
	}
	summarize("build a", true)
	first := entries()
	if first == 0 {
		t.Fatal("Cache stored nothing")
	}
	summarize("build a", true)
	if n := entries(); n != first {
		t.Errorf("the same build again: %d entries, want %d (all hits)", n, first)
	}
	summarize("build b", true)
	if n := entries(); n != 2*first {
		t.Errorf("another build: %d entries, want %d (its own)", n, 2*first)
	}
}
