package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"text/tabwriter"

	"parlour/analysis"
	"parlour/bot"
	"parlour/games"
	"parlour/internal/arena"
)

func runTournament(e *env, args []string) int {
	fs := newFlags(e, "tournament")
	name := fs.String("game", "", "game to play (required)")
	players := fs.Int("players", 0, "number of players (default: the game's default)")
	botList := fs.String("bots", "", "bots, one per seat, comma-separated ("+strings.Join(bot.Names(), ", ")+")")
	matches := fs.Int("matches", 100, "matches to play (a multiple of the players rotates every bot through every seat)")
	seed := fs.Uint64("seed", 1, "seed of the first deal")
	workers := fs.Int("workers", 0, "matches played at once (default: one per core)")
	asJSON := fs.Bool("json", false, "print the outcome as one JSON object (last line)")
	think := thinkFlag(fs, "on one core as the matches run in parallel")
	analyse := fs.Bool("analyse", false, "rate the bots' play as parlour analyse does, on a sample of their decisions (--analyse-sample, --analyse-iterations): adds each bot's mean loss per decision and mistakes (a loss of 0.10 or more) per game")
	sample := fs.Int("analyse-sample", 4, "with --analyse, the decisions of each seat analysed per match, drawn at random (1 to 1000)")
	iterations := fs.Int("analyse-iterations", 2000, "with --analyse, the search iterations per decision analysed (100 to 1000000; fixed, so that the figures are reproducible)")
	sets := setFlags{}
	fs.Var(sets, "set", "a game option as key=value (repeatable), e.g. --set edition=1860")
	engines := addEngineFlags(e, fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	engines.start()
	defer engines.close()
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "parlour tournament: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if *name == "" {
		return fail("name a game with --game (%s)", strings.Join(games.Registry.Names(), ", "))
	}
	g, opts, err := gameOptions(*name, sets, *players)
	if err != nil {
		return fail("%v", err)
	}
	if err := checkThink(*think, maxThink); err != nil {
		return fail("%v", err)
	}
	if *botList == "" {
		return fail("name the bots with --bots, one per seat (%s)", engines.names())
	}
	names := strings.Split(*botList, ",")
	n := opts.Players()
	if len(names) != n {
		return fail("--bots names %d bots for %d seats: name one bot per seat", len(names), n)
	}
	bots := make([]bot.Bot, n)
	for i, bn := range names {
		b, ok := engines.bot(strings.TrimSpace(bn))
		if !ok {
			return fail("unknown bot %q (bots: %s)", strings.TrimSpace(bn), engines.names())
		}
		// The matches run in parallel: each search on one core.
		bots[i] = bot.WithThink(b, *think, 1)
	}
	if *matches <= 0 || *matches > 10_000_000 {
		return fail("--matches %d is out of range (1 to 10000000)", *matches)
	}
	if *workers < 0 {
		return fail("--workers %d is negative", *workers)
	}
	cfg := arena.Config{Game: g, Options: opts, Bots: bots, Matches: *matches, Seed: *seed, Workers: *workers}
	if *analyse {
		if *sample < 1 || *sample > 1000 {
			return fail("--analyse-sample %d is out of range (1 to 1000)", *sample)
		}
		if *iterations < 100 || *iterations > 1_000_000 {
			return fail("--analyse-iterations %d is out of range (100 to 1000000)", *iterations)
		}
		cfg.Analyse, cfg.Analysis = *sample, analysis.Options{Iterations: *iterations}
	}
	cfg.Progress = progress(e, "tournament", *matches)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := arena.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour tournament: %v\n", err)
		return 1
	}
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintf(e.stdout, "%s\n", b)
		return 0
	}
	fmt.Fprintf(e.stdout, "%s, %d players, %d matches (seed %d) in %.1fs: %.2f games/s\n",
		g.Title(), rep.Players, rep.Matches, rep.Seed, rep.Seconds, rep.GamesPerS)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "bot\tseats\tmatches\twins\twin rate\t95% CI\tmean score\tms/move\tmax ms\tfaults\t"
	if *analyse {
		head += "analysed\tmean loss\tmistakes/game\t"
	}
	fmt.Fprintln(tw, head)
	for _, st := range rep.Bots {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%.1f%%\t%.1f%%-%.1f%%\t%.2f\t%.3f\t%.1f\t%d\t", st.Name, st.Seats, st.Matches, strconv.FormatFloat(st.Wins, 'f', -1, 64),
			100*st.WinRate, 100*st.CI95[0], 100*st.CI95[1], st.MeanScore, st.MsPerMove, st.ThinkMsMax, st.Faults)
		if st.MeanLoss != nil {
			fmt.Fprintf(tw, "%d\t%.4f\t%.2f\t", st.Analysed, *st.MeanLoss, *st.MistakesPerGame)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if rep.Unresolved > 0 {
		fmt.Fprintf(e.stdout, "%d matches ended without a winner.\n", rep.Unresolved)
	}
	return 0
}
