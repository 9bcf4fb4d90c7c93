package courtcircular_test

import (
	"fmt"
	"strings"
	"testing"

	"parlour/game"
	cc "parlour/games/courtcircular"
	"parlour/gametest"
)

func TestNarration(t *testing.T) {
	for n := 2; n <= cc.MaxPlayers; n++ {
		t.Run(fmt.Sprintf("1860/players=%d", n), func(t *testing.T) {
			gametest.Narration(t, cc.Game{}, gametest.Config{Options: map[string]any{"players": n, "target": 20}, Matches: 40})
		})
	}
	t.Run("1862", func(t *testing.T) {
		gametest.Narration(t, cc.Game{}, gametest.Config{Options: map[string]any{"edition": "1862"}, Matches: 40})
	})
}

// told returns the words for the move of line ("SEAT: MOVE"), then makes it.
func (m *match) told(line string) (full, blind string) {
	m.t.Helper()
	seat, mv, err := game.ParseSeatMove(m.st, line)
	if err != nil {
		m.t.Fatal(err)
	}
	full, blind = m.st.(game.Narrator).Narrate(seat, mv)
	m.do(line)
	return full, blind
}

type wantWords struct{ line, full, blind string }

func (m *match) checkWords(words []wantWords) {
	m.t.Helper()
	for _, c := range words {
		if c.blind == "" {
			c.blind = c.full
		}
		full, blind := m.told(c.line)
		if full != c.full || blind != c.blind {
			m.t.Errorf("%s:\n full  %q\n want  %q\n blind %q\n want  %q", c.line, full, c.full, blind, c.blind)
		}
	}
}

func TestNarrationWords1860(t *testing.T) {
	m := newMatch(t, two, layout2("6S 8D KC 2S 4S 10C", "2C 3D 9S 5C 5D JH", "7H"))
	m.checkWords([]wantWords{
		// Every card played lies face up: named to everyone.
		{"0: play 6S", "{0} played [6S]", ""},
		{"1: play 2C", "{1} played [2C]", ""},
		{"0: play 8D", "{0} played [8D]", ""},
		{"1: play 3D", "{1} played [3D]", ""},
		{"0: play KC", "{0} played [KC]", ""},
		{"1: play 9S", "{1} played [9S]; {0} won the trick (no line: the best card played, [KC])", ""},
		{"0: lead 8D", "{0} chose [8D] as the new Lead and took six cards face up", ""},
	})
	// T003-7: a resignation on the trick's second card.
	m = newMatch(t, two, layout2("4S 9C 10D JS QD KH", "2C 3D 5H 6S 8C AC", "7H", "2D"))
	m.checkWords([]wantWords{
		{"0: play 4S", "{0} played [4S]", ""},
		{"1: resign", "{1} resigned the trick; {0} won the trick", ""},
		{"0: lead 4S", "{0} chose [4S] as the new Lead and took one card face up", ""},
	})
}

func TestNarrationWords1862(t *testing.T) {
	// No lines: won on cards (T003-8), No. 5 face down (Rule I).
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	m.checkWords([]wantWords{
		// Every card face up is named to everyone; No. 5, face down, only
		// to its player until it is turned up.
		{"0: play AS", "{0} played [AS] (No. 1)", ""},
		{"1: play KH", "{1} played [KH] (No. 2)", ""},
		{"0: play 4D", "{0} played [4D] (No. 3)", ""},
		{"1: play 6C", "{1} played [6C] (No. 4)", ""},
		{"0: play 9C", "{0} laid [9C] face down (No. 5)", "{0} laid a card face down (No. 5)"},
		{"1: play 2D", "{1} played [2D] (No. 6); No. 5 was turned up: [9C]; {0} won the trick on cards and may take one card", ""},
		{"0: take 9C", "{0} took [9C]", ""},
		{"0: lead 7S", "{0} chose [7S] as the next Lead; the other five cards on the table were set aside", ""},
	})
	// Trio against Sequence: 1 + 3 cards (T003-8).
	f := fillers("9S 9D 9C", "4H 5S 6D", "KC")
	m = newMatch(t, e62, layout2("9S 9D 9C "+f[0], "4H 5S 6D "+f[1], "KC"))
	m.do("0: play 9S", "1: play 4H", "0: play 9D", "1: play 5S", "0: play 9C")
	m.checkWords([]wantWords{
		{"1: play 6D", "{1} played [6D] (No. 6); No. 5 was turned up: [9C]; {0} won the trick (Trio without the Lead against Sequence without the Lead) and may take four cards", ""},
		{"0: take 9S 9D 9C 4H", "{0} took [4H], [9S], [9D] and [9C]", ""},
	})
}

// TestNarrationWordsShared1862: the Lead chosen before the last trick turns
// up the three shared cards, and a shared card played is told with the
// card put in its place.
func TestNarrationWordsShared1862(t *testing.T) {
	m := newMatch(t, map[string]any{"edition": "1862", "dealer": 1}, "")
	for {
		seat := m.st.ToAct().First()
		line := fmt.Sprintf("%d: %s", seat, m.legal(seat)[0])
		full, blind := m.told(line)
		v := m.view()
		if v.Shared == nil {
			continue
		}
		sh := game.CardListWords(v.Shared)
		if want := "; the last three cards were turned up, shared: " + sh; !strings.HasSuffix(full, want) || !strings.HasSuffix(blind, want) {
			t.Fatalf("%s: full %q, blind %q, want both to end %q", line, full, blind, want)
		}
		fh := v.FirstHand
		c, d := v.Shared[1], m.st.(*cc.State).Hand(fh)[0]
		m.checkWords([]wantWords{{fmt.Sprintf("%d: play %v for %v", fh, c, d),
			fmt.Sprintf("{%d} took the shared [%v], put [%v] in its place and played it (No. 1)", fh, c, d), ""}})
		return
	}
}

// TestNarrationLastTrickNamed: the card that ends a deal's last trick lay
// face up for everyone before the board was cleared, so every receiver,
// whether or not it may read the move once the next deal is dealt, reads
// it named, never "a card".
func TestNarrationLastTrickNamed(t *testing.T) {
	for _, opts := range []map[string]any{{"players": 2, "target": 20}, {"players": 3, "target": 20}} {
		resolved, err := game.Resolve(cc.Game{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		s, err := cc.Game{}.New(resolved, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := game.NewRNG(3)
		ended := 0
		for ended < 3 && s.ToAct() != 0 {
			seat := s.ToAct().First()
			legal := s.Legal(seat, nil)
			m := legal[rng.IntN(len(legal))]
			full, blind := s.(game.Narrator).Narrate(seat, m)
			text, deals := s.FormatMove(m), s.DealsPlayed()
			s.ApplyFast(seat, m)
			if s.DealsPlayed() == deals {
				continue
			}
			ended++
			c := game.CardWords(text)[0]
			if w := game.CardWord(c); !strings.Contains(full, w) || !strings.Contains(blind, w) {
				t.Errorf("%v: the deal's last move %q is told %q / %q: both must name %s", opts, text, full, blind, w)
			}
		}
		if ended == 0 {
			t.Errorf("%v: no deal ended", opts)
		}
	}
}
