package damn

import (
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

// start makes a game from options and a layout given as JSON.
func start(t *testing.T, opts map[string]any, seed uint64, layout string) *State {
	t.Helper()
	return gametest.Start(t, Game{}, opts, seed, layout).(*State)
}

// play applies moves given as "SEAT: MOVE" and fails on the first refusal.
func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	gametest.Play(t, s, moves...)
}

func step(s *State, line string) error { return gametest.Try(s, line) }

// legalText returns seat's legal moves in notation, sorted by byte order.
func legalText(s *State, seat int) []string { return game.LegalText(s, seat) }

func cards(text string) []card.Card { return card.MustParseList(text) }

// spec2 is shared/spec/examples/damn/damn-fit-on-ace.json's layout: 2
// players, dealer 0, the central deck starts with KS.
const spec2 = `{
 "hands": [["2S","KC","AC","3D"],["AH","QD","KD","2C"]],
 "support": [["4S","5S","6S","7S"],["2H","3H","4H","5H"]],
 "random": [["8S","9S","10S","JS"],["6H","7H","8H","9H"]],
 "central": ["KS","3C","AS","3S","QS","10H","JH","QH","KH","AD","2D","4D","5D","6D","7D","8D","9D","10D","JD","4C","5C","6C","7C","8C","9C","10C","JC","QC"]}`

// spec3 is shared/spec/examples/damn/damn-support-turn-fails-pickup.json's
// layout: the central deck starts with 4D, seat 1's support with 9C.
const spec3 = `{
 "hands": [["2S","3S","5S","6S"],["2H","3H","5H","6H"]],
 "support": [["7S","8S","9S","10S"],["9C","8H","10H","JH"]],
 "random": [["JS","QS","KS","AS"],["QH","KH","AH","7H"]],
 "central": ["4D","AD","2D","3D","5D","6D","7D","8D","9D","10D","JD","QD","KD","4S","4H","AC","2C","3C","4C","5C","6C","7C","8C","10C","JC","QC","KC","9H"]}`

// long is a 3-player deal (dealer 2, seat 0 first) that longMoves plays
// until seat 0 has no hand and no support, the central deck is gone, and the
// play pile is 4D 5D 6D 7D 8D 9D 10D (seven cards, 10 on top) with seat 0
// to turn a random card. randomTop is seat 0's top random card (JC or 3C;
// the other one goes to seat 2's random pile).
func long(randomTop string) string {
	other := "3C"
	if randomTop == "3C" {
		other = "JC"
	}
	return `{
 "hands": [["AH","4H","7H","10H"],["3S","6S","9S","QS"],["4S","7S","10S","KS"]],
 "support": [["2S","5S","8S","JS"],["AD","2D","3D","JD"],["10D","7C","10C","KC"]],
 "random": [["` + randomTop + `","6C","9C","QC"],["QD","KD","AC","2C"],["` + other + `","4C","5C","8C"]],
 "central": ["AS","2H","3H","5H","6H","8H","9H","JH","QH","KH","6D","4D","5D","9D","7D","8D"]}`
}

var longMoves = []string{
	"0: turn", "1: play 3S", "2: play 4S", "0: turn", "1: play 6S", "2: play 7S", "0: turn", "1: play 9S", "2: play 10S",
	"0: turn", "1: play QS", "2: play KS", "0: play AH", "1: play 2H", "2: play 3H", "0: play 4H", "1: play 5H", "2: play 6H",
	"0: play 7H", "1: play 8H", "2: play 9H", "0: play 10H", "1: play JH", "2: play QH", "0: play KH", "1: pickup",
	"2: play 4D", "0: play 5D", "1: play 6D", "2: play 7D", "0: play 8D", "1: play 9D", "2: play 10D",
}

// longFinish continues long("JC") after longMoves to the end: seat 0 turns
// JC, 6C, 9C, QC from its random pile and goes out first, seat 2 goes out
// second, seat 1 (who only picks up) is the loser.
var longFinish = []string{
	"0: random", "1: pickup", "2: play 7C", "0: random", "1: pickup", "2: play 10C", "0: random", "1: pickup", "2: play KC",
	"0: random", "1: pickup", "2: random", "1: pickup", "2: random", "1: pickup", "2: random", "1: pickup", "2: random",
}

var opts3 = map[string]any{"players": 3, "dealer": 2}

// build makes a position directly, for rulings that need one a deal takes
// long to reach. Seat piles are given top first; cards not named are left
// out of the game.
type spot struct {
	n, turn                int
	hands, support, random []string
	central, pile          string // central top first; pile bottom first
}

func (p spot) state(t *testing.T) *State {
	t.Helper()
	s := &State{n: p.n, turn: p.turn, maxTurns: DefaultMaxTurns, rng: game.NewRNG(1)}
	for i := 0; i < p.n; i++ {
		for _, c := range cards(p.hands[i]) {
			s.hand[i][s.nHand[i]] = c
			s.nHand[i]++
		}
		cs := cards(p.support[i])
		for k := len(cs) - 1; k >= 0; k-- {
			s.support[i][s.nSupport[i]] = cs[k]
			s.nSupport[i]++
		}
		cs = cards(p.random[i])
		for k := len(cs) - 1; k >= 0; k-- {
			s.random[i][s.nRandom[i]] = cs[k]
			s.nRandom[i]++
		}
	}
	cs := cards(p.central)
	for k := len(cs) - 1; k >= 0; k-- {
		s.central[s.nCentral] = cs[k]
		s.nCentral++
	}
	s.nPile = copy(s.pile[:], cards(p.pile))
	for i := range s.known {
		s.known[i] = maskAll
	}
	return s
}
