package cli

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// TestFileSpan: summarize's FILE:START-END is lines of FILE when FILE
// exists; a name with a colon that names a file is that file; a span
// that does not parse, of a FILE that exists, is a usage error that
// names the argument and says what is valid.
func TestFileSpan(t *testing.T) {
	files := map[string]bool{"a.go": true, "dir/b.py": true, "c:1-2": true, "d:x": true, "e.go": true, "e.go:3-4": true}
	exists := func(name string) bool { return files[name] }
	tests := []struct {
		arg     string
		file    string
		lines   [2]int
		wantErr string
	}{
		{arg: "a.go", file: "a.go"},
		{arg: "a.go:10-20", file: "a.go", lines: [2]int{10, 20}},
		{arg: "dir/b.py:1-1", file: "dir/b.py", lines: [2]int{1, 1}},
		{arg: "a.go:007-010", file: "a.go", lines: [2]int{7, 10}},
		// Values are the facade's to check, against the file.
		{arg: "a.go:0-3", file: "a.go", lines: [2]int{0, 3}},
		{arg: "a.go:9-3", file: "a.go", lines: [2]int{9, 3}},
		{arg: "a.go:1-99999999999999999999999", file: "a.go", lines: [2]int{1, math.MaxInt}},
		// A file whose name has a colon.
		{arg: "c:1-2", file: "c:1-2"},
		{arg: "c:1-2:3-4", file: "c:1-2", lines: [2]int{3, 4}},
		{arg: "d:x", file: "d:x"},
		// Both exist: the span of the file wins.
		{arg: "e.go:3-4", file: "e.go", lines: [2]int{3, 4}},
		// No file: the facade reports FILE missing.
		{arg: "nope.go:1-2", file: "nope.go", lines: [2]int{1, 2}},
		{arg: "nope.go:x", file: "nope.go:x"},
		{arg: ":1-2", file: ":1-2"},
		// Not a span, of a file that exists.
		{arg: "a.go:x-y", wantErr: `summarize: a.go:x-y: "x-y" is not a span of lines (valid: FILE:START-END, two line numbers, 1-based and inclusive, as in a.go:10-20)`},
		{arg: "a.go:10", wantErr: `"10" is not a span of lines`},
		{arg: "a.go:10-", wantErr: `"10-" is not a span of lines`},
		{arg: "a.go:-5", wantErr: `"-5" is not a span of lines`},
		{arg: "a.go:+1-2", wantErr: `"+1-2" is not a span of lines`},
		{arg: "a.go:1-2-3", wantErr: `"1-2-3" is not a span of lines`},
		{arg: "a.go: 1-2", wantErr: `" 1-2" is not a span of lines`},
		{arg: "a.go:", wantErr: `"" is not a span of lines`},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			file, lines, err := fileSpan(tt.arg, exists)
			if tt.wantErr != "" {
				if err == nil || !cmdutil.IsUsage(err) || !strings.Contains(cmdutil.Message(err), tt.wantErr) {
					t.Fatalf("error %v; want a usage error that says %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || file != tt.file || lines != tt.lines {
				t.Errorf("%q, %v, %v; want %q, %v", file, lines, err, tt.file, tt.lines)
			}
		})
	}
}

// TestSpanUsage: a span the file does not have is a usage error in the
// command line's terms, naming the argument and what is valid.
func TestSpanUsage(t *testing.T) {
	tests := []struct {
		lines [2]int
		n     int
		want  string
	}{
		{[2]int{0, 3}, 15, "summarize: a.go:X: lines are numbered from 1 (valid: FILE:START-END with 1 <= START <= END <= 15)"},
		{[2]int{5, 3}, 15, "summarize: a.go:X: START is after END (valid: FILE:START-END with 1 <= START <= END <= 15)"},
		{[2]int{5, 30}, 15, "summarize: a.go:X: a.go ends at line 15 (valid: FILE:START-END with 1 <= START <= END <= 15)"},
		{[2]int{1, 1}, 0, "summarize: a.go:X: a.go is empty: it has no lines to show"},
	}
	for _, tt := range tests {
		err := spanUsage("a.go:X", "a.go", &app.SpanError{Path: "a.go", Lines: tt.lines, FileLines: tt.n})
		var ue cmdutil.UsageError
		if !errors.As(err, &ue) || cmdutil.Message(err) != tt.want {
			t.Errorf("%v of %d lines: %v; want the usage error %q", tt.lines, tt.n, err, tt.want)
		}
	}
}
