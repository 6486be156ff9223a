// Package cmdutil is what ctxpack's commands share: the Factory that
// holds the streams and the global flags and opens the project, the
// IOStreams, the typed usage and silent errors with the validators of
// positional arguments that return them, the exit codes, the repository
// index's flags, and the JSON every command prints.
package cmdutil
