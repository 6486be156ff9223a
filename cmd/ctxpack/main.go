// Command ctxpack assembles the context an AI coding agent sees for a piece of
// work, fitted exactly to a token budget. Run "ctxpack --help" for usage.
package main

import (
	"os"

	"github.com/ctxpack/ctxpack/internal/cli"
)

func main() { os.Exit(cli.Main()) }
