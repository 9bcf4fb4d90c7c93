package tractric

import (
	"fmt"
	"strconv"

	"parlour/card"
)

// Trump is a hand's trump in JSON: "S", "H", "D", "C", "none", or null
// before the proposals are revealed.
type Trump int8

// MarshalJSON writes the trump as its notation, or null while unset.
func (t Trump) MarshalJSON() ([]byte, error) {
	switch {
	case t == NoTrump:
		return []byte(`"none"`), nil
	case t >= 0 && t < 4:
		return []byte(`"` + card.Suit(t).String() + `"`), nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a suit's notation, "none",
// or null, which is Unset (not a no-op: the zero Trump is spades).
func (t *Trump) UnmarshalJSON(b []byte) error {
	switch text := string(b); text {
	case "null":
		*t = Unset
	case `"none"`:
		*t = NoTrump
	default:
		for s := card.Spades; s <= card.Clubs; s++ {
			if text == `"`+s.String()+`"` {
				*t = Trump(s)
				return nil
			}
		}
		return fmt.Errorf("tractric: trump %s is not a suit (S, H, D, C), \"none\" or null", text)
	}
	return nil
}

// Cell is one cell of the board in JSON: the colour holding it (the seat
// with 3 players; the partnership, 0 or 1, with 4), or null when empty.
type Cell int8

// MarshalJSON writes the colour, or null for an empty cell.
func (c Cell) MarshalJSON() ([]byte, error) {
	if c < 0 {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(int(c))), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a colour, or null for an
// empty cell (-1; not a no-op: the zero Cell is colour 0).
func (c *Cell) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = -1
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 8)
	if err != nil || n < 0 {
		return fmt.Errorf("tractric: board cell %s is not a colour (0 or more) or null", b)
	}
	*c = Cell(n)
	return nil
}

// Public is the script report's "public": the trump of the current (or
// last) hand and the board of counters.
type Public struct {
	Trump Trump   `json:"trump"`
	Board [9]Cell `json:"board"`
}

// View is what one seat sees of a Tractric match.
type View struct {
	Seat    int    `json:"seat"`
	Players int    `json:"players"`
	Deal    int    `json:"deal"` // 1-based hand number across the match
	Game    int    `json:"game"` // 1-based game number
	Dealer  int    `json:"dealer"`
	Phase   string `json:"phase"` // propose, play, give, over
	ToAct   []int  `json:"to_act"`
	Trump   Trump  `json:"trump"`
	// Grid is the scorecards row-major (A 2-8, Q = 0 in the middle).
	Grid [9]string `json:"grid"`
	// Board is the colour holding each scorecard, null when empty.
	Board [9]Cell `json:"board"`
	// Reserve is the counters each colour has off the board.
	Reserve []int `json:"reserve"`
	// Hand is the seat's own hand, lowest rank first, except the card shown
	// as its proposal in Proposals (each card shows once in a view).
	Hand []card.Card `json:"hand"`
	// HandSizes is how many cards each seat holds, proposal card included.
	HandSizes []int `json:"hand_sizes"`
	// Proposed marks the seats that have chosen their trump proposal.
	Proposed []bool `json:"proposed"`
	// Proposals holds, per seat, its trump proposal card while the card is
	// still in its hand: once all have chosen, every seat's; before, only
	// this seat's own. Null otherwise.
	Proposals []card.Card `json:"proposals"`
	Leader    int         `json:"leader"`
	// Trick is the current trick by seat (null: not played yet).
	Trick     []card.Card `json:"trick"`
	LastTrick []card.Card `json:"last_trick"`
	// LastTaker is the seat that won the last trick, or -1.
	LastTaker int `json:"last_taker"`
	// Tricks is each seat's tricks this hand, gifts included.
	Tricks     []int   `json:"tricks"`
	GamesWon   []int   `json:"games_won"` // per seat (partners share)
	DealScores [][]int `json:"deal_scores"`
	Over       bool    `json:"over"`
	Winners    []int   `json:"winners"`
}

var phaseNames = [...]string{"propose", "play", "give", "over"}

// View returns what seat sees; game.Spectator gets the Public view.
func (s *State) View(seat int) any {
	board := s.Report().(Public).Board
	r := s.Result()
	v := View{
		Seat: seat, Players: s.n, Deal: r.Deal, Game: s.gameNo + 1, Dealer: s.dealer,
		Phase: phaseNames[s.phase], ToAct: s.ToAct().List(), Trump: Trump(s.trump), Board: board,
		Leader: s.leader, LastTaker: s.lastTaker,
		GamesWon: r.Totals, DealScores: r.DealScores, Over: r.Over, Winners: r.Winners,
	}
	for i, g := range s.grid {
		v.Grid[i] = valueText[g]
	}
	v.Reserve = make([]int, s.colours)
	for c := range v.Reserve {
		v.Reserve[c] = Counters
		for _, b := range s.board {
			if int(b) == c {
				v.Reserve[c]--
			}
		}
	}
	v.HandSizes = make([]int, s.n)
	v.Proposed = make([]bool, s.n)
	v.Trick = make([]card.Card, s.n)
	v.LastTrick = make([]card.Card, s.n)
	v.Tricks = make([]int, s.n)
	for i := 0; i < s.n; i++ {
		v.HandSizes[i] = s.hands[i].Len()
		v.Proposed[i] = s.phase == phasePropose && s.chosen.Has(i)
		v.Trick[i] = s.trick[i]
		v.LastTrick[i] = s.lastTrick[i]
		v.Tricks[i] = int(s.tricks[i])
	}
	v.Proposals = make([]card.Card, s.n)
	var own card.Set
	if seat >= 0 && seat < s.n {
		own = s.hands[seat]
	}
	for i := 0; i < s.n; i++ {
		p := s.proposal[i]
		if p == card.None || !s.hands[i].Has(p) || (s.phase == phasePropose && i != seat) {
			continue
		}
		v.Proposals[i] = p
		if i == seat {
			own = own.Remove(p)
		}
	}
	if seat >= 0 && seat < s.n {
		v.Hand = sortedCards(own)
	}
	return v
}

// Report returns the script report's "public": the trump of the current (or
// last) hand and the board of counters, as shared/spec/script.md fixes it.
func (s *State) Report() any {
	var board [9]Cell
	for i, b := range s.board {
		board[i] = Cell(b)
	}
	return Public{Trump: Trump(s.trump), Board: board}
}

// Hand returns seat's hand, lowest rank first. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card { return sortedCards(s.hands[seat]) }

// Grid returns the scorecard values row-major (0 for Q).
func (s *State) Grid() [9]int8 { return s.grid }

// Board returns the colour holding each cell, -1 for an empty cell.
func (s *State) Board() [9]int8 { return s.board }

// TrumpSuit returns the current hand's trump: a suit 0-3, NoTrump or Unset.
func (s *State) TrumpSuit() int { return int(s.trump) }

// Tricks returns the tricks each seat has counted this hand.
func (s *State) Tricks() []int {
	out := make([]int, s.n)
	for i := range out {
		out[i] = int(s.tricks[i])
	}
	return out
}

// Turn returns the seat to play or to give (outside the proposals).
func (s *State) Turn() int { return s.turn }

// DealsPlayed returns the number of hands finished across the match.
func (s *State) DealsPlayed() int { return len(s.scores) / s.n }

// Total returns seat's match total, Result().Totals[seat] (the games won
// by its side), without building the rest of the result.
func (s *State) Total(seat int) int { return s.won[s.colour(seat)] }
