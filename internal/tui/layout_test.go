package tui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
	"parlour/games/tractric"
)

// TestScreenTractricProposal: the card a seat proposed for trumps is still
// in its hand (the view shows it among the proposals): the screen draws
// the whole hand, and a move that plays it lights it.
func TestScreenTractricProposal(t *testing.T) {
	m := newTestModel(t, "tractric", 3, 7, 120, 40, nil)
	seen := 0
	for i := 0; i < 200 && !m.over(); i++ {
		v := m.snap.view.(tractric.View)
		if v.Phase == "play" && len(m.snap.legal) > 0 {
			hand := handOf(m.snap.name, m.snap.view)
			if len(hand) != v.HandSizes[m.snap.seat] {
				t.Fatalf("the hand drawn has %d cards, the seat holds %d (proposal %v)", len(hand), v.HandSizes[m.snap.seat], ownProposal(v))
			}
			checkCards(t, m)
			for k := range m.choices() {
				m.cursor = k
				c := game.CardWords(m.selectedMove())[0]
				if !slices.Contains(hand, c) {
					t.Fatalf("the move %q plays %v, which is not in the hand drawn %v", m.selectedMove(), c, hand)
				}
				if out := screen(m); !strings.Contains(out, "┃"+cardText(c)+"┃") {
					t.Fatalf("the move %q does not light its card:\n%s", m.selectedMove(), out)
				}
				if c == ownProposal(v) {
					seen++
				}
			}
			m.cursor = 0
		}
		press(m, "enter")
	}
	if seen == 0 {
		t.Error("no move ever played the proposal card: the test saw nothing")
	}
}

// TestScreenCourtPicks: in Court Circular 1862 the trick's winner picks
// the cards she takes from the table; each picked card is marked as
// picked, and the card under the cursor lit.
func TestScreenCourtPicks(t *testing.T) {
	for seed := uint64(1); seed < 40; seed++ {
		m := newTestModel(t, "court-circular", 2, seed, 120, 40, map[string]any{"edition": "1862"})
		for i := 0; i < 60 && m.pickVerb() != "take"; i++ {
			press(m, "enter")
		}
		if m.pickVerb() != "take" || m.pickSize() < 2 {
			continue
		}
		pool := m.pickPool()
		press(m, "space")
		out := screen(m)
		if !strings.Contains(out, "║"+cardText(pool[0])+"║") {
			t.Fatalf("the picked card %v is not marked:\n%s", pool[0], out)
		}
		press(m, "right")
		if out := screen(m); !strings.Contains(out, "┃"+cardText(pool[1])+"┃") || !strings.Contains(out, "║"+cardText(pool[0])+"║") {
			t.Fatalf("the cursor's card %v is not lit, or the picked %v not marked:\n%s", pool[1], pool[0], out)
		}
		return
	}
	t.Fatal("no seed gave a take of two cards or more")
}

// TestScreenPrompt: the turn line says what to do, in the game's words,
// for every game, and only when it is the player's turn.
func TestScreenPrompt(t *testing.T) {
	for _, name := range gameCases {
		m := newTestModel(t, name, 3, 5, 100, 40, nil)
		p := promptOf(m.snap.name, m.snap.view)
		if p == "" {
			t.Fatalf("%s: the view has no prompt at the player's turn", name)
		}
		if out := screen(m); !strings.Contains(strings.Join(strings.Fields(out), " "), "▶ "+p+".") {
			t.Errorf("%s: the screen does not show the prompt %q:\n%s", name, p, out)
		}
	}
	// Golf after taking the discard: swap, never throw away.
	m := newTestModel(t, "golf", 2, 3, 100, 40, nil)
	for i := 0; i < 40 && !slices.Contains(m.snap.legal, "draw discard"); i++ {
		press(m, "enter")
	}
	press(m, ":")
	typeText(m, "draw discard")
	press(m, "enter")
	out := strings.Join(strings.Fields(screen(m)), " ")
	if !strings.Contains(out, "▶ Swap the card you took into your layout") || strings.Contains(out, "or throw it") {
		t.Errorf("after taking the discard the turn line is not the swap:\n%s", screen(m))
	}
}

// lazyPlural matches the plurals a lazy sentence writes: "(s)", "(es)",
// "1 bots".
var lazyPlural = regexp.MustCompile(`\w\((s|es)\)|\b1 (bots|cards|tricks|parcels|points|marks|Hits|passes|seats|counters|games|lines)\b`)

// TestScreenPlurals plays a whole match of every game, on the full screen
// at 80×24 and on the line prompt, and reads every screen and every line:
// no "(s)", no "1 bots".
func TestScreenPlurals(t *testing.T) {
	for _, name := range gameCases {
		m := newTestModel(t, name, 3, 9, 80, 24, map[string]any{})
		for i := 0; i < 3000 && !m.over(); i++ {
			if bad := lazyPlural.FindString(screen(m)); bad != "" {
				t.Fatalf("%s: %q on the screen:\n%s", name, bad, screen(m))
			}
			playOn(m)
		}
		if !m.over() {
			t.Errorf("%s: the match did not end", name)
		}
		for _, l := range m.log {
			if bad := lazyPlural.FindString(ansi.Strip(l)); bad != "" {
				t.Errorf("%s: %q in the log: %s", name, bad, ansi.Strip(l))
			}
		}
	}
	var out strings.Builder
	for _, name := range gameCases {
		g := lookup(t, name)
		opts, _ := game.Resolve(g, map[string]any{"players": 3})
		if name == "damn" {
			opts, _ = game.Resolve(g, map[string]any{"players": 2})
		}
		cfg := Config{Game: g, Options: opts, Seed: 4, Bots: randomBots(opts.Players())}
		in := strings.NewReader(strings.Repeat("1\n", 3000))
		if err := Play(cfg, in, &out); err != nil {
			t.Fatal(err)
		}
	}
	if bad := lazyPlural.FindString(out.String()); bad != "" {
		i := strings.Index(out.String(), bad)
		t.Errorf("%q on the line prompt: …%s…", bad, out.String()[max(0, i-200):min(out.Len(), i+100)])
	}
}

// TestScreenFits: a table too tall for the terminal (eight players of
// Golf at 80×24) shows every seat in its compact form, or says what it
// hides; a wide terminal has the table in its middle, not its left.
func TestScreenFits(t *testing.T) {
	m := newTestModel(t, "golf", 8, 7, 80, 24, nil)
	out := screen(m)
	for i, name := range m.snap.names {
		if i != m.snap.seat && !strings.Contains(out, name) {
			t.Errorf("80×24: seat %d (%s) is not on the screen:\n%s", i, name, out)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 18})
	if out := screen(m); !strings.Contains(out, "hidden") && !containsAll(out, m.snap.names[1:]) {
		t.Errorf("80×18: seats are cut off and nothing says so:\n%s", out)
	}
	m = newTestModel(t, "tractric", 3, 7, 200, 50, nil)
	left := 200
	for _, l := range strings.Split(screen(m), "\n") {
		// The table's lines: its grid, its cards.
		if s := ansi.Strip(l); strings.ContainsAny(s, "┌╭┏└") {
			left = min(left, strings.IndexFunc(s, func(r rune) bool { return r != ' ' }))
		}
	}
	if left < 20 {
		t.Errorf("200×50: the table starts at column %d: it keeps to the left\n%s", left, screen(m))
	}
	// Every line at every size is at most the terminal's width, and the
	// lines of the status (the prompt, the moves, the keys) never wrap
	// into the table.
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
		for _, name := range gameCases {
			m := newTestModel(t, name, 3, 2, size[0], size[1], nil)
			for range 3 {
				press(m, "right", "enter")
			}
			for _, l := range strings.Split(screen(m), "\n") {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%s %v: a line %d wide: %q", name, size, w, ansi.Strip(l))
				}
			}
		}
	}
}

// lookup finds a game of the registry.
func lookup(t *testing.T, name string) game.Game {
	t.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// randomBots is a random bot at every seat (the person's is ignored).
func randomBots(n int) []bot.Bot {
	out := make([]bot.Bot, n)
	for i := range out {
		out[i] = bot.Random{}
	}
	return out
}

// playOn makes the player's next move by keys: the first choice, or the
// first cards of a pick; a key first goes on from a deal's end.
func playOn(m *Model) {
	if m.dealEnd != nil {
		press(m, "x")
	}
	if m.pickVerb() != "" {
		for range m.pickSize() {
			press(m, "space", "right")
		}
	}
	press(m, "enter")
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// TestScoreTableTerms: the end screen's table says what its rows and its
// total count, in each game's terms, so that the total never seems to
// contradict the rows: Tractric's rows are tricks and its total games
// won; Court Circular 1862's total is the points toward a Hit, with the
// Hits under it.
func TestScoreTableTerms(t *testing.T) {
	for _, c := range []struct {
		name string
		sets map[string]any
		want []string
	}{
		{"tractric", nil, []string{"the tricks each player took", "games won"}},
		{"court-circular", map[string]any{"edition": "1862"}, []string{"toward a Hit", "Hits"}},
		{"golf", map[string]any{"holes": 1}, []string{"hole 1", "The lowest total wins", "total"}},
	} {
		players := 3
		if c.name == "court-circular" {
			players = 2
		}
		m := newTestModel(t, c.name, players, 5, 100, 50, c.sets)
		for i := 0; i < 5000 && !m.over(); i++ {
			playOn(m)
		}
		if !m.over() {
			t.Fatalf("%s: the match did not end", c.name)
		}
		out := strings.Join(strings.Fields(screen(m)), " ")
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the end screen lacks %q:\n%s", c.name, w, screen(m))
			}
		}
	}
}

// checkFirstHoleEnd checks the screen that shows the end of the first of
// two Golf holes: its words, every layout face up (the stock alone face
// down), and a key going on to the second hole.
func checkFirstHoleEnd(t *testing.T, m *Model) {
	t.Helper()
	out := screen(m)
	for _, want := range []string{"End of hole 1", "Scores: you ", "columns", "Total: ", "hole 1 of 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the hole's end lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "│▒▒▒│"); n != 1 {
		t.Errorf("the hole's end shows %d cards face down, want the stock alone:\n%s", n, out)
	}
	press(m, "x")
	if m.dealEnd != nil || !strings.Contains(screen(m), "hole 2 of 2") {
		t.Errorf("a key does not go on to the next hole:\n%s", screen(m))
	}
}

// TestScreenDealEnd: the end of a deal is seen before the next one: the
// table as the deal left it (every Golf layout face up), the deal's scores
// and how they were made, until a key goes on to the next deal.
func TestScreenDealEnd(t *testing.T) {
	m := newTestModel(t, "golf", 2, 8, 120, 40, map[string]any{"holes": 2})
	for i := 0; i < 500 && m.dealEnd == nil && !m.over(); i++ {
		press(m, "enter")
	}
	if m.dealEnd == nil {
		t.Fatal("the first hole ended without showing its end")
	}
	checkFirstHoleEnd(t, m)

	// The line prompt shows the hole as it ended too.
	g := lookup(t, "golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2, "holes": 2})
	var plain strings.Builder
	if err := Play(Config{Game: g, Options: opts, Seed: 8, Bots: randomBots(2)}, strings.NewReader(strings.Repeat("1\n", 400)), &plain); err != nil {
		t.Fatal(err)
	}
	text := plain.String()
	i := strings.Index(text, "End of hole 1.")
	if i < 0 || !strings.Contains(text[i:], "Hole 1 of 2") || strings.Contains(text[i:strings.Index(text[i:], "total")+i], "##") {
		t.Errorf("the line prompt does not show the hole's end face up:\n%s", text[max(0, i-100):min(len(text), i+900)])
	}
}

// TestScreenLongMatchEnd: a match of many deals ends on a screen that
// still shows the totals, the winners and the command that replays it,
// the earliest deals left out (and said so) where they do not fit.
func TestScreenLongMatchEnd(t *testing.T) {
	m := newTestModel(t, "golf", 2, 4, 80, 24, map[string]any{"holes": 20})
	for i := 0; i < 5000 && !m.over(); i++ {
		playOn(m)
	}
	if !m.over() {
		t.Fatal("the match did not end")
	}
	out := screen(m)
	for _, want := range []string{"total", "hole 20", "replays this match", "Holes 1 to", "are left out"} {
		if !strings.Contains(out, want) {
			t.Errorf("the end of a 20-hole match at 80×24 lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, " win") {
		t.Errorf("the end screen does not say who won:\n%s", out)
	}
}
