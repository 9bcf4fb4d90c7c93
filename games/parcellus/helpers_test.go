package parcellus

import (
	"encoding/json"
	"parlour/game"
	"strconv"
	"testing"

	"parlour/card"
	"parlour/gametest"
)

// start makes a match from options and a layout for the first deal (JSON,
// or "" for a shuffled deal).
func start(t *testing.T, opts map[string]any, layout string) *State {
	t.Helper()
	return gametest.Start(t, Game{}, opts, 7, layout).(*State)
}

// do applies moves written "SEAT: MOVE", failing the test on a refusal.
func do(t *testing.T, s *State, moves ...string) {
	t.Helper()
	gametest.Play(t, s, moves...)
}

// try applies one "SEAT: MOVE".
func try(s *State, line string) error { return gametest.Try(s, line) }

// passes returns n "pass" moves in turn order from seat from.
func passes(from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa((from+i)%Players) + ": pass"
	}
	return out
}

// legalText returns seat's legal moves in notation, in Legal's order.
func legalText(s *State, seat int) []string { return game.LegalText(s, seat) }

func cards(text string) []card.Card { return card.MustParseList(text) }

func set(text string) card.Set { return card.SetOf(cards(text)...) }

// The seed's worked example (T000-1): 0 West deals, 1 North, 2 South. The
// passes leave West QD 9S KS KC JH 10D, North JD AD QS QC 9C 10H, South 9D
// JC AC AS 10C KH.
const seedLayout = `{"hands": [["QD","9S","KS","QC","9C","10H"], ["JD","AD","QS","AS","10C","KH"], ["9D","JC","AC","KC","JH","10D"]],
	"common": ["JS","9H","KD","AH","10S","QH"]}`

var seedPasses = []string{"0: pass QC 9C 10H", "1: pass AS 10C KH", "2: pass KC JH 10D"}

// T000-3's layout: dealer 2 turns KD; after the passes seat 0 holds AH AD
// QD KH AS 9C.
const kdLayout = `{"hands": [["AH","AD","QD","9S","10S","JS"], ["QS","KS","9H","10H","JH","QH"], ["KH","AS","9C","10C","JC","QC"]],
	"common": ["KD","9D","10D","JD","KC","AC"]}`

var kdPasses = []string{"0: pass 9S 10S JS", "1: pass QS KS 9H", "2: pass KH AS 9C"}

// plainLayout is a deal of whole suits with a common deck of clubs; the
// tests that use it mostly pass. The JH is in seat 1's hand.
const plainLayout = `{"hands": [["9S","10S","JS","QS","KS","AS"], ["9H","10H","JH","QH","KH","AH"], ["9D","10D","JD","QD","KD","AD"]],
	"common": ["9C","10C","JC","QC","KC","AC"]}`

var plainPasses = []string{"0: pass 9S 10S JS", "1: pass 9H 10H JH", "2: pass 9D 10D JD"}

// allPass plays the rest of a deal in which everyone passes: the turner
// captures each card she turns.
func allPass(t *testing.T, s *State) {
	t.Helper()
	for s.phase == phasePlay {
		do(t, s, strconv.Itoa(s.turn)+": pass")
	}
}

func jsonUnmarshal(text string, v any) error { return json.Unmarshal([]byte(text), v) }
