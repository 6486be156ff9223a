package app

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/fakesecrets"
)

// TestSummaryCacheKeyedOnBuild: another build of ctxpack does not read the
// levels an earlier one cached (it may count or cut them differently),
// and a build that cannot be identified caches nothing, as without Cache.
func TestSummaryCacheKeyedOnBuild(t *testing.T) {
	ctx := context.Background()
	root := writeProject(t, retrievalFiles())
	p, err := Open(root, "")
	if err != nil {
		t.Fatal(err)
	}
	entries := func() int {
		t.Helper()
		m, err := filepath.Glob(filepath.Join(root, ".ctxpack", "cache", "summaries", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		return len(m)
	}
	saved := buildID
	t.Cleanup(func() { buildID = saved })
	summarize := func(build string, cache bool) {
		t.Helper()
		buildID = func() string { return build }
		if _, err := p.Summarize(ctx, "billing/invoice.py", SummarizeOptions{Level: "summary", Cache: cache}); err != nil {
			t.Fatal(err)
		}
	}

	summarize("build a", false)
	if n := entries(); n != 0 {
		t.Fatalf("without Cache: %d entries", n)
	}
	summarize("", true)
	if n := entries(); n != 0 {
		t.Fatalf("with an unknown build: %d entries", n)
	}
	summarize("build a", true)
	first := entries()
	if first == 0 {
		t.Fatal("Cache stored nothing")
	}
	summarize("build a", true)
	if n := entries(); n != first {
		t.Errorf("the same build again: %d entries, want %d (all hits)", n, first)
	}
	summarize("build b", true)
	if n := entries(); n != 2*first {
		t.Errorf("another build: %d entries, want %d (its own)", n, 2*first)
	}
}

// TestSummarizeLines: Lines summarizes those lines of the file alone:
// full is exactly them, the other levels are theirs as chunk.Levels makes
// them, meta names them; a span the file does not have is a *SpanError
// that says what is valid; a secret the span cuts is redacted.
func TestSummarizeLines(t *testing.T) {
	ctx := context.Background()
	files := retrievalFiles()
	files["empty.txt"] = ""
	files["no-newline.txt"] = "one\ntwo\nthree"
	key := fakesecrets.Value("pkcs8-private-key", 1)
	files["keys.txt"] = "header\n" + key + "\nfooter\n"
	dir := writeProject(t, files)
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	invoice := files["billing/invoice.py"] // 7 lines: round_total at 1-3, tax at 6-7
	tests := []struct {
		name, file, level string
		lines             [2]int
		shown, text, kind string
	}{
		{"full of a function", "billing/invoice.py", "full", [2]int{6, 7}, "full", "def tax(total):\n    return total * 0.2\n", "code"},
		{"full of one line", "billing/invoice.py", "full", [2]int{2, 2}, "full", "    \"\"\"Round the invoice total to cents.\"\"\"\n", "code"},
		{"full of all lines", "billing/invoice.py", "full", [2]int{1, 7}, "full", invoice, "code"},
		{"summary of a function", "billing/invoice.py", "summary", [2]int{1, 3}, "summary", "function: def round_total(total):\n", "code"},
		{"meta names the lines", "billing/invoice.py", "meta", [2]int{6, 7}, "meta", "path: billing/invoice.py\nlanguage: python\nlines: 6-7 of 7\nbytes: 39\n", "code"},
		{"last line without a newline", "no-newline.txt", "full", [2]int{2, 3}, "full", "two\nthree", "text"},
		{"whole file", "billing/invoice.py", "full", [2]int{}, "full", invoice, "code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := p.Summarize(ctx, tt.file, SummarizeOptions{Level: tt.level, Lines: tt.lines})
			if err != nil {
				t.Fatal(err)
			}
			if s.Shown != tt.shown || s.Text != tt.text || s.Kind != tt.kind {
				t.Errorf("shown %s, kind %s, text %q; want %s, %s, %q", s.Shown, s.Kind, s.Text, tt.shown, tt.kind, tt.text)
			}
			switch {
			case tt.lines == [2]int{} && s.Lines != nil:
				t.Errorf("the whole file has lines %v", *s.Lines)
			case tt.lines != [2]int{} && (s.Lines == nil || *s.Lines != tt.lines):
				t.Errorf("lines %v, want %v", s.Lines, tt.lines)
			}
		})
	}

	for _, bad := range []struct {
		file  string
		lines [2]int
		want  string
	}{
		{"billing/invoice.py", [2]int{0, 3}, "billing/invoice.py: no lines 0-3: lines are numbered from 1 (valid: 1 <= first <= last <= 7)"},
		{"billing/invoice.py", [2]int{5, 3}, "billing/invoice.py: no lines 5-3: the first line is after the last (valid: 1 <= first <= last <= 7)"},
		{"billing/invoice.py", [2]int{6, 8}, "billing/invoice.py: no lines 6-8: the file ends at line 7 (valid: 1 <= first <= last <= 7)"},
		{"billing/invoice.py", [2]int{-2, -1}, "lines are numbered from 1"},
		{"empty.txt", [2]int{1, 1}, "empty.txt: no lines 1-1: the file is empty: it has no lines"},
	} {
		_, err := p.Summarize(ctx, bad.file, SummarizeOptions{Level: "full", Lines: bad.lines})
		var se *SpanError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s %v: %v; want a *SpanError that says %q", bad.file, bad.lines, err, bad.want)
			continue
		}
		if se.Path != bad.file || se.Lines != bad.lines {
			t.Errorf("%s %v: %+v", bad.file, bad.lines, se)
		}
	}
	if _, err := p.Summarize(ctx, "nope.py", SummarizeOptions{Lines: [2]int{1, 2}}); err == nil || !strings.Contains(err.Error(), "nope.py") {
		t.Errorf("a missing file: %v", err)
	}

	// Lines 3-5 start inside the key, below its BEGIN line: the file is
	// scanned whole, so the key's lines in the span are redacted.
	s, err := p.Summarize(ctx, "keys.txt", SummarizeOptions{Level: "full", Lines: [2]int{3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Split(key, "\n")
	if strings.Contains(s.Text, body[2]) || !strings.HasPrefix(s.Text, "[redacted: private-key]") || !hasWarning(s.Warnings, "redacted 1 secret in keys.txt (private-key 1) at lines 2 ") {
		t.Errorf("a span inside a key: %q, warnings %q", s.Text, s.Warnings)
	}
}
