// Package storecmd is the commands over the project's store,
// .ctxpack/sources.db: memory, experience and value, each with add, list,
// show and rm, and value derive. Each has a file: its Options, its
// constructor NewCmdX(f, runF) and its run function; show and rm, alike
// for the three kinds of row, are rows.go. Lists and derive print by id
// (derive: in the store's order of proposals), so their output only
// changes when the rows do.
package storecmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// StoreOptions are what every store command holds: the streams, the
// global flags and the project.
type StoreOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings
}

func storeOptions(f *cmdutil.Factory) StoreOptions {
	return StoreOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
}

// open checks --format for command and opens the project's store;
// readOnly for a command that only reads, where a missing store is empty
// and nothing is created.
func (o *StoreOptions) open(command string, readOnly bool) (*app.Store, error) {
	if err := o.Globals.TextOrJSON(command); err != nil {
		return nil, err
	}
	p, err := o.Project()
	if err != nil {
		return nil, err
	}
	st, err := p.Store(!readOnly)
	if err != nil {
		return nil, err
	}
	o.IO.WarnAll(st.Warnings())
	return st, nil
}

func (o *StoreOptions) json() bool { return o.Globals.Format == "json" }

// print writes the JSON of view under --format json, else the text.
func (o *StoreOptions) print(view any, text string) error {
	if o.json() {
		return cmdutil.WriteJSON(o.IO.Out, view)
	}
	_, err := io.WriteString(o.IO.Out, text)
	return err
}

// readText is the text of a TEXT argument: standard input for "-", with
// the spaces around it trimmed (as an experiences file's texts are).
func (o *StoreOptions) readText(command, arg string) (string, error) {
	if arg != "-" {
		return strings.TrimSpace(arg), nil
	}
	s, err := o.IO.ReadStdin(command, "text")
	return strings.TrimSpace(s), err
}

// flagError turns a *app.InputError, the store's refusal of what the
// command line gave, into a usage error of command naming the flag or
// argument that gave the field (names maps the store's field names to
// them; a field it does not name keeps the store's name). Other errors
// are returned as they are.
func flagError(command string, err error, names map[string]string) error {
	var ie *app.InputError
	if !errors.As(err, &ie) {
		return err
	}
	name, ok := names[ie.Field]
	if !ok {
		name = ie.Field
	}
	return cmdutil.Usagef("%s: %s %s", command, name, ie.Msg)
}

// listRows prints rows as the list commands do: under --format json the
// rows, else one line of columns each (line); an empty list, in text,
// tells on standard error what there is none of (what) and how to add
// some.
func listRows[V any](o *StoreOptions, rows []V, line func(V) []string, what, how string) error {
	lines := make([][]string, 0, len(rows))
	for _, r := range rows {
		lines = append(lines, line(r))
	}
	if len(rows) == 0 && !o.json() {
		o.noRows(what, how)
	}
	return o.print(rows, formatList(lines))
}

// noRows tells the user on standard error that a list is empty, and how
// to add rows.
func (o *StoreOptions) noRows(what, how string) {
	fmt.Fprintf(o.IO.ErrOut, "ctxpack: no %s; %s\n", what, how)
}
