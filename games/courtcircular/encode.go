package courtcircular

import (
	"math/bits"

	"parlour/card"
	"parlour/game"
)

// The observation and action space of game.Encoder.
//
// Cards are indexed 0 to 51 as 4*(rank-1) + suit, the rank Ace = 1 to
// King = 13 and the suit in the order S H D C: A♠ A♥ A♦ A♣ 2♠ ... K♣. A
// card field of 52 entries holds 1 for each card in it. Fields "per seat"
// hold one block per player, relative to the observer: block 0 is the
// observer, block 1 the next seat clockwise, and so on.
//
// The action space, by edition:
//
//	0-51     play C                   C's card index
//	52-103   lead C                   52 + C's card index
//	104      resign                   (1860)
//	104-259  play C for D             104 + 52*slot + D's card index, slot
//	                                  the place (0-2) of C in the shared row (1862)
//	260-387  take C C ...             260 + a 7-bit mask over the trick's
//	                                  places, seen from the taker: bit 0
//	                                  the Lead, bits 1-3 her own cards No.
//	                                  1-3 in the order she played them,
//	                                  bits 4-6 the other player's (1862)

var _ game.Encoder = (*State)(nil)

// fieldID names a part of the observation vector.
type fieldID uint8

const (
	fPhase fieldID = iota
	fDeal
	fTarget
	fStock
	fHand
	fLead
	fTrickLead
	fNo5
	fShared
	fSetAside
	fTake
	fConceded
	fTurn
	fDealer
	fFirstHand
	fLeader
	fWinner
	fHandSize
	fPlayed
	fPlayedCount
	fResigned
	fLine
	fWonUp
	fWonDown
	fTricks
	fMarks
	fDealPoints
	fTotals
	fHits
	nFieldIDs
)

// Which editions carry a field.
const (
	in60 = 1 << iota
	in62
	inBoth = in60 | in62
)

// fieldSpec describes a field: its name (name62 in 1862, if different),
// the editions that have it, its size as base + perSeat*players, and its
// doc line.
type fieldSpec struct {
	id            fieldID
	name, name62  string
	editions      int
	base, perSeat int
	doc, doc62    string
	lines         bool // perSeat is the edition's number of line types
}

// Line types one-hot per seat: 1860 no line, class A (4 kinds x 3 or 4
// cards), class B (4 kinds), class C (3 kinds); 1862 no line and 3 kinds x
// without or with the Lead.
const (
	lineTypes60 = 16
	lineTypes62 = 7
)

var fieldSpecs = []fieldSpec{
	{id: fPhase, name: "phase", editions: inBoth, base: 4,
		doc: "one-hot phase: play, take (1862), lead (choosing the next Lead), over"},
	{id: fDeal, name: "deal", editions: inBoth, base: 1,
		doc: "the deal number, 1-based"},
	{id: fTarget, name: "target", editions: in60, base: 1,
		doc: "the points that win the game (option target)"},
	{id: fStock, name: "stock", editions: inBoth, base: 1,
		doc: "cards left in the stock"},
	{id: fHand, name: "hand", editions: inBoth, base: 52,
		doc: "the observer's hand, by card index"},
	{id: fLead, name: "lead", editions: inBoth, base: 52,
		doc: "the Lead on the board, one-hot by card index (empty once cleared or, 1862, taken)"},
	{id: fTrickLead, name: "trick_lead", editions: in62, base: 52,
		doc: "the Lead the current (or last) trick was played to, even once taken, one-hot by card index"},
	{id: fNo5, name: "no5_face_down", editions: in62, base: 1,
		doc: "1 while first-hand's No. 5 lies face down (before No. 6)"},
	{id: fShared, name: "shared", editions: in62, base: 52,
		doc: "the three face-up shared cards of the last trick, by card index"},
	{id: fSetAside, name: "set_aside", editions: in62, base: 52,
		doc: "the cards set aside (out of play) this deal, by card index"},
	{id: fTake, name: "take", editions: in62, base: 1,
		doc: "how many cards the trick's winner takes (take phase), else 0"},
	{id: fConceded, name: "conceded", editions: in60, base: 1,
		doc: "1 when the trick being settled was won because all the others resigned"},
	{id: fTurn, name: "turn", editions: inBoth, perSeat: 1,
		doc: "per seat: 1 for the seat to act (none once the match is over)"},
	{id: fDealer, name: "dealer", editions: inBoth, perSeat: 1,
		doc: "per seat: 1 for the dealer"},
	{id: fFirstHand, name: "first_hand", editions: inBoth, perSeat: 1,
		doc: "per seat: 1 for the trick's designated first-hand"},
	{id: fLeader, name: "leader", editions: inBoth, perSeat: 1,
		doc: "per seat: 1 for the seat that played the trick's first card (none before)"},
	{id: fWinner, name: "winner", editions: inBoth, perSeat: 1,
		doc: "per seat: 1 for the winner of the trick being settled (or the deal's last trick)"},
	{id: fHandSize, name: "hand_size", editions: inBoth, perSeat: 1,
		doc: "per seat: cards in hand"},
	{id: fPlayed, name: "played", editions: inBoth, perSeat: 52,
		doc:   "per seat: its cards of this trick still on the table, by card index",
		doc62: "per seat: its cards of this trick still on the table, by card index; a face-down No. 5 only for its player (or when it was a shared card)"},
	{id: fPlayedCount, name: "played_count", editions: inBoth, perSeat: 1,
		doc: "per seat: cards it has played in this trick (0-3), a face-down No. 5 included"},
	{id: fResigned, name: "resigned", editions: in60, perSeat: 1,
		doc: "per seat: 1 when it has resigned the trick"},
	{id: fLine, name: "line", editions: inBoth, lines: true,
		doc:   "per seat, 16 each: its best Line in the trick being settled, one-hot: no line; class A Court, Court of 4, Sympathy, Sympathy of 4, Sequence, Sequence of 4, Trio, Trio of 4; class B Court, Sympathy, Sequence, Trio; class C Etiquette, Valentine, Pair (all 0 while playing or for a resigned seat)",
		doc62: "per seat, 7 each: its best Line in the trick being settled, one-hot: no line; Suit without, with the Lead; Sequence without, with; Trio without, with (all 0 while playing)"},
	{id: fWonUp, name: "won_up", name62: "won", editions: inBoth, perSeat: 52,
		doc:   "per seat: the cards it has won face up this deal, by card index",
		doc62: "per seat: the cards it has won this deal, by card index"},
	{id: fWonDown, name: "won_down", editions: in60, perSeat: 52,
		doc: "per seat: the cards it has won face down this deal, by card index"},
	{id: fTricks, name: "tricks", editions: inBoth, perSeat: 1,
		doc: "per seat: tricks won this deal"},
	{id: fMarks, name: "marks", editions: in60, perSeat: 1,
		doc: "per seat: marks of the cards won this deal (2 face up, 1 face down, +1 Heart, +1 court card)"},
	{id: fDealPoints, name: "deal_points", editions: inBoth, perSeat: 1,
		doc:   "per seat: what the deal would score if it ended now (its marks less the lowest marks)",
		doc62: "per seat: what the deal would score if it ended now (1 a trick beyond four, 2 for most cards, 1 for most court cards, Aces included)"},
	{id: fTotals, name: "totals", editions: inBoth, perSeat: 1,
		doc:   "per seat: match total",
		doc62: "per seat: points towards the next Hit"},
	{id: fHits, name: "hits", editions: in62, perSeat: 1,
		doc: "per seat: Hits won (two win the Rubber)"},
}

// layout is an edition's encoding for a number of players, with each
// field's offset (-1 for a field the edition lacks).
type layout struct {
	enc game.Encoding
	off [nFieldIDs]int
}

// layouts[e62][players] are built once.
var layouts [2][MaxPlayers + 1]layout

// Action-space offsets.
const (
	actPlay    = 0
	actLead    = 52
	actResign  = 104 // 1860
	actSwap    = 104 // 1862
	actTake    = actSwap + 3*52
	actions60  = actResign + 1
	actions62  = actTake + 128
	actionDoc0 = "play C = C's card index 4*(rank-1)+suit (A=1..K=13, suits S H D C); lead C = 52 + C's index; "
)

func init() {
	for e := 0; e < 2; e++ {
		for n := 2; n <= MaxPlayers; n++ {
			if e == 1 && n != 2 {
				continue
			}
			layouts[e][n] = buildLayout(e == 1, n)
		}
	}
}

func buildLayout(e62 bool, n int) layout {
	var l layout
	var fs []game.Field
	var ids []fieldID
	for _, f := range fieldSpecs {
		if e62 && f.editions&in62 == 0 || !e62 && f.editions&in60 == 0 {
			continue
		}
		name, doc, per := f.name, f.doc, f.perSeat
		if e62 && f.name62 != "" {
			name = f.name62
		}
		if e62 && f.doc62 != "" {
			doc = f.doc62
		}
		switch {
		case f.lines && e62:
			per = lineTypes62
		case f.lines:
			per = lineTypes60
		}
		fs = append(fs, game.Field{Name: name, Size: f.base + per*n, Doc: doc})
		ids = append(ids, f.id)
	}
	l.enc = game.NewEncoding(fs...)
	for i := range l.off {
		l.off[i] = -1
	}
	for i, id := range ids {
		l.off[id] = l.enc.Fields[i].Offset
	}
	if e62 {
		l.enc.Actions = actions62
		l.enc.ActionDoc = actionDoc0 + "play C for D = 104 + 52*(C's place 0-2 in the shared row) + D's index; " +
			"take = 260 + a 7-bit mask over the trick seen from the taker (bit 0 the Lead, bits 1-3 her own cards in the order played, bits 4-6 the other's)"
	} else {
		l.enc.Actions = actions60
		l.enc.ActionDoc = actionDoc0 + "resign = 104"
	}
	return l
}

// layout returns the state's layout.
func (s *State) layout() *layout {
	if s.cfg.e62 {
		return &layouts[1][s.n]
	}
	return &layouts[0][s.n]
}

// Encoding describes the observation vector and the action space; they
// depend on the edition and the number of players.
func (s *State) Encoding() game.Encoding { return s.layout().enc.Clone() }

// cardIndex is a card's place 0-51 in the encoding.
func cardIndex(c card.Card) int { return int(c) - 4 }

// putCards sets obs[off+index] for each card of cs.
func putCards(obs []float32, off int, cs card.Set) {
	for x := uint64(cs); x != 0; x &= x - 1 {
		obs[off+bits.TrailingZeros64(x)-4] = 1
	}
}

// putCard sets obs[off+index] for c, unless c is None.
func putCard(obs []float32, off int, c card.Card) {
	if c != card.None {
		obs[off+cardIndex(c)] = 1
	}
}

// Observe writes seat's observation into obs (Encoding().Size entries):
// everything public, its own hand, and a face-down No. 5 only when seat
// played it (or it was a shared card). It does not allocate.
func (s *State) Observe(seat int, obs []float32) {
	l := s.layout()
	obs = obs[:l.enc.Size]
	clear(obs)
	off := &l.off
	n := s.n
	rel := func(q int) int { return (q - seat + n) % n }
	perSeat := func(id fieldID, q int, v float32) {
		if q >= 0 {
			obs[off[id]+rel(q)] = v
		}
	}

	obs[off[fPhase]+int(s.phase)] = 1
	obs[off[fDeal]] = float32(s.deal + 1)
	obs[off[fStock]] = float32(s.nStock)
	putCards(obs, off[fHand], s.hands[seat])
	putCard(obs, off[fLead], s.lead)
	if s.cfg.e62 {
		putCard(obs, off[fTrickLead], s.trickLead)
		if s.hidden {
			obs[off[fNo5]] = 1
		}
		for _, c := range s.shared {
			putCard(obs, off[fShared], c)
		}
		putCards(obs, off[fSetAside], s.dead)
		if s.phase == phaseTake {
			obs[off[fTake]] = float32(s.takeN)
		}
	} else {
		obs[off[fTarget]] = float32(s.cfg.target)
		if s.conceded {
			obs[off[fConceded]] = 1
		}
	}

	if s.phase != phaseOver {
		perSeat(fTurn, s.turn, 1)
	}
	perSeat(fDealer, s.dealer, 1)
	perSeat(fFirstHand, s.first, 1)
	perSeat(fLeader, s.leader, 1)
	perSeat(fWinner, s.winner, 1)

	hideNo5 := s.hidden && !s.hiddenKnown && seat != s.leader
	settling := s.phase == phaseTake || s.phase == phaseLead
	lineTypes := lineTypes60
	if s.cfg.e62 {
		lineTypes = lineTypes62
	}
	var marks [MaxPlayers]int
	low := 1 << 30
	for q := 0; q < n; q++ {
		r := rel(q)
		obs[off[fHandSize]+r] = float32(s.hands[q].Len())
		var played card.Set
		for i, c := range s.played[q][:s.nPlayed[q]] {
			if s.table.Has(c) && !(hideNo5 && q == s.leader && i == 2) {
				played = played.Add(c)
			}
		}
		putCards(obs, off[fPlayed]+52*r, played)
		obs[off[fPlayedCount]+r] = float32(s.nPlayed[q])
		if settling && !s.resigned.Has(q) && !s.conceded {
			obs[off[fLine]+lineTypes*r+s.lineType(q)] = 1
		}
		putCards(obs, off[fWonUp]+52*r, s.wonUp[q])
		obs[off[fTricks]+r] = float32(s.tricksWon[q])
		obs[off[fTotals]+r] = float32(s.totals[q])
		if s.cfg.e62 {
			obs[off[fHits]+r] = float32(s.hits[q])
		} else {
			if s.resigned.Has(q) {
				obs[off[fResigned]+r] = 1
			}
			putCards(obs, off[fWonDown]+52*r, s.wonDown[q])
			marks[q] = Marks(s.wonUp[q], s.wonDown[q])
			obs[off[fMarks]+r] = float32(marks[q])
			low = min(low, marks[q])
		}
	}
	if s.cfg.e62 {
		pts := s.dealPoints62()
		for q := 0; q < 2; q++ {
			obs[off[fDealPoints]+rel(q)] = float32(pts[q])
		}
	} else {
		for q := 0; q < n; q++ {
			obs[off[fDealPoints]+rel(q)] = float32(marks[q] - low)
		}
	}
}

// lineType is seat q's best line in the trick being settled, as an index
// of the "line" field's one-hot block.
func (s *State) lineType(q int) int {
	k := s.keys[q]
	kind := int(k >> 8 & 7)
	long := int(k >> 7 & 1)
	if kind == int(NoLine) {
		return 0
	}
	if s.cfg.e62 {
		return 1 + (kind-1)*2 + long
	}
	switch int(k >> 11) {
	case ClassA:
		return 1 + (kind-1)*2 + long
	case ClassB:
		return 9 + kind - 1
	default: // ClassC
		return 13 + kind - 1
	}
}

// dealPoints62 is what each 1862 player would score if the deal ended now:
// 1 per trick beyond four, 2 for most cards, 1 for most court cards.
func (s *State) dealPoints62() [2]int {
	var pts [2]int
	for p := 0; p < 2; p++ {
		if t := int(s.tricksWon[p]); t > 4 {
			pts[p] += t - 4
		}
	}
	if a, b := s.wonUp[0].Len(), s.wonUp[1].Len(); a != b {
		pts[firstIf(a > b)] += 2
	}
	if a, b := courts62(s.wonUp[0]), courts62(s.wonUp[1]); a != b {
		pts[firstIf(a > b)]++
	}
	return pts
}

// ActionID returns m's index in the action space (see Encoding's
// ActionDoc), for a move legal for seat now; -1 for a move outside the
// space.
func (s *State) ActionID(seat int, m game.Move) int {
	switch verb(m) {
	case vPlay:
		return actPlay + cardIndex(moveCard(m))
	case vLead:
		return actLead + cardIndex(moveCard(m))
	case vResign:
		if !s.cfg.e62 && m == Resign {
			return actResign
		}
	case vSwap:
		if s.cfg.e62 {
			for slot, c := range s.shared {
				if c == moveCard(m) && c != card.None {
					return actSwap + 52*slot + cardIndex(forCard(m))
				}
			}
		}
	case vTake:
		if s.cfg.e62 {
			return actTake + s.takeMask(seat, takeSet(m))
		}
	}
	return -1
}

// takeMask maps a set of cards on the table to the trick's places seen
// from seat: bit 0 the Lead, bits 1-3 seat's cards in the order played,
// bits 4-6 the other player's.
func (s *State) takeMask(seat int, cs card.Set) int {
	mask := 0
	if s.lead != card.None && cs.Has(s.lead) {
		mask |= 1
	}
	for q := 0; q < 2; q++ {
		base := 1
		if q != seat {
			base = 4
		}
		for i, c := range s.played[q][:s.nPlayed[q]] {
			if cs.Has(c) {
				mask |= 1 << (base + i)
			}
		}
	}
	return mask
}
