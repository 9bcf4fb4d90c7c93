package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"parlour/internal/loadgen"
)

// runLoadtest is "parlour loadtest": live tables on a running server (or
// several), one simulated person each, measured from outside.
func runLoadtest(e *env, args []string) int {
	fs := newFlags(e, "loadtest")
	urls := fs.String("url", "http://127.0.0.1:8080", "the server's URL; several, comma-separated, spread the tables round-robin (a dropped connection reconnects to the next)")
	tables := fs.Int("tables", 100, "tables kept in play at once, one person and bots at each")
	duration := fs.Duration("duration", time.Minute, "time measured once every table is open")
	ramp := fs.Duration("ramp", 0, "time over which the tables are opened (default: max(1s, tables/500 s))")
	settle := fs.Duration("settle", 10*time.Second, "time the tables play after the ramp before the measurement starts (0s: none)")
	think := fs.Duration("think", 500*time.Millisecond, "the person's mean pause before a move (each drawn between half and one and a half of it)")
	gameName := fs.String("game", "all", "the game to play, or all to rotate through every game the server has")
	players := fs.Int("players", 0, "seats at each table, the person's included (default: each game's usual count, its players option's default)")
	botName := fs.String("bot", "heuristic,random", "the bot in the other seats (as GET /api/bots lists them); several, comma-separated, are seated in turn")
	sets := setFlags{}
	fs.Var(sets, "set", "a game option as key=value (repeatable), e.g. --set holes=1; with --game all, for the games that have it")
	pids := fs.String("pid", "", "the server's process id (comma-separated for several): report its memory (VmRSS) per live table and its processor time per move")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	seed := fs.Uint64("seed", 1, "seed of the generator's own choices (pauses, seats, moves)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof) of the load process on this address, e.g. 127.0.0.1:6061 (default: off)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "parlour loadtest: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	if *pprofAddr != "" {
		stop, err := servePprof(*pprofAddr)
		if err != nil {
			return bad("--pprof: %v", err)
		}
		defer stop()
	}
	cfg := loadgen.Config{Tables: *tables, Duration: *duration, Ramp: *ramp, Settle: *settle, Think: *think, Game: *gameName,
		Players: *players, Bot: *botName, Seed: *seed, Options: map[string]string{}}
	for _, u := range strings.Split(*urls, ",") {
		if strings.TrimSpace(u) == "" {
			continue
		}
		base, err := loadgen.BaseURL(u)
		if err != nil {
			return bad("--url: %v", err)
		}
		cfg.URLs = append(cfg.URLs, base)
	}
	switch {
	case len(cfg.URLs) == 0:
		return bad("--url: name a server, e.g. http://127.0.0.1:8080")
	case *tables < 1 || *tables > 1_000_000:
		return bad("--tables %d is out of range (1 to 1000000)", *tables)
	case *duration <= 0:
		return bad("--duration %v: must be more than 0", *duration)
	case *ramp < 0:
		return bad("--ramp %v may not be negative", *ramp)
	case *settle < 0:
		return bad("--settle %v may not be negative", *settle)
	case *think < 0 || *think > time.Hour:
		return bad("--think %v is out of range (0 to 1h)", *think)
	case *players < 0 || *players == 1:
		return bad("--players %d: need at least 2 (a person and a bot)", *players)
	}
	for k, v := range sets {
		if k == "players" {
			return bad("--set players: use --players")
		}
		cfg.Options[k] = fmt.Sprint(v)
	}
	for _, p := range strings.Split(*pids, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		pid, err := strconv.Atoi(p)
		if err != nil || pid <= 0 {
			return bad("--pid %q is not a process id", p)
		}
		if _, err := os.Stat("/proc/" + p + "/status"); err != nil {
			return bad("--pid %d: no such process (or no /proc to read its memory from)", pid)
		}
		cfg.PIDs = append(cfg.PIDs, pid)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := loadgen.Run(ctx, cfg, e.stderr)
	var ce *loadgen.ConfigError
	if errors.As(err, &ce) {
		flag := map[string]string{"option": "set"}[ce.Field]
		if flag == "" {
			flag = ce.Field
		}
		return bad("--%s %s: %s", flag, ce.Value, ce.Msg)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour loadtest: %v\n", err)
		if errors.Is(err, loadgen.ErrUnreachable) || rep.Tables == 0 {
			return 1
		}
		// A run cut short: what it measured still follows.
	}
	if *asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		printLoadReport(e, rep)
	}
	if err != nil {
		return 1
	}
	return 0
}

func printLoadReport(e *env, r loadgen.Report) {
	games := r.Game
	if games == "all" {
		games = "every game in turn"
	}
	fmt.Fprintf(e.stdout, "parlour loadtest: %d tables of %s (bots: %s, think %gms) on %s\n",
		r.Tables, games, strings.ReplaceAll(r.Bot, ",", " and "), r.Think, strings.Join(r.URLs, ", "))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "measured\t%.1fs after a %.1fs ramp and %.1fs to settle; %d tables live at the end\n", r.DurationS, r.RampS, r.SettleS, r.LiveTables)
	fmt.Fprintf(tw, "moves\t%d (%.1f/s), %d by the people\n", r.Moves, r.MovesPerS, r.PersonMoves)
	fmt.Fprintf(tw, "move to view\tp50 %.2fms  p90 %.2fms  p99 %.2fms  max %.2fms\n", r.P50MS, r.P90MS, r.P99MS, r.MaxMS)
	if r.ServerViews > 0 {
		fmt.Fprintf(tw, "  the server's part\tp50 %.2fms  p90 %.2fms  p99 %.2fms  (from its metrics: the move received to its view queued; %d moves)\n",
			r.ServerP50MS, r.ServerP90MS, r.ServerP99MS, r.ServerViews)
	}
	fmt.Fprintf(tw, "games finished\t%d\n", r.GamesFinished)
	fmt.Fprintf(tw, "errors\t%d\n", r.ErrorsTotal)
	kinds := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(tw, "  %s\t%d\n", k, r.Errors[k])
	}
	fmt.Fprintf(tw, "shed (503, retried)\t%d\n", r.Shed)
	fmt.Fprintf(tw, "reconnects\t%d\n", r.Reconnects)
	fmt.Fprintf(tw, "lost moves\t%d\n", r.Lost)
	if r.RSSBytes > 0 {
		fmt.Fprintf(tw, "server RSS\t%.1f MiB (%.1f MiB before the tables); %.1f KiB per live table\n",
			mib(r.RSSBytes), mib(r.RSSStartBytes), float64(r.RSSPerTableBytes)/1024)
	}
	if cpu := processorLine(r); cpu != "" {
		fmt.Fprintf(tw, "processor time\t%s\n", cpu)
	}
	tw.Flush()
}

// processorLine says what processor time the report measured: the
// server's, the load generator's and the machine's ("" for none).
func processorLine(r loadgen.Report) string {
	var parts []string
	if r.ServerCores > 0 {
		parts = append(parts, fmt.Sprintf("server %.2f cores (%.0f µs a move)", r.ServerCores, r.ServerUSPerMove))
	}
	if r.LoadCores > 0 {
		parts = append(parts, fmt.Sprintf("this load generator %.2f cores", r.LoadCores))
	}
	if r.MachineBusy > 0 {
		parts = append(parts, fmt.Sprintf("this machine %.0f%% busy", 100*r.MachineBusy))
	}
	return strings.Join(parts, "; ")
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
