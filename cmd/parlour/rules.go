package main

import (
	"fmt"
	"strings"

	"parlour/games"
)

func runRules(e *env, args []string) int {
	fs := newFlags(e, "rules")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "parlour rules: name a game (%s)\n", strings.Join(games.Registry.Names(), ", "))
		return 2
	}
	g, err := games.Lookup(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour rules: %v\n", err)
		return 2
	}
	fmt.Fprint(e.stdout, g.Rules())
	return 0
}

func runGames(e *env, args []string) int {
	fs := newFlags(e, "games")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	for _, g := range games.Registry.All() {
		lo, hi := g.Players()
		fmt.Fprintf(e.stdout, "%-15s %s, %d-%d players. %s\n", g.Name(), g.Title(), lo, hi, g.Summary())
		for _, o := range g.Options() {
			fmt.Fprintf(e.stdout, "    %-10s %s: %s\n", o.Name, o.Doc, o.Describe())
		}
		fmt.Fprintf(e.stdout, "    %-10s %s\n", "dealer", "first dealer: 0 to players-1 (default drawn at random)")
	}
	return 0
}
