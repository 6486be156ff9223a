package storecmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

const storeLong = `The store holds what the team and its agents learned: memories,
experiences and values (and the git commits, read from the history). It
is .ctxpack/sources.db, an SQLite file under the project root, unless the
configuration names a PostgreSQL database the team shares:

  store:
    url: postgres://ctxpack@db.internal:5432/ctxpack
    namespace: billing      # this project's rows; the same in every checkout
    shared: [team]          # other namespaces read too (team-wide values)

CTXPACK_STORE (a whole URL) and CTXPACK_STORE_NAMESPACE override them. The
password never goes in the configuration file, which is committed (a URL
there that holds one is an error): it comes from PGPASSWORD, ~/.pgpass, or
the file CTXPACK_STORE_PASSWORD_FILE names. Both backends give the same answers to
the same rows, byte for byte. docs/team.md says how to run it for a team.

'store info' says which store is used and what it holds; 'store export'
and 'store import' move a namespace's rows between stores (a laptop's
SQLite file and the team's server, either way) as JSON lines.`

// NewCmdStore is 'ctxpack store', the group of info, export and import.
func NewCmdStore(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Say which store is used, and export or import its rows (SQLite or PostgreSQL)",
		Long:  storeLong,
		Example: `  ctxpack store info
  ctxpack store export -o billing.jsonl
  CTXPACK_STORE=postgres://ctxpack@db:5432/ctxpack CTXPACK_STORE_NAMESPACE=billing ctxpack store import billing.jsonl`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewCmdStoreInfo(f, nil), NewCmdStoreExport(f, nil), NewCmdStoreImport(f, nil))
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// StoreInfoOptions are the options of 'ctxpack store info'.
type StoreInfoOptions struct{ StoreOptions }

// NewCmdStoreInfo is 'ctxpack store info'.
func NewCmdStoreInfo(f *cmdutil.Factory, runF func(*StoreInfoOptions) error) *cobra.Command {
	o := &StoreInfoOptions{storeOptions(f)}
	cmd := &cobra.Command{
		Use:   "info",
		Short: "Say which store the project uses, its namespace, and how many rows it reads",
		Long: `Print the store's backend (sqlite or postgres), where it is (the URL
without its password), the namespace read and written, the shared ones,
the format, and how many memories, experiences and values it reads and
commits it holds. Nothing is created: a store that is not there reads as
empty. --format json prints the same as an object.`,
		Example: `  ctxpack store info
  CTXPACK_STORE_NAMESPACE=team ctxpack store info --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return storeInfoRun(cmd.Context(), o)
		},
	}
	return cmd
}

func storeInfoRun(ctx context.Context, o *StoreInfoOptions) error {
	st, err := o.open("store info", true)
	if err != nil {
		return err
	}
	defer st.Close()
	info, err := st.Info(ctx)
	if err != nil {
		return err
	}
	shared := "none"
	if len(info.Shared) > 0 {
		shared = fmt.Sprint(info.Shared)
	}
	c := info.Counts
	text := fmt.Sprintf("backend    %s\nstore      %s\nnamespace  %s\nshared     %s\nformat     %d\nrows       %s, %s\n",
		info.Backend, info.Store, info.Namespace, shared, info.Format,
		rowCounts(app.ExportStats{Memories: c.Memories, Experiences: c.Experiences, Values: c.Values}), count(c.Commits, "commit", "commits"))
	return o.print(info, text)
}

// StoreExportOptions are the options of 'ctxpack store export'.
type StoreExportOptions struct {
	StoreOptions
	OutFile string
}

// NewCmdStoreExport is 'ctxpack store export'.
func NewCmdStoreExport(f *cmdutil.Factory, runF func(*StoreExportOptions) error) *cobra.Command {
	o := &StoreExportOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the namespace's memories, experiences and values as JSON lines",
		Long: `Write the memories, experiences and values of the store's namespace as
JSON lines: a first line {"format":"ctxpack-store","version":1}, then the
memories, the experiences and the values, each kind by id, one row a line
with its id and fields. The same rows give the same bytes on SQLite and
PostgreSQL, so an export is also a check that two stores agree.

The rows are written as stored, secrets included: the file is the store,
to keep as carefully. Commits are not exported: they are read again from
git. Rows of shared namespaces are not exported: export each namespace
on its own (CTXPACK_STORE_NAMESPACE=team ctxpack store export).

With -o FILE the file is written whole or not at all; the count of rows
goes to standard error.`,
		Example: `  ctxpack store export -o backup.jsonl
  ctxpack store export | gzip > backup.jsonl.gz`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return storeExportRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.OutFile, "output", "o", "", "write to `FILE` instead of standard output: whole or not at all")
	return cmd
}

func storeExportRun(ctx context.Context, o *StoreExportOptions) error {
	if o.Globals.Format == "json" {
		return cmdutil.Usagef("store export: the export is JSON lines already; drop --format")
	}
	out, err := o.Globals.Path(o.OutFile)
	if err != nil {
		return err
	}
	st, err := o.open("store export", true)
	if err != nil {
		return err
	}
	defer st.Close()
	var buf bytes.Buffer
	w := io.Writer(&buf)
	if out == "" {
		w = o.IO.Out
	}
	n, err := st.Export(ctx, w)
	if err != nil {
		return err
	}
	if out != "" {
		if err := app.WriteFileAtomic(out, buf.Bytes(), ".ctxpack-export-*", 0o600); err != nil {
			return fmt.Errorf("store export: %w", err)
		}
	}
	fmt.Fprintf(o.IO.ErrOut, "exported %s%s\n", rowCounts(n), suffix(o.OutFile, " to "))
	return nil
}

func suffix(s, sep string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

// StoreImportOptions are the options of 'ctxpack store import'.
type StoreImportOptions struct {
	StoreOptions
	File string
}

// NewCmdStoreImport is 'ctxpack store import'.
func NewCmdStoreImport(f *cmdutil.Factory, runF func(*StoreImportOptions) error) *cobra.Command {
	o := &StoreImportOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:   "import FILE|-",
		Short: "Add the rows of an export to the store's namespace, keeping their ids",
		Long: `Add the memories, experiences and values of an export ('ctxpack store
export', or - for standard input) to the store's namespace, with their ids
and times, in one transaction: all of them, or on any error none.

Importing is idempotent: a row the namespace holds already, the same, is
skipped, so importing a file twice changes nothing. A row whose id the
namespace gives to another row is an error naming the line, and nothing
is imported: an import never replaces authored data. Import into an empty
namespace, or remove that row first. Every line is checked before
anything is written; an error names the file and line.

The counts of rows added and already there go to standard error
(--format json prints them as an object on standard output).`,
		Example: `  ctxpack store import backup.jsonl
  CTXPACK_STORE=postgres://ctxpack@db:5432/ctxpack CTXPACK_STORE_NAMESPACE=billing ctxpack store import laptop.jsonl
  gunzip -c backup.jsonl.gz | ctxpack store import -`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			if runF != nil {
				return runF(o)
			}
			return storeImportRun(cmd.Context(), o)
		},
	}
	return cmd
}

func storeImportRun(ctx context.Context, o *StoreImportOptions) error {
	var r io.Reader = o.IO.In
	name := "standard input"
	if o.File != "-" {
		path, err := o.Globals.Path(o.File)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("store import: %w", err)
		}
		defer f.Close()
		r, name = f, o.File
	}
	if err := o.Globals.TextOrJSON("store import"); err != nil {
		return err
	}
	st, err := o.open("store import", false)
	if err != nil {
		return err
	}
	defer st.Close()
	n, err := st.Import(ctx, name, r)
	if err != nil {
		return err
	}
	if o.json() {
		return cmdutil.WriteJSON(o.IO.Out, n)
	}
	fmt.Fprintf(o.IO.ErrOut, "imported %s; already there, the same: %s\n", rowCounts(n.Added), rowCounts(n.Unchanged))
	return nil
}

// rowCounts says how many memories, experiences and values n counts.
func rowCounts(n app.ExportStats) string {
	return count(n.Memories, "memory", "memories") + ", " + count(n.Experiences, "experience", "experiences") + ", " + count(n.Values, "value", "values")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
