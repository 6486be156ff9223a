package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentUse adds and searches at once from several goroutines,
// through one store and through a second one opened on the same file (as
// a second process would), then checks that every row is there.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "sources.db")
	a := openAt(t, p, Options{Now: testNow})
	b := openAt(t, p, Options{Now: testNow})
	const writers, perWriter = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range writers {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for i := range perWriter {
				if _, err := s.AddMemory(ctx, Memory{Content: fmt.Sprintf("writer %d note %d about invoices", w, i), Importance: -1}); err != nil {
					errs <- err
					return
				}
				e := exp("debugging", fmt.Sprintf("writer %d goal %d invoices", w, i))
				e.Surprise = "surprising invoices"
				if _, err := s.AddExperience(ctx, e); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for r := range 4 {
		s := a
		if r%2 == 1 {
			s = b
		}
		wg.Go(func() {
			for range 10 {
				if _, err := s.SearchMemories(ctx, "invoices note", 5); err != nil {
					errs <- err
					return
				}
				if _, err := s.SearchExperiences(ctx, "invoices", ExperienceQuery{Axis: AxisSurprise, Domain: "debugging", K: 5}); err != nil {
					errs <- err
					return
				}
				if _, err := s.StateRoot(ctx); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c, err := a.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.Memories != writers*perWriter || c.Experiences != writers*perWriter {
		t.Fatalf("Counts = %+v, want %d memories and experiences", c, writers*perWriter)
	}
	h, err := b.SearchMemories(ctx, "invoices", 1000)
	if err != nil || len(h) != writers*perWriter {
		t.Fatalf("every memory is searched: %d, %v", len(h), err)
	}
}
