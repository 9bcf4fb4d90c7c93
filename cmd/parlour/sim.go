package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/sim"
)

// The default number of matches finishes in a few seconds in every game:
// more with random bots only, fewer with any other bot.
const (
	defaultSimMatches       = 2000
	defaultSimMatchesSlower = 500
)

func runSim(e *env, args []string) int {
	fs := newFlags(e, "sim")
	players := fs.Int("players", 0, "number of players, in both variants (default: the game's default)")
	botList := fs.String("bots", "random", "bots: one name for every seat, or one per seat, comma-separated ("+strings.Join(bot.Names(), ", ")+")")
	matches := fs.Int("matches", 0, fmt.Sprintf("matches each variant plays (default: %d with random bots, %d with others)",
		defaultSimMatches, defaultSimMatchesSlower))
	seed := fs.Uint64("seed", 1, "seed of the first match (match i deals with seed+i)")
	workers := fs.Int("workers", 0, "matches played at once (default: one per core)")
	report := fs.String("report", "", "write an HTML report with charts to this file")
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	think := thinkFlag(fs, "on one core as the matches run in parallel")
	sets, vs := setFlags{}, setFlags{}
	fs.Var(sets, "set", "an option of variant A as key=value (repeatable); dealer=random draws the first dealer (default: seat 0 deals)")
	fs.Var(vs, "vs", "an option of variant B as key=value (repeatable): B plays the same seeded deals, and the report compares A and B")
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	// A bad flag gets its one-line reason and a pointer to the help, not
	// the whole list of flags.
	if !slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "--h" }) {
		fs.Usage = func() { fmt.Fprintln(fs.Output(), `parlour sim: run "parlour help sim" for the flags`) }
	}
	engines := addEngineFlags(e, fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	engines.start()
	defer engines.close()
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "parlour sim: "+format+"\n", a...)
		return 2
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
		if fs.NArg() > 1 {
			return fail("unexpected argument %q", fs.Arg(1))
		}
	} else if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if name == "" {
		return fail("name a game (%s)", strings.Join(games.Registry.Names(), ", "))
	}
	g, err := games.Lookup(name)
	if err != nil {
		return fail("%v", err)
	}
	matchesSet := false
	fs.Visit(func(f *flag.Flag) { matchesSet = matchesSet || f.Name == "matches" })
	if !matchesSet {
		*matches = defaultSimMatches
	}
	if *matches <= 0 || *matches > 10_000_000 {
		return fail("--matches %d is out of range (1 to 10000000)", *matches)
	}
	if *workers < 0 {
		return fail("--workers %d is negative", *workers)
	}
	if err := checkThink(*think, maxThink); err != nil {
		return fail("%v", err)
	}
	names := strings.Split(*botList, ",")
	var bots []bot.Bot
	for _, bn := range names {
		bn = strings.TrimSpace(bn)
		b, ok := engines.bot(bn)
		if !ok {
			return fail("unknown bot %q (bots: %s)", bn, engines.names())
		}
		// The matches run in parallel: each search on one core.
		bots = append(bots, bot.WithThink(b, *think, 1))
		if _, random := b.(bot.Random); !random && !matchesSet {
			*matches = defaultSimMatchesSlower
		}
	}
	variant := func(from string, given setFlags) (sim.Variant, error) {
		opts := map[string]any{"dealer": 0}
		if *players != 0 {
			opts["players"] = *players
		}
		for k, v := range given {
			opts[k] = v
		}
		if d, ok := opts["dealer"].(string); ok && strings.TrimSpace(d) == "random" {
			delete(opts, "dealer")
		}
		o, err := game.Resolve(g, opts)
		if err != nil {
			var oe *game.OptionError
			if _, ok := given["players"]; !ok && errors.As(err, &oe) && oe.Option == "players" {
				from = "--players"
			}
			return sim.Variant{}, fmt.Errorf("%s: %w", from, err)
		}
		if _, err := g.New(o, *seed, nil); err != nil {
			return sim.Variant{}, fmt.Errorf("%s: %w", from, err)
		}
		v := sim.Variant{Label: label(given), Options: o}
		n := o.Players()
		switch len(bots) {
		case 1:
			for range n {
				v.Bots = append(v.Bots, bots[0])
			}
		case n:
			v.Bots = bots
		default:
			return v, fmt.Errorf("--bots names %d bots for %d seats: name one bot for every seat, or one per seat", len(bots), n)
		}
		return v, nil
	}
	cfg := sim.Config{Game: g, Matches: *matches, Seed: *seed, Workers: *workers}
	if cfg.A, err = variant("--set", sets); err != nil {
		return fail("%v", err)
	}
	if len(vs) > 0 {
		if cfg.B, err = variant("--vs", vs); err != nil {
			return fail("%v", err)
		}
	}
	var out *os.File
	if *report != "" {
		if out, err = os.Create(*report); err != nil {
			return fail("--report: %v", err)
		}
		defer out.Close()
	}
	cfg.Progress = progress(e, "sim", *matches)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	rep, err := sim.Run(ctx, cfg)
	if err != nil {
		if out != nil {
			out.Close()
			os.Remove(*report)
		}
		fmt.Fprintf(e.stderr, "parlour sim: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stderr, "parlour sim: %d matches in %.1fs\n", *matches, time.Since(start).Seconds())
	if out != nil {
		if err := sim.WriteHTML(out, rep); err != nil {
			fmt.Fprintf(e.stderr, "parlour sim: --report: %v\n", err)
			return 1
		}
		if err := out.Close(); err != nil {
			fmt.Fprintf(e.stderr, "parlour sim: --report: %v\n", err)
			return 1
		}
		fmt.Fprintf(e.stderr, "parlour sim: report written to %s\n", *report)
	}
	if *asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour sim: %v\n", err)
			return 1
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return 0
	}
	if err := sim.WriteText(e.stdout, rep); err != nil {
		return 1
	}
	return 0
}

// label names a variant by the options given for it: "holes=5 target=40",
// or "defaults".
func label(given setFlags) string {
	if len(given) == 0 {
		return "defaults"
	}
	var parts []string
	for k, v := range given {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}
