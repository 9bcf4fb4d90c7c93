package bot

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"parlour/game"
)

// Leveled is a level of the search bot: its settings for each game, chosen
// by measurement, and the settings for any other game.
type Leveled struct {
	Label   string
	Default Search
	Games   map[string]Search
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
	return s
}

// Choose searches with the level's settings for the game of s.
func (b Leveled) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	return b.Settings(s.Game()).Choose(s, seat, rng)
}

// hardGames is the search of the hard level per game: iterations such that
// hard thinks well under a second per move on one core (BenchmarkSearch:
// 40 to 180 ms of CPU per move on average), and the depth of its own decisions in the
// tree that measured best: the whole tree in Tractric and Parcellus, where
// the bot's hand changes only by its own moves; only the root move in Golf,
// Court Circular and Damn, where cards it draws would be mixed up in deeper
// nodes (Golf at 200 iterations: 55% of matches won against three
// heuristics with depth 1, 28% with the whole tree).
//
// Measured against heuristic bots in the other seats (seats rotated, seed
// 1): hard won 87% of 60 Golf matches (4 players), 73% of 150 Parcellus,
// 100% of 30 Tractric (3 players), 59% of 90 Damn (3 players) and 92% of
// 60 Court Circular (1860, 2 players); medium won 66%, 77%, 97%, 27%
// (no better than the heuristic in Damn) and 83%.
var hardGames = map[string]Search{
	"golf":           {Iterations: 3000, Depth: 1},
	"parcellus":      {Iterations: 4000},
	"tractric":       {Iterations: 3000},
	"damn":           {Iterations: 1500, Depth: 1},
	"court-circular": {Iterations: 2000, Depth: 1},
}

// scaled returns hardGames with the iterations divided by div.
func scaled(div int) map[string]Search {
	out := map[string]Search{}
	for g, s := range hardGames {
		s.Iterations = max(10, s.Iterations/div)
		out[g] = s
	}
	return out
}

// levels are easy, medium and hard: the same search with a fortieth, an
// eighth and all of hard's iterations.
var levels = map[string]Leveled{
	"easy":   {Label: "easy", Default: Search{Iterations: 50, Depth: 1}, Games: scaled(40)},
	"medium": {Label: "medium", Default: Search{Iterations: 300, Depth: 1}, Games: scaled(8)},
	"hard":   {Label: "hard", Default: Search{Iterations: 2000, Depth: 1}, Games: hardGames},
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
