package cmdutil

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"golang.org/x/term"
)

// IOStreams is all of a command's input and output. Commands never touch
// os.Stdout; tests give buffers and choose whether they are terminals.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY and ErrTTY say whether Out and ErrOut are terminals: progress
	// and colour only go to terminals, so piped output stays clean.
	OutTTY, ErrTTY bool
}

// System returns the process's standard streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())) && os.Getenv("TERM") != "dumb",
	}
}

// Test returns streams for a test: stdin as standard input, and the
// buffers that standard output and standard error go to; no terminals.
func Test(stdin string) (ios *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut}, out, errOut
}

// ReadStdin reads standard input, for an argument given as -; command and
// what (the argument) name it in the error.
func (s *IOStreams) ReadStdin(command, what string) (string, error) {
	data, err := io.ReadAll(s.In)
	if err != nil {
		return "", fmt.Errorf("%s: read the %s from standard input: %w", command, what, err)
	}
	return string(data), nil
}

// Warn prints a warning to ErrOut, in yellow on a terminal.
func (s *IOStreams) Warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.ErrTTY && os.Getenv("NO_COLOR") == "" {
		fmt.Fprintf(s.ErrOut, "\x1b[33mwarning:\x1b[0m %s\n", msg)
		return
	}
	fmt.Fprintf(s.ErrOut, "warning: %s\n", msg)
}

// WarnAll prints each of warnings as a warning.
func (s *IOStreams) WarnAll(warnings []string) {
	for _, w := range warnings {
		s.Warn("%s", w)
	}
}

// Progress shows a one-line counter on a terminal; elsewhere it does
// nothing. Done clears the line.
type Progress struct {
	s     *IOStreams
	label string
	total int
	last  int
}

// Progress starts a counter of total things, shown as label.
func (s *IOStreams) Progress(label string, total int) *Progress {
	return &Progress{s: s, label: label, total: total, last: -1}
}

// Set shows n of total, redrawing at most once per percent.
func (p *Progress) Set(n int) {
	if !p.s.ErrTTY || p.total <= 0 {
		return
	}
	pct := n * 100 / p.total
	if pct == p.last {
		return
	}
	p.last = pct
	fmt.Fprintf(p.s.ErrOut, "\r%s %d/%d (%d%%)\x1b[K", p.label, n, p.total, pct)
}

// Done clears the counter's line.
func (p *Progress) Done() {
	if p.s.ErrTTY && p.last >= 0 {
		fmt.Fprint(p.s.ErrOut, "\r\x1b[K")
	}
}

// WarnSkipped prints the warnings of a plan or a count, and with verbose
// (-v) each skipped file when the warnings only counted them
// (app.SkipWarnings).
func (s *IOStreams) WarnSkipped(warnings []string, skipped []app.Skip, verbose bool) {
	s.WarnAll(warnings)
	if verbose && len(skipped) > app.SkipListMax {
		for _, k := range skipped {
			s.Warn("skipped %s: %s", app.ShowPath(k.Path), k.Reason)
		}
	}
}

// VerboseUsage is the help of -v/--verbose.
const VerboseUsage = "list each file skipped (binary, too large, a secrets file…), not only\ntheir count by kind when there are more than 10"
