package storecmd

import (
	"strings"
	"testing"
)

func TestFormatList(t *testing.T) {
	long := strings.Repeat("word ", 30)
	got := formatList([][]string{
		{"memory:1", "fact", "0.5", "short"},
		{"memory:12", "decision", "1", "two\nlines"},
		{"memory:13", "fact", "0", long},
		{"memory:14", "fact", "0", "tab\there"},
	})
	want := "memory:1   fact      0.5  short\n" +
		"memory:12  decision  1    two…\n" +
		"memory:13  fact      0    " + strings.TrimSpace(long[:100-26-1]) + "…\n" +
		"memory:14  fact      0    tab here\n"
	if got != want {
		t.Errorf("formatList:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if n := len([]rune(line)); n > listWidth {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	if formatList(nil) != "" {
		t.Error("formatList(nil) is not empty")
	}
}

func TestFormatFields(t *testing.T) {
	got := formatFields([]field{{"key", "memory:1"}, {"importance", "0.5"}, {"content", "one\n\nthree"}, {"tags", ""}})
	want := "key:        memory:1\n" +
		"importance: 0.5\n" +
		"content:    one\n" +
		"\n" +
		"            three\n" +
		"tags:\n"
	if got != want {
		t.Errorf("formatFields:\n%q\nwant:\n%q", got, want)
	}
}
