package damn

import (
	"math/bits"
	"strconv"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// View is what one seat (or a spectator) sees of a Damn game. Support and
// random piles and the central deck are shown only as counts: nobody sees
// them, not even their owner.
type View struct {
	Seat    int   `json:"seat"` // -1 for a spectator
	Players int   `json:"players"`
	Dealer  int   `json:"dealer"`
	Turn    int   `json:"turn"` // seat whose turn it is, -1 when over
	ToAct   []int `json:"to_act"`
	// Prompt says what this seat must do now, in plain words; empty when
	// it has nothing to do (and for a spectator).
	Prompt   string `json:"prompt"`
	Turns    int    `json:"turns"` // turns completed
	MaxTurns int    `json:"max_turns"`
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

	mem *viewRoom // the memory FillView built the view in; nil for View's
}

// SeatView is what everyone sees of one seat's cards.
type SeatView struct {
	Hand    int  `json:"hand"`
	Support int  `json:"support"`
	Random  int  `json:"random"`
	Held    int  `json:"held"` // all the cards the seat holds
	Out     bool `json:"out"`
}

// View returns what seat sees; game.Spectator for the public view. Its
// lists are its own (the caller may keep and change them).
func (s *State) View(seat int) any {
	return s.view(seat, new(viewRoom))
}

// AppendView appends seat's view as encoding/json writes View(seat)
// (game.ViewAppender), with no allocation but b's growth: the view's
// lists lie on the stack. Only the Unresolved sentence of a game ended on
// a turn cap other than the default one is made anew.
func (s *State) AppendView(b []byte, seat int) []byte {
	var room viewRoom
	v := s.view(seat, &room)
	return v.AppendJSON(b)
}

var _ game.ViewAppender = (*State)(nil)

// viewRoom holds a view's lists and its loser: on the heap for View (one
// allocation), on the stack for AppendView.
type viewRoom struct {
	toAct    [MaxPlayers]int
	pile     [packSize]card.Card
	hand     [4]card.Card
	pickedUp [packSize]card.Card
	seats    [MaxPlayers]SeatView
	out      [MaxPlayers]int
	winners  [MaxPlayers]int
	loser    int
}

// view returns seat's view with its lists and its loser in room.
func (s *State) view(seat int, room *viewRoom) View {
	v := View{
		Seat: seat, Players: s.n, Dealer: s.dealer, Turn: s.turn, ToAct: s.ToAct().AppendList(room.toAct[:0]),
		Prompt: s.prompt(seat), Turns: s.turns, MaxTurns: s.maxTurns,
		Pile: room.pile[:copy(room.pile[:], s.pile[:s.nPile])], Central: s.nCentral,
		PickedUp: appendSorted(room.pickedUp[:0], s.pick[:s.nPick]),
		Seats:    room.seats[:s.n],
		Out:      room.out[:copy(room.out[:], s.outOrder[:s.nOut])],
		Over:     s.over, Unresolved: s.unresolved(), Winners: s.appendWinners(room.winners[:0]),
	}
	if s.over {
		v.Turn = -1
	}
	if seat >= 0 && seat < s.n {
		v.Hand = appendSorted(room.hand[:0], s.hand[seat][:s.nHand[seat]])
	}
	for i := range v.Seats {
		v.Seats[i] = SeatView{Hand: s.nHand[i], Support: s.nSupport[i], Random: s.nRandom[i], Held: s.held(i), Out: s.outSet.Has(i)}
	}
	if l := s.Loser(); l >= 0 {
		room.loser = l
		v.Loser = &room.loser
	}
	return v
}

// prompt says what seat must do now, from its legal moves: "" when it
// may not act.
func (s *State) prompt(seat int) string {
	if s.over || seat != s.turn {
		return ""
	}
	if s.pending {
		return "Keep four of the picked-up cards as your new hand; the rest go to your support pile"
	}
	nh, ns := s.nHand[seat], s.nSupport[seat]
	if nh == 0 && ns == 0 {
		return "Turn the top card of your random pile"
	}
	if s.nPile == 0 {
		switch {
		case nh == 0:
			return "Start the play pile: turn the top card of your support pile"
		case ns == 0:
			return "Start the play pile with any card from your hand"
		}
		return "Start the play pile with any card from your hand, or turn the top card of your support pile"
	}
	fit := fitTable[s.pile[s.nPile-1].Rank()]
	play := false
	for _, c := range s.hand[seat][:nh] {
		play = play || fit&(1<<c.Rank()) != 0
	}
	switch {
	case play && ns > 0:
		return "Play a card one rank above or below the top card, turn the top card of your support pile, or pick up the play pile"
	case play:
		return "Play a card one rank above or below the top card, or pick up the play pile"
	case ns > 0:
		return "No card in your hand fits: turn the top card of your support pile, or pick up the play pile"
	}
	return "No card in your hand fits: pick up the play pile"
}

// appendSorted appends cs to out in ascending card value, as
// card.Set.Cards lists them.
func appendSorted(out, cs []card.Card) []card.Card {
	for set := card.SetOf(cs...); set != 0; set &= set - 1 {
		out = append(out, card.Card(bits.TrailingZeros64(uint64(set))))
	}
	return out
}

// unresolvedDefault is the Unresolved sentence of a game ended on the
// default turn cap, made once.
var unresolvedDefault = unresolvedText(DefaultMaxTurns)

// unresolved returns the view's Unresolved sentence: empty unless the
// game ended on the turn cap.
func (s *State) unresolved() string {
	switch {
	case !s.capped:
		return ""
	case s.maxTurns == DefaultMaxTurns:
		return unresolvedDefault
	}
	return unresolvedText(s.maxTurns)
}

func unresolvedText(maxTurns int) string {
	return "the turn cap (max_turns " + strconv.Itoa(maxTurns) + ") was reached: the game ends unresolved"
}

// Hand returns seat's hand in the order received. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card {
	return append([]card.Card{}, s.hand[seat][:s.nHand[seat]]...)
}

// Support returns seat's support pile, top first (once the pile has been
// shuffled, its order is drawn only as cards are taken). It is for tests and tools.
func (s *State) Support(seat int) []card.Card { return topFirst(s.support[seat][:s.nSupport[seat]]) }

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

// AppendJSON appends v as encoding/json writes it (for AppendView). Its
// keys are the package's own words, which need no escapes, and are
// written raw; Unresolved is escaped as encoding/json escapes a string.
func (v View) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	b = append(b, `,"to_act":`...)
	b = jsonw.AppendInts(b, v.ToAct)
	b = append(b, `,"prompt":"`...)
	b = append(b, v.Prompt...)
	b = append(b, `","turns":`...)
	b = strconv.AppendInt(b, int64(v.Turns), 10)
	b = append(b, `,"max_turns":`...)
	b = strconv.AppendInt(b, int64(v.MaxTurns), 10)
	b = append(b, `,"pile":`...)
	b = jsonw.AppendCards(b, v.Pile)
	b = append(b, `,"central":`...)
	b = strconv.AppendInt(b, int64(v.Central), 10)
	b = append(b, `,"hand":`...)
	b = jsonw.AppendCards(b, v.Hand)
	b = append(b, `,"picked_up":`...)
	b = jsonw.AppendCards(b, v.PickedUp)
	b = append(b, `,"seats":`...)
	b = jsonw.AppendList(b, v.Seats, appendSeatView)
	b = append(b, `,"out":`...)
	b = jsonw.AppendInts(b, v.Out)
	b = append(b, `,"loser":`...)
	if v.Loser == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*v.Loser), 10)
	}
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	if v.Unresolved != "" {
		b = append(b, `,"unresolved":`...)
		b = jsonw.AppendString(b, v.Unresolved)
	}
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, v.Winners)
	return append(b, '}')
}

// appendSeatView appends sv as encoding/json writes a SeatView.
func appendSeatView(b []byte, sv *SeatView) []byte {
	b = append(b, `{"hand":`...)
	b = strconv.AppendInt(b, int64(sv.Hand), 10)
	b = append(b, `,"support":`...)
	b = strconv.AppendInt(b, int64(sv.Support), 10)
	b = append(b, `,"random":`...)
	b = strconv.AppendInt(b, int64(sv.Random), 10)
	b = append(b, `,"held":`...)
	b = strconv.AppendInt(b, int64(sv.Held), 10)
	b = append(b, `,"out":`...)
	b = strconv.AppendBool(b, sv.Out)
	return append(b, '}')
}
