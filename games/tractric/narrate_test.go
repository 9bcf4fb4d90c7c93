package tractric

import (
	"fmt"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

func TestNarration(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			gametest.Narration(t, Game{}, gametest.Config{Options: map[string]any{"players": n}, Matches: 12})
		})
	}
}

// told returns the words for the move of line ("SEAT: MOVE"), then makes it.
func told(t *testing.T, s game.State, line string) (full, blind string) {
	t.Helper()
	seat, m, err := game.ParseSeatMove(s, line)
	if err != nil {
		t.Fatal(err)
	}
	full, blind = s.(game.Narrator).Narrate(seat, m)
	gametest.Play(t, s, line)
	return full, blind
}

func TestNarrationWords(t *testing.T) {
	s := gametest.Start(t, Game{}, map[string]any{"players": 3, "dealer": 2}, 1, `{"hands": [
		["AS","KS","QS","JS","10S","9S","8S","7S","6S","AH","KH","QH"],
		["JH","10H","9H","8H","7H","6H","AD","KD","QD","JD","10D","9D"],
		["8D","7D","6D","AC","KC","QC","JC","10C","9C","8C","7C","6C"]]}`)
	for _, c := range []struct{ line, full, blind string }{
		{"0: propose AS", "{0} proposed [AS] for trumps", "{0} chose a card to propose for trumps"},
		{"2: propose KC", "{2} proposed [KC] for trumps", "{2} chose a card to propose for trumps"},
		{"1: propose JH", "{1} proposed [JH] for trumps; the proposals were shown ([AS] from {0}, [JH] from {1}, [KC] from {2}): diamonds are trumps",
			"{1} chose a card to propose for trumps; the proposals were shown ([AS] from {0}, [JH] from {1}, [KC] from {2}): diamonds are trumps"},
		// Every card played lies face up: named to everyone.
		{"0: play KS", "{0} led [KS]", ""},
		{"1: play 9D", "{1} trumped with [9D]", ""},
		{"2: play 6C", "{2} discarded [6C]; {1} won the trick", ""},
		{"1: play AD", "{1} led [AD]", ""},
		{"2: play 8D", "{2} played [8D]", ""},
		{"0: play QH", "{0} discarded [QH]; {1} won the trick", ""},
	} {
		full, blind := told(t, s, c.line)
		if c.blind == "" {
			c.blind = c.full
		}
		if full != c.full || blind != c.blind {
			t.Errorf("%s:\n full  %q\n want  %q\n blind %q\n want  %q", c.line, full, c.full, blind, c.blind)
		}
	}
}

// TestNarrationWordsGive: seat 1 wins a ninth trick and gives it away
// (T001-3's hands).
func TestNarrationWordsGive(t *testing.T) {
	s := giveState(t)
	full, blind := told(t, s, "1: give 0")
	if want := "{1} gave the trick to {0}"; full != want || blind != want {
		t.Errorf("give: %q / %q, want %q", full, blind, want)
	}
	// The ninth trick's last card, told again on a copy of the hand from
	// before it.
	s = giveState(t)
	s.Reset(0)
	play(t, s, "1: propose 7S", "2: propose 7H", "0: propose KD")
	for _, sp := range []string{"AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"} {
		c2, c0 := s.Hand(2)[0], s.Hand(0)[0]
		for _, c := range s.Hand(2) {
			if c.Suit() == card.Clubs {
				c2 = c
			}
		}
		for _, c := range s.Hand(0) {
			if c.Suit() == card.Clubs {
				c0 = c
			}
		}
		play(t, s, "1: play "+sp, "2: play "+c2.String())
		full, blind := told(t, s, "0: play "+c0.String())
		if sp != "6S" {
			continue
		}
		if want := "{0} discarded [" + c0.String() + "]; {1} won the trick, one beyond eight tricks, and must give it to another player"; full != want || blind != want {
			t.Errorf("full %q\nblind %q\nwant %q", full, blind, want)
		}
	}
}

// TestNarrationWordsGameWon: the move that ends a hand with a line tells
// who won the game, and only that move does.
func TestNarrationWordsGameWon(t *testing.T) {
	for _, n := range []int{3, 4} {
		s := gametest.Start(t, Game{}, map[string]any{"players": n}, 5, "")
		rng := game.NewRNG(5)
		games := 0
		for s.ToAct() != 0 {
			seat := s.ToAct().Nth(rng.IntN(s.ToAct().Len()))
			legal := s.Legal(seat, nil)
			m := legal[rng.IntN(len(legal))]
			full, _ := s.(game.Narrator).Narrate(seat, m)
			before := s.Result().Totals
			s.ApplyFast(seat, m)
			won := false
			for i, v := range s.Result().Totals {
				won = won || v != before[i]
			}
			if strings.Contains(full, "won the game") != won {
				t.Fatalf("%d players: %q after which a game was won: %v", n, full, won)
			}
			if won {
				games++
				w := s.Result().Totals
				for seat := range n {
					if w[seat] != before[seat] && !strings.Contains(full, fmt.Sprintf("{%d}", seat)) {
						t.Errorf("%d players: %q does not name seat %d, which won the game", n, full, seat)
					}
				}
			}
		}
		if games < 2 {
			t.Errorf("%d players: only %d games won in a match", n, games)
		}
	}
}
