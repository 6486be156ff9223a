package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// format1Schema is the schema of FormatVersion 1, as it was created, for
// making a store of that format to migrate.
var format1Schema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	// AUTOINCREMENT: an id is never given again after its row is removed,
	// since people and values refer to rows by id. cid is the content id
	// of the row's canonical form (canonical.go), for StateRoot.
	`CREATE TABLE memories (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		content    TEXT NOT NULL,
		category   TEXT NOT NULL,
		importance REAL NOT NULL,
		created    INTEGER NOT NULL,
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX memories_category ON memories (category)`,
	`CREATE VIRTUAL TABLE memory_terms USING fts5(content, category, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE TABLE experiences (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		domain     TEXT NOT NULL,
		strategy   TEXT NOT NULL,
		goal       TEXT NOT NULL,
		hypothesis TEXT NOT NULL,
		action     TEXT NOT NULL,
		prediction TEXT NOT NULL,
		outcome    TEXT NOT NULL,
		result     TEXT NOT NULL,
		surprise   TEXT NOT NULL,
		root_cause TEXT NOT NULL,
		lesson     TEXT NOT NULL,
		confidence TEXT NOT NULL,
		iterations INTEGER NOT NULL,
		created    INTEGER NOT NULL,
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX experiences_domain ON experiences (domain)`,
	`CREATE INDEX experiences_strategy ON experiences (strategy)`,
	// One full-text table per axis (axes.go), so that IDF is per axis.
	`CREATE VIRTUAL TABLE experience_full USING fts5(domain, strategy, goal, hypothesis, action, prediction, outcome, surprise, root_cause, lesson, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_strategy USING fts5(strategy, goal, action, outcome, lesson, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_surprise USING fts5(surprise, prediction, result, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_root_cause USING fts5(root_cause, hypothesis, result, content='', contentless_delete=1, tokenize='ascii')`,
	// tags: the sorted words, joined by spaces.
	`CREATE TABLE learned_values (
		id           INTEGER PRIMARY KEY AUTOINCREMENT,
		text         TEXT NOT NULL,
		axis         TEXT NOT NULL,
		cluster      TEXT NOT NULL,
		cluster_size INTEGER NOT NULL,
		similarity   REAL NOT NULL,
		experience   INTEGER NOT NULL,
		tags         TEXT NOT NULL,
		created      INTEGER NOT NULL,
		cid          TEXT NOT NULL
	)`,
	`CREATE INDEX learned_values_axis ON learned_values (axis)`,
	`CREATE VIRTUAL TABLE value_terms USING fts5(text, axis, tags, content='', contentless_delete=1, tokenize='ascii')`,
	// files: "added TAB deleted TAB path NUL" for each file (see
	// encodeFiles); a path holds no NUL, so any path reads back whole.
	`CREATE TABLE commits (
		id         INTEGER PRIMARY KEY,
		sha        TEXT NOT NULL UNIQUE,
		author     TEXT NOT NULL,
		email      TEXT NOT NULL,
		time       INTEGER NOT NULL,
		message    TEXT NOT NULL,
		files      BLOB NOT NULL,
		insertions INTEGER NOT NULL,
		deletions  INTEGER NOT NULL,
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX commits_time ON commits (time DESC, sha)`,
	`CREATE VIRTUAL TABLE commit_terms USING fts5(message, paths, author, content='', contentless_delete=1, tokenize='ascii')`,
}

// TestMigrateFormat1 makes a store of format 1 (its tables, and FTS5
// tables filled as that format filled them), with a removed memory, a
// commit and its meta, opens it, and checks that the rows, their ids and
// the ids to come, the commit meta and every search are what a store of
// the same rows made in the current format holds and answers.
func TestMigrateFormat1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sources.db")
	db, err := sqlitedb.Open(path, sqlitedb.Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, q := range format1Schema {
		exec(q)
	}
	exec(`INSERT INTO meta (key, value) VALUES ('kind', 'ctxpack sources'), ('format_version', '1'), ('commit_head', 'abc123'), ('commit_prefix', 'sub')`)

	// The same rows go into the format-1 store (by SQL, as format 1 wrote
	// them) and into a current store (by the Add methods).
	fresh := openTest(t)
	g := newGen(11)
	for i := range 40 {
		m := g.memory().withDefaults(1)
		m.ID = int64(i + 1)
		exec(`INSERT INTO memories (id, content, category, importance, created, cid) VALUES (?, ?, ?, ?, ?, ?)`, m.ID, m.Content, m.Category, m.Importance, m.Created, memoryCID(m))
		exec(`INSERT INTO memory_terms (rowid, content, category) VALUES (?, ?, ?)`, m.ID, lexical.TermsText(m.Content), lexical.TermsText(m.Category))
		mustAddMemory(t, fresh, m)
	}
	for i := range 30 {
		e := g.experience().withDefaults(1)
		e.ID = int64(i + 1)
		exec(`INSERT INTO experiences (id, domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created, cid)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, e.Domain, e.Strategy, e.Goal, e.Hypothesis, e.Action, e.Prediction, string(e.Outcome), e.Result,
			e.Surprise, e.RootCause, e.Lesson, string(e.Confidence), e.Iterations, e.Created, experienceCID(e))
		for _, d := range axisDefs {
			if d.on(&e) {
				texts := d.texts(&e)
				args := []any{e.ID}
				for _, x := range texts {
					args = append(args, lexical.TermsText(x))
				}
				exec(`INSERT INTO `+d.table.name+` (rowid, `+strings.Join(d.table.columns, ", ")+`) VALUES (?`+strings.Repeat(", ?", len(texts))+`)`, args...)
			}
		}
		mustAddExperience(t, fresh, e)
	}
	v := Value{ID: 1, Text: "round money once", Axis: AxisFull, Tags: []string{"billing"}}.withDefaults(1)
	exec(`INSERT INTO learned_values (id, text, axis, cluster, cluster_size, similarity, experience, tags, created, cid) VALUES (?, ?, ?, '', 0, 0, 0, ?, ?, ?)`,
		v.ID, v.Text, string(v.Axis), "billing", v.Created, valueCID(v))
	exec(`INSERT INTO value_terms (rowid, text, axis, tags) VALUES (1, ?, ?, ?)`, lexical.TermsText(v.Text), "full", "billing")
	mustAddValue(t, fresh, v)
	// Memory 40 removed: format 1's AUTOINCREMENT remembers it.
	exec(`DELETE FROM memories WHERE id = 40`)
	exec(`DELETE FROM memory_terms WHERE rowid = 40`)
	if _, err := fresh.RemoveMemory(ctx, 40); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	if _, err := Open(path, Options{ReadOnly: true}); err == nil || !errors.Is(err, ErrOlderFormat) {
		t.Fatalf("a read-only open of format 1: %v; want ErrOlderFormat", err)
	}
	s := openAt(t, path, Options{Now: testNow})
	if w := s.Warnings(); len(w) != 1 || w[0] != "store: sources.db was migrated from format 1 to 2, in place" {
		t.Errorf("Warnings = %q", w)
	}
	for _, q := range []string{"the", g.text(3), g.text(2), "billing money", "wrong assumption"} {
		a, err1 := s.SearchMemories(ctx, q, 10)
		b, err2 := fresh.SearchMemories(ctx, q, 10)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("memories %q: migrated %v (%v), fresh %v (%v)", q, a, err1, b, err2)
		}
		for _, axis := range Axes() {
			a, err1 := s.SearchExperiences(ctx, q, ExperienceQuery{Axis: axis, K: 10})
			b, err2 := fresh.SearchExperiences(ctx, q, ExperienceQuery{Axis: axis, K: 10})
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("experiences %s %q: migrated %v (%v), fresh %v (%v)", axis, q, a, err1, b, err2)
			}
		}
		a2, _ := s.SearchValues(ctx, q, 5)
		b2, _ := fresh.SearchValues(ctx, q, 5)
		if !reflect.DeepEqual(a2, b2) {
			t.Errorf("values %q: migrated %v, fresh %v", q, a2, b2)
		}
	}
	r1, _ := s.StateRoot(ctx)
	r2, _ := fresh.StateRoot(ctx)
	if r1 != r2 {
		t.Errorf("state roots differ: migrated %s, fresh %s", r1, r2)
	}
	m := mustAddMemory(t, s, Memory{Content: "after the migration", Importance: -1})
	if m.ID != 41 {
		t.Errorf("the next memory id is %d, want 41: id 40 was given before", m.ID)
	}
	for key, want := range map[string]string{metaCommitHead + "/default": "abc123", metaCommitPrefix + "/default": "sub", metaCommitHead: ""} {
		if got, _ := getMeta(ctx, s.conn(s.db), key); got != want {
			t.Errorf("meta %s = %q, want %q", key, got, want)
		}
	}
	var fts int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_v1' OR sql LIKE '%fts5%'`).Scan(&fts); err != nil || fts != 0 {
		t.Errorf("%d tables of format 1 left (%v)", fts, err)
	}
}
