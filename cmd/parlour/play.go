package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/tui"
)

// setFlags collects repeated --set k=v options.
type setFlags map[string]any

func (s setFlags) String() string { return "" }

func (s setFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not of the form key=value", v)
	}
	s[k] = val
	return nil
}

// maxThink is the longest --think that play, tournament and sim take.
const maxThink = time.Minute

// thinkFlag adds --think to fs: the time every search bot thinks per move,
// on the cores where says.
func thinkFlag(fs *flag.FlagSet, where string) *time.Duration {
	return fs.Duration("think", 0, "time hard thinks per move, e.g. 500ms (medium an eighth of it, easy a fortieth), "+where+
		"; 0: each level's own iterations, cut short at "+bot.LevelCap.String())
}

// checkThink refuses a --think below 0 or above most.
func checkThink(d, most time.Duration) error {
	if d < 0 || d > most {
		return fmt.Errorf("--think %v is out of range (0 to %s): give the time a bot thinks per move, such as 500ms", d, brief(most))
	}
	return nil
}

// brief writes a whole number of minutes as "1m", not "1m0s".
func brief(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}

// gameOptions finds the game called name and resolves its options: those
// given with --set, and --players when not 0.
func gameOptions(name string, sets setFlags, players int) (game.Game, game.Options, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	given := map[string]any(sets)
	if players != 0 {
		given["players"] = players
	}
	opts, err := game.Resolve(g, given)
	if err != nil {
		return nil, nil, err
	}
	return g, opts, nil
}

func runPlay(e *env, args []string) int {
	fs := newFlags(e, "play")
	players := fs.Int("players", 0, "number of players (default: the game's default)")
	seed := fs.Uint64("seed", 0, "seed for the deal and the bots (default: random)")
	seat := fs.Int("seat", 0, "your seat")
	bots := fs.String("bots", "random", "bots for the other seats, comma-separated, one name for all ("+strings.Join(bot.Names(), ", ")+")")
	noColour := fs.Bool("no-colour", false, "do not colour red suits")
	plain := fs.Bool("plain", false, "the line prompt instead of the full-screen table (always when input or output is not a terminal)")
	join := fs.String("join", "", "sit at a server's table: its invite link, as a browser opens it (http://HOST:PORT/#/t/TABLE)")
	myName := fs.String("name", "", "your name at a server's table (with --join; default: $USER)")
	think := thinkFlag(fs, "spread over every core")
	sets := setFlags{}
	fs.Var(sets, "set", "a game option as key=value (repeatable), e.g. --set holes=3")
	// Let the game name come before the flags: parlour play golf --players 3.
	var gameName string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		gameName, args = args[0], args[1:]
	}
	engines := addEngineFlags(e, fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if gameName == "" && fs.NArg() > 0 {
		gameName = fs.Arg(0)
	}
	fullScreen := !*plain && isTerminal(e.stdin) && isTerminal(e.stdout)
	if flagGiven(fs, "join") {
		if gameName != "" {
			fmt.Fprintf(e.stderr, "parlour play: --join sits at a server's table, whose game is set: give a game or --join, not both\n")
			return 2
		}
		for _, f := range []string{"players", "seed", "seat", "bots", "set", "think", "engine"} {
			if flagGiven(fs, f) {
				fmt.Fprintf(e.stderr, "parlour play: --%s sets up a game here; a server's table (--join) has its own\n", f)
				return 2
			}
		}
		return runJoin(e, *join, *myName, fullScreen, !*noColour && isTerminal(e.stdout))
	}
	if flagGiven(fs, "name") {
		fmt.Fprintf(e.stderr, "parlour play: --name is for --join (a server's table)\n")
		return 2
	}
	name := gameName
	engines.start()
	defer engines.close()
	if name == "" {
		fmt.Fprintf(e.stderr, "parlour play: name a game (%s)\n", strings.Join(games.Registry.Names(), ", "))
		return 2
	}
	if err := checkThink(*think, maxThink); err != nil {
		fmt.Fprintf(e.stderr, "parlour play: %v\n", err)
		return 2
	}
	g, opts, err := gameOptions(name, sets, *players)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour play: %v\n", err)
		return 2
	}
	n := opts.Players()
	if *seat < 0 || *seat >= n {
		fmt.Fprintf(e.stderr, "parlour play: --seat %d is not a seat (0 to %d)\n", *seat, n-1)
		return 2
	}
	names := strings.Split(*bots, ",")
	if len(names) != 1 && len(names) != n-1 {
		fmt.Fprintf(e.stderr, "parlour play: --bots names %d bots; give one, or one for each of the %d other seats\n", len(names), n-1)
		return 2
	}
	cfg := tui.Config{Game: g, Options: opts, Seed: *seed, Seat: *seat, Bots: make([]bot.Bot, n), Colour: !*noColour && isTerminal(e.stdout)}
	k := 0
	for i := 0; i < n; i++ {
		if i == *seat {
			continue
		}
		bn := strings.TrimSpace(names[min(k, len(names)-1)])
		b, ok := engines.bot(bn)
		if !ok {
			fmt.Fprintf(e.stderr, "parlour play: unknown bot %q (bots: %s)\n", bn, engines.names())
			return 2
		}
		// One bot thinks at a time: its search spreads over every core.
		cfg.Bots[i] = bot.WithThink(b, *think, runtime.NumCPU())
		k++
	}
	if !flagGiven(fs, "seed") {
		cfg.Seed = randomSeed()
	}
	cfg.Replay = replayCommand(g, opts, cfg.Seed, *seat, *bots, *think)
	if !flagGiven(fs, "seed") {
		fmt.Fprintf(e.stdout, "(seed %d: %s replays this game)\n", cfg.Seed, cfg.Replay)
	}
	play := tui.Play
	if fullScreen {
		cfg.BotDelay = tui.DefaultBotDelay
		play = tui.Run
	}
	if err := play(cfg, e.stdin, e.stdout); err != nil {
		fmt.Fprintf(e.stderr, "parlour play: %v\n", err)
		return 1
	}
	return 0
}

// replayCommand is the command that plays the match of these settings
// again, move for move: the game and the seed, and every setting that is
// not the default (the players, the game's options with --set, the seat,
// the bots, their thinking time). A bot that thinks for a time (--think)
// may choose otherwise on a busier machine.
func replayCommand(g game.Game, opts game.Options, seed uint64, seat int, bots string, think time.Duration) string {
	parts := []string{"parlour play", g.Name(), "--seed", strconv.FormatUint(seed, 10)}
	defaults, err := game.Resolve(g, map[string]any{"players": opts.Players()})
	if err != nil {
		defaults = game.Options{}
	}
	if std, err := game.Resolve(g, nil); err != nil || std.Players() != opts.Players() {
		parts = append(parts, "--players", strconv.Itoa(opts.Players()))
	}
	var names []string
	for name := range opts {
		if name != "players" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if v, ok := defaults[name]; !ok || fmt.Sprint(v) != fmt.Sprint(opts[name]) {
			parts = append(parts, "--set", fmt.Sprintf("%s=%v", name, opts[name]))
		}
	}
	if seat != 0 {
		parts = append(parts, "--seat", strconv.Itoa(seat))
	}
	if bots = strings.ReplaceAll(bots, " ", ""); bots != "random" {
		parts = append(parts, "--bots", bots)
	}
	if think != 0 {
		parts = append(parts, "--think", think.String())
	}
	return strings.Join(parts, " ")
}

func flagGiven(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// randomSeed draws a seed small enough to type back in.
func randomSeed() uint64 { return rand.Uint64() >> 20 }
