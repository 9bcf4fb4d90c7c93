package bot

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"parlour/game"
)

// Leveled is a level of the search bot: its settings for each game, chosen
// by measurement (docs/perf/levels.md), and the settings for any other
// game.
type Leveled struct {
	// Label is the level's name ("hard").
	Label string
	// Default is the search for a game Games leaves out.
	Default Search
	// Games holds the search for each game, by game.Game.Name.
	Games map[string]Search
	// Think, if positive, is a time budget per move that replaces the
	// iterations and the cap of every game's settings: the level then
	// thinks Think times Share on every decision (see Search.Think).
	Think time.Duration
	// Share is the part of Think the level uses (0 counts as 1): the
	// levels keep the ratio of their iterations under a time budget, so
	// that with --think 800ms hard thinks 800 ms, medium 100 ms and easy
	// 20 ms, and the levels stay as far apart as their names say (at equal
	// time they would be one search: they differ only in budget).
	Share float64
	// Workers, if positive, sets every game's Search.Workers.
	Workers int
}

// Name returns the level's name.
func (b Leveled) Name() string { return b.Label }

// Settings returns the search the level plays g with.
func (b Leveled) Settings(g game.Game) Search {
	s, ok := b.Games[g.Name()]
	if !ok {
		s = b.Default
	}
	s.Label = b.Label
	if b.Think > 0 {
		share := b.Share
		if share <= 0 {
			share = 1
		}
		s.Iterations, s.Think = 0, max(time.Millisecond, time.Duration(float64(b.Think)*share))
	}
	if b.Workers > 0 {
		s.Workers = b.Workers
	}
	return s
}

// WithThink returns b set to think for d per move on workers goroutines
// (see Search.Think and Search.Workers): a level (Leveled) or a Search
// gets the budget in place of its iterations and cap (a level its Share
// of d: hard all of it, medium an eighth, easy a fortieth), and the
// workers. A
// d of 0 (or less) keeps the bot's own iterations and cap; a workers of 0
// keeps its own number of workers. Any other bot is returned unchanged.
// The bot keeps its name.
func WithThink(b Bot, d time.Duration, workers int) Bot {
	d = max(d, 0)
	switch x := b.(type) {
	case Leveled:
		x.Think = d
		if workers > 0 {
			x.Workers = workers
		}
		return x
	case Search:
		if d > 0 {
			x.Iterations, x.Think = 0, d
		}
		if workers > 0 {
			x.Workers = workers
		}
		return x
	}
	return b
}

// Choose searches with the level's settings for the game of s.
func (b Leveled) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	return b.Settings(s.Game()).Choose(s, seat, rng)
}

// hardGames is the search of the hard level per game: iterations such that
// hard thinks well under a second per move on one core (BenchmarkSearch),
// and the depth of its own decisions in the tree that plays best: the
// whole tree in Tractric and Parcellus, where the bot's hand changes only
// by its own moves; only the root move in Golf, Court Circular and Damn,
// where cards it draws would be mixed up in deeper nodes.
// docs/perf/levels.md has the figures, and what each level wins.
var hardGames = map[string]Search{
	"golf":           {Iterations: 3000, Depth: 1},
	"parcellus":      {Iterations: 4000},
	"tractric":       {Iterations: 3000},
	"damn":           {Iterations: 1500, Depth: 1},
	"court-circular": {Iterations: 2000, Depth: 1},
}

// LevelCap is the wall-clock cap of every level's decision (Search.Think
// with its iterations set): the iterations stay the target, and a
// position where they would take longer (a big one, or a busy machine) is
// cut short, so that no decision keeps a person waiting much over a
// second.
const LevelCap = time.Second

// scaled returns hardGames with the iterations divided by div.
func scaled(div int) map[string]Search {
	out := map[string]Search{}
	for g, s := range hardGames {
		s.Iterations = max(10, s.Iterations/div)
		out[g] = s
	}
	return out
}

// mediumGames is medium's search per game: an eighth of hard's iterations,
// but half in Damn, where an eighth wins no more than the heuristic does
// (docs/perf/levels.md).
func mediumGames() map[string]Search {
	games := scaled(8)
	games["damn"] = Search{Iterations: hardGames["damn"].Iterations / 2, Depth: 1}
	return games
}

// easyGames is easy's search per game: a fortieth of hard's iterations,
// but at least easyFloor, and in Damn easyDamn. With fewer (50 in Court
// Circular, 37 in Damn) the search lost to the heuristic it builds on
// (docs/analysis.md): at under ten visits a root move, chance picks its
// move as often as its playouts do.
func easyGames() map[string]Search {
	games := scaled(40)
	for g, s := range games {
		s.Iterations = max(s.Iterations, easyFloor)
		games[g] = s
	}
	games["damn"] = Search{Iterations: easyDamn, Depth: 1}
	return games
}

// easyFloor and easyDamn are easy's fewest iterations (see easyGames).
const (
	easyFloor = 150
	easyDamn  = 300
)

// capped returns the level l with LevelCap set on all its settings.
func capped(l Leveled) Leveled {
	l.Default.Think = LevelCap
	games := map[string]Search{}
	for g, s := range l.Games {
		s.Think = LevelCap
		games[g] = s
	}
	l.Games = games
	return l
}

// levels are easy, medium and hard: the same search with a fortieth (at
// least easyFloor), an eighth and all of hard's iterations (or, under a
// time budget, of its time), each capped at LevelCap.
var levels = map[string]Leveled{
	"easy":   capped(Leveled{Label: "easy", Default: Search{Iterations: easyFloor, Depth: 1}, Games: easyGames(), Share: 1.0 / 40}),
	"medium": capped(Leveled{Label: "medium", Default: Search{Iterations: 300, Depth: 1}, Games: mediumGames(), Share: 1.0 / 8}),
	"hard":   capped(Leveled{Label: "hard", Default: Search{Iterations: 2000, Depth: 1}, Games: hardGames}),
}

// Level returns the search bot of a level: "easy", "medium" or "hard".
func Level(name string) (Leveled, bool) {
	b, ok := levels[name]
	return b, ok
}

// ParseSearch reads a search bot written "search/ITERATIONS[/POLICY[/C]]"
// or "uct/..." (the same with UCTOpponents set), POLICY being "heuristic"
// (the default) or "random" and C the exploration constant:
// "search/5000/random/0.5"; "search@1/..." sets Depth 1. It is for
// measuring settings.
func ParseSearch(name string) (Search, bool) {
	f := strings.Split(name, "/")
	depth := 0
	observe := strings.HasSuffix(f[0], "+obs")
	f[0] = strings.TrimSuffix(f[0], "+obs")
	if k := strings.LastIndex(f[0], "@"); k > 0 {
		d, err := strconv.Atoi(f[0][k+1:])
		if err != nil || d < 0 {
			return Search{}, false
		}
		depth, f[0] = d, f[0][:k]
	}
	if len(f) < 2 || len(f) > 4 || (f[0] != "search" && f[0] != "uct") {
		return Search{}, false
	}
	it, err := strconv.Atoi(f[1])
	if err != nil || it <= 0 {
		return Search{}, false
	}
	b := Search{Label: name, Iterations: it, Playout: PolicyHeuristic, UCTOpponents: f[0] == "uct", Depth: depth, Observe: observe}
	if len(f) >= 3 {
		switch f[2] {
		case "heuristic":
		case "random":
			b.Playout = PolicyRandom
		default:
			return Search{}, false
		}
	}
	if len(f) == 4 {
		c, err := strconv.ParseFloat(f[3], 64)
		if err != nil || c <= 0 {
			return Search{}, false
		}
		b.C = c
	}
	return b, true
}
