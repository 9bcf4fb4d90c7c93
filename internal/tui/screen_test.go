package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/bot"
	"parlour/card"
	"parlour/game"
	"parlour/games"
	"parlour/games/golf"
)

// drive runs cmd and every command that follows from it, feeding each
// message back to the model, as a program would (bots choose at once: the
// tests set no delay).
func drive(m *Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// press sends keys to the model: names as tea.KeyPressMsg.String gives
// them ("enter", "left", "space"), or text typed rune by rune.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		drive(m, func() tea.Msg { return keyMsg(k) })
	}
}

func typeText(m *Model, text string) {
	for _, r := range text {
		drive(m, func() tea.Msg { return tea.KeyPressMsg{Code: r, Text: string(r)} })
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// newTestModel starts a local match of name against random bots, drawn
// on a w×h terminal.
func newTestModel(t *testing.T, name string, players int, seed uint64, w, h int, sets map[string]any) *Model {
	t.Helper()
	g, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	given := map[string]any{"players": players}
	for k, v := range sets {
		given[k] = v
	}
	opts, err := game.Resolve(g, given)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Options: opts, Seed: seed, Seat: 0, Bots: make([]bot.Bot, players), Colour: true}
	for i := 1; i < players; i++ {
		cfg.Bots[i] = bot.Random{}
	}
	m, _, err := newLocalModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.dealEndWait = 0 // a deal's end shows until a key: no timers in tests
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	drive(m, m.Init())
	return m
}

func screen(m *Model) string { return ansi.Strip(m.View().Content) }

// gameCases are the five games at three seats (Tractric's smallest table).
var gameCases = []string{"golf", "parcellus", "tractric", "damn", "court-circular"}

// seenCards returns the labels of the cards the viewer holds or has face
// up in its own place, as the board writes them ("7♥").
func seenCards(m *Model) []string {
	var out []string
	for _, c := range handOf(m.snap.name, m.snap.view) {
		out = append(out, c.Pretty())
	}
	if v, ok := m.snap.view.(golf.View); ok {
		for _, c := range v.Layouts[m.snap.seat] {
			if c != card.None {
				out = append(out, c.Pretty())
			}
		}
	}
	return out
}

// TestScreenEveryGame draws each game's table, makes a move with the
// arrow keys and Enter and one typed in notation, and checks the board
// shows the player's cards and the log tells the moves.
func TestScreenEveryGame(t *testing.T) {
	for _, name := range gameCases {
		t.Run(name, func(t *testing.T) {
			m := newTestModel(t, name, 3, 11, 140, 48, nil)
			if len(m.snap.legal) == 0 {
				t.Fatalf("the person may not act at the start: to act %v", m.snap.toAct)
			}
			checkCards(t, m)
			out := screen(m)
			for _, want := range []string{"Your move:", "What happened", m.snap.title} {
				if !strings.Contains(out, want) {
					t.Errorf("the screen lacks %q:\n%s", want, out)
				}
			}

			// By keys: the second choice (or, to pick several cards, the
			// first ones in turn).
			seq := m.snap.seq
			logged := len(m.log)
			if m.pickVerb() != "" {
				for range m.pickSize() {
					press(m, "space", "right")
				}
			} else {
				press(m, "right")
				if m.cursor != 1%len(m.choices()) {
					t.Fatalf("right arrow: cursor %d", m.cursor)
				}
			}
			chosen := m.selectedMove()
			press(m, "enter")
			if m.snap.seq == seq {
				t.Fatalf("Enter on %q made no move (notice %q)", chosen, m.notice)
			}
			if !slices.ContainsFunc(m.log[logged:], func(l string) bool { return strings.HasPrefix(ansi.Strip(l), "You ") }) {
				t.Errorf("the log does not tell the move in words: %q", m.log[logged:])
			}
			if len(m.snap.legal) == 0 {
				t.Fatalf("the bots did not hand back the turn (to act %v)", m.snap.toAct)
			}
			checkCards(t, m)

			// By typing: ':' then the last legal move's text.
			seq = m.snap.seq
			mv := m.snap.legal[len(m.snap.legal)-1]
			press(m, ":")
			if m.focus != focusMove {
				t.Fatalf("':' does not open the move input")
			}
			typeText(m, mv)
			if !strings.Contains(screen(m), "move> "+mv) {
				t.Errorf("the typed move does not show:\n%s", screen(m))
			}
			press(m, "enter")
			if m.snap.seq == seq {
				t.Fatalf("typing %q made no move (notice %q)", mv, m.notice)
			}
			if m.focus != focusTable {
				t.Errorf("after a typed move the focus is %d, want the table", m.focus)
			}
		})
	}
}

// checkCards checks the board shows every card the player holds.
func checkCards(t *testing.T, m *Model) {
	t.Helper()
	out := screen(m)
	for _, c := range seenCards(m) {
		if !strings.Contains(out, c) {
			t.Errorf("the player's card %s is not on the screen:\n%s", c, out)
		}
	}
}

// TestScreenTypedMoves: Tab completes a typed move among the legal ones,
// a move that is not legal is refused with the game's reason and changes
// nothing.
func TestScreenTypedMoves(t *testing.T) {
	m := newTestModel(t, "golf", 2, 3, 120, 40, nil)
	press(m, "tab")
	if m.focus != focusMove {
		t.Fatal("Tab does not open the move input")
	}
	typeText(m, "re")
	press(m, "tab")
	if got := m.moveIn.Value(); got != "reveal " {
		t.Errorf("Tab after %q: %q, want %q", "re", got, "reveal ")
	}
	press(m, "tab")
	if got := m.moveIn.Value(); got != "reveal 0" {
		t.Errorf("Tab again: %q, want the first match", got)
	}
	press(m, "tab")
	if got := m.moveIn.Value(); got != "reveal 1" {
		t.Errorf("Tab again: %q, want the next match", got)
	}
	if n := len(m.choices()); n != 3 {
		t.Errorf("the typed text leaves %d choices, want 3", n)
	}
	press(m, "esc")
	seq := m.snap.seq
	press(m, ":")
	typeText(m, "swap 9")
	press(m, "enter")
	if m.snap.seq != seq || !m.bad || !strings.Contains(m.notice, "Not allowed") {
		t.Errorf("an illegal typed move: seq %d → %d, notice %q", seq, m.snap.seq, m.notice)
	}
	if !strings.Contains(screen(m), m.notice) {
		t.Errorf("the refusal does not show:\n%s", screen(m))
	}
}

// TestScreenHelpAndQuit: ? shows the help and any key closes it; q asks
// before leaving a match under way, and y leaves.
func TestScreenHelpAndQuit(t *testing.T) {
	m := newTestModel(t, "golf", 2, 3, 120, 40, nil)
	press(m, "?")
	if out := screen(m); !strings.Contains(out, "Keys") || !strings.Contains(out, "type a move in notation") {
		t.Fatalf("? shows no help:\n%s", out)
	}
	press(m, "x")
	if m.help {
		t.Fatal("a key does not close the help")
	}
	press(m, "q")
	if !m.confirm || !strings.Contains(screen(m), "Leave the game?") {
		t.Fatalf("q mid-game does not ask:\n%s", screen(m))
	}
	press(m, "n")
	if m.confirm || m.done {
		t.Fatal("n does not cancel leaving")
	}
	press(m, "ctrl+c")
	if !m.confirm {
		t.Fatal("ctrl+c mid-game does not ask")
	}
	var quit bool
	_, cmd := m.Update(keyMsg("y"))
	if cmd != nil {
		_, quit = cmd().(tea.QuitMsg)
	}
	if !quit || !m.done {
		t.Fatal("y does not quit")
	}
}

// TestScreenResize: below the minimum size the screen asks for more; a
// small terminal gets one-line cards with the log under the table; a
// large one box cards with the log beside it.
func TestScreenResize(t *testing.T) {
	for _, name := range gameCases {
		t.Run(name, func(t *testing.T) {
			m := newTestModel(t, name, 3, 2, 120, 40, nil)
			press(m, "right", "enter") // into the deal
			resize := func(w, h int) string {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				out := screen(m)
				lines := strings.Split(out, "\n")
				if len(lines) > h {
					t.Errorf("%d×%d: the screen has %d lines", w, h, len(lines))
				}
				for _, l := range lines {
					if ansi.StringWidth(l) > w {
						t.Errorf("%d×%d: a line %d wide: %q", w, h, ansi.StringWidth(l), l)
					}
				}
				return out
			}
			if out := resize(40, 12); !strings.Contains(out, "too small") {
				t.Errorf("40×12 does not say the terminal is too small:\n%s", out)
			}
			small := resize(60, 22)
			if strings.Contains(small, "╭───╮") || !strings.Contains(small, "── What happened") {
				t.Errorf("60×22 is not the small layout:\n%s", small)
			}
			checkCards(t, m)
			large := resize(160, 50)
			if !strings.Contains(large, "╭───╮") || !strings.Contains(large, "│ What happened") {
				t.Errorf("160×50 is not the large layout:\n%s", large)
			}
			checkCards(t, m)
			// Help fits too.
			press(m, "?")
			resize(60, 22)
			press(m, "x")
		})
	}
}

// TestScreenPick: moves of several cards (Parcellus's pass) are made by
// picking cards with space; a wrong number is refused with a reason.
func TestScreenPick(t *testing.T) {
	m := newTestModel(t, "parcellus", 3, 4, 120, 40, nil)
	if m.pickVerb() != "pass" {
		t.Fatalf("the pass is not a pick: %v", m.snap.legal[:1])
	}
	seq := m.snap.seq
	press(m, "space", "enter")
	if m.snap.seq != seq || !strings.Contains(m.notice, "Pick 3 cards to pass") {
		t.Fatalf("one card picked: notice %q", m.notice)
	}
	press(m, "space") // unpick
	if len(m.picks) != 0 {
		t.Fatalf("space again does not unpick: %v", m.picks)
	}
	press(m, "space", "right", "space", "right", "space")
	want := m.pickedMove()
	if want == "" {
		t.Fatalf("three cards picked make no move: %v", m.picks)
	}
	if out := screen(m); !strings.Contains(out, "╔═══╗") {
		t.Errorf("the picked cards are not marked:\n%s", out)
	}
	press(m, "enter")
	if m.snap.seq == seq {
		t.Fatalf("the pick %q was not played: %q", want, m.notice)
	}
}

// TestScreenMatchEnd plays a one-hole match to its end: the log tells the
// hole's scores and the end, and the screen shows the scores table.
func TestScreenMatchEnd(t *testing.T) {
	m := newTestModel(t, "golf", 2, 8, 120, 40, map[string]any{"holes": 1})
	for i := 0; i < 500 && !m.over(); i++ {
		press(m, "enter")
	}
	if !m.over() {
		t.Fatal("the match did not end")
	}
	out := screen(m)
	for _, want := range []string{"The match is over", "hole 1", "total", "replays this match"} {
		if !strings.Contains(out, want) {
			t.Errorf("the end screen lacks %q:\n%s", want, out)
		}
	}
	log := ansi.Strip(strings.Join(m.log, "\n"))
	if !strings.Contains(log, "End of hole 1: you ") || !strings.Contains(log, "The match is over.") {
		t.Errorf("the log does not tell the hole's end and the match's:\n%s", log)
	}
	// t shows the final table, and the scores again.
	press(m, "t")
	if out := screen(m); !strings.Contains(out, "hole 1 of 1") || strings.Contains(out, "replays this match") {
		t.Errorf("t does not show the final table:\n%s", out)
	}
	// The end is told once: in the log, not again below it.
	if out := ansi.Strip(screen(m)); strings.Count(out, "The match is over.") != 1 {
		t.Errorf("the final table tells the end %d times, want once:\n%s", strings.Count(out, "The match is over."), out)
	}
	press(m, "t")
	if !strings.Contains(screen(m), "replays this match") {
		t.Error("t again does not show the scores")
	}
	// Once over, q leaves at once.
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil || !m.done {
		t.Error("q at the end does not quit")
	}
}
