package golf

import (
	"parlour/card"
	"parlour/game"
)

var _ game.Encoder = (*State)(nil)

// CardKinds is the number of distinct cards in the Golf pack, the width
// of the encoding's card counts: 52 ranked cards and the joker. A card c's
// index is CardIndex(c).
const CardKinds = 53

// CardWidth is the width of a card in the encoding's layouts, drawn card
// and discard top: a one-hot rank (A 2 ... K, joker: 14 entries, indexed
// rank-1) then a one-hot suit (S H D C: 4 entries, all 0 for the joker).
// All 18 are 0 where there is no card to show.
const CardWidth = 14 + 4

// putCard writes c into p, CardWidth entries already cleared.
func putCard(p []float32, c card.Card) {
	p[c.Rank()-1] = 1
	if c != card.Joker {
		p[14+int(c.Suit())] = 1
	}
}

// NumActions is the size of Golf's action space: every move is its own
// index (reveal 0-2, draw stock, draw discard, swap 0-5, discard, stop).
const NumActions = numMoves

// CardIndex returns c's index in the encoding's card counts: (rank-1)*4
// + suit (suits S H D C), so AS is 0 and KC 51; the joker is 52. It
// returns -1 for card.None or a card that is not in the pack.
func CardIndex(c card.Card) int {
	if !c.Valid() {
		return -1
	}
	return int(c) - int(card.New(card.Ace, card.Spades))
}

// The fields of the observation, in order.
const (
	fPhase = iota
	fHole
	fHolesLeft
	fDealer
	fToAct
	fOut
	fFinalLeft
	fChosen
	fMyReveal
	fFaceDown
	fLayouts
	fVisibleScore
	fHolding
	fFromDiscard
	fDrawn
	fDiscardTop
	fDiscards
	fDiscardCount
	fStockCount
	fStockKnown
	fStockCards
	fTotals
	fLastHole
	numFields
)

// numPhases is the width of the phase one-hot.
const numPhases = int(phaseOver) + 1

// encodingFor builds the layout for n players.
func encodingFor(n int) game.Encoding {
	fs := make([]game.Field, numFields)
	set := func(i int, name string, size int, doc string) {
		fs[i] = game.Field{Name: name, Size: size, Doc: doc}
	}
	set(fPhase, "phase", numPhases, "one-hot phase: reveal, draw, holding a drawn card, final draw, final holding, over")
	set(fHole, "hole", 1, "the current hole, 1-based (the last hole played once the match is over)")
	set(fHolesLeft, "holes_left", 1, "holes still to play, the current one included (0 once over)")
	set(fDealer, "dealer", n, "one-hot dealer, by seat relative to the observer (0: the observer, 1: the next seat, ...)")
	set(fToAct, "to_act", n, "1 for each seat that may act now, relative to the observer")
	set(fOut, "out", n, "one-hot seat that went out this hole, relative to the observer; all 0 before anyone has")
	set(fFinalLeft, "final_left", 1, "final-play turns still to come, the current one included (0 outside the final play)")
	set(fChosen, "chosen", n, "during the reveal, 1 for each seat that has chosen its column, relative to the observer")
	set(fMyReveal, "my_reveal", 3, "one-hot column the observer has chosen to reveal while the reveal is pending")
	set(fFaceDown, "face_down", n*6, "1 for each face-down position, 6 per seat relative to the observer (positions 0 1 2 top, 3 4 5 bottom)")
	set(fLayouts, "layouts", n*6*CardWidth, "card at each face-up position (CardWidth: rank one-hot, suit one-hot), 6 positions per seat relative to the observer; all 0 when face down")
	set(fVisibleScore, "visible_score", n, "per seat relative to the observer, the score of its columns whose two cards are both face up")
	set(fHolding, "holding", 1, "1 while the seat to act holds a drawn card")
	set(fFromDiscard, "drawn_from_discard", 1, "1 while the drawn card held came from the discard pile")
	set(fDrawn, "drawn", CardWidth, "drawn card held (rank one-hot, suit one-hot), when the observer may see it (its own, or one taken from the discard pile)")
	set(fDiscardTop, "discard_top", CardWidth, "top card of the discard pile (rank one-hot, suit one-hot)")
	set(fDiscards, "discards", CardKinds, "count of each card (by CardIndex) in the discard pile, top included")
	set(fDiscardCount, "discard_count", 1, "number of cards in the discard pile")
	set(fStockCount, "stock_count", 1, "number of cards in the stock")
	set(fStockKnown, "stock_known", 1, "1 when the stock is made of reshuffled discards, whose cards were all seen")
	set(fStockCards, "stock_cards", CardKinds, "when stock_known, count of each card (by CardIndex) in the stock plus a card drawn from it that the observer may not see; else 0")
	set(fTotals, "totals", n, "match totals of finished holes, per seat relative to the observer")
	set(fLastHole, "last_hole", n, "scores of the last finished hole, per seat relative to the observer; 0 before the first")
	return game.NewEncoding(fs...)
}

// encodings holds the layout for each player count.
var encodings = func() (e [MaxPlayers + 1]game.Encoding) {
	for n := 2; n <= MaxPlayers; n++ {
		e[n] = encodingFor(n)
		e[n].Actions = NumActions
		e[n].ActionDoc = "the move itself: reveal K = K (0-2), draw stock 3, draw discard 4, swap P = 5+P (P 0-5), discard 11, stop 12"
	}
	return e
}()

// Encoding describes Golf's observation vector and action space for the
// match's number of players. Seats are encoded relative to the observer.
func (s *State) Encoding() game.Encoding { return encodings[s.n].Clone() }

// part returns field i of obs, cleared.
func part(e *game.Encoding, obs []float32, i int) []float32 {
	f := e.Fields[i]
	p := obs[f.Offset : f.Offset+f.Size]
	clear(p)
	return p
}

// Observe writes what seat knows into obs (Encoding().Size entries): the
// phase, the hole, the face-up cards of every layout, the discard pile, the
// drawn card if seat may see it, its own pending reveal, and the scores.
// Other seats are relative to seat. It does not allocate.
func (s *State) Observe(seat int, obs []float32) {
	e := &encodings[s.n]
	_ = obs[e.Size-1]
	n := s.n
	me := seat >= 0 && seat < n
	if !me {
		seat = 0 // a spectator sees the table from seat 0, without private cards
	}
	rel := func(x int) int { return (x - seat + n) % n }

	part(e, obs, fPhase)[s.phase] = 1
	hole := s.hole + 1
	if s.phase == phaseOver {
		hole = s.hole
	}
	part(e, obs, fHole)[0] = float32(hole)
	left := s.holes - s.hole
	if s.phase == phaseOver {
		left = 0
	}
	part(e, obs, fHolesLeft)[0] = float32(left)
	part(e, obs, fDealer)[rel(s.dealer)] = 1
	p := part(e, obs, fToAct)
	for a := s.ToAct(); a != 0; {
		x := a.First()
		a = a.Remove(x)
		p[rel(x)] = 1
	}
	p = part(e, obs, fOut)
	if s.out >= 0 {
		p[rel(s.out)] = 1
	}
	p = part(e, obs, fFinalLeft)
	if s.phase == phaseFinalDraw || s.phase == phaseFinalHolding {
		p[0] = float32(s.left)
	}
	chosen := part(e, obs, fChosen)
	mine := part(e, obs, fMyReveal)
	if s.phase == phaseReveal {
		for i := 0; i < n; i++ {
			if s.chosen.Has(i) {
				chosen[rel(i)] = 1
			}
		}
		if me && s.chosen.Has(seat) {
			mine[s.choice[seat]] = 1
		}
	}

	down := part(e, obs, fFaceDown)
	lay := part(e, obs, fLayouts)
	vis := part(e, obs, fVisibleScore)
	for i := 0; i < n; i++ {
		r := rel(i)
		up := s.faceUp[i]
		for q := range 6 {
			if up&(1<<q) == 0 {
				down[r*6+q] = 1
			} else {
				putCard(lay[(r*6+q)*CardWidth:], s.layout[i][q])
			}
		}
		score := 0
		for k := range 3 {
			if both := uint8(1<<k | 1<<(k+3)); up&both == both {
				score += ColumnScore(s.layout[i][k], s.layout[i][k+3])
			}
		}
		vis[r] = float32(score)
	}

	holding := part(e, obs, fHolding)
	fromDis := part(e, obs, fFromDiscard)
	drawn := part(e, obs, fDrawn)
	hidden := false // another seat holds a card drawn from the stock
	if s.drawn != card.None {
		holding[0] = 1
		switch {
		case s.fromDis:
			fromDis[0] = 1
			putCard(drawn, s.drawn)
		case me && seat == s.turn:
			putCard(drawn, s.drawn)
		default:
			hidden = true
		}
	}

	top := part(e, obs, fDiscardTop)
	if s.nDiscard > 0 {
		putCard(top, s.discards[s.nDiscard-1])
	}
	p = part(e, obs, fDiscards)
	for _, c := range s.discards[:s.nDiscard] {
		p[CardIndex(c)]++
	}
	part(e, obs, fDiscardCount)[0] = float32(s.nDiscard)
	part(e, obs, fStockCount)[0] = float32(s.nStock)
	known := part(e, obs, fStockKnown)
	p = part(e, obs, fStockCards)
	if s.known {
		known[0] = 1
		for _, c := range s.stock[:s.nStock] {
			p[CardIndex(c)]++
		}
		if hidden {
			p[CardIndex(s.drawn)]++
		}
	}

	tot := part(e, obs, fTotals)
	last := part(e, obs, fLastHole)
	for i := 0; i < n; i++ {
		tot[rel(i)] = float32(s.totals[i])
	}
	if len(s.scores) >= n {
		for i, v := range s.scores[len(s.scores)-n:] {
			last[rel(i)] = float32(v)
		}
	}
}

// ActionID returns m's index in the action space: the move itself (see
// NumActions), or -1 for something that is not a Golf move.
func (s *State) ActionID(seat int, m game.Move) int {
	if m >= numMoves {
		return -1
	}
	return int(m)
}
