package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ctxpack/ctxpack/internal/pgtest"
)

// TestPostgresServerKilled writes memories in a loop through one store
// while the PostgreSQL server is killed and started again, and checks
// that every write acknowledged is there, that no write left part of a
// row (a memory without its terms, or terms without their memory), that
// reads while the server is down fail with an error that says so, and
// that the same store works again once it is back, without reopening.
func TestPostgresServerKilled(t *testing.T) {
	ctx := context.Background()
	c := pgtest.StartCluster(t)
	s := openAt(t, c.URL("postgres"), Options{Namespace: "faults"})

	var mu sync.Mutex
	var acked []string // contents acknowledged, in order
	failed := 0        // writes that returned an error
	cond := sync.NewCond(&mu)
	stop := false
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			mu.Lock()
			if stop {
				mu.Unlock()
				return
			}
			mu.Unlock()
			content := fmt.Sprintf("note %d about invoice rounding", i)
			_, err := s.AddMemory(ctx, Memory{Content: content, Importance: -1})
			mu.Lock()
			if err == nil {
				acked = append(acked, content)
			} else {
				failed++
			}
			cond.Broadcast()
			mu.Unlock()
		}
	})
	waitFor := func(ok func() bool) {
		mu.Lock()
		for !ok() {
			cond.Wait()
		}
		mu.Unlock()
	}
	waitFor(func() bool { return len(acked) >= 50 })
	c.Kill()
	waitFor(func() bool { return failed >= 3 })
	if _, err := s.SearchMemories(ctx, "invoice", 5); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("a search while the server is down: %v; want an error that says the database cannot be reached", err)
	}
	c.Start()
	mu.Lock()
	after := len(acked)
	mu.Unlock()
	waitFor(func() bool { return len(acked) >= after+50 })
	mu.Lock()
	stop = true
	mu.Unlock()
	wg.Wait()

	ms, err := s.Memories(ctx, "")
	if err != nil {
		t.Fatalf("the same store after the restart: %v", err)
	}
	have := map[string]bool{}
	for _, m := range ms {
		have[m.Content] = true
	}
	for _, a := range acked {
		if !have[a] {
			t.Errorf("acknowledged write %q is missing", a)
		}
	}
	var partial int
	if err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM term_docs d WHERE d.tbl = 1 AND d.ns = m.ns AND d.id = m.id)) +
		(SELECT count(*) FROM term_docs d WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.ns = d.ns AND m.id = d.id)) +
		(SELECT count(*) FROM terms p WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.ns = p.ns AND m.id = p.id))`).Scan(&partial); err != nil {
		t.Fatal(err)
	}
	if partial != 0 {
		t.Errorf("%d parts of rows without their whole", partial)
	}
	hits, err := s.SearchMemories(ctx, "invoice rounding", len(ms)+1)
	if err != nil || len(hits) != len(ms) {
		t.Errorf("search after the restart finds %d of %d memories: %v", len(hits), len(ms), err)
	}
	t.Logf("%d writes acknowledged, %d failed while the server was down; %d rows stored", len(acked), failed, len(ms))
}
