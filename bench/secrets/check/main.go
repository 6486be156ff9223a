// Command check scores outputs against the manifest of a project of
// bench/secrets/gen: for each output, the secrets that appear in it (a
// leak: there must be none) and the look-alikes it keeps (at least
// -min-kept of those whose surroundings it shows). It prints a table and
// exits 1 when a judged output fails.
//
//	go run ./bench/secrets/check -manifest DIR.manifest.json [-full NAMES] [-ref NAMES] OUT...
//
// An output's name is its file name less the extension. The outputs -full
// names must show every look-alike's surroundings (they hold the whole
// project, so a file left out is a look-alike lost); those -ref names
// (another tool's) are scored and not judged.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/fakesecrets"
)

func main() {
	manifest := flag.String("manifest", "", "the project's manifest (DIR.manifest.json)")
	full := flag.String("full", "", "comma-separated outputs that hold the whole project")
	ref := flag.String("ref", "", "comma-separated outputs that are scored, not judged")
	minKept := flag.Float64("min-kept", 0.9, "the least share of the look-alikes in scope an output must keep")
	flag.Parse()
	if *manifest == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: check -manifest FILE [-full NAMES] [-ref NAMES] OUT...")
		os.Exit(2)
	}
	data, err := os.ReadFile(*manifest)
	if err != nil {
		fmt.Fprintln(os.Stderr, "check:", err)
		os.Exit(2)
	}
	var m fakesecrets.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		fmt.Fprintln(os.Stderr, "check:", *manifest+":", err)
		os.Exit(2)
	}
	fulls, refs := strings.Split(*full, ","), strings.Split(*ref, ",")
	kinds := len(m.Kinds())
	fmt.Printf("%-26s %14s %13s %8s %14s %9s %7s  %s\n", "output", "leaked", "kinds leaked", "reached", "look-alikes", "in scope", "kept %", "verdict")
	fmt.Printf("%-26s %14s %13s %8s %14s %9s %7s\n", "", fmt.Sprintf("(of %d)", len(m.Secrets)), fmt.Sprintf("(of %d)", kinds), "", fmt.Sprintf("kept (of %d)", len(m.LookAlikes)), "", "")
	failed := false
	var notes []string
	for _, path := range flag.Args() {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		out, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "check:", err)
			os.Exit(2)
		}
		s := m.Check(string(out))
		var why []string
		if len(s.Leaked) > 0 {
			why = append(why, "leaks")
		}
		if s.KeptShare() < *minKept {
			why = append(why, "loses look-alikes")
		}
		if slices.Contains(fulls, name) && s.InScope < s.LookAlikes {
			why = append(why, "leaves out files with look-alikes")
		}
		verdict := "ok"
		switch {
		case slices.Contains(refs, name):
			verdict = "(reference"
			if len(why) > 0 {
				verdict += ": " + strings.Join(why, ", ")
			}
			verdict += ")"
		case len(why) > 0:
			verdict = "FAIL: " + strings.Join(why, ", ")
			failed = true
		}
		fmt.Printf("%-26s %14d %13d %8d %14d %9d %6.0f%%  %s\n", name, len(s.Leaked), len(s.LeakedKinds()), s.Reached, s.Kept, s.InScope, 100*s.KeptShare(), verdict)
		if len(s.Leaked) > 0 {
			notes = append(notes, fmt.Sprintf("%s leaks: %s", name, strings.Join(s.LeakedKinds(), " ")))
		}
		if len(s.Lost) > 0 {
			var lost []string
			for _, l := range s.Lost {
				lost = append(lost, l.Kind+" ("+l.Path+")")
			}
			notes = append(notes, fmt.Sprintf("%s loses: %s", name, strings.Join(lost, ", ")))
		}
	}
	fmt.Println()
	fmt.Println("leaked: secrets with a value in the output; reached: secrets whose surrounding lines the output shows;")
	fmt.Println("in scope: look-alikes whose surrounding lines the output shows; kept %: of those in scope.")
	for _, n := range notes {
		fmt.Println(n)
	}
	if failed {
		os.Exit(1)
	}
}
