package store

import (
	"context"
	"path/filepath"
	"testing"
)

// benchStore builds a store of the sizes a busy project reaches (10,000
// memories, 5,000 experiences, 500 values, 13,000 commits) from the
// fixed-seed generator, once per benchmark, in b's temporary directory.
func benchStore(b *testing.B) *Store {
	b.Helper()
	s := openAt(b, filepath.Join(b.TempDir(), "sources.db"), Options{Now: testNow})
	fill(b, s, 42, 10_000, 5_000, 500, 13_000)
	return s
}

// benchQuery is a query of a few frequent topic words, an identifier and
// a common word, as an agent's query mixes them.
func benchQuery() string {
	g := newGen(42)
	return g.topics[0] + " " + g.topics[3] + " " + g.topics[7] + " " + g.topics[14] + " when"
}

func BenchmarkSearch(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	q := benchQuery()
	run := func(name string, search func() (int, error)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, err := search()
				if err != nil || n == 0 {
					b.Fatal(n, err)
				}
			}
		})
	}
	run("memories", func() (int, error) { h, err := s.SearchMemories(ctx, q, 10); return len(h), err })
	for _, axis := range Axes() {
		run("experiences/"+string(axis), func() (int, error) {
			h, err := s.SearchExperiences(ctx, q, ExperienceQuery{Axis: axis, K: 10})
			return len(h), err
		})
	}
	run("experiences/full/filtered", func() (int, error) {
		h, err := s.SearchExperiences(ctx, q, ExperienceQuery{Domain: "debugging", Outcome: OutcomeFalsified, K: 10})
		return len(h), err
	})
	run("experiences/root_cause/premortem", func() (int, error) { // few matches: the filter-only rows fill K
		h, err := s.SearchExperiences(ctx, "zzzunknown", ExperienceQuery{Axis: AxisRootCause, Domain: "debugging", K: 10})
		return len(h), err
	})
	run("values", func() (int, error) { h, err := s.SearchValues(ctx, q, 10); return len(h), err })
	run("commits", func() (int, error) { h, err := s.SearchCommits(ctx, q, 10); return len(h), err })
}

// BenchmarkStateRoot measures the state root of the 28,500 rows of
// benchStore.
func BenchmarkStateRoot(b *testing.B) {
	s := benchStore(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.StateRoot(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures what every ctxpack command pays to open an
// existing store and count its rows.
func BenchmarkOpen(b *testing.B) {
	p := filepath.Join(b.TempDir(), "sources.db")
	s := openAt(b, p, Options{})
	fill(b, s, 1, 100, 100, 10, 100)
	s.Close()
	for _, ro := range []bool{false, true} {
		name := "readwrite"
		if ro {
			name = "readonly"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := Open(p, Options{ReadOnly: ro})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Counts(context.Background()); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}

// BenchmarkDeriveValues clusters 5,000 experiences with lessons (60
// planted topics of 70, and 800 unrelated) on each axis.
func BenchmarkDeriveValues(b *testing.B) {
	p := newPlanted(9, 60, plain)
	s := storeWith(b, p.make(70, 800))
	for _, axis := range Axes() {
		b.Run(string(axis), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ps, err := s.DeriveValues(context.Background(), DeriveOptions{Axis: axis})
				if err != nil || len(ps) == 0 {
					b.Fatal(len(ps), err)
				}
			}
		})
	}
}

// BenchmarkSyncCommitsUnchanged measures a sync when HEAD has not moved.
func BenchmarkSyncCommitsUnchanged(b *testing.B) {
	r := newRepo(b)
	for i := range 20 {
		r.commit("f.go", "commit "+string(rune('a'+i)))
	}
	s := openAt(b, filepath.Join(b.TempDir(), "sources.db"), Options{})
	ctx := context.Background()
	if _, err := s.SyncCommits(ctx, r.dir); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		st, err := s.SyncCommits(ctx, r.dir)
		if err != nil || st.Added != 0 || st.Total != 20 {
			b.Fatal(st, err)
		}
	}
}
