package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestExportImportRoundTrip exports a store, imports the export into an
// empty store of each backend, exports that, and checks the bytes are the
// same; then imports again and checks nothing changed.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := backends[0].open(t, Options{Now: testNow})
	fill(t, src, 3, 120, 90, 0, 0)
	es, err := src.Experiences(ctx, ExperienceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	mustAddValue(t, src, Value{Text: "bisect before reading", Axis: AxisStrategy, Cluster: "strategy/1", ClusterSize: 3, Similarity: 0.8125, Experience: es[4].ID, Tags: []string{"bisect", "debugging"}})
	if _, err := src.RemoveMemory(ctx, 7); err != nil { // a gap in the ids
		t.Fatal(err)
	}
	var first bytes.Buffer
	n, err := src.Export(ctx, &first)
	if err != nil {
		t.Fatal(err)
	}
	if n != (ExportStats{119, 90, 1}) {
		t.Fatalf("exported %+v", n)
	}
	wantRoot, _ := src.StateRoot(ctx)
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			dst := b.open(t, Options{Namespace: "moved"})
			st, err := dst.Import(ctx, "first.jsonl", bytes.NewReader(first.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if st.Added != n || st.Unchanged != (ExportStats{}) {
				t.Fatalf("import: %+v", st)
			}
			var second bytes.Buffer
			if _, err := dst.Export(ctx, &second); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Fatalf("export → import → export differs:\n%s", firstDiff(first.String(), second.String()))
			}
			if root, _ := dst.StateRoot(ctx); root != wantRoot {
				t.Errorf("state root %s, want the source's %s", root, wantRoot)
			}
			again, err := dst.Import(ctx, "first.jsonl", bytes.NewReader(first.Bytes()))
			if err != nil || again.Added != (ExportStats{}) || again.Unchanged != n {
				t.Fatalf("second import: %+v, %v; want all unchanged", again, err)
			}
			m, err := dst.AddMemory(ctx, Memory{Content: "after the import", Importance: -1})
			if err != nil || m.ID != 121 {
				t.Errorf("the next memory id after importing ids up to 120 is %d (%v), want 121", m.ID, err)
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}

// TestImportRefuses checks that a bad file, or a row that would replace
// another, is an error naming the line, and that nothing is imported.
func TestImportRefuses(t *testing.T) {
	ctx := context.Background()
	head := `{"format":"ctxpack-store","version":1}` + "\n"
	mem := `{"kind":"memory","id":6,"content":"totals are cents","category":"fact","importance":0.5,"created":1700000000}` + "\n"
	cases := []struct {
		name, file string
		line       int
		want       string
	}{
		{"empty", "", 1, "the file is empty"},
		{"not an export", `{"kind":"memory"}` + "\n", 1, "not a ctxpack store export"},
		{"newer version", `{"format":"ctxpack-store","version":9}` + "\n", 1, "version 9"},
		{"bad json", head + mem + "{oops\n", 3, "invalid character"},
		{"unknown field", head + `{"kind":"memory","id":2,"content":"x","colour":"red","created":1}` + "\n", 2, "unknown field"},
		{"unknown kind", head + `{"kind":"commit","id":2,"created":1}` + "\n", 2, "kind must be memory, experience or value"},
		{"bad id", head + `{"kind":"memory","id":0,"content":"x","created":1}` + "\n", 2, "id must be a whole number from 1"},
		{"invalid row", head + `{"kind":"memory","id":2,"content":"x","importance":7,"created":1}` + "\n", 2, "importance: must be from 0 to 1"},
		{"value without its experience", head + `{"kind":"value","id":1,"text":"t","axis":"full","experience":9,"created":1}` + "\n", 2, "experience 9, which is neither"},
		{"replaces a row", head + mem + `{"kind":"memory","id":5,"content":"another text","category":"fact","importance":0.5,"created":1700000000}` + "\n", 3, "memory 5 differs from the memory 5"},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			s := b.open(t, Options{Now: testNow})
			for range 5 {
				mustAddMemory(t, s, Memory{Content: "already here", Importance: -1})
			}
			before, _ := s.StateRoot(ctx)
			for _, c := range cases {
				_, err := s.Import(ctx, "in.jsonl", strings.NewReader(c.file))
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != c.line || pe.Name != "in.jsonl" || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %v; want a *ParseError at in.jsonl:%d holding %q", c.name, err, c.line, c.want)
				}
				if after, _ := s.StateRoot(ctx); after != before {
					t.Fatalf("%s: the failed import changed the store", c.name)
				}
			}
		})
	}
}

// FuzzParseExport feeds the export reader any bytes: it must return rows
// that each pass their kind's Validate, or a *ParseError whose line is one
// of the input's, never panic.
func FuzzParseExport(f *testing.F) {
	f.Add([]byte(`{"format":"ctxpack-store","version":1}` + "\n" + `{"kind":"memory","id":3,"content":"totals are cents","category":"fact","importance":0.5,"created":1700000000}` + "\n"))
	f.Add([]byte(`{"format":"ctxpack-store","version":1}` + "\n" + `{"kind":"experience","id":1,"domain":"debugging","goal":"g","hypothesis":"h","action":"a","prediction":"p","outcome":"falsified","result":"r","created":5}` + "\n" + `{"kind":"value","id":1,"text":"t","axis":"full","experience":1,"tags":["x"],"created":1}` + "\n"))
	f.Add([]byte("{}\n\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := parseExport("fuzz.jsonl", bytes.NewReader(data))
		if err != nil {
			var pe *ParseError
			lines := bytes.Count(data, []byte("\n")) + 1
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Line > lines+1 {
				t.Fatalf("error %v is not a *ParseError at one of the %d lines", err, lines)
			}
			return
		}
		for _, r := range rows {
			var verr error
			switch r.kind {
			case "memory":
				verr = r.m.Validate()
			case "experience":
				verr = r.e.Validate()
			case "value":
				verr = r.v.Validate()
			default:
				t.Fatalf("line %d: kind %q", r.line, r.kind)
			}
			if verr != nil {
				t.Fatalf("line %d passed but does not validate: %v", r.line, verr)
			}
		}
	})
}
