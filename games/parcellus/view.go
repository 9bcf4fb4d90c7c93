package parcellus

import "parlour/card"

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
}

// Captured is one captured parcel.
type Captured struct {
	Seat  int         `json:"seat"`
	Cards []card.Card `json:"cards"` // base card first
}

var phaseNames = [...]string{"pass", "play", "over"}

// View returns what seat sees; game.Spectator for the public view.
func (s *State) View(seat int) any {
	r := s.Result()
	v := View{
		Seat: seat, Players: Players, Deal: r.Deal, Dealer: s.dealer, Target: s.target,
		PassDirection: "left", Phase: phaseNames[s.phase], ToAct: s.ToAct().List(),
		Common: HandSize - s.nTurned, Turner: s.turner, Contributor: s.last,
		Passes: s.passes, Turn: s.turn,
		DealScores: r.DealScores, Totals: r.Totals, Over: r.Over, Winners: r.Winners,
	}
	if s.dealNo%2 == 1 {
		v.PassDirection = "right"
	}
	v.HandSizes = make([]int, Players)
	v.Chosen = make([]bool, Players)
	v.ParcelCounts = append([]int{}, s.parcels[:]...)
	v.Points = append([]int{}, s.points[:]...)
	for k := range Players {
		v.HandSizes[k] = s.hands[k].Len()
		v.Chosen[k] = s.phase == phasePass && s.chosen.Has(k)
	}
	if seat >= 0 && seat < Players {
		v.Hand = Cards(s.hands[seat] &^ s.choice[seat])
		v.Received = make([]bool, len(v.Hand))
		for i, c := range v.Hand {
			v.Received[i] = s.recv[seat].Has(c)
		}
		switch {
		case s.phase == phasePass && s.chosen.Has(seat):
			v.Passed = Cards(s.choice[seat])
		case s.phase != phasePass:
			r := s.receiver(seat)
			v.Passed = Cards(s.recv[r] & s.hands[r])
		}
	}
	v.Parcel = append([]card.Card{}, s.table[s.start:s.nTable]...)
	v.Captured = []Captured{}
	from := 0
	for p := 0; p < s.nParcels; p++ {
		v.Captured = append(v.Captured, Captured{Seat: s.capturer[p], Cards: append([]card.Card{}, s.table[from:s.ends[p]]...)})
		from = s.ends[p]
	}
	return v
}

// Hand returns seat's hand in Parcellus order. It is for tests and tools
// that may see everything.
func (s *State) Hand(seat int) []card.Card { return Cards(s.hands[seat]) }

// Turn returns the seat to act in the play, or -1.
func (s *State) Turn() int { return s.turn }

// Common returns the common deck's cards still face down, top first. It is
// for tests and tools that may see everything.
func (s *State) Common() []card.Card { return append([]card.Card{}, s.common[s.nTurned:]...) }

// Total returns seat's match total, Result().Totals[seat], without
// building the rest of the result.
func (s *State) Total(seat int) int { return s.totals[seat] }

// DealsPlayed returns the number of deals finished.
func (s *State) DealsPlayed() int { return len(s.scores) / Players }

// ParcelCounts returns the parcels each seat has captured in this deal.
func (s *State) ParcelCounts() [Players]int { return s.parcels }

// Turner returns the seat that turned up the base card of the parcel being
// built (during the pass: the dealer, who turns the first).
func (s *State) Turner() int { return s.turner }

// Contributor returns the last seat to add a card to the parcel being
// built, or -1 if nobody has yet.
func (s *State) Contributor() int { return s.last }

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
