package damn

import (
	"fmt"

	"parlour/card"
)

// View is what one seat (or a spectator) sees of a Damn game. Support and
// random piles and the central deck are shown only as counts: nobody sees
// them, not even their owner.
type View struct {
	Seat     int   `json:"seat"` // -1 for a spectator
	Players  int   `json:"players"`
	Dealer   int   `json:"dealer"`
	Turn     int   `json:"turn"` // seat whose turn it is, -1 when over
	ToAct    []int `json:"to_act"`
	Turns    int   `json:"turns"` // turns completed
	MaxTurns int   `json:"max_turns"`
	// Pile is the play pile, bottom first: its last card is the top card;
	// when it is empty the next card may be anything.
	Pile    []card.Card `json:"pile"`
	Central int         `json:"central"` // cards left in the central deck
	// Hand is this seat's own hand in rank order (null for a spectator).
	Hand []card.Card `json:"hand"`
	// PickedUp is a random-pile pick-up of more than four cards that the
	// seat to act must keep four of; it was the public play pile.
	PickedUp []card.Card `json:"picked_up"`
	Seats    []SeatView  `json:"seats"`
	// Out lists the seats in the order they went out; Loser is the last
	// seat holding cards, or null.
	Out        []int  `json:"out"`
	Loser      *int   `json:"loser"`
	Over       bool   `json:"over"`
	Unresolved string `json:"unresolved,omitempty"` // why the game ended without a loser
	Winners    []int  `json:"winners"`
}

// SeatView is what everyone sees of one seat's cards.
type SeatView struct {
	Hand    int  `json:"hand"`
	Support int  `json:"support"`
	Random  int  `json:"random"`
	Held    int  `json:"held"` // all the cards the seat holds
	Out     bool `json:"out"`
}

// View returns what seat sees; game.Spectator for the public view.
func (s *State) View(seat int) any {
	r := s.Result()
	v := View{
		Seat: seat, Players: s.n, Dealer: s.dealer, Turn: s.turn, ToAct: s.ToAct().List(),
		Turns: s.turns, MaxTurns: s.maxTurns,
		Pile: append([]card.Card{}, s.pile[:s.nPile]...), Central: s.nCentral,
		PickedUp: sorted(s.pick[:s.nPick]),
		Out:      append([]int{}, s.outOrder[:s.nOut]...),
		Over:     s.over, Winners: r.Winners,
	}
	if s.over {
		v.Turn = -1
	}
	if seat >= 0 && seat < s.n {
		v.Hand = sorted(s.hand[seat][:s.nHand[seat]])
	}
	v.Seats = make([]SeatView, s.n)
	for i := range v.Seats {
		v.Seats[i] = SeatView{Hand: s.nHand[i], Support: s.nSupport[i], Random: s.nRandom[i], Held: r.Totals[i], Out: s.outSet.Has(i)}
	}
	if l := s.Loser(); l >= 0 {
		v.Loser = &l
	}
	if s.capped {
		v.Unresolved = fmt.Sprintf("the turn cap (max_turns %d) was reached: the game ends unresolved", s.maxTurns)
	}
	return v
}

// Hand returns seat's hand in the order received. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card {
	return append([]card.Card{}, s.hand[seat][:s.nHand[seat]]...)
}

// Support returns seat's support pile, top first (once the pile has been
// shuffled, its order is drawn only as cards are taken). It is for tests and tools.
func (s *State) Support(seat int) []card.Card { return topFirst(s.support[seat][:s.nSupport[seat]]) }

// RandomPile returns seat's random pile, top first. It is for tests and tools.
func (s *State) RandomPile(seat int) []card.Card { return topFirst(s.random[seat][:s.nRandom[seat]]) }

// Central returns the central deck, top first. It is for tests and tools.
func (s *State) Central() []card.Card { return topFirst(s.central[:s.nCentral]) }

// Pile returns the play pile, bottom first.
func (s *State) Pile() []card.Card { return append([]card.Card{}, s.pile[:s.nPile]...) }

// Turn returns the seat whose turn it is.
func (s *State) Turn() int { return s.turn }

// DealsPlayed returns 1 once the game (Damn's one deal) is over, else 0.
func (s *State) DealsPlayed() int {
	if s.over {
		return 1
	}
	return 0
}

// Held returns how many cards seat holds: hand, support and random pile,
// and a pick-up it is choosing from.
func (s *State) Held(seat int) int { return s.held(seat) }

// Capped reports whether the game ended on the turn cap (max_turns),
// unresolved.
func (s *State) Capped() bool { return s.capped }

// Turns returns the number of turns completed.
func (s *State) Turns() int { return s.turns }

// Out returns the seats in the order they went out.
func (s *State) Out() []int { return append([]int{}, s.outOrder[:s.nOut]...) }

func topFirst(cs []card.Card) []card.Card {
	out := make([]card.Card, len(cs))
	for i, c := range cs {
		out[len(cs)-1-i] = c
	}
	return out
}
