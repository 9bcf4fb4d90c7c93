// Command ladder compares bots by the mean loss of their decisions
// (package analysis) on common positions drawn from seeded heuristic
// matches, and prints a Markdown table (docs/analysis.md has the figures):
//
//	go run ./analysis/ladder -game golf -players 4 -positions 300
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"parlour/analysis"
	"parlour/analysis/internal/devflags"
	"parlour/bot"
)

func main() {
	gameFlags := devflags.AddGame(flag.CommandLine)
	edition := flag.String("edition", "", "Court Circular's edition (default: the game's)")
	bots := flag.String("bots", strings.Join(bot.Names(), ","), "the bots compared, comma-separated")
	positions := flag.Int("positions", 300, "positions rated")
	seed := flag.Uint64("seed", 2_000_000, "seed of the first match the positions come from")
	rate := flag.Float64("rate", 0.02, "the probability that a decision of a match is a position")
	iterations := flag.Int("iterations", 4000, "search iterations per move rated")
	flag.Parse()
	var more map[string]any
	if *edition != "" {
		more = map[string]any{"edition": *edition}
	}
	g, opts, err := gameFlags.Resolve(more)
	if err != nil {
		log.Fatal(err)
	}
	var list []bot.Bot
	for _, n := range strings.Split(*bots, ",") {
		b, ok := bot.ByName(n)
		if !ok {
			log.Fatalf("unknown bot %q", n)
		}
		list = append(list, b)
	}
	c := analysis.LadderConfig{Game: g, Options: opts, Bots: list, Positions: *positions, Seed: *seed, Rate: *rate,
		Analysis: analysis.Options{Iterations: *iterations}}
	c.Progress = func(done, total int) {
		if done%max(1, total/10) == 0 {
			fmt.Fprintf(os.Stderr, "ladder: %d/%d positions\n", done, total)
		}
	}
	rungs, err := analysis.Ladder(context.Background(), c)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, %s, %d positions, %d iterations\n\n", g.Title(), analysis.ConfigKey(g, opts), *positions, *iterations)
	fmt.Println("| bot | mean loss | mistakes (0.10 or more) | best move |")
	fmt.Println("|---|---|---|---|")
	for _, r := range rungs {
		fmt.Printf("| %s | %.4f | %.1f%% | %.0f%% |\n", r.Name, r.MeanLoss, 100*float64(r.Mistakes)/float64(r.Decisions), 100*float64(r.Best)/float64(r.Decisions))
	}
}
