package golf_test

import (
	"fmt"
	"testing"

	"parlour/game"
	"parlour/games/golf"
	"parlour/gametest"
)

func TestNarration(t *testing.T) {
	for _, n := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			gametest.Narration(t, golf.Game{}, gametest.Config{Options: map[string]any{"players": n, "holes": 3}, Matches: 40})
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
	s := gametest.Start(t, golf.Game{}, map[string]any{"players": 2, "dealer": 0, "holes": 1}, 1, `{
		"layouts": [["AS","2S","3S","4S","5S","6S"], ["AH","2H","3H","4H","5H","6H"]],
		"discard": "7H", "stock": ["QS","KD","9C","9D","10C","10D","JC","JD"]}`)
	// Every card named lies face up: the blind words name it too; a column
	// choice stays hidden until every column is turned.
	for _, c := range []struct{ line, full, blind string }{
		{"0: reveal 0", "{0} chose to turn up the left column",
			"{0} chose a column to turn up"},
		{"1: reveal 2", "{1} chose to turn up the right column; every player turned up both cards of the chosen column",
			"{1} chose a column to turn up; every player turned up both cards of the chosen column"},
		{"1: draw discard", "{1} took [7H] from the discard pile", ""},
		{"1: swap 0", "{1} put [7H] in the top-left place and discarded [AH]", ""},
		{"0: draw stock", "{0} drew from the stock", ""},
		{"0: discard", "{0} discarded [QS]", ""},
		{"1: draw stock", "{1} drew from the stock", ""},
		{"1: swap 5", "{1} put [KD] in the bottom-right place and discarded [6H]", ""},
		{"0: draw stock", "{0} drew from the stock", ""},
		{"0: swap 1", "{0} put [9C] in the top-middle place and discarded [2S]", ""},
		{"1: draw stock", "{1} drew from the stock", ""},
		{"1: discard", "{1} discarded [9D]", ""},
		{"0: draw stock", "{0} drew from the stock", ""},
		{"0: swap 2", "{0} put [10C] in the top-right place and discarded [3S]", ""},
		{"1: draw stock", "{1} drew from the stock", ""},
		{"1: discard", "{1} discarded [10D]", ""},
		{"0: draw stock", "{0} drew from the stock", ""},
		{"0: swap 4", "{0} put [JC] in the bottom-middle place and discarded [5S]", ""},
		{"1: draw discard", "{1} took [5S] from the discard pile", ""},
		{"1: swap 1", "{1} put [5S] in the top-middle place and discarded [2H]", ""},
		{"0: draw stock", "{0} drew from the stock", ""},
		{"0: swap 5", "{0} put [JD] in the bottom-right place and discarded [6S], and went out: every other player has one final turn; {1} must now play a final turn with every card face up", ""},
		{"1: stop", "{1} chose not to draw on the final turn", ""},
	} {
		full, blind := told(t, s, c.line)
		if c.blind == "" {
			c.blind = c.full
		}
		if full != c.full || blind != c.blind {
			t.Errorf("%s:\n full  %q\n want  %q\n blind %q\n want  %q", c.line, full, c.full, blind, c.blind)
		}
	}
	if !s.Result().Over {
		t.Fatal("the hole should be over")
	}
}
