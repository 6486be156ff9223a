package app

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestPackageNames: Message strips the name of every package under
// internal/ but the front ends, and nothing else.
func TestPackageNames(t *testing.T) {
	want := []string{"ctxpack"}
	front := map[string]bool{"cli": true, "clitest": true, "cmdutil": true, "evidencecmd": true, "storecmd": true, "mcpserver": true, "collect": true, "internal": true, "vocab": true, "genvocab": true, "genhf": true}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() || e.Name() == "testdata" {
				continue
			}
			if !front[e.Name()] {
				want = append(want, e.Name())
			}
			walk(dir + "/" + e.Name())
		}
	}
	walk("..")
	slices.Sort(want)
	want = slices.Compact(want)
	got := slices.Clone(packageNames)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("packageNames %v, internal/ has %v", got, want)
	}
}

func TestMessage(t *testing.T) {
	for _, tc := range []struct{ err, want string }{
		{"graph: no artifact TASK-001 (ctxpack list shows the ids)", "no artifact TASK-001 (ctxpack list shows the ids)"},
		{"ctxpack: index: open .ctxpack/index.db: database is locked", "open .ctxpack/index.db: database is locked"},
		{"retrieve: a.py is not in the index: it may be ignored", "a.py is not in the index: it may be ignored"},
		{"yaml: line 3: did not find expected key", "yaml: line 3: did not find expected key"},
		{"read x: index", "read x: index"},
	} {
		if got := Message(errors.New(tc.err)); got != tc.want {
			t.Errorf("Message(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
	if got := Message(fmt.Errorf("ctxpack: %w", &PathError{Path: "nope", Err: os.ErrNotExist})); got != "nope: no such file or directory (a path is taken relative to the working directory)" {
		t.Errorf("PathError: %q", got)
	}
}
