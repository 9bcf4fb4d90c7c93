package analysis

import (
	"encoding/json"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/script"
)

// setup resolves a game and its options.
func setup(tb testing.TB, name string, given map[string]any) (game.Game, game.Options) {
	tb.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	opts, err := game.Resolve(g, given)
	if err != nil {
		tb.Fatal(err)
	}
	return g, opts
}

// matchScript plays a heuristic match of name from seed and returns a
// script of its first moves (all of them when moves is 0).
func matchScript(tb testing.TB, name string, given map[string]any, seed uint64, moves int) *script.Script {
	tb.Helper()
	g, opts := setup(tb, name, given)
	bots := make([]bot.Bot, opts.Players())
	for i := range bots {
		bots[i] = bot.Heuristic{}
	}
	played, _, err := PlayMatch(g, opts, bots, seed)
	if err != nil {
		tb.Fatal(err)
	}
	if moves > 0 && moves < len(played) {
		played = played[:moves]
	}
	s, _ := g.New(opts, seed, nil)
	sc := &script.Script{Game: name, Options: given, Seed: json.Number(jsonUint(seed))}
	for _, p := range played {
		sc.Moves = append(sc.Moves, game.FormatSeatMove(s, p.Seat, p.Move))
		s.ApplyFast(p.Seat, p.Move)
	}
	return sc
}

func jsonUint(x uint64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// firstDeal returns how many moves of sc's match make its first deal.
func firstDeal(tb testing.TB, sc *script.Script, seed uint64) int {
	tb.Helper()
	g, opts := setup(tb, sc.Game, sc.Options)
	s, _ := g.New(opts, seed, nil)
	for i, line := range sc.Moves {
		if err := game.Step(s, line); err != nil {
			tb.Fatal(err)
		}
		if s.DealsPlayed() > 0 {
			return i + 1
		}
	}
	return len(sc.Moves)
}
