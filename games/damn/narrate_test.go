package damn

import (
	"fmt"
	"testing"

	"parlour/game"
	"parlour/gametest"
)

func TestNarration(t *testing.T) {
	for n := 2; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			gametest.Narration(t, Game{}, gametest.Config{Options: map[string]any{"players": n, "max_turns": 300}, Matches: 40})
		})
	}
}

// told returns the words for the move of line ("SEAT: MOVE"), then makes it.
func told(t *testing.T, s *State, line string) (full, blind string) {
	t.Helper()
	seat, m, err := game.ParseSeatMove(s, line)
	if err != nil {
		t.Fatal(err)
	}
	full, blind = s.Narrate(seat, m)
	play(t, s, line)
	return full, blind
}

type wantWords struct{ line, full, blind string }

func checkWords(t *testing.T, s *State, words []wantWords) {
	t.Helper()
	for _, c := range words {
		full, blind := told(t, s, c.line)
		if c.blind == "" {
			c.blind = c.full // every card named lies face up
		}
		if full != c.full || blind != c.blind {
			t.Errorf("%s:\n full  %q\n want  %q\n blind %q\n want  %q", c.line, full, c.full, blind, c.blind)
		}
	}
}

func TestNarrationWords(t *testing.T) {
	// T002-3: seat 1's support card 9C does not fit on 4D.
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec3)
	checkWords(t, s, []wantWords{
		{"1: turn", "{1} turned [9C] from the support pile; it did not fit, so {1} picked it up with the play pile into the support pile (two cards in all)", ""},
		{"0: play 2S", "{0} played [2S] and drew from the central deck", ""},
		{"1: pickup", "{1} picked up the play pile (one card) into the support pile", ""},
		{"0: turn", "{0} turned [7S] from the support pile and played it", ""},
	})

	// T002-4 and T002-5: seat 0 turns random cards.
	s = start(t, opts3, 5, long("JC"))
	play(t, s, longMoves...)
	checkWords(t, s, []wantWords{{"0: random", "{0} turned [JC] from the random pile and played it", ""}})
	s = start(t, opts3, 5, long("3C"))
	play(t, s, longMoves...)
	checkWords(t, s, []wantWords{
		{"0: random", "{0} turned [3C] from the random pile; it did not fit, so {0} picked it up with the play pile: eight cards to keep four of", ""},
		{"0: keep 6D 3C 5D 4D", "{0} kept [3C], [4D], [5D] and [6D] as a new hand and put the other four cards into the support pile",
			"{0} kept four cards as a new hand and put the other four cards into the support pile"},
	})

	// The end of T002's long game: seat 0 goes out, then seat 2; seat 1
	// loses.
	s = start(t, opts3, 5, long("JC"))
	play(t, s, longMoves...)
	play(t, s, longFinish[:len(longFinish)-1]...)
	checkWords(t, s, []wantWords{{"2: random", "{2} turned [8C] from the random pile and played it; {2} went out; {1}, left holding cards, lost the game", ""}})
}
