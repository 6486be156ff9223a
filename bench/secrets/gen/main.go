// Command gen writes the project of internal/fakesecrets for a seed: its
// files, committed to a new git repository (a fixed author and date, so
// the commit id is the same on every run), and DIR.manifest.json beside
// it (not in it) with the secrets and look-alikes it holds. With -ctxpack
// BIN it then runs the setup commands with BIN in the project: the
// memories that hold secrets, and an evidence file.
//
//	go run ./bench/secrets/gen -seed 1 -out DIR [-ctxpack BIN]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/ctxpack/ctxpack/internal/fakesecrets"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "", "directory to write the project into (must not exist)")
	bin := flag.String("ctxpack", "", "ctxpack binary to run the setup commands with")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -seed N -out DIR [-ctxpack BIN]")
		os.Exit(2)
	}
	if err := run(*seed, strings.TrimSuffix(*out, "/"), *bin); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(seed uint64, out, bin string) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists", out)
	}
	p := fakesecrets.Generate(seed)
	if err := p.Write(out); err != nil {
		return err
	}
	if err := p.Commit(out); err != nil {
		return err
	}
	m := p.Manifest()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out+".manifest.json", append(data, '\n'), 0o644); err != nil {
		return err
	}
	if bin != "" {
		for _, args := range m.Setup() {
			cmd := exec.Command(bin, append([]string{"-C", out}, args...)...)
			if o, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("ctxpack %s: %v: %s", args[0]+" "+args[1], err, o)
			}
		}
	}
	fmt.Printf("%s: %d files, %d secrets of %d kinds, %d look-alikes; manifest %s.manifest.json\n",
		out, len(p.Files), len(m.Secrets), len(m.Kinds()), len(m.LookAlikes), out)
	return nil
}
