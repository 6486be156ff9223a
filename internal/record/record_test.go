package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/render"
)

var when = time.Date(2026, 3, 4, 5, 6, 7, 890, time.FixedZone("X", 3600))

func score(f float64) *float64 { return &f }
func lines(a, b int) *[2]int   { return &[2]int{a, b} }

func tiers() []Tier {
	return []Tier{
		{Name: "primary", Share: 50, Allocated: 500},
		{Name: "supporting", Share: 30, Allocated: 300},
		{Name: "reference", Share: 15, Allocated: 150},
		{Name: "history", Share: 5, Allocated: 50},
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		plan render.Plan
		spec Spec
		// checks
		alloc      map[string][]string // tier → file labels
		efficiency float64
		overflow   Overflow
	}{
		{
			name: "retrieval, no overflow",
			plan: render.Plan{
				Mode: "retrieval", Target: "invoice rounding", Tokenizer: "o200k_base", Budget: 1000, TotalTokens: 400,
				Overflow: "degrade", Metrics: render.Metrics{Utilization: 0.4},
				Parts: []render.PlanPart{
					{Key: "a.py#0", Path: "a.py", Lines: lines(1, 9), Level: "full", Tokens: 200, Score: score(0.8), Bucket: "primary"},
					{Key: "b.py#1", Path: "b.py", Lines: lines(3, 4), Level: "full", Tokens: 100, Score: score(0.31), Bucket: "reference"},
					{Key: "c.md#0", Path: "c.md", Lines: lines(1, 2), Level: "full", Tokens: 100, Score: score(0.1), Bucket: "history"},
				},
				Dropped: []render.Dropped{{Key: "a.py#1", Path: "a.py", Reason: "duplicate of a.py#0"}},
			},
			spec:       Spec{Tiers: tiers()},
			alloc:      map[string][]string{"primary": {"a.py:1-9"}, "supporting": {}, "reference": {"b.py:3-4"}, "history": {"c.md:1-2"}},
			efficiency: 0.75,
			overflow:   Overflow{FilesAffected: []string{}},
		},
		{
			name: "retrieval, degraded, truncated and dropped",
			plan: render.Plan{
				Mode: "retrieval", Target: "q", Budget: 100, TotalTokens: 100, Overflow: "degrade",
				Parts: []render.PlanPart{
					{Key: "a.py#0", Path: "a.py", Lines: lines(1, 9), Level: "summary", Tokens: 50, Score: score(0.9), Bucket: "primary",
						Reason: "degraded to summary: full needs a budget of 400"},
					{Key: "b.py#0", Path: "b.py", Lines: lines(1, 9), Level: "full", Tokens: 30, Score: score(0.6), Bucket: "supporting",
						Truncated: true, Reason: "truncated to fit the budget: 20 of 90 tokens of text shown"},
					{Key: "c.py#0", Path: "c.py", Lines: lines(1, 9), Level: "meta", Tokens: 20, Score: score(0.6), Bucket: "supporting",
						Reason: "requested depth meta"},
				},
				Dropped: []render.Dropped{
					{Key: "d.py#2", Path: "d.py", Reason: "budget: enters at a budget of 900"},
					{Key: "e.py#0", Path: "e.py", Reason: "item cap: over 0.25 of its bucket's share below a budget of 700"},
					{Key: "f.py#0", Path: "f.py", Reason: "max_chunks_per_doc: 2 parts of f.py already taken"},
				},
			},
			spec:       Spec{Tiers: tiers()},
			alloc:      map[string][]string{"primary": {"a.py:1-9"}, "supporting": {"b.py:1-9", "c.py:1-9"}, "reference": {}, "history": {}},
			efficiency: 1,
			overflow: Overflow{
				Occurred: true, StrategyApplied: "degrade",
				FilesAffected: []string{"a.py", "b.py", "d.py", "e.py"},
				Lowered:       []Affected{{"a.py:1-9", "degraded to summary: full needs a budget of 400"}},
				Truncated:     []Affected{{"b.py:1-9", "truncated to fit the budget: 20 of 90 tokens of text shown"}},
				Dropped: []Affected{
					{"d.py#2", "budget: enters at a budget of 900"},
					{"e.py#0", "item cap: over 0.25 of its bucket's share below a budget of 700"},
				},
			},
		},
		{
			name: "links: one context tier, every part relevant, no relevance",
			plan: render.Plan{
				Mode: "links", Target: "TASK-1", Budget: 600, TotalTokens: 300, Overflow: "degrade",
				Parts: []render.PlanPart{
					{Key: "identity", Path: ".ctxpack/system/identity.md", Level: "full", Tokens: 100},
					{Key: "SPEC-1", Path: ".ctxpack/system/specs/SPEC-1.md", Level: "full", Tokens: 150, Score: score(0.1)},
					{Key: "paths", Level: "full", Tokens: 50},
				},
			},
			spec:       Spec{Tiers: []Tier{{Name: "context", Share: 100, Allocated: 600}}},
			alloc:      map[string][]string{"context": {".ctxpack/system/identity.md", ".ctxpack/system/specs/SPEC-1.md", "paths"}},
			efficiency: 1,
			overflow:   Overflow{FilesAffected: []string{}},
		},
		{
			name: "pack without tiers: context tier added; exceeded is overflow",
			plan: render.Plan{
				Mode: "pack", Target: ".", Budget: 10, TotalTokens: 40, Overflow: "allow", Exceeded: true,
				Parts: []render.PlanPart{{Key: "a.go", Path: "a.go", Level: "full", Tokens: 40, Score: score(0.2)}},
			},
			alloc:      map[string][]string{"context": {"a.go"}},
			efficiency: 0,
			overflow:   Overflow{Occurred: true, StrategyApplied: "allow", FilesAffected: []string{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.Time = when
			r := New(&tt.plan, tt.spec)
			if r.Timestamp != "2026-03-04T04:06:07Z" {
				t.Errorf("timestamp %q", r.Timestamp)
			}
			got := map[string][]string{}
			for _, tier := range r.Allocation {
				labels := []string{}
				sum := 0
				for _, f := range tier.Files {
					labels = append(labels, f.Label())
					sum += f.Tokens
				}
				got[tier.Name] = labels
				if sum != tier.TotalTokens {
					t.Errorf("tier %s: total %d, files sum to %d", tier.Name, tier.TotalTokens, sum)
				}
			}
			if !reflect.DeepEqual(got, tt.alloc) {
				t.Errorf("allocation\n got %v\nwant %v", got, tt.alloc)
			}
			if r.Metrics.Efficiency != tt.efficiency {
				t.Errorf("efficiency %v, want %v", r.Metrics.Efficiency, tt.efficiency)
			}
			if !reflect.DeepEqual(r.Overflow, tt.overflow) {
				t.Errorf("overflow\n got %+v\nwant %+v", r.Overflow, tt.overflow)
			}
			if tt.plan.Mode == "links" {
				for _, f := range r.Allocation[0].Files {
					if f.Relevance != nil {
						t.Errorf("links part %s has a relevance", f.Path)
					}
				}
			}
		})
	}
}

// TestMaxFiles: a tier lists at most MaxFiles parts, and counts them all.
func TestMaxFiles(t *testing.T) {
	plan := render.Plan{Mode: "pack"}
	for i := range MaxFiles + 3 {
		plan.Parts = append(plan.Parts, render.PlanPart{Key: fmt.Sprint(i), Path: fmt.Sprint(i), Level: "meta", Tokens: 2})
	}
	r := New(&plan, Spec{})
	tier := r.Allocation[0]
	if len(tier.Files) != MaxFiles || tier.FilesOmitted != 3 || tier.TotalTokens != 2*(MaxFiles+3) {
		t.Errorf("%d files listed, %d omitted, %d tokens", len(tier.Files), tier.FilesOmitted, tier.TotalTokens)
	}
}

func TestCutTarget(t *testing.T) {
	long := strings.Repeat("é", MaxTarget+10)
	r := New(&render.Plan{Mode: "retrieval", Target: long}, Spec{})
	if n := len([]rune(r.Target)); n != MaxTarget || !strings.HasSuffix(r.Target, "…") {
		t.Errorf("target cut to %d characters: %q", n, r.Target)
	}
	short := strings.Repeat("é", MaxTarget)
	if r := New(&render.Plan{Mode: "retrieval", Target: short}, Spec{}); r.Target != short {
		t.Errorf("a target of %d characters was cut", MaxTarget)
	}
}

// TestJSON: a record survives JSON, and the allocation is an object keyed
// by tier, in tier order.
func TestJSON(t *testing.T) {
	plan := render.Plan{
		Mode: "retrieval", Target: "q <&>", Tokenizer: "o200k_base", Budget: 1000, TotalTokens: 10,
		Parts: []render.PlanPart{{Key: "a#0", Path: "a", Lines: lines(1, 2), Level: "full", Tokens: 10, Score: score(0.75), Bucket: "supporting"}},
	}
	r := New(&plan, Spec{Tiers: tiers(), Time: when, Window: 2000, Reserves: &Reserves{200, 100, 700}})
	data, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	order := []string{`"primary":`, `"supporting":`, `"reference":`, `"history":`}
	last := strings.Index(s, `"allocation":{`)
	for _, k := range order {
		i := strings.Index(s, k)
		if i <= last {
			t.Errorf("tier %s out of order in %s", k, s)
		}
		last = i
	}
	if !strings.Contains(s, `"target":"q <&>"`) {
		t.Errorf("target escaped: %s", s)
	}
	var back Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("round trip\n got %+v\nwant %+v", back, r)
	}
	for _, bad := range []string{`{"allocation":[1]}`, `{"allocation":{"primary":3}}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

func rec(i int) Record {
	return New(&render.Plan{Mode: "pack", Target: fmt.Sprintf("t%d", i)}, Spec{Time: when})
}

func targets(t *testing.T, l Log) []string {
	t.Helper()
	recs, bad, err := l.Read()
	if err != nil || len(bad) > 0 {
		t.Fatalf("read: %v %v", err, bad)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.Target)
	}
	return out
}

func TestAppendRotate(t *testing.T) {
	l := Log{Path: filepath.Join(t.TempDir(), "p", ".ctxpack", "records.jsonl"), Max: 3}
	if got := targets(t, l); len(got) != 0 {
		t.Fatalf("a missing log has records: %v", got)
	}
	for i := range 5 {
		if err := l.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := targets(t, l), []string{"t2", "t3", "t4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after rotation: %v, want %v", got, want)
	}
	if m, _ := filepath.Glob(l.Path + ".tmp-*"); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
	// A rotation keeps the log's permissions.
	if err := os.Chmod(l.Path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec(5)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(l.Path); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o640 {
		t.Errorf("after rotation the log's mode is %v, want 0640", fi.Mode().Perm())
	}
}

// TestAppendSlack: the file grows to Max + Max/4 lines before it is
// rewritten with the newest Max, and Read returns the newest Max records
// all along; lines written without Append (so not in the lock file's note)
// are counted.
func TestAppendSlack(t *testing.T) {
	l := Log{Path: filepath.Join(t.TempDir(), "records.jsonl"), Max: 8}
	var want []string
	for i := range 40 {
		if i == 17 {
			// Another writer adds two records behind the note's back.
			f, err := os.OpenFile(l.Path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1017, 1018} {
				line, _ := Marshal(rec(k))
				f.Write(append(line, '\n'))
				want = append(want, fmt.Sprintf("t%d", k))
			}
			f.Close()
		}
		if err := l.Append(rec(i)); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("t%d", i))
		data, err := os.ReadFile(l.Path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n > 10 || n < min(len(want), 8) {
			t.Fatalf("after append %d the file has %d lines, want 8 to 10", i, n)
		}
		if got, want := targets(t, l), want[max(0, len(want)-8):]; !reflect.DeepEqual(got, want) {
			t.Fatalf("after append %d: %v, want %v", i, got, want)
		}
	}
}

// TestPartialLine: a line cut short by a crash is skipped, and the next
// record is whole.
func TestPartialLine(t *testing.T) {
	l := Log{Path: filepath.Join(t.TempDir(), "records.jsonl")}
	if err := l.Append(rec(1)); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(l.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"timestamp":"2026`)
	f.Close()
	if err := l.Append(rec(2)); err != nil {
		t.Fatal(err)
	}
	recs, bad, err := l.Read()
	if err != nil || len(recs) != 2 || len(bad) != 1 || bad[0].Line != 2 {
		t.Fatalf("got %d records, bad %v, %v", len(recs), bad, err)
	}
}

func TestDecode(t *testing.T) {
	good, _ := json.Marshal(rec(1))
	in := strings.Join([]string{
		string(good),
		"",
		"not json",
		`{"timestamp":"x"}`,
		`{"timestamp":"x","mode":"pack"} {"x":1}`,
		`[1,2]`,
		string(good),
	}, "\n")
	recs, bad, err := Decode(strings.NewReader(in), "records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Errorf("%d records, want 2", len(recs))
	}
	var lines []int
	for _, b := range bad {
		lines = append(lines, b.Line)
	}
	if want := []int{3, 4, 5, 6}; !reflect.DeepEqual(lines, want) {
		t.Errorf("bad lines %v, want %v", lines, want)
	}
	if msg := bad[0].Error(); !strings.HasPrefix(msg, "record: records.jsonl:3: not a budget record") {
		t.Errorf("message %q", msg)
	}
}

// TestConcurrentAppend: appends from many goroutines at once (each with
// its own lock, as separate processes have) lose and tear nothing, also
// across rotations (run with -race).
func TestConcurrentAppend(t *testing.T) {
	l := Log{Path: filepath.Join(t.TempDir(), "records.jsonl"), Max: 25}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				if err := l.Append(rec(w*100 + i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := targets(t, l); len(got) != 25 {
		t.Errorf("%d records kept, want 25", len(got))
	}
}

func TestUnwritable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".ctxpack"), nil, 0o666) // a file where the directory should be
	err := ForRoot(dir).Append(rec(1))
	if err == nil || !strings.HasPrefix(err.Error(), "record: ") || !strings.Contains(err.Error(), "--no-record") {
		t.Errorf("got %v, want an error that names the fix", err)
	}
}

// BenchmarkAppend appends to a log already holding DefaultMax records of
// 10 and 100 parts: the steady state of a project that records every
// assembly.
func BenchmarkAppend(b *testing.B) {
	for _, parts := range []int{10, 100} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			p := &render.Plan{Mode: "pack", Target: "src"}
			for k := range parts {
				path := fmt.Sprintf("src/some/dir/file%04d.go", k)
				p.Parts = append(p.Parts, render.PlanPart{Key: path, Path: path, Tokens: 100, Level: "full"})
			}
			r := New(p, Spec{Time: when})
			l := Log{Path: filepath.Join(b.TempDir(), "records.jsonl")}
			for range DefaultMax {
				if err := l.Append(r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := l.Append(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAppendMaxBytes: however large the records, the log never holds more
// than MaxBytes, keeps the newest records, and a record too large for it
// is written slim.
func TestAppendMaxBytes(t *testing.T) {
	l := Log{Path: filepath.Join(t.TempDir(), "records.jsonl"), MaxBytes: 20000}
	for i := range 300 {
		r := rec(i)
		// Records of 100 to about 4,000 bytes, and now and then one far
		// over a quarter of the bound.
		n := (i * 37) % 40
		if i%50 == 7 {
			n = 400
		}
		tier := Tier{Name: "context", Files: []File{}}
		for range n {
			tier.Files = append(tier.Files, File{Path: strings.Repeat("p", 60), Level: "full"})
		}
		r.Allocation = Allocation{tier}
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(l.Path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > l.MaxBytes {
			t.Fatalf("after append %d the log has %d bytes, over %d", i, fi.Size(), l.MaxBytes)
		}
		recs, bad, err := l.Read()
		if err != nil || len(bad) > 0 || len(recs) == 0 || recs[len(recs)-1].Target != r.Target {
			t.Fatalf("after append %d: %d records, bad %v, %v", i, len(recs), bad, err)
		}
		if i%50 == 7 {
			last := recs[len(recs)-1]
			if last.Allocation[0].FilesOmitted != n || len(last.Allocation[0].Files) != 0 {
				t.Fatalf("append %d: a record over a quarter of the bound was not written slim", i)
			}
		}
	}
}

// TestMaxAffected: each overflow list holds at most MaxFiles entries and
// counts the rest.
func TestMaxAffected(t *testing.T) {
	plan := render.Plan{Mode: "pack", Overflow: "degrade"}
	for i := range MaxFiles + 7 {
		p := fmt.Sprint("f", i)
		plan.Parts = append(plan.Parts, render.PlanPart{Key: p, Path: p, Level: "meta", Tokens: 2, Reason: render.ReasonDegraded + " meta: over the budget"})
	}
	r := New(&plan, Spec{})
	o := r.Overflow
	if len(o.Lowered) != MaxFiles || o.LoweredOmitted != 7 || o.LoweredCount() != MaxFiles+7 ||
		len(o.FilesAffected) != MaxFiles || o.FilesAffectedOmitted != 7 {
		t.Errorf("lowered %d (+%d), files affected %d (+%d)", len(o.Lowered), o.LoweredOmitted, len(o.FilesAffected), o.FilesAffectedOmitted)
	}
}
