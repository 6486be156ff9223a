package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/ctxpack/ctxpack/internal/pgtest"
)

// backends opens a new, empty store of each backend with opt: SQLite in a
// temporary folder, PostgreSQL in a new database of the test server
// (pgtest.DSN: skipped without one, failed under CI=true).
var backends = []struct {
	name string
	open func(t testing.TB, opt Options) *Store
}{
	{"sqlite", func(t testing.TB, opt Options) *Store {
		return openAt(t, filepath.Join(t.TempDir(), "sources.db"), opt)
	}},
	{"postgres", func(t testing.TB, opt Options) *Store { return openAt(t, pgtest.DSN(t), opt) }},
}

// TestBackendsAgree fills a store on each backend with the same rows and
// checks that every list, search, state root and derivation is the same,
// score for score.
func TestBackendsAgree(t *testing.T) {
	ctx := context.Background()
	stores := make([]*Store, len(backends))
	for i, b := range backends {
		stores[i] = b.open(t, Options{Now: testNow})
		fill(t, stores[i], 7, 300, 240, 40, 60)
	}
	g := newGen(7)
	var queries []string
	for range 40 {
		queries = append(queries, g.text(1+g.r.IntN(6)))
	}
	queries = append(queries, "the", "systematic elimination", "wrong assumption", "Handler", "")
	type answer struct {
		name string
		got  any
		err  error
	}
	ask := func(s *Store) []answer {
		var out []answer
		add := func(name string, got any, err error) { out = append(out, answer{name, got, err}) }
		c, err := s.Counts(ctx)
		add("counts", c, err)
		root, err := s.StateRoot(ctx)
		add("state root", root, err)
		ms, err := s.Memories(ctx, "")
		add("memories", ms, err)
		es, err := s.Experiences(ctx, ExperienceFilter{Domain: "debugging"})
		add("experiences", es, err)
		vs, err := s.Values(ctx, "")
		add("values", vs, err)
		props, err := s.DeriveValues(ctx, DeriveOptions{MinClusterSize: 2})
		add("derive", props, err)
		for _, q := range queries {
			mh, err := s.SearchMemories(ctx, q, 12)
			add("memories "+q, mh, err)
			vh, err := s.SearchValues(ctx, q, 5)
			add("values "+q, vh, err)
			ch, err := s.SearchCommits(ctx, q, 5)
			add("commits "+q, ch, err)
			for _, a := range Axes() {
				eh, err := s.SearchExperiences(ctx, q, ExperienceQuery{Axis: a, K: 8})
				add(fmt.Sprintf("experiences %s %q", a, q), eh, err)
				eh, err = s.SearchExperiences(ctx, q, ExperienceQuery{Axis: a, Domain: "testing", Outcome: OutcomeFalsified, K: 8})
				add(fmt.Sprintf("experiences %s testing falsified %q", a, q), eh, err)
			}
		}
		return out
	}
	want := ask(stores[0])
	hits := 0
	for _, a := range want {
		if a.err != nil {
			t.Fatalf("%s: %s: %v", backends[0].name, a.name, a.err)
		}
		if v := reflect.ValueOf(a.got); v.Kind() == reflect.Slice {
			hits += v.Len()
		}
	}
	if hits < 1000 {
		t.Fatalf("the queries found only %d rows in all: the comparison would prove little", hits)
	}
	for i := 1; i < len(stores); i++ {
		got := ask(stores[i])
		for j, a := range got {
			if a.err != nil {
				t.Fatalf("%s: %s: %v", backends[i].name, a.name, a.err)
			}
			if !reflect.DeepEqual(a.got, want[j].got) {
				t.Errorf("%s: %s differs from %s's:\n got %+v\nwant %+v", backends[i].name, a.name, backends[0].name, a.got, want[j].got)
			}
		}
	}
}

// TestNamespaces checks, on each backend, that a namespace sees its own
// rows and, when it asks, a shared namespace's, named so; that ids are
// counted per namespace; and that writes stay in the namespace.
func TestNamespaces(t *testing.T) {
	ctx := context.Background()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			billing := b.open(t, Options{Now: testNow, Namespace: "billing"})
			open := func(opt Options) *Store {
				opt.Now = testNow
				if b.name == "sqlite" {
					return openAt(t, billing.where, opt)
				}
				return openAt(t, billing.url(t), opt)
			}
			team := open(Options{Namespace: "team"})
			search := open(Options{Namespace: "search"})
			mustAddMemory(t, billing, Memory{Content: "invoice totals are integers of cents", Importance: -1})
			mustAddMemory(t, billing, Memory{Content: "invoices are rounded once", Importance: -1})
			mustAddMemory(t, search, Memory{Content: "the invoice index is rebuilt nightly", Importance: -1})
			mustAddValue(t, team, Value{Text: "round invoice amounts once, at the end", Axis: AxisFull})
			shared := open(Options{Namespace: "billing", Shared: []string{"team"}})

			ms, err := search.SearchMemories(ctx, "invoice", 10)
			if err != nil || len(ms) != 1 || ms[0].ID != 1 || ms[0].Namespace != "" {
				t.Fatalf("search sees %+v, %v; want its own memory 1 only", ms, err)
			}
			vs, err := billing.SearchValues(ctx, "invoice", 10)
			if err != nil || len(vs) != 0 {
				t.Fatalf("billing without shared sees values %+v, %v", vs, err)
			}
			vs, err = shared.SearchValues(ctx, "invoice", 10)
			if err != nil || len(vs) != 1 || vs[0].Namespace != "team" || vs[0].ID != 1 {
				t.Fatalf("billing with team shared sees values %+v, %v; want team's value 1", vs, err)
			}
			all, err := shared.Values(ctx, "")
			if err != nil || len(all) != 1 || all[0].Namespace != "team" {
				t.Fatalf("Values = %+v, %v", all, err)
			}
			if _, err := shared.Value(ctx, 1); !errors.Is(err, ErrNotFound) {
				t.Errorf("Value(1) reads only the store's own namespace: got %v", err)
			}
			if _, err := shared.RemoveValue(ctx, 1); !errors.Is(err, ErrNotFound) {
				t.Errorf("RemoveValue(1) removes only in the store's own namespace: got %v", err)
			}
			c, err := shared.Counts(ctx)
			if err != nil || c != (Counts{Memories: 2, Values: 1}) {
				t.Errorf("Counts = %+v, %v", c, err)
			}
			r1, _ := billing.StateRoot(ctx)
			r2, _ := shared.StateRoot(ctx)
			r3, _ := search.StateRoot(ctx)
			if r1 == r2 || r1 == r3 {
				t.Errorf("state roots of different rows agree: %s %s %s", r1, r2, r3)
			}
			if _, err := Open(filepath.Join(t.TempDir(), "x.db"), Options{Namespace: "Bad Name"}); err == nil {
				t.Error("a namespace with spaces and capitals was accepted")
			}
		})
	}
}

// url returns the URL a PostgreSQL test store was opened with.
func (s *Store) url(t testing.TB) string {
	t.Helper()
	u, ok := testURLs.Load(s)
	if !ok {
		t.Fatal("the store was not opened by openAt on a URL")
	}
	return u.(string)
}

// testURLs maps the PostgreSQL stores openAt opened to their URLs (Store
// keeps only the URL without its password).
var testURLs sync.Map

// TestConcurrentWritersPostgres adds from several stores on one
// PostgreSQL database at once, as several processes would, and checks
// that every row is there once, with the ids 1 to n.
func TestConcurrentWritersPostgres(t *testing.T) {
	ctx := context.Background()
	first := backends[1].open(t, Options{})
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		s := openAt(t, first.url(t), Options{})
		wg.Go(func() {
			for i := range each {
				if _, err := s.AddMemory(ctx, Memory{Content: fmt.Sprintf("writer %d note %d", w, i), Importance: -1}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	ms, err := first.Memories(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	seen := map[string]bool{}
	for _, m := range ms {
		ids = append(ids, m.ID)
		if seen[m.Content] {
			t.Errorf("%q stored twice", m.Content)
		}
		seen[m.Content] = true
	}
	if len(ms) != writers*each || ids[0] != 1 || ids[len(ids)-1] != writers*each || !slices.IsSorted(ids) {
		t.Fatalf("%d memories, ids %d…%d; want %d, 1…%d", len(ms), ids[0], ids[len(ids)-1], writers*each, writers*each)
	}
	hits, err := first.SearchMemories(ctx, "writer note", 1000)
	if err != nil || len(hits) != writers*each {
		t.Fatalf("search finds %d of %d memories: %v", len(hits), writers*each, err)
	}
}

// TestLocalCommits checks that a PostgreSQL store opened with
// LocalCommits keeps the commits in that SQLite file: synced there,
// searched there, counted and covered by the state root, and not in the
// shared database, so that a second checkout's history does not touch
// them.
func TestLocalCommits(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.commit("billing/invoice.go", "round invoice totals once")
	r.commit("billing/tax.go", "tax on the rounded total")
	local := filepath.Join(t.TempDir(), "sources.db")
	s := backends[1].open(t, Options{Namespace: "billing", LocalCommits: local})
	mustAddMemory(t, s, Memory{Content: "invoice totals are integers of cents", Importance: -1})
	before, _ := s.StateRoot(ctx)
	if st := syncCommits(t, s, r.dir); st.Added != 2 || st.Total != 2 {
		t.Fatalf("SyncCommits = %+v", st)
	}
	hits, err := s.SearchCommits(ctx, "invoice totals", 5)
	if err != nil || len(hits) != 1 || hits[0].Message != "round invoice totals once" {
		t.Fatalf("SearchCommits = %+v, %v", hits, err)
	}
	if c, err := s.Counts(ctx); err != nil || c != (Counts{Memories: 1, Commits: 2}) {
		t.Errorf("Counts = %+v, %v", c, err)
	}
	after, _ := s.StateRoot(ctx)
	if after == before {
		t.Error("the state root does not cover the local commits")
	}
	var shared int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM commits`).Scan(&shared); err != nil || shared != 0 {
		t.Errorf("the shared database holds %d commits (%v), want none", shared, err)
	}
	file := openAt(t, local, Options{ReadOnly: true})
	if c, err := file.Counts(ctx); err != nil || c.Commits != 2 || c.Memories != 0 {
		t.Errorf("the local file's Counts = %+v, %v; want the 2 commits alone", c, err)
	}
	// Another checkout, sharing the namespace, sees the memory and only
	// its own history.
	other := openAt(t, s.url(t), Options{Namespace: "billing", LocalCommits: filepath.Join(t.TempDir(), "sources.db"), ReadOnly: true})
	if c, err := other.Counts(ctx); err != nil || c != (Counts{Memories: 1}) {
		t.Errorf("another checkout's Counts = %+v, %v", c, err)
	}
}
