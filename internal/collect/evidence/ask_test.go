package evidence

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/textsim"
)

// TestParseQuestion: the seed's questions and others, the sections their
// words choose and their subjects, and the questions that are refused.
func TestParseQuestion(t *testing.T) {
	tests := []struct {
		question string
		sections []string
		want     []string // sections
		subject  string
		err      string
	}{
		{question: "What evidence covers error handling?", want: []string{Coverage}, subject: "error handling"},
		{question: "What's missing for authentication?", want: []string{Gaps}, subject: "authentication"},
		{question: "What evidence is redundant?", want: []string{Redundancy}, subject: ""},
		{question: "error handling", want: []string{Coverage, Gaps}, subject: "error handling"},
		{question: "which files duplicate or overlap the retry logic, and what is lacking?", want: []string{Gaps, Redundancy}, subject: "files retry logic"},
		{question: "what is relevant to handleError", want: []string{Coverage}, subject: "handleError"},
		{question: "What is missing for near duplicate detection?", want: []string{Gaps}, subject: "near duplicate detection"},
		{question: "what is redundant in the missing-file handling", want: []string{Redundancy}, subject: "missing-file handling"},
		{question: "what covers handling of missing files", want: []string{Coverage}, subject: "handling missing files"},
		{question: "retry", sections: []string{Redundancy, Gaps}, want: []string{Gaps, Redundancy}, subject: "retry"},
		{question: "what is redundant", sections: []string{Redundancy}, want: []string{Redundancy}},
		{question: "", err: "the question is empty"},
		{question: " \t\n", err: "the question is empty"},
		{question: "what is missing?", err: "names no subject to find gaps for"},
		{question: "what does it cover?", err: "names no subject to find coverage for"},
		{question: "what?", err: "names no subject to find coverage and gaps for"},
		{question: "retry", sections: []string{"everything"}, err: `section "everything" is not one of`},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			q, err := ParseQuestion(tt.question, tt.sections)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(q.Sections, tt.want) || q.Subject != tt.subject || q.Chosen == "" {
				t.Errorf("sections %v, subject %q (%s); want %v, %q", q.Sections, q.Subject, q.Chosen, tt.want, tt.subject)
			}
		})
	}
}

func TestTermMatches(t *testing.T) {
	tests := []struct {
		term, word string
		want       bool
	}{
		{"error", "error", true},
		{"error", "errors", true},
		{"handling", "handler", true},
		{"handling", "handle", true},
		{"authentication", "authenticate", true},
		{"error", "err", false},
		{"error", "errorf", false},
		{"auth", "authentication", false},
	}
	for _, tt := range tests {
		if got := termMatches(tt.term, tt.word); got != tt.want {
			t.Errorf("termMatches(%q, %q) = %v, want %v", tt.term, tt.word, got, tt.want)
		}
	}
}

func TestSubtract(t *testing.T) {
	tests := []struct {
		r    [2]int
		held [][2]int
		want string
	}{
		{[2]int{5, 15}, nil, "[[5 15]]"},
		{[2]int{5, 15}, [][2]int{{5, 9}, {7, 14}}, "[[15 15]]"},
		{[2]int{5, 15}, [][2]int{{10, 12}}, "[[5 9] [13 15]]"},
		{[2]int{5, 15}, [][2]int{{5, 15}}, "[]"},
		{[2]int{5, 15}, [][2]int{{12, 15}, {5, 6}}, "[[7 11]]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(subtract(tt.r, tt.held)); got != tt.want {
			t.Errorf("subtract(%v, %v) = %s, want %s", tt.r, tt.held, got, tt.want)
		}
	}
}

// TestContent: a file evidence add wrote gives back the selected text and
// the workspace line it starts on; a note written by hand its text.
func TestContent(t *testing.T) {
	e := testEnv(t, t.TempDir(), map[string]string{"src/a.go": "package a\n\nfunc A() {}\n\n// ```\nfunc B() {}\n"})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::3,6"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "A note.\nTwo lines."})
	entries, _, err := ws.List()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := e.readWorkspace(ws, entries)
	want := []struct {
		text string
		line int
	}{
		{"func A() {}\n\n// ```\nfunc B() {}\n", 5}, // heading, comment, blank, fence
		{"A note.\nTwo lines.\n", 3},                // heading, blank
	}
	for i, f := range files {
		text, line := content(f)
		if text != want[i].text || line != want[i].line {
			t.Errorf("%s: %q at line %d, want %q at %d", f.path, text, line, want[i].text, want[i].line)
		}
		if f.entry.Role != workspace.Evidence {
			t.Errorf("%s: role %s", f.path, f.entry.Role)
		}
	}
}

// TestRedundancy: each way one evidence file covers another, the larger
// kept; a skipped copy is not weighed; spans that share lines overlap.
func TestRedundancy(t *testing.T) {
	long := "Retries back off exponentially, starting at one second and doubling up to a minute, with jitter."
	e := testEnv(t, t.TempDir(), map[string]string{"src/a.go": numbered("a", 30), "src/b.go": numbered("b", 10)})
	ws := openWS(t, e, "ctx")
	for _, ar := range []AddRequest{
		{Selector: "src/a.go::1,20"},                                                           // 100
		{Selector: "src/a.go::5,10", Kind: "inner"},                                            // 110: within 100
		{Selector: "src/a.go::15,30", Kind: "tail"},                                            // 120: overlaps 100
		{Selector: "src/b.go"},                                                                 // 130
		{Selector: "src/b.go", Kind: "copy"},                                                   // 140: same span as 130
		{Selector: "-", Text: long, Kind: "policy"},                                            // 150
		{Selector: "-", Text: "starting at one second and doubling", Kind: "part"},             // 160: within 150's text
		{Selector: "-", Text: strings.Replace(long, "a minute,", "a minute", 1), Kind: "near"}, // 170: similar to 150, shorter
		{Selector: "src/a.go::5,10", Kind: "off", Rank: 300},                                   // skipped below
	} {
		mustWrite(t, e, ws, ar)
	}
	entries, _, err := ws.List()
	if err != nil {
		t.Fatal(err)
	}
	off, err := workspace.Find(entries, "300")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetState(off, workspace.Skipped); err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuestion("what is redundant?", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Ask(context.Background(), ws, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Redundant {
		got = append(got, fmt.Sprintf("%s by %s %s", d.ID, d.By, d.How))
		if d.Why == "" {
			t.Errorf("%s: no reason", d.ID)
		}
	}
	want := []string{
		"110_inner by 100_a_go within-span",
		"140_copy by 130_b_go same-text",
		"160_part by 150_policy text-within",
		"170_near by 150_policy similar",
	}
	if !slices.Equal(got, want) {
		t.Errorf("redundant:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rep.Overlaps) != 1 || rep.Overlaps[0].Entry != "120_tail" || rep.Overlaps[0].Other != "100_a_go" || rep.Overlaps[0].Lines != [2]int{15, 20} {
		t.Errorf("overlaps: %+v", rep.Overlaps)
	}
	if rep.Redundant[3].Similarity < SimilarThreshold || rep.Redundant[3].Similarity >= 1 {
		t.Errorf("similar: similarity %v", rep.Redundant[3].Similarity)
	}
}

// TestCoverageStale: evidence whose source span changed since it was
// added says so in its reason.
func TestCoverageStale(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{"src/retry.go": "package retry\n\n// Backoff doubles the wait.\nfunc Backoff(n int) int { return 2 * n }\n"})
	e.Search = searchFor(map[string][]Hit{"retry backoff": {{Path: "src/retry.go", StartLine: 3, EndLine: 4, Relevance: 0.5}}})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "src/retry.go::3,4"})
	q, err := ParseQuestion("what covers retry backoff", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, edit := range []bool{false, true} {
		if edit {
			writeFile(t, filepath.Join(dir, "src", "retry.go"), "package retry\n\n// Backoff triples the wait.\nfunc Backoff(n int) int { return 3 * n }\n")
		}
		rep, err := e.Ask(context.Background(), ws, q, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Coverage) != 1 || strings.Contains(rep.Coverage[0].Why, "stale") != edit {
			t.Errorf("edited %v: %+v", edit, rep.Coverage)
		}
	}
}

// TestRedundancyEmpty: evidence of empty files is not redundant beside
// each other (as the engine's dedup keeps empty files), unless the spans
// say so.
func TestRedundancyEmpty(t *testing.T) {
	e := testEnv(t, t.TempDir(), map[string]string{"src/a.txt": "", "src/b.txt": ""})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.txt"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/b.txt"})
	q, err := ParseQuestion("what is redundant", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Ask(context.Background(), ws, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Redundant) != 0 {
		t.Errorf("empty files redundant: %+v", rep.Redundant)
	}
}

// TestMayBeAlikeSound: the rune-count filter never rules out a pair that
// textsim finds SimilarThreshold alike: random texts, each edited a few
// times (substitutions, insertions, deletions), from none to past the
// threshold.
func TestMayBeAlikeSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abcdefghij é世\u0100\u0200")
	cand := func(s string) *candidate {
		c := &candidate{norm: textsim.Normalize(s)}
		for _, r := range c.norm {
			c.hist[uint32(r)%256]++
			c.runes++
		}
		return c
	}
	alike, ruled := 0, 0
	for range 3000 {
		a := make([]rune, 1+rng.IntN(120))
		for i := range a {
			a[i] = alphabet[rng.IntN(len(alphabet))]
		}
		b := slices.Clone(a)
		for range rng.IntN(1 + len(a)/5) {
			i := rng.IntN(len(b) + 1)
			r := alphabet[rng.IntN(len(alphabet))]
			switch op := rng.IntN(3); {
			case op == 0 && i < len(b):
				b[i] = r
			case op == 1:
				b = slices.Insert(b, i, r)
			case i < len(b):
				b = slices.Delete(b, i, i+1)
			}
		}
		ca, cb := cand(string(a)), cand(string(b))
		_, ok := textsim.Prepare(ca.norm).AtLeast(textsim.Prepare(cb.norm), SimilarThreshold)
		may := mayBeAlike(ca, cb)
		if ok && !may {
			t.Fatalf("%q and %q are alike, but the filter rules them out", ca.norm, cb.norm)
		}
		if ok {
			alike++
		}
		if !may {
			ruled++
		}
	}
	if alike == 0 || ruled == 0 {
		t.Errorf("%d pairs alike, %d ruled out: the test tries neither kind", alike, ruled)
	}
}
