package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/pflag"
)

// addOutputFlags adds -o/--output and --copy, to the commands that print
// an assembly.
func (o *AssembleOptions) addOutputFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.OutFile, "output", "o", "", "write the output to `FILE` instead of standard output: whole or not at all\n(a temporary file in the same directory, renamed over FILE once complete)")
	fs.BoolVar(&o.Copy, "copy", false, "copy the output to the clipboard (pbcopy, clip.exe, wl-copy, xclip or xsel,\nwhichever is found); with -o, written to the file too, else only copied")
}

// sink is where an assembly's output goes: standard output, or the
// temporary file that becomes -o FILE, and with --copy a buffer for the
// clipboard (alone when there is no -o).
type sink struct {
	o    *AssembleOptions
	w    io.Writer
	file *outputFile
	clip *cmdutil.Clipboard
	buf  *bytes.Buffer
}

// openSink prepares the output before anything is assembled, so that a
// path that cannot be written or a missing clipboard tool fails at once
// and nothing is written. Call close after.
func (o *AssembleOptions) openSink() (*sink, error) {
	s := &sink{o: o, w: o.IO.Out}
	if o.Copy {
		c, err := cmdutil.FindClipboard()
		if err != nil {
			return nil, err
		}
		s.clip, s.buf = c, &bytes.Buffer{}
		s.w = s.buf
	}
	if o.OutFile != "" {
		name, err := o.Globals.Path(o.OutFile)
		if err != nil {
			return nil, err
		}
		f, err := createOutput(name, o.OutFile)
		if err != nil {
			return nil, err
		}
		s.file = f
		s.w = f
		if s.buf != nil {
			s.w = io.MultiWriter(f, s.buf)
		}
	}
	return s, nil
}

// commit puts the file in place and copies to the clipboard, saying on
// standard error what went where (tokens is the output's count).
func (s *sink) commit(tokens int) error {
	if s.file != nil {
		if err := s.file.commit(); err != nil {
			return err
		}
		fmt.Fprintf(s.o.IO.ErrOut, "wrote %s (%s tokens)\n", s.o.OutFile, thousands(tokens))
	}
	if s.clip != nil {
		if err := s.clip.Copy(s.buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(s.o.IO.ErrOut, "copied to the clipboard with %s (%s tokens, %s bytes)\n", s.clip.Name, thousands(tokens), thousands(s.buf.Len()))
	}
	return nil
}

// close removes the temporary file when commit was not reached.
func (s *sink) close() {
	if s.file != nil {
		s.file.abort()
	}
}

// outputFile is -o FILE being written: a temporary file beside it,
// made at the first write (so that a pack of the directory never sees
// it), renamed over it by commit, removed by abort.
type outputFile struct {
	name  string // the path written
	shown string // FILE as given, for messages
	f     *os.File
	done  bool
}

// createOutput starts writing name. It fails, with the path and what to
// do, when name is a directory or its directory is missing or not
// writable: a temporary file is made there and removed at once, to know.
func createOutput(name, shown string) (*outputFile, error) {
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return nil, cmdutil.Usagef("-o %s: is a directory; name a file", shown)
	}
	if fi, err := os.Stat(filepath.Dir(name)); err != nil || !fi.IsDir() {
		return nil, cmdutil.Usagef("-o %s: directory %s does not exist; create it first", shown, filepath.Dir(shown))
	}
	o := &outputFile{name: name, shown: shown}
	if err := o.open(); err != nil {
		return nil, err
	}
	o.f.Close()
	os.Remove(o.f.Name())
	o.f = nil
	return o, nil
}

// open makes the temporary file.
func (o *outputFile) open() error {
	dir := filepath.Dir(o.name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(o.name)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-o %s: cannot write in %s: %w", o.shown, filepath.Dir(o.shown), err)
	}
	o.f = f
	return nil
}

func (o *outputFile) Write(p []byte) (int, error) {
	if o.f == nil {
		if err := o.open(); err != nil {
			return 0, err
		}
	}
	return o.f.Write(p)
}

// commit closes the temporary file and renames it over the file; a file
// it replaces keeps its mode, a new one is 0644.
func (o *outputFile) commit() error {
	if o.f == nil {
		if err := o.open(); err != nil { // an empty output
			return err
		}
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(o.name); err == nil {
		perm = fi.Mode().Perm()
	}
	err := o.f.Chmod(perm)
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.name)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("-o %s: %w", o.shown, err)
	}
	o.done = true
	return nil
}

func (o *outputFile) abort() {
	if o.done || o.f == nil {
		return
	}
	o.f.Close()
	os.Remove(o.f.Name())
	o.done = true
}

// splitRun is pack --split-output: the unbudgeted pack in outputs of at
// most the budget each, written to -o FILE as FILE.1.EXT, FILE.2.EXT…
// (all or none: each a temporary file until every one is written), or to
// standard output one after another, each but a json plan after a line
// "--- ctxpack: output I of N, T tokens ---" that no output counts.
func (o *AssembleOptions) splitRun(ctx context.Context, req app.Request) error {
	if o.Copy {
		return cmdutil.Usagef("--copy takes one output; --split-output makes several: write them with -o FILE")
	}
	if o.Overflow != "" && o.Overflow != "allow" {
		return cmdutil.Usagef("--split-output shows everything an unbudgeted pack does, in outputs of at most the budget each: --overflow %s does not apply", o.Overflow)
	}
	var files []*outputFile
	name, err := o.Globals.Path(o.OutFile)
	if err != nil {
		return err
	}
	if o.OutFile != "" {
		f, err := createOutput(name, o.OutFile) // fails now if FILE's directory cannot be written
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	outs, err := p.PackSplit(ctx, req)
	if err != nil {
		return err
	}
	first := &outs[0].Plan
	if o.OutFile == "" {
		for _, r := range outs {
			if r.Plan.Split != nil && !r.JSON {
				fmt.Fprintf(o.IO.Out, "--- ctxpack: output %d of %d, %s tokens ---\n", r.Plan.Split.Index, r.Plan.Split.Count, thousands(r.Plan.TotalTokens))
			}
			if _, err := o.IO.Out.Write(r.Output); err != nil {
				return err
			}
		}
		o.IO.WarnSkipped(first.Warnings, first.Skipped, o.Verbose)
		return nil
	}
	files = files[:0]
	defer func() {
		for _, f := range files {
			f.abort()
		}
	}()
	for i, r := range outs {
		f, err := createOutput(app.SplitName(name, i+1), app.SplitName(o.OutFile, i+1))
		if err != nil {
			return err
		}
		files = append(files, f)
		if _, err := f.Write(r.Output); err != nil {
			return fmt.Errorf("-o %s: %w", f.shown, err)
		}
	}
	for i, f := range files {
		if err := f.commit(); err != nil {
			return err
		}
		fmt.Fprintf(o.IO.ErrOut, "wrote %s (%s tokens)\n", f.shown, thousands(outs[i].Plan.TotalTokens))
	}
	o.IO.WarnSkipped(first.Warnings, first.Skipped, o.Verbose)
	return nil
}
