package games_test

import (
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/internal/metrics"
	"parlour/internal/tui"
	"parlour/sim"
)

// TestEveryGameHasItsTables checks that every registered game has an entry
// in each per-game table outside the game packages (places, each named
// by docs/engine.md's checklist): the bots' profile (heuristic and
// utility) and levels, the lab's figures, the terminal renderer, the web
// renderer and the README's table of games; that what is taken from the
// registry has it (the metrics' series); that its Info tells the front
// ends what they show (checkInfo); and that its state offers the learning encoding (game.Encoder), appends
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
	readme := read(t, "../README.md")
	engine := read(t, "../docs/engine.md")
	for _, place := range places {
		if !strings.Contains(engine, "`"+place+"`") {
			t.Errorf("docs/engine.md's checklist does not name %s", place)
		}
	}
	rec := httptest.NewRecorder()
	metrics.New().Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	moves := rec.Body.String()
	web := webRenderer(t)
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
		for _, name := range []string{"easy", "medium", "hard"} {
			if l, _ := bot.Level(name); l.Games[g.Name()].Iterations == 0 {
				t.Errorf("%s: no search settings of level %s (bot/levels.go, hardGames)", g.Name(), name)
			}
		}
		if !web.MatchString(g.Name()) {
			t.Errorf("%s: no web renderer (web/src/boards.tsx, RENDERERS; then npm run build)", g.Name())
		}
		if !strings.Contains(readme, "| `"+g.Name()+"` |") {
			t.Errorf("%s: not in the README's table of games", g.Name())
		}
		if !strings.Contains(moves, `parlour_moves_total{game="`+g.Name()+`"} 0`) {
			t.Errorf("%s: no parlour_moves_total series from the start (internal/metrics)", g.Name())
		}
		checkInfo(t, g)
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

// places are the files outside the game packages a game is registered
// in, each checked above; docs/engine.md's "Adding a game" names them all.
var places = []string{
	"games/games.go", "bot/profile.go", "bot/levels.go", "sim/sim.go",
	"internal/tui/tui.go", "web/src/boards.tsx", "README.md",
}

// read returns the text of a file of the repository (from games/).
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// webRenderer matches the game names RENDERERS in web/src/boards.tsx has
// an entry for ("golf," or "court-circular": court,).
func webRenderer(t *testing.T) *regexp.Regexp {
	t.Helper()
	src := read(t, "../web/src/boards.tsx")
	_, block, ok := strings.Cut(src, "export const RENDERERS")
	if block, _, ok = strings.Cut(block, "\n};"); !ok {
		t.Fatal("web/src/boards.tsx: no RENDERERS = { ... };")
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s*"?([a-z][a-z0-9-]*)"?\s*[:,]`).FindAllStringSubmatch(block, -1) {
		names = append(names, regexp.QuoteMeta(m[1]))
	}
	return regexp.MustCompile(`^(` + strings.Join(names, "|") + `)$`)
}

// checkInfo checks the facts of g's Info the front ends show: a word for a
// deal and its plural, in lower case, and sides that are partnerships of
// a table g seats.
func checkInfo(t *testing.T, g game.Game) {
	t.Helper()
	info := g.Info()
	for _, w := range []string{info.Deal, info.Deals} {
		if w == "" || w != strings.ToLower(w) {
			t.Errorf("%s: Info() deal word %q/%q: want both, in lower case", g.Name(), info.Deal, info.Deals)
			break
		}
	}
	lo, hi := g.Players()
	for n, sides := range info.Sides {
		count := map[int]int{}
		for _, side := range sides {
			count[side]++
		}
		ok := n >= lo && n <= hi && len(sides) == n && len(count) >= 2 && len(count) < n
		for side := range len(count) {
			ok = ok && count[side] >= 2
		}
		if !ok {
			t.Errorf("%s: Info().Sides[%d] = %v: want a side (0, 1, ...) per seat, two or more seats to a side", g.Name(), n, sides)
		}
	}
}

// TestInfo checks each game's Info against how its matches are scored,
// what its rules call a deal and how its seats pair up.
func TestInfo(t *testing.T) {
	type info struct {
		low, one    bool
		deal, deals string
		sides       map[int][]int
	}
	want := map[string]info{
		"golf":           {true, false, "hole", "holes", nil},
		"damn":           {true, true, "game", "games", nil},
		"parcellus":      {false, false, "deal", "deals", nil},
		"tractric":       {false, false, "hand", "hands", map[int][]int{4: {0, 1, 0, 1}}},
		"court-circular": {false, false, "deal", "deals", nil},
	}
	for _, g := range games.Registry.All() {
		w, ok := want[g.Name()]
		if !ok {
			t.Errorf("%s: no expectation here; add one", g.Name())
			continue
		}
		got := g.Info()
		if got.LowWins != w.low || got.OneDeal != w.one || got.Deal != w.deal || got.Deals != w.deals || !reflect.DeepEqual(got.Sides, w.sides) {
			t.Errorf("%s: Info() = %+v, want %+v", g.Name(), got, w)
		}
		lo, hi := g.Players()
		for n := lo; n <= hi; n++ {
			for seat := range n {
				side := seat
				if s, ok := w.sides[n]; ok {
					side = s[seat]
				}
				if got.Side(n, seat) != side {
					t.Errorf("%s: Info().Side(%d, %d) = %d, want %d", g.Name(), n, seat, got.Side(n, seat), side)
				}
			}
		}
	}
}
