package bot_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/arena"
)

// TestRandomPlaysLegalMoves plays whole matches of every game with random
// bots through the validated path.
func TestRandomPlaysLegalMoves(t *testing.T) {
	for _, g := range games.Registry.All() {
		opts, err := game.Resolve(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 20; seed++ {
			s, err := g.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 2))
			for moves := 0; s.ToAct() != 0; moves++ {
				if moves > 100000 {
					t.Fatalf("%s seed %d: no end after %d moves", g.Name(), seed, moves)
				}
				seat := s.ToAct().First()
				m := bot.Random{}.Choose(s, seat, rng)
				if err := game.Apply(s, seat, m); err != nil {
					t.Fatalf("%s seed %d: random bot's move refused: %v", g.Name(), seed, err)
				}
			}
		}
	}
}

func TestByName(t *testing.T) {
	for _, name := range bot.Names() {
		b, ok := bot.ByName(name)
		if !ok || b.Name() != name {
			t.Errorf("ByName(%q) = %v, %v", name, b, ok)
		}
	}
	if _, ok := bot.ByName("nonesuch"); ok {
		t.Fatal("ByName(nonesuch) found a bot")
	}
	for name, want := range map[string]bool{
		"search/100": true, "search/100/random": true, "search/100/heuristic/0.5": true,
		"uct/50": true, "search@1/20": true,
		"search": false, "search/0": false, "search/x": false, "search/10/greedy": false,
		"search/10/random/-1": false, "other/10": false, "search@x/10": false,
	} {
		if _, ok := bot.ByName(name); ok != want {
			t.Errorf("ByName(%q) found = %v, want %v", name, ok, want)
		}
	}
}

// playMatch plays one whole match of name with bots (one per seat, nil
// for the heuristic) through the validated path, and fails on a refusal.
func playMatch(t *testing.T, name string, opts map[string]any, seed uint64, bots []bot.Bot) game.State {
	t.Helper()
	s := newMatch(t, name, opts, seed)
	rngs := make([]*rand.Rand, s.Players())
	for i := range rngs {
		rngs[i] = rand.New(rand.NewPCG(seed, uint64(i)))
	}
	for moves := 0; s.ToAct() != 0; moves++ {
		if moves > arena.MaxMoves {
			t.Fatalf("%s seed %d: no end after %d moves", name, seed, moves)
		}
		seat := s.ToAct().First()
		b := bots[seat%len(bots)]
		m := b.Choose(s, seat, rngs[seat])
		if err := game.Apply(s, seat, m); err != nil {
			t.Fatalf("%s seed %d: %s's move %q refused: %v", name, seed, b.Name(), s.FormatMove(m), err)
		}
	}
	return s
}

// TestHeuristicPlaysLegalMoves plays whole matches of every game, at every
// table size, with the heuristic in every seat.
func TestHeuristicPlaysLegalMoves(t *testing.T) {
	for _, g := range games.Registry.All() {
		lo, hi := g.Players()
		for n := lo; n <= hi; n++ {
			opts := map[string]any{"players": n}
			if _, err := game.Resolve(g, opts); err != nil {
				continue
			}
			for seed := uint64(1); seed <= 5; seed++ {
				s := playMatch(t, g.Name(), opts, seed, []bot.Bot{bot.Heuristic{}})
				if !s.Result().Over {
					t.Errorf("%s %d players seed %d: match not over", g.Name(), n, seed)
				}
			}
		}
	}
	// Court Circular's other edition.
	for seed := uint64(1); seed <= 5; seed++ {
		playMatch(t, "court-circular", map[string]any{"edition": "1862"}, seed, []bot.Bot{bot.Heuristic{}})
	}
}

// TestHeuristicBeatsRandom is a statistical test with a fixed seed: in
// every game of the strength table, one heuristic bot against random bots
// in the other seats (rotating over the same deals) must win more often
// than an equal share, with the whole 95% interval above it.
func TestHeuristicBeatsRandom(t *testing.T) {
	for _, tab := range tables {
		t.Run(tab.name, func(t *testing.T) {
			g, _ := games.Lookup(tab.name)
			opts, err := game.Resolve(g, tab.opts)
			if err != nil {
				t.Fatal(err)
			}
			n := opts.Players()
			bots := []bot.Bot{bot.Heuristic{}}
			for len(bots) < n {
				bots = append(bots, bot.Random{})
			}
			rep, err := arena.Run(context.Background(), arena.Config{Game: g, Options: opts, Bots: bots, Matches: 60 * n, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			h := rep.Bots[0]
			t.Logf("%s: heuristic wins %.1f of %d (%.1f%%, 95%% CI %.1f%%-%.1f%%), fair share %.1f%%",
				tab.name, h.Wins, h.Matches, 100*h.WinRate, 100*h.CI95[0], 100*h.CI95[1], 100/float64(n))
			if h.CI95[0] <= 1/float64(n) {
				t.Errorf("heuristic win rate %.3f, 95%% CI [%.3f, %.3f]: not above the fair share %.3f", h.WinRate, h.CI95[0], h.CI95[1], 1/float64(n))
			}
		})
	}
}

// TestSearchPlaysLegalMoves plays whole matches of every game with a small
// search bot in one seat and heuristics in the others.
func TestSearchPlaysLegalMoves(t *testing.T) {
	small := bot.Search{Iterations: 12}
	uct := bot.Search{Iterations: 12, UCTOpponents: true, Playout: bot.PolicyRandom}
	for _, tab := range tables {
		playMatch(t, tab.name, tab.opts, 3, []bot.Bot{small, bot.Heuristic{}})
		playMatch(t, tab.name, tab.opts, 4, []bot.Bot{uct, bot.Random{}})
	}
}

// TestSearchSimultaneous has the search choose at the opening of a deal,
// where every seat chooses at once (Golf's reveal, Parcellus's pass,
// Tractric's proposals), before and after other seats have chosen.
func TestSearchSimultaneous(t *testing.T) {
	level, _ := bot.Level("hard")
	for _, name := range []string{"golf", "parcellus", "tractric"} {
		s := newMatch(t, name, nil, 5)
		hard := level.Settings(s.Game())
		hard.Iterations = 200
		n := s.Players()
		if s.ToAct() != game.AllSeats(n) {
			t.Fatalf("%s: to act %v at the start, want every seat", name, s.ToAct())
		}
		rng := rand.New(rand.NewPCG(5, 5))
		for range n { // every seat chooses, the last seat first
			acts := s.ToAct()
			seat := acts.Nth(acts.Len() - 1)
			m := hard.Choose(s, seat, rng)
			if err := game.Apply(s, seat, m); err != nil {
				t.Fatalf("%s: seat %d: %v", name, seat, err)
			}
			if acts.Len() > 1 && s.ToAct().Has(seat) {
				t.Fatalf("%s: seat %d still to act after choosing", name, seat)
			}
		}
		if s.ToAct().Len() != 1 {
			t.Errorf("%s: to act %v after every seat chose, want one seat", name, s.ToAct())
		}
	}
}

// TestSearchReproducible: the same seed gives the same decisions.
func TestSearchReproducible(t *testing.T) {
	b := bot.Search{Iterations: 150}
	for _, tab := range tables {
		for i, s := range positions(t, tab.name, tab.opts, 11, 4) {
			seat := s.ToAct().First()
			a := b.Choose(s, seat, rand.New(rand.NewPCG(9, uint64(i))))
			c := b.Choose(s.Clone(), seat, rand.New(rand.NewPCG(9, uint64(i))))
			if a != c {
				t.Errorf("%s position %d: %q then %q under the same seed", tab.name, i, s.FormatMove(a), s.FormatMove(c))
			}
		}
	}
}

// countPacer counts the times a search asks it whether to go on.
type countPacer struct{ n int }

func (c *countPacer) Pace(time.Time) { c.n++ }

// TestSearchPace: a search asks its Pacer whether to go on every
// ClockEvery iterations, and being asked changes nothing it decides.
func TestSearchPace(t *testing.T) {
	const n = 10*bot.ClockEvery + 1
	for _, tab := range tables {
		for i, s := range positions(t, tab.name, tab.opts, 17, 2) {
			seat := s.ToAct().First()
			pc := &countPacer{}
			paced := bot.Search{Iterations: n, Pace: pc}.Analyse(s, seat, rand.New(rand.NewPCG(5, uint64(i))))
			plain := bot.Search{Iterations: n}.Analyse(s, seat, rand.New(rand.NewPCG(5, uint64(i))))
			if paced.Iterations < n {
				continue // a choice the search leaves to the heuristic
			}
			if pc.n != (n-1)/bot.ClockEvery {
				t.Errorf("%s position %d: asked %d times in %d iterations, want %d", tab.name, i, pc.n, n, (n-1)/bot.ClockEvery)
			}
			if paced.Move != plain.Move || !slices.Equal(paced.Root, plain.Root) {
				t.Errorf("%s position %d: paced chose %q, unpaced %q under the same seed", tab.name, i, s.FormatMove(paced.Move), s.FormatMove(plain.Move))
			}
		}
	}
}

// TestSearchTimeBudget: with a time budget and no iteration count, the
// search runs until the clock stops it (it reads the clock every
// ClockEvery iterations, so it stops on a multiple of it) and answers a
// legal move. That the budget is kept is TestSearchClock's (a fake clock).
func TestSearchTimeBudget(t *testing.T) {
	b := bot.Search{Think: 20 * time.Millisecond}
	for _, tab := range tables {
		ps := positions(t, tab.name, tab.opts, 2, 1)
		seat := ps[0].ToAct().First()
		a := b.Analyse(ps[0], seat, rand.New(rand.NewPCG(1, 1)))
		if a.Iterations <= 0 || a.Iterations%bot.ClockEvery != 0 {
			t.Errorf("%s: %d iterations, want a positive multiple of %d", tab.name, a.Iterations, bot.ClockEvery)
		}
		if !slices.Contains(ps[0].Legal(seat, nil), a.Move) {
			t.Errorf("%s: move %v is not legal", tab.name, a.Move)
		}
	}
}

// TestSearchAnalyse: Analyse answers what Choose does under the same seed,
// with one visit at the root for each iteration.
func TestSearchAnalyse(t *testing.T) {
	for _, tab := range tables {
		for i, s := range positions(t, tab.name, tab.opts, 13, 3) {
			seat := s.ToAct().First()
			for _, b := range []bot.Search{{Iterations: 120}, {Iterations: 120, Workers: 1}} {
				m := b.Choose(s, seat, rand.New(rand.NewPCG(4, uint64(i))))
				a := b.Analyse(s, seat, rand.New(rand.NewPCG(4, uint64(i))))
				if a.Move != m {
					t.Errorf("%s position %d: Analyse chose %q, Choose %q", tab.name, i, s.FormatMove(a.Move), s.FormatMove(m))
				}
				if a.Iterations != 120 || !slices.Equal(a.Workers, []int{120}) || visits(a) != 120 {
					t.Errorf("%s position %d: %d iterations (workers %v), %d root visits; want 120", tab.name, i, a.Iterations, a.Workers, visits(a))
				}
			}
		}
	}
}

func visits(a bot.Analysis) int {
	n := 0
	for _, st := range a.Root {
		n += st.Visits
	}
	return n
}

// TestSearchWorkers: with Workers 2 the iterations are shared between two
// searches whose root statistics are summed, the choice is legal and, with
// a fixed number of iterations, reproducible under the same seed.
func TestSearchWorkers(t *testing.T) {
	b := bot.Search{Iterations: 301, Workers: 2}
	for _, tab := range tables {
		for i, s := range positions(t, tab.name, tab.opts, 17, 2) {
			seat := s.ToAct().First()
			a := b.Analyse(s, seat, rand.New(rand.NewPCG(6, uint64(i))))
			if !slices.Equal(a.Workers, []int{151, 150}) || a.Iterations != 301 {
				t.Errorf("%s position %d: workers ran %v (%d in all), want [151 150]", tab.name, i, a.Workers, a.Iterations)
			}
			if v := visits(a); v != a.Workers[0]+a.Workers[1] {
				t.Errorf("%s position %d: %d root visits for %v iterations", tab.name, i, v, a.Workers)
			}
			legal := s.Legal(seat, nil)
			for _, st := range a.Root {
				if !slices.Contains(legal, st.Move) {
					t.Errorf("%s position %d: root move %v is not legal", tab.name, i, st.Move)
				}
			}
			if !slices.Contains(legal, a.Move) {
				t.Errorf("%s position %d: move %v is not legal", tab.name, i, a.Move)
			}
			again := b.Analyse(s.Clone(), seat, rand.New(rand.NewPCG(6, uint64(i))))
			if again.Move != a.Move || !slices.Equal(again.Root, a.Root) {
				t.Errorf("%s position %d: two runs under the same seed differ", tab.name, i)
			}
			if m := b.Choose(s, seat, rand.New(rand.NewPCG(6, uint64(i)))); m != a.Move {
				t.Errorf("%s position %d: Choose chose %q, Analyse %q", tab.name, i, s.FormatMove(m), s.FormatMove(a.Move))
			}
		}
	}
	// With a budget and no iteration count, both workers run till it is
	// spent.
	s := positions(t, "court-circular", map[string]any{"players": 2}, 3, 1)[0]
	seat := s.ToAct().First()
	a := bot.Search{Think: 20 * time.Millisecond, Workers: 2}.Analyse(s, seat, rand.New(rand.NewPCG(1, 2)))
	if len(a.Workers) != 2 || a.Workers[0] <= 0 || a.Workers[1] <= 0 || visits(a) != a.Iterations {
		t.Errorf("a 2-worker budget: workers ran %v, %d iterations, %d root visits", a.Workers, a.Iterations, visits(a))
	}
}

// TestLevelCap: every level caps every game's decision at LevelCap, its
// iterations staying the target; WithThink swaps them for a budget (each
// level its share of hard's), and leaves other bots alone.
func TestLevelCap(t *testing.T) {
	for _, name := range []string{"easy", "medium", "hard"} {
		level, ok := bot.Level(name)
		if !ok {
			t.Fatalf("no level %q", name)
		}
		var gs []game.Game
		for _, g := range games.Registry.All() {
			gs = append(gs, g)
		}
		check := func(what string, s bot.Search) {
			if s.Think <= 0 || s.Think > time.Second || s.Iterations <= 0 {
				t.Errorf("%s %s: Think %v, Iterations %d; want a cap of at most 1s on a number of iterations", name, what, s.Think, s.Iterations)
			}
		}
		for _, g := range gs {
			check(g.Name(), level.Settings(g))
		}
		check("default", level.Default)

		b := bot.WithThink(level, 800*time.Millisecond, 2)
		if b.Name() != name {
			t.Errorf("WithThink renamed %s to %s", name, b.Name())
		}
		// Under a budget the levels keep the ratio of their iterations.
		budget := map[string]time.Duration{"easy": 20 * time.Millisecond, "medium": 100 * time.Millisecond, "hard": 800 * time.Millisecond}[name]
		for _, g := range gs {
			s := b.(bot.Leveled).Settings(g)
			if s.Iterations != 0 || s.Think != budget || s.Workers != 2 {
				t.Errorf("%s %s with hard's budget of 800ms: %+v, want Think %v", name, g.Name(), s, budget)
			}
			own := bot.WithThink(level, 0, 2).(bot.Leveled).Settings(g)
			want := level.Settings(g)
			want.Workers = 2
			if own != want {
				t.Errorf("%s %s with no budget and 2 workers: %+v, want %+v", name, g.Name(), own, want)
			}
		}
	}
	for _, b := range []bot.Bot{bot.Random{}, bot.Heuristic{}} {
		if bot.WithThink(b, time.Second, 2) != b {
			t.Errorf("WithThink changed %s", b.Name())
		}
	}
	s := bot.WithThink(bot.Search{Iterations: 100}, 50*time.Millisecond, 0).(bot.Search)
	if s.Iterations != 0 || s.Think != 50*time.Millisecond || s.Workers != 0 {
		t.Errorf("WithThink on a search: %+v", s)
	}
}
