// Command calibrate measures how well the chances of package analysis
// mean what they say: it plays seeded matches between bots, rates
// decisions drawn at random, and prints, for each tenth of
// chance, the decisions rated in it and how often their seat won the
// match, as a Markdown table (docs/analysis.md has the figures):
//
//	go run ./analysis/calibrate -game golf -players 4 -matches 1000
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
	bots := flag.String("bots", "heuristic", "the bot at every seat, or one per seat, comma-separated")
	matches := flag.Int("matches", 1000, "matches")
	seed := flag.Uint64("seed", 1_000_000, "seed of the first match")
	rate := flag.Float64("rate", 0.01, "the probability that a decision is rated")
	iterations := flag.Int("iterations", 1000, "search iterations per decision rated")
	flag.Parse()
	g, opts, err := gameFlags.Resolve(nil)
	if err != nil {
		log.Fatal(err)
	}
	names := strings.Split(*bots, ",")
	seated := make([]bot.Bot, opts.Players())
	for i := range seated {
		b, ok := bot.ByName(names[i%len(names)])
		if !ok {
			log.Fatalf("unknown bot %q", names[i%len(names)])
		}
		seated[i] = b
	}
	c := analysis.CalibrationConfig{Game: g, Options: opts, Bots: seated, Matches: *matches, Seed: *seed, Rate: *rate,
		Analysis: analysis.Options{Iterations: *iterations}}
	c.Progress = func(done, total int) {
		if done%max(1, total/10) == 0 {
			fmt.Fprintf(os.Stderr, "calibrate: %d/%d matches\n", done, total)
		}
	}
	bins, err := analysis.Calibrate(context.Background(), c)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, %s, %d matches, %s, decisions rated with probability %g, %d iterations\n\n", g.Title(), analysis.ConfigKey(g, opts), *matches, *bots, *rate, *iterations)
	fmt.Println("| chance | decisions | mean chance | won | 95% interval |")
	fmt.Println("|---|---|---|---|---|")
	for _, b := range bins {
		if b.Decisions == 0 {
			continue
		}
		fmt.Printf("| %.1f-%.1f | %d | %.3f | %.3f | %.3f-%.3f |\n", b.Low, b.High, b.Decisions, b.Chance, b.Won, b.CI95[0], b.CI95[1])
	}
}
