package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	configPath := flag.String("config", "shop.yaml", "configuration file")
	verbose := flag.Bool("v", false, "verbose logging")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: shop [-config FILE] [-v]")
		os.Exit(2)
	}
	run(*configPath, *verbose)
}
