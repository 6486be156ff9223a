package cli

import "github.com/spf13/pflag"

// addChangesFlags adds the flags that bring the repository's changes into
// a pack or a retrieval (app.Request's Diff, DiffBase and Log).
func (o *AssembleOptions) addChangesFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.Diff, "diff", false, "add the work tree's changes against HEAD, staged or not: one part per changed\nfile, its unified diff, in a section after the files (untracked files are not changes)")
	fs.StringVar(&o.DiffBase, "diff-base", "", "add what the branch changed since it left `REF` (a branch, tag or commit),\ncommitted or not: the diff against the merge base of REF and HEAD")
	fs.IntVar(&o.Log, "log", 0, "add the `N` newest commits (hash, author, date, message, files changed),\none part each, in a section after the rest")
}
