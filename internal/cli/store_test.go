package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// runStoreCmd runs cmd, a store subcommand built with a run seam, under a
// root that holds the global flags.
func runStoreCmd(t *testing.T, g *globals, ios *IOStreams, cmd *cobra.Command, args ...string) error {
	t.Helper()
	root := &cobra.Command{Use: "ctxpack", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().StringVar(&g.format, "format", "", "")
	root.AddCommand(cmd)
	root.SetArgs(append([]string{cmd.Name()}, args...))
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	return root.ExecuteContext(context.Background())
}

// TestStoreFlags checks flags → options for the store's commands, with
// the run seams capturing the options instead of running.
func TestStoreFlags(t *testing.T) {
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}

	var ma *memoryAddOptions
	g := &globals{}
	if err := runStoreCmd(t, g, ios, newCmdMemoryAdd(g, ios, func(o *memoryAddOptions) error { ma = o; return nil }), "a fact"); err != nil {
		t.Fatal(err)
	}
	if ma.text != "a fact" || ma.category != "" || ma.importance != nil {
		t.Errorf("memory add defaults: %+v", ma)
	}
	g = &globals{}
	if err := runStoreCmd(t, g, ios, newCmdMemoryAdd(g, ios, func(o *memoryAddOptions) error { ma = o; return nil }), "-", "--category", "decision", "--importance", "0"); err != nil {
		t.Fatal(err)
	}
	if ma.text != "-" || ma.category != "decision" || ma.importance == nil || *ma.importance != 0 {
		t.Errorf("memory add flags: %+v", ma)
	}

	var ea *experienceAddOptions
	g = &globals{}
	if err := runStoreCmd(t, g, ios, newCmdExperienceAdd(g, ios, func(o *experienceAddOptions) error { ea = o; return nil }),
		"--lesson", " l ", "--domain", "debugging", "--root-cause", "rc", "--outcome", "falsified", "--iterations", "3"); err != nil {
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
	g = &globals{}
	if err := runStoreCmd(t, g, ios, newCmdValueDerive(g, ios, func(o *valueDeriveOptions) error { vd = o; return nil }), "--format", "json"); err != nil {
		t.Fatal(err)
	}
	if vd.minSize != 3 || vd.threshold != 0.2 || vd.add || vd.axis != "" || !vd.json() {
		t.Errorf("value derive defaults: %+v", vd)
	}

	var item *itemOptions
	g = &globals{}
	if err := runStoreCmd(t, g, ios, newCmdRowShow(g, ios, valueKind, func(o *itemOptions) error { item = o; return nil }), "value:7"); err != nil {
		t.Fatal(err)
	}
	if id, err := item.id(); id != 7 || err != nil {
		t.Errorf("value show value:7: id %d, %v", id, err)
	}
	item.arg = "memory:7"
	if _, err := item.id(); err == nil || exitCode(err, &IOStreams{ErrOut: &bytes.Buffer{}}) != cmdutil.ExitUsage {
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
