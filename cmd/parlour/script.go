package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"parlour/games"
	"parlour/internal/script"
)

func runScript(e *env, args []string) int {
	fs := newFlags(e, "script")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "parlour script: give one script file, or - for standard input")
		return 2
	}
	var in io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour script: %v\n", err)
			return 2
		}
		defer f.Close()
		in = f
	}
	rep, err := script.Run(games.Lookup, in)
	if errors.Is(err, script.ErrUnusable) {
		fmt.Fprintf(e.stderr, "parlour script: %v\n", err)
		return 2
	}
	out, jerr := json.MarshalIndent(rep, "", "  ")
	if jerr != nil {
		fmt.Fprintf(e.stderr, "parlour script: %v\n", jerr)
		return 2
	}
	fmt.Fprintf(e.stdout, "%s\n", out)
	if err != nil {
		return 1
	}
	return 0
}
