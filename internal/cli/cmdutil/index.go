package cmdutil

import (
	"cmp"
	"fmt"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/spf13/pflag"
)

// IndexFlags are the flags of the commands that use the repository index.
type IndexFlags struct {
	File string        // --index FILE: the database, instead of .ctxpack/index.db
	Wait time.Duration // --wait: how long to wait for another update
}

// Add adds --index and --wait to fs.
func (f *IndexFlags) Add(fs *pflag.FlagSet) {
	fs.StringVar(&f.File, "index", "", "keep the index in `FILE` instead of .ctxpack/index.db under the project root\n(for trees that are read-only or shared)")
	fs.DurationVar(&f.Wait, "wait", app.DefaultIndexWait, "how long to wait for another ctxpack updating the same index")
}

// Options are the facade's index options for the flags.
func (f IndexFlags) Options(noUpdate bool) app.IndexOptions {
	o := app.IndexOptions{File: f.File, Wait: f.Wait, NoUpdate: noUpdate}
	if f.Wait <= 0 {
		o.Wait = -1 // do not wait
	}
	return o
}

// UpdateOptions are options for a command that reads the index: unless
// noUpdate, the facade brings it up to date first, with a progress line on
// a terminal that done ends.
func (f IndexFlags) UpdateOptions(ios *IOStreams, noUpdate bool) (o app.IndexOptions, done func()) {
	o = f.Options(noUpdate)
	if noUpdate {
		return o, func() {}
	}
	o.Progress, done = IndexProgress(ios, "the index")
	return o, done
}

// IndexProgress is the progress of an update of the index shown, on a
// terminal; done ends it.
func IndexProgress(ios *IOStreams, shown string) (progress func(app.IndexProgress), done func()) {
	var prog *Progress
	var phase string
	return func(pr app.IndexProgress) {
			switch pr.Phase {
			case "lock":
				fmt.Fprintf(ios.ErrOut, "ctxpack: waiting for another update of %s (%s)\n", shown, cmp.Or(pr.Holder, "holder unknown"))
			case "index", "embed":
				if prog != nil && phase != pr.Phase {
					prog.Done()
					prog = nil
				}
				if prog == nil {
					phase = pr.Phase
					prog = ios.Progress(map[string]string{"index": "indexing", "embed": "embedding"}[pr.Phase], pr.Total)
				}
				prog.Set(pr.Done)
			}
		}, func() {
			if prog != nil {
				prog.Done()
			}
		}
}
