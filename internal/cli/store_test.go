package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/clitest"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// TestStoreFlags checks flags → options for the store's commands, with
// the run seams capturing the options instead of running.
func TestStoreFlags(t *testing.T) {
	var ma *memoryAddOptions
	f := clitest.Factory("")
	if err := clitest.Run(f, newCmdMemoryAdd(f, func(o *memoryAddOptions) error { ma = o; return nil }), "add", "a fact"); err != nil {
		t.Fatal(err)
	}
	if ma.text != "a fact" || ma.category != "" || ma.importance != nil {
		t.Errorf("memory add defaults: %+v", ma)
	}
	f = clitest.Factory("")
	if err := clitest.Run(f, newCmdMemoryAdd(f, func(o *memoryAddOptions) error { ma = o; return nil }), "add", "-", "--category", "decision", "--importance", "0"); err != nil {
		t.Fatal(err)
	}
	if ma.text != "-" || ma.category != "decision" || ma.importance == nil || *ma.importance != 0 {
		t.Errorf("memory add flags: %+v", ma)
	}

	var ea *experienceAddOptions
	f = clitest.Factory("")
	if err := clitest.Run(f, newCmdExperienceAdd(f, func(o *experienceAddOptions) error { ea = o; return nil }),
		"add", "--lesson", " l ", "--domain", "debugging", "--root-cause", "rc", "--outcome", "falsified", "--iterations", "3"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ea.set, ","); got != "domain,outcome,root-cause,lesson,iterations" {
		t.Errorf("experience add: flags set %s, want them in the fields' order", got)
	}
	if _, err := ea.experience(); err == nil || !strings.Contains(err.Error(), "--goal is required") {
		t.Errorf("experience add without --goal: %v", err)
	}
	*ea.texts["goal"], *ea.texts["hypothesis"], *ea.texts["action"], *ea.texts["prediction"], *ea.texts["result"] = "g", "h", "a", "p", "r"
	e, err := ea.experience()
	if err != nil || e.Lesson != "l" || e.RootCause != "rc" || e.Outcome != "falsified" || e.Iterations != 3 {
		t.Errorf("experience add: %+v, %v", e, err)
	}

	var vd *valueDeriveOptions
	f = clitest.Factory("")
	if err := clitest.Run(f, newCmdValueDerive(f, func(o *valueDeriveOptions) error { vd = o; return nil }), "derive", "--format", "json"); err != nil {
		t.Fatal(err)
	}
	if vd.minSize != 3 || vd.threshold != 0.2 || vd.add || vd.axis != "" || !vd.json() {
		t.Errorf("value derive defaults: %+v", vd)
	}

	var item *itemOptions
	f = clitest.Factory("")
	if err := clitest.Run(f, newCmdRowShow(f, valueKind, func(o *itemOptions) error { item = o; return nil }), "show", "value:7"); err != nil {
		t.Fatal(err)
	}
	if id, err := item.id(); id != 7 || err != nil {
		t.Errorf("value show value:7: id %d, %v", id, err)
	}
	item.arg = "memory:7"
	if _, err := item.id(); err == nil || !errors.As(err, new(cmdutil.UsageError)) {
		t.Errorf("value show memory:7: %v, want a usage error", err)
	}
}

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
