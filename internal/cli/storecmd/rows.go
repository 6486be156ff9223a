package storecmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// rowKind is what show and rm need to know of a kind of row.
type rowKind struct {
	name   string // memory, experience, value: the command and the key's prefix
	plural string
	// get returns the row with the id: its fields as text shows them, and
	// its view for --format json.
	get func(ctx context.Context, st *app.Store, id int64) ([]field, any, error)
	// remove removes the row with the id and returns its view, as it was.
	remove func(ctx context.Context, st *app.Store, id int64) (any, error)
}

// newRowKind is the rowKind of the rows the store shows as V: get and
// remove are the store's methods that read and remove one, fields gives
// its fields as show prints them.
func newRowKind[V any](name, plural string, get, remove func(*app.Store, context.Context, int64) (V, error), fields func(V) []field) *rowKind {
	return &rowKind{
		name: name, plural: plural,
		get: func(ctx context.Context, st *app.Store, id int64) ([]field, any, error) {
			v, err := get(st, ctx, id)
			if err != nil {
				return nil, nil, err
			}
			return fields(v), v, nil
		},
		remove: func(ctx context.Context, st *app.Store, id int64) (any, error) {
			return remove(st, ctx, id)
		},
	}
}

// notFound rewords the facade's ErrNotFound for the row id of kind k.
func (k *rowKind) notFound(id int64, err error) error {
	if errors.Is(err, app.ErrNotFound) {
		return fmt.Errorf("%s %d not found; 'ctxpack %s list' lists the %s in %s", k.name, id, k.name, k.plural, app.StorePath())
	}
	return err
}

// ItemOptions are the options of show and rm: the row they name.
type ItemOptions struct {
	StoreOptions
	kind *rowKind
	Arg  string // the id or key as given
}

// id reads the row's id from the argument; a bad one is a usage error.
func (o *ItemOptions) id() (int64, error) {
	id, err := app.ParseItemID(o.kind.name, o.Arg)
	if err != nil {
		return 0, cmdutil.WrapUsage(err)
	}
	return id, nil
}

// newCmdShow is 'ctxpack KIND show ID'.
func newCmdShow(f *cmdutil.Factory, k *rowKind, runF func(*ItemOptions) error) *cobra.Command {
	cmd := newCmdRow(f, k, "show ID", showRun, runF)
	cmd.Short = "Print one " + k.name + ", every field it has"
	cmd.Long = fmt.Sprintf(`Print every field the %[1]s ID has, given as its number (42) or its key
(%[1]s:42), one "field: value" line each; a text of several lines goes on
under its first line, indented. --format json prints the %[1]s as one JSON
object, as 'ctxpack %[1]s list --format json' lists it. An id the store does
not hold is a failure (exit 1).`, k.name)
	cmd.Example = fmt.Sprintf("  ctxpack %[1]s show 42\n  ctxpack %[1]s show %[1]s:42 --format json", k.name)
	return cmd
}

// newCmdRemove is 'ctxpack KIND rm ID'.
func newCmdRemove(f *cmdutil.Factory, k *rowKind, runF func(*ItemOptions) error) *cobra.Command {
	cmd := newCmdRow(f, k, "rm ID", removeRun, runF)
	cmd.Aliases = []string{"remove"}
	cmd.Short = "Remove one " + k.name + " from the store"
	cmd.Long = fmt.Sprintf(`Remove the %[1]s ID, given as its number (42) or its key (%[1]s:42),
from the store, and print "removed %[1]s:42"; --format json prints the
removed %[1]s as one JSON object instead. Its id is never given again. An id
the store does not hold is a failure (exit 1).`, k.name)
	cmd.Example = fmt.Sprintf("  ctxpack %[1]s rm 42\n  ctxpack %[1]s rm %[1]s:42 --format json", k.name)
	return cmd
}

// newCmdRow is a command over the one row of kind k that its argument
// names (show, rm): run runs it, unless runF is given.
func newCmdRow(f *cmdutil.Factory, k *rowKind, use string, run func(context.Context, *ItemOptions) error, runF func(*ItemOptions) error) *cobra.Command {
	o := &ItemOptions{StoreOptions: storeOptions(f), kind: k}
	return &cobra.Command{
		Use:  use,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Arg = args[0]
			if runF != nil {
				return runF(o)
			}
			return run(cmd.Context(), o)
		},
	}
}

func showRun(ctx context.Context, o *ItemOptions) error {
	return o.withRow("show", true, func(st *app.Store, id int64) (any, string, error) {
		fields, view, err := o.kind.get(ctx, st, id)
		return view, formatFields(fields), err
	})
}

func removeRun(ctx context.Context, o *ItemOptions) error {
	return o.withRow("rm", false, func(st *app.Store, id int64) (any, string, error) {
		view, err := o.kind.remove(ctx, st, id)
		return view, "removed " + app.ItemKey(o.kind.name, id) + "\n", err
	})
}

// withRow reads the row's id from the argument, opens the store (for
// reading only when readOnly) and prints what f gives for the row: its
// view under --format json, else its text. An id the store does not hold
// is a failure that names the command listing the rows.
func (o *ItemOptions) withRow(verb string, readOnly bool, f func(st *app.Store, id int64) (view any, text string, err error)) error {
	id, err := o.id()
	if err != nil {
		return err
	}
	st, err := o.open(o.kind.name+" "+verb, readOnly)
	if err != nil {
		return err
	}
	defer st.Close()
	view, text, err := f(st, id)
	if err != nil {
		return o.kind.notFound(id, err)
	}
	return o.print(view, text)
}
