package parcellus

import (
	"strconv"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// View is what one seat (or a spectator) sees of a Parcellus match.
type View struct {
	Seat    int `json:"seat"` // -1 for a spectator
	Players int `json:"players"`
	Deal    int `json:"deal"` // 1-based
	Dealer  int `json:"dealer"`
	Target  int `json:"target"`
	// PassDirection is where this deal's pass goes: "left" (to the next
	// seat) or "right".
	PassDirection string `json:"pass_direction"`
	Phase         string `json:"phase"` // pass, play, over
	ToAct         []int  `json:"to_act"`
	// Prompt says what this seat must do now, in plain words; empty when
	// it has nothing to do (and for a spectator).
	Prompt string `json:"prompt"`
	// Hand is this seat's hand in Parcellus order (null for a spectator),
	// less the cards it has chosen to pass while the pass is pending.
	Hand []card.Card `json:"hand"`
	// Received marks, entry by entry of Hand, the cards this seat received
	// in this deal's pass.
	Received []bool `json:"received"`
	// HandSizes counts every seat's cards (pending passes included).
	HandSizes []int `json:"hand_sizes"`
	// Chosen marks, during the pass, the seats that have chosen their cards.
	Chosen []bool `json:"chosen"`
	// Passed is, while the pass is pending, the three cards this seat chose
	// to pass; after it, those of them still in the receiver's hand (the
	// others are on the table). Null for a spectator or before choosing.
	Passed []card.Card `json:"passed"`
	// Common is how many cards are still face down in the common deck.
	Common int `json:"common"`
	// Parcel is the parcel being built, base card first, top card last
	// (each card of a view appears once only).
	Parcel []card.Card `json:"parcel"`
	// Turner turned up the parcel's base card (during the pass: the dealer,
	// who turns the first); Contributor is the last seat to add a card (-1:
	// nobody yet). Passes counts passes in a row, automatic ones included.
	Turner      int `json:"turner"`
	Contributor int `json:"contributor"`
	Passes      int `json:"passes"`
	Turn        int `json:"turn"` // seat to act in the play, -1 otherwise
	// Captured lists the parcels captured this deal, in order.
	Captured     []Captured `json:"captured"`
	ParcelCounts []int      `json:"parcel_counts"` // parcels captured this deal, per seat
	Points       []int      `json:"points"`        // card points captured this deal, per seat
	DealScores   [][]int    `json:"deal_scores"`
	Totals       []int      `json:"totals"`
	Over         bool       `json:"over"`
	Winners      []int      `json:"winners"`

	mem *viewMem // the memory FillView built the view in; nil for View's
}

// Captured is one captured parcel.
type Captured struct {
	Seat  int         `json:"seat"`
	Cards []card.Card `json:"cards"` // base card first
}

var phaseNames = [...]string{"pass", "play", "over"}

// View returns what seat sees; game.Spectator for the public view. Its
// lists are its own (the caller may keep and change them).
func (s *State) View(seat int) any {
	room := new(viewRoom)
	room.table = s.table
	rows, _ := game.ResultRows(s.scores, len(s.scores)/Players, Players)
	return s.view(seat, room, &room.table, rows)
}

// AppendView appends seat's view as encoding/json writes View(seat)
// (game.ViewAppender), with no allocation for up to maxRoomDeals deals.
// The view's parcels are read from the state's table, not copied.
func (s *State) AppendView(b []byte, seat int) []byte {
	var room viewRoom
	var numRoom [maxRoomDeals * Players]int
	var rowRoom [maxRoomDeals][]int
	var rows [][]int
	if deals := len(s.scores) / Players; deals <= maxRoomDeals {
		for i, x := range s.scores[:deals*Players] {
			numRoom[i] = int(x)
		}
		for d := range deals {
			rowRoom[d] = numRoom[d*Players : (d+1)*Players : (d+1)*Players]
		}
		rows = rowRoom[:deals]
	} else {
		rows, _ = game.ResultRows(s.scores, deals, Players)
	}
	v := s.view(seat, &room, &s.table, rows)
	return v.AppendJSON(b)
}

// maxRoomDeals is how many deals' scores AppendView lists without an
// allocation (a match to the default target needs far fewer).
const maxRoomDeals = 32

// viewRoom holds a view's lists: on the heap for View (one allocation),
// on the stack for AppendView. Its table is View's copy of the state's.
type viewRoom struct {
	toAct     [Players]int
	hand      [HandSize]card.Card
	received  [HandSize]bool
	handSizes [Players]int
	chosen    [Players]bool
	passed    [PassSize]card.Card
	table     [packSize]card.Card
	captured  [Parcels]Captured
	parcels   [Players]int
	points    [Players]int
	totals    [Players]int
	winners   [1]int
}

// view returns seat's view with its lists in room, its parcels in table
// (laid out as the state's) and the deal scores as given.
func (s *State) view(seat int, room *viewRoom, table *[packSize]card.Card, scores [][]int) View {
	v := View{
		Seat: seat, Players: Players, Deal: s.dealNo + 1, Dealer: s.dealer, Target: s.target,
		PassDirection: "left", Phase: phaseNames[s.phase], ToAct: s.ToAct().AppendList(room.toAct[:0]), Prompt: s.prompt(seat),
		Common: HandSize - s.nTurned, Turner: s.turner, Contributor: s.last,
		Passes: s.passes, Turn: s.turn, DealScores: scores, Over: s.phase == phaseOver,
	}
	if s.dealNo%2 == 1 {
		v.PassDirection = "right"
	}
	for k := range Players {
		room.handSizes[k] = s.hands[k].Len()
		room.chosen[k] = s.phase == phasePass && s.chosen.Has(k)
	}
	room.parcels, room.points, room.totals = s.parcels, s.points, s.totals
	v.HandSizes, v.Chosen = room.handSizes[:], room.chosen[:]
	v.ParcelCounts, v.Points, v.Totals = room.parcels[:], room.points[:], room.totals[:]
	v.Winners = s.appendWinners(room.winners[:0])
	if seat >= 0 && seat < Players {
		hand := appendCards(room.hand[:0], s.hands[seat]&^s.choice[seat])
		received := room.received[:0]
		for _, c := range hand {
			received = append(received, s.recv[seat].Has(c))
		}
		v.Hand, v.Received = hand, received
		switch {
		case s.phase == phasePass && s.chosen.Has(seat):
			v.Passed = appendCards(room.passed[:0], s.choice[seat])
		case s.phase != phasePass:
			r := s.receiver(seat)
			v.Passed = appendCards(room.passed[:0], s.recv[r]&s.hands[r])
		}
	}
	v.Parcel = table[s.start:s.nTable:s.nTable]
	captured := room.captured[:0]
	from := 0
	for p := range s.nParcels {
		end := s.ends[p]
		captured = append(captured, Captured{Seat: s.capturer[p], Cards: table[from:end:end]})
		from = end
	}
	v.Captured = captured
	return v
}

// prompt says what seat must do now, from its legal moves: "" when it
// may not act.
func (s *State) prompt(seat int) string {
	if seat < 0 || !s.ToAct().Has(seat) {
		return ""
	}
	if s.phase == phasePass {
		if s.dealNo%2 == 1 {
			return "Choose three cards to pass to the player on your right"
		}
		return "Choose three cards to pass to the player on your left"
	}
	if s.hands[seat]&next[s.top()] != 0 {
		return "Add a card to the parcel (the next rank up, in the same colour), or add none and pass"
	}
	return "No card of yours goes on the parcel: pass"
}

// appendCards appends the cards of set to out in Parcellus order.
func appendCards(out []card.Card, set card.Set) []card.Card {
	for _, c := range order {
		if set.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// Hand returns seat's hand in Parcellus order. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card { return Cards(s.hands[seat]) }

// Turn returns the seat to act in the play, or -1.
func (s *State) Turn() int { return s.turn }

// Total returns seat's match total, Result().Totals[seat], without
// building the rest of the result.
func (s *State) Total(seat int) int { return s.totals[seat] }

// DealsPlayed returns the number of deals finished.
func (s *State) DealsPlayed() int { return len(s.scores) / Players }

// ParcelCounts returns the parcels each seat has captured in this deal.
func (s *State) ParcelCounts() [Players]int { return s.parcels }

// Parcel returns the parcel being built, base card first. It is empty
// outside the play.
func (s *State) Parcel() []card.Card { return append([]card.Card{}, s.table[s.start:s.nTable]...) }

// Captor returns the seat that captured c in a parcel this deal, or -1.
func (s *State) Captor(c card.Card) int {
	from := 0
	for p := 0; p < s.nParcels; p++ {
		for _, x := range s.table[from:s.ends[p]] {
			if x == c {
				return s.capturer[p]
			}
		}
		from = s.ends[p]
	}
	return -1
}

var _ game.ViewAppender = (*State)(nil)

// AppendJSON appends v as encoding/json writes it (for AppendView). The
// view's strings are the package's own words, which need no escapes.
func (v View) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"deal":`...)
	b = strconv.AppendInt(b, int64(v.Deal), 10)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"target":`...)
	b = strconv.AppendInt(b, int64(v.Target), 10)
	b = append(b, `,"pass_direction":"`...)
	b = append(b, v.PassDirection...)
	b = append(b, `","phase":"`...)
	b = append(b, v.Phase...)
	b = append(b, `","to_act":`...)
	b = jsonw.AppendInts(b, v.ToAct)
	b = append(b, `,"prompt":"`...)
	b = append(b, v.Prompt...)
	b = append(b, `","hand":`...)
	b = jsonw.AppendCards(b, v.Hand)
	b = append(b, `,"received":`...)
	b = jsonw.AppendBools(b, v.Received)
	b = append(b, `,"hand_sizes":`...)
	b = jsonw.AppendInts(b, v.HandSizes)
	b = append(b, `,"chosen":`...)
	b = jsonw.AppendBools(b, v.Chosen)
	b = append(b, `,"passed":`...)
	b = jsonw.AppendCards(b, v.Passed)
	b = append(b, `,"common":`...)
	b = strconv.AppendInt(b, int64(v.Common), 10)
	b = append(b, `,"parcel":`...)
	b = jsonw.AppendCards(b, v.Parcel)
	b = append(b, `,"turner":`...)
	b = strconv.AppendInt(b, int64(v.Turner), 10)
	b = append(b, `,"contributor":`...)
	b = strconv.AppendInt(b, int64(v.Contributor), 10)
	b = append(b, `,"passes":`...)
	b = strconv.AppendInt(b, int64(v.Passes), 10)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(v.Turn), 10)
	b = append(b, `,"captured":`...)
	b = jsonw.AppendList(b, v.Captured, func(b []byte, c *Captured) []byte { return c.AppendJSON(b) })
	b = append(b, `,"parcel_counts":`...)
	b = jsonw.AppendInts(b, v.ParcelCounts)
	b = append(b, `,"points":`...)
	b = jsonw.AppendInts(b, v.Points)
	b = append(b, `,"deal_scores":`...)
	b = jsonw.AppendIntRows(b, v.DealScores)
	b = append(b, `,"totals":`...)
	b = jsonw.AppendInts(b, v.Totals)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, v.Winners)
	return append(b, '}')
}

// AppendJSON appends c as encoding/json writes it (for View.AppendJSON).
func (c Captured) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(c.Seat), 10)
	b = append(b, `,"cards":`...)
	b = jsonw.AppendCards(b, c.Cards)
	return append(b, '}')
}
