package parcellus

import (
	"testing"

	"parlour/game"
	"parlour/gametest"
)

func TestNarration(t *testing.T) {
	gametest.Narration(t, Game{}, gametest.Config{Options: map[string]any{"target": 20}, Matches: 60})
}

// told returns the words for the move of line ("SEAT: MOVE"), then makes it.
func told(t *testing.T, s *State, line string) (full, blind string) {
	t.Helper()
	seat, m, err := game.ParseSeatMove(s, line)
	if err != nil {
		t.Fatal(err)
	}
	full, blind = s.Narrate(seat, m)
	do(t, s, line)
	return full, blind
}

// TestNarrationWords tells the seed's worked example (T000-1): seat 0
// deals, so seat 0 turns up the first card, JS.
func TestNarrationWords(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	for _, c := range []struct{ line, full, blind string }{
		{"0: pass QC 9C 10H", "{0} passed [9C], [10H] and [QC] to {1}", "{0} passed three cards to {1}"},
		{"1: pass AS 10C KH", "{1} passed [10C], [KH] and [AS] to {2}", "{1} passed three cards to {2}"},
		{"2: pass KC JH 10D", "{2} passed [10D], [JH] and [KC] to {0}; every player has chosen, and the cards went across; {0} turned up [JS]",
			"{2} passed three cards to {0}; every player has chosen, and the cards went across; {0} turned up [JS]"},
		// Every card added or turned up lies face up: named to everyone.
		{"1: play QC", "{1} added [QC] to the parcel", ""},
		{"2: pass", "{2} passed", ""},
		{"0: play KS", "{0} added [KS] to the parcel", ""},
		{"1: pass", "{1} passed", ""},
		{"2: play AC", "{2} added [AC] to the parcel", ""},
		{"0: play 9S", "{0} added [9S] to the parcel", ""},
		{"1: pass", "{1} passed", ""},
		{"2: pass", "{2} passed", ""},
		{"0: pass", "{0} passed; {0} captured the parcel (five cards, five points); {0} turned up [9H]", ""},
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

// TestNarrationWordsEmptyHands: once every hand is empty, the last card
// added captures its parcel and seat 0 turns up and captures the rest
// (Ruling 7's layout).
func TestNarrationWordsEmptyHands(t *testing.T) {
	layout := `{"hands": [["QS","9C","QC","10S","KS","10C"], ["10H","KH","10D","JS","AS","JC"], ["JH","AH","JD","QH","9D","QD"]],
		"common": ["9S","9H","KC","AC","KD","AD"]}`
	s := start(t, map[string]any{"dealer": 0}, layout)
	do(t, s, "0: pass 10S KS 10C", "1: pass JS AS JC", "2: pass QH 9D QD")
	do(t, s, "1: play 10S", "2: play JS", "0: play QS", "1: play KS", "2: play AS", "0: play 9C",
		"1: play 10C", "2: play JC", "0: play QC", "1: pass", "2: pass", "0: pass")
	do(t, s, "1: play 10H", "2: play JH", "0: play QH", "1: play KH", "2: play AH", "0: play 9D",
		"1: play 10D", "2: play JD")
	full, blind := told(t, s, "0: play QD")
	want := "{0} added [QD] to the parcel; {0} captured the parcel (ten cards, twelve points); with no cards left in any hand, {0} turned up and captured [KC], [AC], [KD] and [AD]"
	if full != want || blind != want {
		t.Errorf("full %q\nblind %q\nwant %q (every card lies face up)", full, blind, want)
	}
}
