// Command genproject writes a large, deterministic ctxpack project for
// benchmarks: artifacts under .ctxpack/ with random links (cycles
// included) and Markdown bodies, and code files, some with @spec
// annotations.
//
//	go run ./bench/genproject -out DIR [-artifacts 10000] [-code 50000] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("out", "", "directory to write the project into (must not exist)")
	nArt := flag.Int("artifacts", 10000, "number of artifacts")
	nCode := flag.Int("code", 50000, "number of code files")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genproject: -out DIR is required")
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "genproject: %s exists\n", *out)
		os.Exit(2)
	}
	if err := generate(*out, *nArt, *nCode, rand.New(rand.NewPCG(*seed, 7))); err != nil {
		fmt.Fprintln(os.Stderr, "genproject:", err)
		os.Exit(1)
	}
}

var words = strings.Fields("invoice total rounding currency rate job queue error retry cycle amount cents customer tax line render pdf idempotent key convert fixed half even minor units ledger payment refund credit usage meter plan subscription account")

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[r.IntN(len(words))]
	}
	return strings.Join(w, " ") + "."
}

func generate(out string, nArt, nCode int, r *rand.Rand) error {
	write := func(rel, text string) error {
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(text), 0o644)
	}
	// 5% tasks, 30% specs, 40% decisions, 25% norms.
	nTask, nSpec, nDec := nArt/20, nArt*30/100, nArt*40/100
	nNorm := nArt - nTask - nSpec - nDec - 1
	ids := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s-%05d", prefix, i)
		}
		return out
	}
	tasks, specs, decs, norms := ids("TASK", nTask), ids("SPEC", nSpec), ids("DEC", nDec), ids("NORM", nNorm)
	pick := func(list []string, max int) string {
		n := r.IntN(max + 1)
		var l []string
		for range n {
			l = append(l, list[r.IntN(len(list))])
		}
		return "[" + strings.Join(l, ", ") + "]"
	}
	body := func(title string) string {
		var b strings.Builder
		b.WriteString(sentence(r, 20+r.IntN(40)) + "\n\n")
		for i := range 1 + r.IntN(4) {
			fmt.Fprintf(&b, "## %s %d\n\n%s\n\n%s\n\n", title, i, sentence(r, 15+r.IntN(60)), sentence(r, 10+r.IntN(30)))
		}
		return b.String()
	}
	if err := write(".ctxpack/system/identity.md", "---\nproject: generated\nlanguages: [go]\n---\n"+body("identity")); err != nil {
		return err
	}
	for _, id := range tasks {
		fm := fmt.Sprintf("---\nid: %s\ntitle: task %s\nstatus: in_progress\nlinks:\n  specs: %s\n  decisions: %s\n---\n", id, id, pick(specs, 4), pick(decs, 2))
		if err := write(".ctxpack/work/tasks/"+id+".md", fm+body(id)); err != nil {
			return err
		}
	}
	for i, id := range specs {
		fm := fmt.Sprintf("---\nid: %s\ntitle: spec %s\nstatus: current\nlinks:\n  specs: %s\n  decisions: %s\n  norms: %s\npaths: [\"src/pkg%03d/**\"]\n---\n", id, id, pick(specs, 1), pick(decs, 3), pick(norms, 3), i%1000)
		if err := write(".ctxpack/system/specs/"+id+".md", fm+body(id)); err != nil {
			return err
		}
	}
	for _, id := range decs {
		status := "current"
		if r.IntN(20) == 0 {
			status = "deprecated"
		}
		fm := fmt.Sprintf("---\nid: %s\ntitle: decision %s\nstatus: %s\nlinks:\n  decisions: %s\n  norms: %s\n---\n", id, id, status, pick(decs, 1), pick(norms, 2))
		if err := write(".ctxpack/system/rationale/"+id+".md", fm+body(id)); err != nil {
			return err
		}
	}
	for _, id := range norms {
		if err := write(".ctxpack/system/norms/"+id+".md", fmt.Sprintf("---\nid: %s\ntitle: norm %s\nstatus: current\n---\n", id, id)+body(id)); err != nil {
			return err
		}
	}
	for i := range nCode {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%03d\n\n", i%1000)
		if i%10 == 0 {
			fmt.Fprintf(&b, "// @spec %s\n", specs[r.IntN(len(specs))])
		}
		for k := range 3 + r.IntN(6) {
			fmt.Fprintf(&b, "// F%d: %s\nfunc F%d_%d(x int) int {\n\treturn x * %d\n}\n\n", k, sentence(r, 8), i, k, r.IntN(100))
		}
		if err := write(fmt.Sprintf("src/pkg%03d/file%05d.go", i%1000, i), b.String()); err != nil {
			return err
		}
	}
	return nil
}
