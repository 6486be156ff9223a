package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ExportFormat is the first line of an export: what the file is, and the
// version of its lines. Bump Version when a line's fields change meaning.
type ExportFormat struct {
	Format  string `json:"format"`  // exportFormatName
	Version int    `json:"version"` // ExportVersion
}

const (
	exportFormatName = "ctxpack-store"
	// ExportVersion is the version of the export's lines.
	ExportVersion = 1
)

// MaxExportLine bounds a line of an export Import reads: a row whose
// fields are each at most MaxText bytes, escaped, fits.
const MaxExportLine = 64 << 20

// exportLine is one row of an export: its kind, its id, and its fields
// as the Add methods take them (empty optional fields left out). The
// namespace is not written: an export moves a namespace's rows, and
// Import puts them in the store's own.
type exportLine struct {
	Kind string `json:"kind"` // memory, experience or value
	ID   int64  `json:"id"`
	// memory
	Content    string   `json:"content,omitempty"`
	Category   string   `json:"category,omitempty"`
	Importance *float64 `json:"importance,omitempty"`
	// experience
	Domain     string `json:"domain,omitempty"`
	Strategy   string `json:"strategy,omitempty"`
	Goal       string `json:"goal,omitempty"`
	Hypothesis string `json:"hypothesis,omitempty"`
	Action     string `json:"action,omitempty"`
	Prediction string `json:"prediction,omitempty"`
	Outcome    string `json:"outcome,omitempty"`
	Result     string `json:"result,omitempty"`
	Surprise   string `json:"surprise,omitempty"`
	RootCause  string `json:"root_cause,omitempty"`
	Lesson     string `json:"lesson,omitempty"`
	Confidence string `json:"confidence,omitempty"`
	Iterations int    `json:"iterations,omitempty"`
	// value
	Text        string   `json:"text,omitempty"`
	Axis        string   `json:"axis,omitempty"`
	Cluster     string   `json:"cluster,omitempty"`
	ClusterSize int      `json:"cluster_size,omitempty"`
	Similarity  *float64 `json:"similarity,omitempty"`
	Experience  int64    `json:"experience,omitempty"`
	Tags        []string `json:"tags,omitempty"`

	Created int64 `json:"created"`
}

// ExportStats count the rows an export wrote, or an import read, by
// kind.
type ExportStats struct {
	Memories    int `json:"memories"`
	Experiences int `json:"experiences"`
	Values      int `json:"values"`
}

// Export writes the memories, experiences and values of the store's own
// namespace to w as JSON lines: the ExportFormat line, then the memories,
// the experiences and the values, each kind by id, each row one line with
// its id and fields (exportLine). The same rows give the same bytes,
// whichever backend holds them. Commits are not exported: they are read
// again from git (SyncCommits). All of it is read in one transaction.
func (s *Store) Export(ctx context.Context, w io.Writer) (ExportStats, error) {
	var st ExportStats
	var ms []Memory
	var es []Experience
	var vs []Value
	err := s.read(ctx, func(tx conn) (err error) {
		if ms, err = queryRows(ctx, tx, scanMemory, `SELECT `+memoryCols+` FROM memories WHERE ns = ? ORDER BY id`, s.ns); err != nil {
			return err
		}
		if es, err = queryRows(ctx, tx, scanExperience, `SELECT `+experienceCols+` FROM experiences WHERE ns = ? ORDER BY id`, s.ns); err != nil {
			return err
		}
		vs, err = queryRows(ctx, tx, scanValue, `SELECT `+valueCols+` FROM learned_values WHERE ns = ? ORDER BY id`, s.ns)
		return err
	})
	if err != nil {
		return st, wrap("export", err)
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ExportFormat{exportFormatName, ExportVersion}); err != nil {
		return st, fmt.Errorf("store: export: %w", err)
	}
	for _, m := range ms {
		imp := m.Importance
		if err := enc.Encode(exportLine{Kind: "memory", ID: m.ID, Content: m.Content, Category: m.Category, Importance: &imp, Created: m.Created}); err != nil {
			return st, fmt.Errorf("store: export: %w", err)
		}
		st.Memories++
	}
	for _, e := range es {
		l := exportLine{Kind: "experience", ID: e.ID, Domain: e.Domain, Strategy: e.Strategy, Goal: e.Goal, Hypothesis: e.Hypothesis,
			Action: e.Action, Prediction: e.Prediction, Outcome: string(e.Outcome), Result: e.Result, Surprise: e.Surprise,
			RootCause: e.RootCause, Lesson: e.Lesson, Confidence: string(e.Confidence), Iterations: e.Iterations, Created: e.Created}
		if err := enc.Encode(l); err != nil {
			return st, fmt.Errorf("store: export: %w", err)
		}
		st.Experiences++
	}
	for _, v := range vs {
		sim := v.Similarity
		l := exportLine{Kind: "value", ID: v.ID, Text: v.Text, Axis: string(v.Axis), Cluster: v.Cluster, ClusterSize: v.ClusterSize,
			Similarity: &sim, Experience: v.Experience, Tags: v.Tags, Created: v.Created}
		if err := enc.Encode(l); err != nil {
			return st, fmt.Errorf("store: export: %w", err)
		}
		st.Values++
	}
	if err := bw.Flush(); err != nil {
		return st, fmt.Errorf("store: export: %w", err)
	}
	return st, nil
}

// ImportStats say what an import did: the rows it added, and those the
// store held already, the same (an import is idempotent).
type ImportStats struct {
	Added     ExportStats `json:"added"`
	Unchanged ExportStats `json:"unchanged"` // held already, the same
}

// Import reads an export (Export's lines; name names it in errors) and
// adds its rows to the store's own namespace with their ids, in one
// transaction: all of them or, on any error, none. A row whose id the
// namespace holds already is skipped when it is the same row (so a
// second import of a file changes nothing), and is an error when it
// differs: an import never replaces authored data. Every line is checked
// before anything is written; an error names the line (a *ParseError).
// Rows keep their Created times; ids given later by the Add methods
// follow the largest imported.
func (s *Store) Import(ctx context.Context, name string, r io.Reader) (ImportStats, error) {
	var st ImportStats
	if s.opt.ReadOnly {
		return st, ErrReadOnly
	}
	rows, err := parseExport(name, r)
	if err != nil {
		return st, err
	}
	bad := func(line int, format string, args ...any) error { return importError(name, line, format, args...) }
	now := s.now()
	err = s.write(ctx, func(tx conn) error {
		st = ImportStats{}
		// What the namespace holds: each kind's ids and content ids.
		have := map[string]map[int64]string{}
		for _, k := range []struct{ kind, table string }{{"memory", "memories"}, {"experience", "experiences"}, {"value", "learned_values"}} {
			ids, err := queryRows(ctx, tx, scanIDCID, `SELECT id, cid FROM `+k.table+` WHERE ns = ?`, s.ns)
			if err != nil {
				return fmt.Errorf("store: import %s: %w", name, err)
			}
			have[k.kind] = make(map[int64]string, len(ids))
			for _, r := range ids {
				have[k.kind][r.id] = r.cid
			}
		}
		last := map[string]int64{}
		undo, err := s.be.bulk(ctx, tx)
		if err != nil {
			return err
		}
		defer undo()
		w := newWriter(tx)
		for _, r := range rows {
			var id int64
			var cid string
			switch r.kind {
			case "memory":
				r.m = r.m.withDefaults(now)
				id, cid = r.m.ID, memoryCID(r.m)
			case "experience":
				r.e = r.e.withDefaults(now)
				id, cid = r.e.ID, experienceCID(r.e)
			case "value":
				r.v = r.v.withDefaults(now)
				id, cid = r.v.ID, valueCID(r.v)
				if e := r.v.Experience; e != 0 {
					if _, ok := have["experience"][e]; !ok {
						return bad(r.line, "value %d names experience %d, which is neither in the file nor in the store", id, e)
					}
				}
			}
			if c, ok := have[r.kind][id]; ok {
				if c != cid {
					return bad(r.line, "%s %d differs from the %s %d the store holds in namespace %s; an import never replaces a row: import into an empty namespace, or remove that %s first", r.kind, id, r.kind, id, s.ns, r.kind)
				}
				*st.Unchanged.of(r.kind)++
				continue
			}
			have[r.kind][id] = cid
			last[r.kind] = max(last[r.kind], id)
			*st.Added.of(r.kind)++
			var err error
			switch r.kind {
			case "memory":
				err = s.insertMemory(ctx, w, r.m)
			case "experience":
				err = s.insertExperience(ctx, w, r.e)
			case "value":
				err = s.insertValue(ctx, w, r.v)
			}
			if err != nil {
				return err
			}
		}
		if err := w.flush(ctx); err != nil {
			return err
		}
		for _, kind := range []string{"memory", "experience", "value"} {
			if id := last[kind]; id > 0 {
				if err := s.seenID(ctx, tx, kind, id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, err
	}
	if st.Added != (ExportStats{}) {
		s.be.analyze(ctx, s.db)
	}
	return st, nil
}

// of returns the count of kind (memory, experience, value).
func (n *ExportStats) of(kind string) *int {
	switch kind {
	case "memory":
		return &n.Memories
	case "experience":
		return &n.Experiences
	}
	return &n.Values
}

// importError is the *ParseError of line of the export name.
func importError(name string, line int, format string, args ...any) error {
	return &ParseError{Name: name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// importRow is a row of an export, checked, with its line.
type importRow struct {
	line int
	kind string
	m    Memory
	e    Experience
	v    Value
}

// parseExport reads and checks the lines of an export (name names it in
// errors, each a *ParseError with the line).
func parseExport(name string, r io.Reader) ([]importRow, error) {
	var rows []importRow
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxExportLine)
	n := 0
	bad := func(line int, format string, args ...any) error { return importError(name, line, format, args...) }
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			var f ExportFormat
			if err := strictJSON(b, &f); err != nil || f.Format != exportFormatName {
				return nil, bad(1, "not a ctxpack store export: the first line must be {\"format\":%q,\"version\":%d}", exportFormatName, ExportVersion)
			}
			if f.Version != ExportVersion {
				return nil, bad(1, "export version %d; this build reads version %d", f.Version, ExportVersion)
			}
			continue
		}
		if len(b) == 0 {
			continue
		}
		var l exportLine
		if err := strictJSON(b, &l); err != nil {
			return nil, bad(n, "%v", err)
		}
		if l.ID <= 0 {
			return nil, bad(n, "id must be a whole number from 1 (got %d)", l.ID)
		}
		rw := importRow{line: n, kind: l.Kind}
		var err error
		switch l.Kind {
		case "memory":
			rw.m = Memory{ID: l.ID, Content: l.Content, Category: l.Category, Importance: deref(l.Importance, -1), Created: l.Created}
			err = rw.m.Validate()
		case "experience":
			rw.e = Experience{ID: l.ID, Domain: l.Domain, Strategy: l.Strategy, Goal: l.Goal, Hypothesis: l.Hypothesis, Action: l.Action,
				Prediction: l.Prediction, Outcome: Outcome(l.Outcome), Result: l.Result, Surprise: l.Surprise, RootCause: l.RootCause,
				Lesson: l.Lesson, Confidence: Tier(l.Confidence), Iterations: l.Iterations, Created: l.Created}
			err = rw.e.Validate()
		case "value":
			rw.v = Value{ID: l.ID, Text: l.Text, Axis: Axis(l.Axis), Cluster: l.Cluster, ClusterSize: l.ClusterSize,
				Similarity: deref(l.Similarity, 0), Experience: l.Experience, Tags: l.Tags, Created: l.Created}
			err = rw.v.Validate()
		default:
			return nil, bad(n, "kind must be memory, experience or value (got %q)", l.Kind)
		}
		if err != nil {
			return nil, bad(n, "%s %d: %v", l.Kind, l.ID, strings.TrimPrefix(err.Error(), "store: "))
		}
		rows = append(rows, rw)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, bad(n+1, "a line is longer than %d bytes", MaxExportLine)
		}
		return nil, fmt.Errorf("store: import %s: %w", name, err)
	}
	if n == 0 {
		return nil, bad(1, "the file is empty: an export starts with {\"format\":%q,\"version\":%d}", exportFormatName, ExportVersion)
	}
	return rows, nil
}

func deref(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// strictJSON decodes one JSON value from b into v, refusing unknown
// fields and anything after the value.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// idCID is a row's id and content id.
type idCID struct {
	id  int64
	cid string
}

func scanIDCID(r interface{ Scan(...any) error }) (idCID, error) {
	var x idCID
	err := r.Scan(&x.id, &x.cid)
	return x, err
}
