package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/history"
)

// epoch is the time the test clock gives.
var epoch = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func testNow() time.Time { return epoch }

// openTest opens a new store in a temporary directory with the test clock,
// closed when the test ends.
func openTest(t testing.TB) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), ".ctxpack", "sources.db"), Options{Now: testNow})
}

func openAt(t testing.TB, path string, opt Options) *Store {
	t.Helper()
	s, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if IsURL(path) {
		testURLs.Store(s, path)
	}
	return s
}

// exp returns a valid experience of a domain with the given goal; the
// other required fields are filled.
func exp(domain, goal string) Experience {
	return Experience{
		Domain: domain, Goal: goal, Hypothesis: "the hypothesis", Action: "the action",
		Prediction: "the prediction", Outcome: OutcomeConfirmed, Result: "the result",
	}
}

func mustAddMemory(t testing.TB, s *Store, m Memory) Memory {
	t.Helper()
	m, err := s.AddMemory(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustAddExperience(t testing.TB, s *Store, e Experience) Experience {
	t.Helper()
	e, err := s.AddExperience(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustAddValue(t testing.TB, s *Store, v Value) Value {
	t.Helper()
	v, err := s.AddValue(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// gen makes rows from a fixed-seed generator: text over a vocabulary
// with a few hundred topic words (drawn with a skew, as real words are)
// and common words every row uses.
type gen struct {
	r      *rand.Rand
	topics []string
	common []string
	zipf   *rand.Zipf
}

func newGen(seed uint64) *gen {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &gen{r: r, common: strings.Fields("the a to of and in is was it for on with that this not but when we after before then so as at by from be are were has had have an or if all one up out did do which there they our its into only also more")}
	syll := strings.Fields("ba ko ri tu me sa lo ni pe da zu ga vi fo ne ha ju ky wo xe")
	for i := 0; i < 2000; i++ {
		n := 2 + r.IntN(2)
		var w strings.Builder
		for range n {
			w.WriteString(syll[r.IntN(len(syll))])
		}
		if i%7 == 0 { // some identifiers, which give several terms
			w.WriteString("Handler")
		}
		g.topics = append(g.topics, w.String())
	}
	g.zipf = rand.NewZipf(r, 1.1, 2, uint64(len(g.topics)-1))
	return g
}

// text returns n words: common ones and topic ones, about half each.
func (g *gen) text(n int) string {
	w := make([]string, n)
	for i := range w {
		if g.r.IntN(2) == 0 {
			w[i] = g.common[g.r.IntN(len(g.common))]
		} else {
			w[i] = g.topics[g.zipf.Uint64()]
		}
	}
	return strings.Join(w, " ")
}

var (
	genDomains    = []string{"debugging", "feature", "refactor", "testing", "performance", "docs"}
	genStrategies = []string{"", "", "systematic-elimination", "bisect", "read-the-source", "add-logging"}
	genCategories = []string{"fact", "preference", "decision", "error", "workflow", "context", "event"}
)

func (g *gen) memory() Memory {
	return Memory{Content: g.text(10 + g.r.IntN(30)), Category: genCategories[g.r.IntN(len(genCategories))],
		Importance: float64(g.r.IntN(11)) / 10, Created: 1_700_000_000 + g.r.Int64N(1e7)}
}

func (g *gen) experience() Experience {
	e := Experience{
		Domain: genDomains[g.r.IntN(len(genDomains))], Strategy: genStrategies[g.r.IntN(len(genStrategies))],
		Goal: g.text(8), Hypothesis: g.text(10), Action: g.text(10), Prediction: g.text(8),
		Outcome: Outcomes()[g.r.IntN(3)], Result: g.text(10), Created: 1_700_000_000 + g.r.Int64N(1e7),
	}
	if g.r.IntN(3) == 0 {
		e.Surprise = g.text(8)
	}
	if g.r.IntN(3) == 0 {
		e.RootCause = "wrong-assumption: " + g.text(6)
	}
	if g.r.IntN(2) == 0 {
		e.Lesson = g.text(10)
	}
	return e
}

func (g *gen) value() Value {
	return Value{Text: g.text(12), Axis: Axes()[g.r.IntN(4)], Tags: []string{genDomains[g.r.IntN(len(genDomains))]},
		Created: 1_700_000_000 + g.r.Int64N(1e7)}
}

func (g *gen) commit(i int) history.Commit {
	c := history.Commit{
		SHA: fmt.Sprintf("%016x%016x%08x", g.r.Uint64(), g.r.Uint64(), g.r.Uint32()), Author: []string{"Ada Lovelace", "Alan Turing", "Grace Hopper"}[g.r.IntN(3)],
		Time: 1_600_000_000 + int64(i)*600, Message: g.text(6) + "\n\n" + g.text(20),
	}
	c.Email = strings.ToLower(strings.Fields(c.Author)[0]) + "@example.com"
	for range 1 + g.r.IntN(4) {
		f := history.File{Path: "src/" + g.topics[g.zipf.Uint64()] + "/" + g.topics[g.zipf.Uint64()] + ".go", Added: g.r.IntN(50), Deleted: g.r.IntN(20)}
		c.Files = append(c.Files, f)
		c.Insertions += f.Added
		c.Deletions += f.Deleted
	}
	return c
}

// fill adds generated rows to s: memories, experiences, values and
// commits, in one transaction per kind (rows inserted the way the Add
// methods do, without their per-row transactions).
func fill(t testing.TB, s *Store, seed uint64, memories, experiences, values, commits int) {
	t.Helper()
	ctx := context.Background()
	g := newGen(seed)
	var ms []Memory
	for range memories {
		ms = append(ms, g.memory())
	}
	var es []Experience
	for range experiences {
		es = append(es, g.experience())
	}
	var vs []Value
	for range values {
		vs = append(vs, g.value())
	}
	var cs []history.Commit
	for i := range commits {
		cs = append(cs, g.commit(i))
	}
	err := s.write(ctx, func(tx conn) error {
		for _, m := range ms {
			if _, err := s.insertMemoryNext(ctx, tx, m.withDefaults(epoch.Unix())); err != nil {
				return err
			}
		}
		for _, e := range es {
			if _, err := s.insertExperienceNext(ctx, tx, e.withDefaults(epoch.Unix())); err != nil {
				return err
			}
		}
		for _, v := range vs {
			if _, err := s.insertValueNext(ctx, tx, v.withDefaults(epoch.Unix())); err != nil {
				return err
			}
		}
		_, err := s.insertCommits(ctx, tx, cs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// insertMemoryNext, insertExperienceNext and insertValueNext add a row,
// valid and with its defaults, with the next id, inside tx, and return
// the id: what the Add methods do inside their transaction.
func (s *Store) insertMemoryNext(ctx context.Context, tx conn, m Memory) (id int64, err error) {
	if m.ID, err = s.nextID(ctx, tx, "memory"); err != nil {
		return 0, err
	}
	w := newWriter(tx)
	if err := s.insertMemory(ctx, w, m); err != nil {
		return 0, err
	}
	return m.ID, w.flush(ctx)
}

func (s *Store) insertExperienceNext(ctx context.Context, tx conn, e Experience) (id int64, err error) {
	if e.ID, err = s.nextID(ctx, tx, "experience"); err != nil {
		return 0, err
	}
	w := newWriter(tx)
	if err := s.insertExperience(ctx, w, e); err != nil {
		return 0, err
	}
	return e.ID, w.flush(ctx)
}

func (s *Store) insertValueNext(ctx context.Context, tx conn, v Value) (id int64, err error) {
	if v.ID, err = s.nextID(ctx, tx, "value"); err != nil {
		return 0, err
	}
	w := newWriter(tx)
	if err := s.insertValue(ctx, w, v); err != nil {
		return 0, err
	}
	return v.ID, w.flush(ctx)
}
