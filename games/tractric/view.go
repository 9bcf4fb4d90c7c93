package tractric

import (
	"fmt"
	"strconv"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// Trump is a hand's trump in JSON: "S", "H", "D", "C", "none", or null
// before the proposals are revealed.
type Trump int8

// MarshalJSON writes the trump as its notation, or null while unset.
func (t Trump) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil), nil }

// AppendJSON appends the trump's JSON, as MarshalJSON writes it.
func (t Trump) AppendJSON(b []byte) []byte {
	switch {
	case t == NoTrump:
		return append(b, `"none"`...)
	case t >= 0 && t < 4:
		b = append(b, '"')
		b = append(b, card.Suit(t).String()...)
		return append(b, '"')
	}
	return append(b, "null"...)
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
func (c Cell) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// AppendJSON appends the cell's JSON, as MarshalJSON writes it.
func (c Cell) AppendJSON(b []byte) []byte {
	if c < 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(c), 10)
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
	// Prompt says what this seat must do now, in plain words; empty when
	// it has nothing to do (and for a spectator).
	Prompt string `json:"prompt"`
	Trump  Trump  `json:"trump"`
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

	mem *viewMem // the memory FillView built the view in; nil for View's
}

var phaseNames = [...]string{"propose", "play", "give", "over"}

// View returns what seat sees; game.Spectator gets the Public view. Its
// lists are its own (the caller may keep and change them).
func (s *State) View(seat int) any {
	room := new(viewRoom)
	r := s.Result()
	return s.view(seat, room, r.DealScores, r.Totals, r.Winners)
}

// AppendView appends seat's view as encoding/json writes View(seat)
// (game.ViewAppender), with no allocation but b's growth: the view's
// lists lie on the stack and the hands' scores are written straight from
// the state.
func (s *State) AppendView(b []byte, seat int) []byte {
	var room viewRoom
	totals := room.totals[:s.n]
	s.fillTotals(totals)
	v := s.view(seat, &room, nil, totals, s.appendWinners(room.winners[:0]))
	b = v.appendHead(b)
	b = jsonw.AppendRows(b, s.scores, s.n)
	return v.appendTail(b)
}

var _ game.ViewAppender = (*State)(nil)

// maxHand is the most cards a hand holds (13, with 4 players).
const maxHand = 13

// viewRoom holds a view's lists: on the heap for View (one allocation),
// on the stack for AppendView.
type viewRoom struct {
	toAct     [MaxPlayers]int
	reserve   [MaxPlayers]int
	hand      [maxHand]card.Card
	handSizes [MaxPlayers]int
	proposed  [MaxPlayers]bool
	proposals [MaxPlayers]card.Card
	trick     [MaxPlayers]card.Card
	lastTrick [MaxPlayers]card.Card
	tricks    [MaxPlayers]int
	totals    [MaxPlayers]int
	winners   [MaxPlayers]int
}

// view returns seat's view with its lists in room and the result's deal
// scores, totals (games won) and winners as given.
func (s *State) view(seat int, room *viewRoom, dealScores [][]int, totals, winners []int) View {
	v := View{
		Seat: seat, Players: s.n, Deal: s.deal + 1, Game: s.gameNo + 1, Dealer: s.dealer,
		Phase: phaseNames[s.phase], ToAct: s.ToAct().AppendList(room.toAct[:0]), Prompt: s.prompt(seat), Trump: Trump(s.trump),
		Board: s.cells(), Leader: s.leader, LastTaker: s.lastTaker,
		GamesWon: totals, DealScores: dealScores, Over: s.phase == phaseOver, Winners: winners,
	}
	for i, g := range s.grid {
		v.Grid[i] = valueText[g]
	}
	v.Reserve = room.reserve[:s.colours]
	for c := range v.Reserve {
		v.Reserve[c] = Counters
		for _, b := range s.board {
			if int(b) == c {
				v.Reserve[c]--
			}
		}
	}
	v.HandSizes = room.handSizes[:s.n]
	v.Proposed = room.proposed[:s.n]
	v.Proposals = room.proposals[:s.n]
	v.Trick = room.trick[:s.n]
	v.LastTrick = room.lastTrick[:s.n]
	v.Tricks = room.tricks[:s.n]
	for i := 0; i < s.n; i++ {
		v.HandSizes[i] = s.hands[i].Len()
		v.Proposed[i] = s.phase == phasePropose && s.chosen.Has(i)
		v.Trick[i] = s.trick[i]
		v.LastTrick[i] = s.lastTrick[i]
		v.Tricks[i] = int(s.tricks[i])
	}
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
		v.Hand = appendSorted(room.hand[:0], own)
	}
	return v
}

// followPrompts are the prompts of a seat that must follow suit, by suit.
var followPrompts = [4]string{
	"Follow suit: play a spade",
	"Follow suit: play a heart",
	"Follow suit: play a diamond",
	"Follow suit: play a club",
}

// prompt says what seat must do now, from its legal moves: "" when it
// may not act.
func (s *State) prompt(seat int) string {
	if seat < 0 || !s.ToAct().Has(seat) {
		return ""
	}
	switch s.phase {
	case phasePropose:
		return "Choose a card: its suit is your proposal for trumps"
	case phaseGive:
		if s.n == 4 {
			return "You already have eight tricks: give this trick to another player (your partner too)"
		}
		return "You already have eight tricks: give this trick to an opponent"
	}
	if s.nTrick == 0 {
		return "Lead any card to the trick"
	}
	if led := s.trick[s.leader].Suit(); s.hands[seat]&suitMask[led] != 0 {
		return followPrompts[led]
	}
	return "You cannot follow suit: play any card"
}

// appendSorted appends the cards of set to out in sortedCards's order:
// rank order, lowest first (6 or 2 up to A), equal ranks in the order S H
// D C.
func appendSorted(out []card.Card, set card.Set) []card.Card {
	for p := 2; p <= 14; p++ {
		r := card.Rank(p)
		if p == 14 {
			r = card.Ace
		}
		for su := range 4 {
			if c := card.New(r, card.Suit(su)); set.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// cells returns the board as the views show it: each cell's colour, or -1
// (null) when empty.
func (s *State) cells() (board [9]Cell) {
	for i, b := range s.board {
		board[i] = Cell(b)
	}
	return board
}

// Report returns the script report's "public": the trump of the current (or
// last) hand and the board of counters, as shared/spec/script.md fixes it.
func (s *State) Report() any {
	return Public{Trump: Trump(s.trump), Board: s.cells()}
}

// AppendJSON appends v as encoding/json writes it (for AppendView). The
// view's phase and scorecard values are the package's own words, which
// need no escapes, and are appended as they are.
func (v View) AppendJSON(b []byte) []byte {
	b = v.appendHead(b)
	b = jsonw.AppendIntRows(b, v.DealScores)
	return v.appendTail(b)
}

// appendHead appends v's JSON up to the value of "deal_scores".
func (v *View) appendHead(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"deal":`...)
	b = strconv.AppendInt(b, int64(v.Deal), 10)
	b = append(b, `,"game":`...)
	b = strconv.AppendInt(b, int64(v.Game), 10)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"phase":"`...)
	b = append(b, v.Phase...)
	b = append(b, `","to_act":`...)
	b = jsonw.AppendInts(b, v.ToAct)
	b = append(b, `,"prompt":"`...)
	b = append(b, v.Prompt...)
	b = append(b, `","trump":`...)
	b = v.Trump.AppendJSON(b)
	b = append(b, `,"grid":[`...)
	for i, g := range v.Grid {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, g...)
		b = append(b, '"')
	}
	b = append(b, `],"board":[`...)
	for i, c := range v.Board {
		if i > 0 {
			b = append(b, ',')
		}
		b = c.AppendJSON(b)
	}
	b = append(b, `],"reserve":`...)
	b = jsonw.AppendInts(b, v.Reserve)
	b = append(b, `,"hand":`...)
	b = jsonw.AppendCards(b, v.Hand)
	b = append(b, `,"hand_sizes":`...)
	b = jsonw.AppendInts(b, v.HandSizes)
	b = append(b, `,"proposed":`...)
	b = jsonw.AppendBools(b, v.Proposed)
	b = append(b, `,"proposals":`...)
	b = jsonw.AppendCards(b, v.Proposals)
	b = append(b, `,"leader":`...)
	b = strconv.AppendInt(b, int64(v.Leader), 10)
	b = append(b, `,"trick":`...)
	b = jsonw.AppendCards(b, v.Trick)
	b = append(b, `,"last_trick":`...)
	b = jsonw.AppendCards(b, v.LastTrick)
	b = append(b, `,"last_taker":`...)
	b = strconv.AppendInt(b, int64(v.LastTaker), 10)
	b = append(b, `,"tricks":`...)
	b = jsonw.AppendInts(b, v.Tricks)
	b = append(b, `,"games_won":`...)
	b = jsonw.AppendInts(b, v.GamesWon)
	return append(b, `,"deal_scores":`...)
}

// appendTail appends v's JSON after the value of "deal_scores".
func (v *View) appendTail(b []byte) []byte {
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, v.Winners)
	return append(b, '}')
}

// Hand returns seat's hand, lowest rank first. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card { return sortedCards(s.hands[seat]) }

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

// DealsPlayed returns the number of hands finished across the match.
func (s *State) DealsPlayed() int { return len(s.scores) / s.n }

// Total returns seat's match total, Result().Totals[seat] (the games won
// by its side), without building the rest of the result.
func (s *State) Total(seat int) int { return s.won[s.colour(seat)] }
