package games_test

import (
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/tui"
	"parlour/sim"
)

// TestEveryGameHasItsTables checks that every registered game has an entry
// in each per-game table outside the game packages: the bots' profile
// (heuristic and utility), the lab's figures and the terminal renderer;
// and that its state offers the learning encoding (game.Encoder), appends
// its own views (game.ViewAppender) and what each seat sees
// (game.VisibleAppender), copies itself into another state (game.Copier)
// and fills views in memory already held (game.ViewFiller): a table
// server tells every game's moves, and the bots read their views, those
// ways.
func TestEveryGameHasItsTables(t *testing.T) {
	all := games.Registry.All()
	if len(all) != 5 {
		t.Errorf("%d games registered, want the five", len(all))
	}
	for _, g := range all {
		if !bot.HasProfile(g) {
			t.Errorf("%s: no bot profile (bot/profile.go, profiles)", g.Name())
		}
		if !sim.HasFigures(g) {
			t.Errorf("%s: no lab figures (sim/sim.go, figures)", g.Name())
		}
		if !tui.HasRenderer(g) {
			t.Errorf("%s: no terminal renderer (internal/tui/tui.go, renderers)", g.Name())
		}
		opts, err := game.Resolve(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.New(opts, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := s.(game.Encoder); !ok {
			t.Errorf("%s: its state is no game.Encoder (observation and action space)", g.Name())
		}
		if _, ok := s.(game.ViewAppender); !ok {
			t.Errorf("%s: its state is no game.ViewAppender (AppendView)", g.Name())
		}
		if _, ok := s.(game.VisibleAppender); !ok {
			t.Errorf("%s: its state is no game.VisibleAppender (AppendVisible)", g.Name())
		}
		if _, ok := s.(game.Copier); !ok {
			t.Errorf("%s: its state is no game.Copier (CopyTo)", g.Name())
		}
		if _, ok := s.(game.ViewFiller); !ok {
			t.Errorf("%s: its state is no game.ViewFiller (FillView, for its heuristic)", g.Name())
		}
	}
}

// TestInfo checks each game's Info against how its matches are scored.
func TestInfo(t *testing.T) {
	want := map[string]struct{ low, one bool }{
		"golf": {true, false}, "damn": {true, true},
		"parcellus": {false, false}, "tractric": {false, false}, "court-circular": {false, false},
	}
	for _, g := range games.Registry.All() {
		w, ok := want[g.Name()]
		if !ok {
			t.Errorf("%s: no expectation here; add one", g.Name())
			continue
		}
		if got := g.Info(); got.LowWins != w.low || got.OneDeal != w.one {
			t.Errorf("%s: Info() = %+v, want LowWins %v, OneDeal %v", g.Name(), got, w.low, w.one)
		}
	}
}
