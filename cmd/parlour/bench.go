package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/internal/bench"
)

func runBench(e *env, args []string) int {
	fs := newFlags(e, "bench")
	name := fs.String("game", "", "game to measure (default: every game)")
	players := fs.Int("players", 0, "number of players (default: the game's default)")
	seconds := fs.Float64("seconds", 3, "seconds to play each game")
	asJSON := fs.Bool("json", false, "print one JSON object per game")
	seed := fs.Uint64("seed", 1, "seed of the first match")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "parlour bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *seconds <= 0 || *seconds > 3600 {
		fmt.Fprintf(e.stderr, "parlour bench: --seconds %v is out of range (more than 0, at most 3600)\n", *seconds)
		return 2
	}
	list := games.Registry.All()
	if *name != "" {
		g, err := games.Lookup(*name)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour bench: %v\n", err)
			return 2
		}
		list = []game.Game{g}
	}
	given := map[string]any{}
	if *players != 0 {
		given["players"] = *players
	}
	type row struct {
		g    game.Game
		opts game.Options
	}
	var rows []row
	for _, g := range list {
		opts, err := game.Resolve(g, given)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour bench: %v\n", err)
			return 2
		}
		rows = append(rows, row{g, opts})
	}
	var tw *tabwriter.Writer
	if !*asJSON {
		tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "game\tplayers\tmatches\tmoves\tseconds\tmoves/s\tallocs/move\tallocs/match\tmoves/match\t")
	}
	for _, r := range rows {
		if isTerminal(e.stderr) {
			fmt.Fprintf(e.stderr, "measuring %s for %gs...\r", r.g.Name(), *seconds)
		}
		f, err := bench.Run(r.g, r.opts, time.Duration(*seconds*float64(time.Second)), *seed)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour bench: %s: %v\n", r.g.Name(), err)
			return 1
		}
		if *asJSON {
			b, _ := json.Marshal(f)
			fmt.Fprintf(e.stdout, "%s\n", b)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.4f\t%.2f\t%.1f\t\n", f.Game, f.Players, f.Matches, f.Moves, f.Seconds, f.MovesPerS, f.AllocsPerMove, f.AllocsPerMatch, f.MovesPerMatch)
	}
	if tw != nil {
		tw.Flush()
	}
	return 0
}

// isTerminal reports whether w is a terminal (for progress lines).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
