package parcellus

import (
	"math/bits"

	"parlour/card"
	"parlour/game"
)

var _ game.Encoder = (*State)(nil)

// The action space: the 24 plays, the pass of a turn, then the 2024 passes
// of three cards.
const (
	// PassAction is the action index of Pass; plays come before it.
	PassAction = packSize
	// ThreeActions is the first action index of the passes of three cards.
	ThreeActions = PassAction + 1
	// NumActions is the size of the action space: 24 plays, the pass of a
	// turn and C(24,3) = 2024 passes of three cards.
	NumActions = ThreeActions + packSize*(packSize-1)*(packSize-2)/6
)

// CardIndex returns c's index in the encoding's card vectors, its place in
// Parcellus order (9 10 J Q K A, equal ranks S H D C): 9S is 0, AC 23. It
// returns -1 for a card that is not in the pack.
func CardIndex(c card.Card) int {
	if !inPack.Has(c) {
		return -1
	}
	r := int(c.Rank()) - int(card.Nine)
	if c.Rank() == card.Ace {
		r = 5
	}
	return r*4 + int(c.Suit())
}

// ThreeIndex returns the combinatorial number of a set of three cards of
// the pack, 0 to 2023: with CardIndex values a < b < c, it is C(a,1) +
// C(b,2) + C(c,3).
func ThreeIndex(set card.Set) int {
	var idx [PassSize]int
	k := 0
	for u := set; u != 0 && k < PassSize; u &= u - 1 {
		idx[k] = CardIndex(card.Card(bits.TrailingZeros64(uint64(u))))
		k++
	}
	// Card values and Parcellus order differ: sort the three indices.
	a, b, c := idx[0], idx[1], idx[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return a + b*(b-1)/2 + c*(c-1)*(c-2)/6
}

// The fields of the observation, in order.
const (
	fPhase = iota
	fDeal
	fTarget
	fPassLeft
	fDealer
	fToAct
	fChosen
	fHand
	fPassed
	fPassedHeld
	fReceived
	fHandSizes
	fCommon
	fParcel
	fParcelTop
	fParcelPoints
	fTurner
	fContributor
	fPasses
	fTurn
	fCaptured
	fParcelCounts
	fPoints
	fTotals
	fLastDeal
	numFields
)

// encoding is the layout, the same for every option value.
var encoding = func() game.Encoding {
	fs := make([]game.Field, numFields)
	set := func(i int, name string, size int, doc string) {
		fs[i] = game.Field{Name: name, Size: size, Doc: doc}
	}
	const n, pk = Players, packSize
	set(fPhase, "phase", 3, "one-hot phase: pass, play, over")
	set(fDeal, "deal", 1, "the current deal, 1-based")
	set(fTarget, "target", 1, "the points that end the match (the target option)")
	set(fPassLeft, "pass_left", 1, "1 when this deal's pass goes to the left (the next seat), 0 to the right")
	set(fDealer, "dealer", n, "one-hot dealer, by seat relative to the observer (0: the observer, 1: the next seat, 2: the one after)")
	set(fToAct, "to_act", n, "1 for each seat that may act now, relative to the observer")
	set(fChosen, "chosen", n, "during the pass, 1 for each seat that has chosen its three cards, relative to the observer")
	set(fHand, "hand", pk, "the observer's hand by CardIndex, less the cards it has chosen to pass while the pass is pending")
	set(fPassed, "passed", pk, "the three cards the observer chose to pass this deal (pending or made), by CardIndex")
	set(fPassedHeld, "passed_held", pk, "after the pass, the cards the observer passed that its receiver still holds")
	set(fReceived, "received", pk, "the three cards the observer received in this deal's pass (0 before it)")
	set(fHandSizes, "hand_sizes", n, "number of cards in each hand (pending passes included), relative to the observer")
	set(fCommon, "common", 1, "cards still face down in the common deck")
	set(fParcel, "parcel", pk, "the cards of the parcel being built, by CardIndex")
	set(fParcelTop, "parcel_top", pk, "one-hot top card of the parcel being built (the card to follow); 0 without a parcel")
	set(fParcelPoints, "parcel_points", 1, "points the parcel being built is worth")
	set(fTurner, "turner", n, "one-hot seat that turned the parcel's base card (during the pass: the dealer), relative to the observer")
	set(fContributor, "contributor", n, "one-hot last seat to add a card to the parcel, relative to the observer; 0 if nobody has")
	set(fPasses, "passes", 1, "passes in a row on the parcel, automatic ones included")
	set(fTurn, "turn", n, "one-hot seat to act in the play, relative to the observer; 0 outside the play")
	set(fCaptured, "captured", n*pk, "cards captured this deal, 24 by CardIndex per seat relative to the observer")
	set(fParcelCounts, "parcel_counts", n, "parcels captured this deal, per seat relative to the observer")
	set(fPoints, "points", n, "card points captured this deal, per seat relative to the observer")
	set(fTotals, "totals", n, "match totals of finished deals, per seat relative to the observer")
	set(fLastDeal, "last_deal", n, "scores of the last finished deal, per seat relative to the observer; 0 before the first")
	e := game.NewEncoding(fs...)
	e.Actions = NumActions
	e.ActionDoc = "play C = CardIndex(C) (0-23, Parcellus order 9S 9H 9D 9C 10S ... AC), pass = 24, pass C C C = 25 + ThreeIndex (colex rank of the three CardIndex values, 0-2023)"
	return e
}()

// Encoding describes Parcellus's observation vector and action space. The
// three seats are encoded relative to the observer.
func (s *State) Encoding() game.Encoding { return encoding.Clone() }

// part returns field i of obs, cleared.
func part(obs []float32, i int) []float32 {
	f := encoding.Fields[i]
	p := obs[f.Offset : f.Offset+f.Size]
	clear(p)
	return p
}

// putSet sets p[CardIndex(c)] for each card c of set.
func putSet(p []float32, set card.Set) {
	for u := set; u != 0; u &= u - 1 {
		p[CardIndex(card.Card(bits.TrailingZeros64(uint64(u))))] = 1
	}
}

// Observe writes what seat knows into obs (Encoding().Size entries): its
// hand, the cards it passed and received, the table, the captures, the
// turn and the scores. Other seats are relative to seat. It does not
// allocate.
func (s *State) Observe(seat int, obs []float32) {
	_ = obs[encoding.Size-1]
	me := seat >= 0 && seat < Players
	if !me {
		seat = 0 // a spectator sees the table from seat 0, without a hand
	}
	rel := func(x int) int { return (x - seat + Players) % Players }

	part(obs, fPhase)[s.phase] = 1
	part(obs, fDeal)[0] = float32(s.dealNo + 1)
	part(obs, fTarget)[0] = float32(s.target)
	p := part(obs, fPassLeft)
	if s.dealNo%2 == 0 {
		p[0] = 1
	}
	part(obs, fDealer)[rel(s.dealer)] = 1
	act := part(obs, fToAct)
	chosen := part(obs, fChosen)
	sizes := part(obs, fHandSizes)
	toAct := s.ToAct()
	for k := range Players {
		if toAct.Has(k) {
			act[rel(k)] = 1
		}
		if s.phase == phasePass && s.chosen.Has(k) {
			chosen[rel(k)] = 1
		}
		sizes[rel(k)] = float32(s.hands[k].Len())
	}

	hand := part(obs, fHand)
	passed := part(obs, fPassed)
	held := part(obs, fPassedHeld)
	recv := part(obs, fReceived)
	if me {
		putSet(hand, s.hands[seat]&^s.choice[seat])
		if s.phase == phasePass {
			putSet(passed, s.choice[seat])
		} else {
			r := s.receiver(seat)
			putSet(passed, s.recv[r])
			putSet(held, s.recv[r]&s.hands[r])
			putSet(recv, s.recv[seat])
		}
	}

	part(obs, fCommon)[0] = float32(HandSize - s.nTurned)
	parcel := part(obs, fParcel)
	top := part(obs, fParcelTop)
	for _, c := range s.table[s.start:s.nTable] {
		parcel[CardIndex(c)] = 1
	}
	if s.start < s.nTable {
		top[CardIndex(s.top())] = 1
	}
	part(obs, fParcelPoints)[0] = float32(s.parcelPts)
	part(obs, fTurner)[rel(s.turner)] = 1
	p = part(obs, fContributor)
	if s.last >= 0 {
		p[rel(s.last)] = 1
	}
	part(obs, fPasses)[0] = float32(s.passes)
	p = part(obs, fTurn)
	if s.phase == phasePlay && s.turn >= 0 {
		p[rel(s.turn)] = 1
	}

	capt := part(obs, fCaptured)
	from := 0
	for q := 0; q < s.nParcels; q++ {
		r := rel(s.capturer[q])
		for _, c := range s.table[from:s.ends[q]] {
			capt[r*packSize+CardIndex(c)] = 1
		}
		from = s.ends[q]
	}
	counts := part(obs, fParcelCounts)
	pts := part(obs, fPoints)
	tot := part(obs, fTotals)
	last := part(obs, fLastDeal)
	for k := range Players {
		r := rel(k)
		counts[r] = float32(s.parcels[k])
		pts[r] = float32(s.points[k])
		tot[r] = float32(s.totals[k])
	}
	if len(s.scores) >= Players {
		for k, v := range s.scores[len(s.scores)-Players:] {
			last[rel(k)] = float32(v)
		}
	}
}

// ActionID returns m's index in the action space: a play is the card's
// CardIndex (0-23), Pass is PassAction (24), and a pass of three cards is
// ThreeActions (25) plus ThreeIndex of its cards. It returns -1 for
// something that is not a Parcellus move.
func (s *State) ActionID(seat int, m game.Move) int {
	if m == Pass {
		return PassAction
	}
	if c, ok := isPlay(m); ok {
		return CardIndex(c)
	}
	if set, ok := isThree(m); ok {
		return ThreeActions + ThreeIndex(set)
	}
	return -1
}
