package arena_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/arena"
)

func config(t *testing.T, name string, opts map[string]any, bots ...bot.Bot) arena.Config {
	t.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	o, err := game.Resolve(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	return arena.Config{Game: g, Options: o, Bots: bots, Seed: 1}
}

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		wins   float64
		n      int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{171.5, 400, 0.3810, 0.4776},
	} {
		ci := arena.Wilson(c.wins, c.n)
		if math.Abs(ci[0]-c.lo) > 5e-4 || math.Abs(ci[1]-c.hi) > 5e-4 {
			t.Errorf("Wilson(%v, %d) = %.4f, want [%.4f %.4f]", c.wins, c.n, ci, c.lo, c.hi)
		}
	}
	if ci := arena.Wilson(0, 0); ci != [2]float64{0, 1} {
		t.Errorf("Wilson(0, 0) = %v", ci)
	}
}

// TestRunPools: a bot named on several seats is pooled; every seat-match
// is counted once; wins (shared ones as fractions) add up to the matches
// that had a winner.
func TestRunPools(t *testing.T) {
	cfg := config(t, "golf", map[string]any{"players": 3, "holes": 2}, bot.Heuristic{}, bot.Random{}, bot.Random{})
	cfg.Matches = 30
	rep, err := arena.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Bots) != 2 || rep.Bots[0].Name != "heuristic" || rep.Bots[1].Name != "random" {
		t.Fatalf("bots %+v, want heuristic then random", rep.Bots)
	}
	h, r := rep.Bots[0], rep.Bots[1]
	if h.Seats != 1 || r.Seats != 2 || h.Matches != 30 || r.Matches != 60 {
		t.Errorf("seats/matches: heuristic %d/%d, random %d/%d; want 1/30, 2/60", h.Seats, h.Matches, r.Seats, r.Matches)
	}
	if got := h.Wins + r.Wins; math.Abs(got-float64(30-rep.Unresolved)) > 1e-9 {
		t.Errorf("wins add up to %v, want %d", got, 30-rep.Unresolved)
	}
	if h.WinRate != h.Wins/30 || h.CI95 != arena.Wilson(h.Wins, 30) {
		t.Errorf("heuristic rate %v CI %v for %v wins", h.WinRate, h.CI95, h.Wins)
	}
	if h.Moves == 0 || r.Moves == 0 || rep.GamesPerS <= 0 {
		t.Errorf("moves %d/%d, games/s %v", h.Moves, r.Moves, rep.GamesPerS)
	}
}

// seatBot records the seats it is asked to play.
type seatBot struct {
	name  string
	seats chan int
}

func (b seatBot) Name() string { return b.name }

func (b seatBot) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	select {
	case b.seats <- seat:
	default:
	}
	return bot.Random{}.Choose(s, seat, rng)
}

// TestRunRotatesSeats: over n matches every bot sits in every seat.
func TestRunRotatesSeats(t *testing.T) {
	a := seatBot{"a", make(chan int, 1<<16)}
	b := seatBot{"b", make(chan int, 1<<16)}
	c := seatBot{"c", make(chan int, 1<<16)}
	cfg := config(t, "parcellus", map[string]any{"target": 5}, a, b, c)
	cfg.Matches = 3
	if _, err := arena.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for _, sb := range []seatBot{a, b, c} {
		close(sb.seats)
		seen := map[int]bool{}
		for s := range sb.seats {
			seen[s] = true
		}
		if len(seen) != 3 {
			t.Errorf("bot %s sat in seats %v, want all three", sb.name, seen)
		}
	}
}

// TestRunReproducible: the outcome depends on the seed, not on the number
// of workers.
func TestRunReproducible(t *testing.T) {
	run := func(workers int, seed uint64) arena.Report {
		cfg := config(t, "court-circular", nil, bot.Heuristic{}, bot.Search{Iterations: 10})
		cfg.Matches, cfg.Workers, cfg.Seed = 8, workers, seed
		rep, err := arena.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	strip := func(r arena.Report) arena.Report {
		r.Seconds, r.GamesPerS = 0, 0
		for i := range r.Bots {
			r.Bots[i].MsPerMove, r.Bots[i].ThinkMsMean, r.Bots[i].ThinkMsMax = 0, 0, 0
		}
		return r
	}
	one, two := strip(run(1, 3)), strip(run(2, 3))
	for i := range one.Bots {
		if one.Bots[i] != two.Bots[i] {
			t.Errorf("1 worker: %+v\n2 workers: %+v", one.Bots[i], two.Bots[i])
		}
	}
}

// choiceBot counts the decisions it is asked to make between more than
// one legal move.
type choiceBot struct{ choices *atomic.Int64 }

func (choiceBot) Name() string { return "counted" }

func (b choiceBot) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	if len(s.Legal(seat, nil)) > 1 {
		b.choices.Add(1)
	}
	return bot.Random{}.Choose(s, seat, rng)
}

// TestRunThinkTimes: the think times are over the decisions with a choice,
// which the report counts; the longest is at least the mean.
func TestRunThinkTimes(t *testing.T) {
	var n atomic.Int64
	cfg := config(t, "golf", map[string]any{"players": 2, "holes": 3}, choiceBot{&n}, bot.Search{Iterations: 20})
	cfg.Matches = 4
	rep, err := arena.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Bots[0]
	if c.Choices != n.Load() || c.Choices == 0 || c.Choices > c.Moves {
		t.Errorf("counted: %d choices reported of %d moves, %d made", c.Choices, c.Moves, n.Load())
	}
	for _, st := range rep.Bots {
		if st.ThinkMsMean < 0 || st.ThinkMsMax < st.ThinkMsMean {
			t.Errorf("%s: think mean %vms, max %vms", st.Name, st.ThinkMsMean, st.ThinkMsMax)
		}
	}
	b, _ := json.Marshal(rep)
	for _, key := range []string{`"choices":`, `"think_ms_mean":`, `"think_ms_max":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("the JSON report has no %s: %s", key, b)
		}
	}
}

// cheat plays a move that is never legal.
type cheat struct{}

func (cheat) Name() string                                 { return "cheat" }
func (cheat) Choose(game.State, int, *rand.Rand) game.Move { return 1 << 60 }

func TestRunErrors(t *testing.T) {
	cfg := config(t, "golf", map[string]any{"players": 2}, cheat{}, bot.Random{})
	cfg.Matches = 2
	_, err := arena.Run(context.Background(), cfg)
	if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "cheat") {
		t.Errorf("an illegal move: error %v, want one naming the bot and matching ErrIllegalMove", err)
	}
	cfg = config(t, "golf", map[string]any{"players": 3}, bot.Random{}, bot.Random{})
	cfg.Matches = 2
	if _, err := arena.Run(context.Background(), cfg); err == nil {
		t.Error("two bots for three seats: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg = config(t, "golf", nil, bot.Random{}, bot.Random{}, bot.Random{}, bot.Random{})
	cfg.Matches = 1000
	if _, err := arena.Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: error %v", err)
	}
}

// TestPlaySharedWin: a partnership's win is shared, half to each partner.
func TestPlaySharedWin(t *testing.T) {
	cfg := config(t, "tractric", map[string]any{"players": 4}, bot.Random{}, bot.Random{}, bot.Random{}, bot.Random{})
	o := arena.Play(cfg.Game, cfg.Options, cfg.Bots, 0, 1)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if o.Wins[0] != o.Wins[2] || o.Wins[1] != o.Wins[3] || o.Wins[0]+o.Wins[1] != 0.5 || o.Wins[0]*o.Wins[1] != 0 {
		t.Errorf("wins by seat %v, want 0.5 to each partner of one side", o.Wins)
	}
}
