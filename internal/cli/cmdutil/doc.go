// Package cmdutil is what ctxpack's commands share: the typed usage and
// silent errors, the validators of positional arguments that return them,
// and the exit codes.
package cmdutil
