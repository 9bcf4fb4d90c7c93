package damn

import (
	"math/bits"

	"parlour/card"
	"parlour/game"
)

// The observation vector and the action space for learning programs
// (game.Encoder).
//
// Cards are indexed 0-51 rank by rank, suits S H D C within a rank:
// index = (rank-1)*4 + suit, so AS is 0, AC 3, 2S 4, KC 51. Seats are
// relative to the observer: block 0 is the observer, block 1 the seat on its
// left (the next to play after it), and so on.
//
// A card's place, as the observer knows it, is in exactly one of: its own
// hand, the play pile, a pick-up awaiting keep, a seat's hand or support
// pile it was seen going into (a picked-up play pile, a random-pile
// pick-up), or unseen. Blind cards (support and random piles, the central
// deck) are never shown, not even to their owner; only their counts are.

var _ game.Encoder = (*State)(nil)

// The observation's fields, in order.
const (
	fHands = iota
	fSupports
	fPile
	fTop
	fPicked
	fUnseen
	fPileSize
	fCentral
	fHandSizes
	fSupportSizes
	fRandomSizes
	fHeld
	fTurn
	fDealer
	fOut
	fPending
	fOver
	fUnresolved
	fTurns
	fTurnsLeft
	numFields
)

// The action space: plays, then turn, pickup and random, then keeps.
const (
	idTurn   = packSize
	idPickup = packSize + 1
	idRandom = packSize + 2
	idKeep   = packSize + 3
	// numKeeps is the number of four-card sets of the pack, C(52, 4).
	numKeeps = 270725
)

// binom[k][m] is m choose k, for k up to 4.
var binom = func() (b [5][packSize + 1]int) {
	for m := 0; m <= packSize; m++ {
		b[0][m] = 1
		for k := 1; k <= 4 && k <= m; k++ {
			b[k][m] = b[k-1][m-1] + b[k][m-1]
		}
	}
	return b
}()

// encodings holds the layout for each player count, built once.
var encodings = func() (e [MaxPlayers + 1]game.Encoding) {
	for n := 2; n <= MaxPlayers; n++ {
		e[n] = newEncoding(n)
	}
	return e
}()

func newEncoding(n int) game.Encoding {
	f := make([]game.Field, numFields)
	f[fHands] = game.Field{Name: "hands", Size: n * packSize, Doc: "per relative seat and card: block 0 the observer's own hand; other blocks the cards seen going into that seat's hand (a random-pile pick-up, a keep)"}
	f[fSupports] = game.Field{Name: "supports", Size: n * packSize, Doc: "per relative seat and card: cards seen going into that seat's support pile (a picked-up pile, a keep; marked in hands too when they may be in either)"}
	f[fPile] = game.Field{Name: "pile", Size: packSize, Doc: "the cards of the play pile"}
	f[fTop] = game.Field{Name: "top", Size: packSize, Doc: "one-hot top card of the play pile (all 0: empty, any card fits)"}
	f[fPicked] = game.Field{Name: "picked_up", Size: packSize, Doc: "the public random-pile pick-up the seat to act keeps four of"}
	f[fUnseen] = game.Field{Name: "unseen", Size: packSize, Doc: "cards whose place the observer does not know (central deck, blind piles, others' hands)"}
	f[fPileSize] = game.Field{Name: "pile_size", Size: 1, Doc: "cards in the play pile"}
	f[fCentral] = game.Field{Name: "central", Size: 1, Doc: "cards left in the central deck"}
	f[fHandSizes] = game.Field{Name: "hand_sizes", Size: n, Doc: "per relative seat, its hand cards"}
	f[fSupportSizes] = game.Field{Name: "support_sizes", Size: n, Doc: "per relative seat, its support pile cards"}
	f[fRandomSizes] = game.Field{Name: "random_sizes", Size: n, Doc: "per relative seat, its random pile cards"}
	f[fHeld] = game.Field{Name: "held", Size: n, Doc: "per relative seat, all the cards it holds (a pick-up it keeps from included): the score"}
	f[fTurn] = game.Field{Name: "turn", Size: n, Doc: "one-hot relative seat whose turn it is (all 0 once over)"}
	f[fDealer] = game.Field{Name: "dealer", Size: n, Doc: "one-hot relative seat of the dealer"}
	f[fOut] = game.Field{Name: "out", Size: n, Doc: "per relative seat, the 1-based order in which it went out, 0 while in"}
	f[fPending] = game.Field{Name: "keep_due", Size: 1, Doc: "1 while the seat to act must keep four cards of its pick-up"}
	f[fOver] = game.Field{Name: "over", Size: 1, Doc: "1 once the game is over"}
	f[fUnresolved] = game.Field{Name: "unresolved", Size: 1, Doc: "1 if the game ended on the turn cap, without a loser"}
	f[fTurns] = game.Field{Name: "turns", Size: 1, Doc: "turns completed"}
	f[fTurnsLeft] = game.Field{Name: "turns_left", Size: 1, Doc: "turns left before the turn cap (max_turns) ends the game unresolved"}
	e := game.NewEncoding(f...)
	e.Actions = idKeep + numKeeps
	e.ActionDoc = "play C: card index (rank-1)*4+suit(S H D C), 0-51; turn 52; pickup 53; random 54; keep a<b<c<d (card indices): 55 + C(a,1)+C(b,2)+C(c,3)+C(d,4), the combinatorial number of the four-card set (270725 ids)"
	return e
}

// Encoding describes the observation vector and the action space for the
// game's number of players.
func (s *State) Encoding() game.Encoding { return encodings[s.n].Clone() }

// cardIndex returns c's index, 0-51.
func cardIndex(c card.Card) int { return int(c) - 4 }

// Observe writes seat's observation into obs (Encoding().Size entries).
// For game.Spectator it writes the public information, relative to seat 0.
func (s *State) Observe(seat int, obs []float32) {
	e := &encodings[s.n]
	obs = obs[:e.Size]
	clear(obs)
	n := s.n
	own := seat >= 0 && seat < n
	base := seat
	if !own {
		base = 0
	}
	field := func(i int) []float32 {
		f := &e.Fields[i]
		return obs[f.Offset : f.Offset+f.Size]
	}
	rel := func(i int) int { // relative block of seat i
		r := i - base
		if r < 0 {
			r += n
		}
		return r
	}

	// Where each card is, as the observer knows it.
	var hand, pile, pick card.Set
	if own {
		hand = card.SetOf(s.hand[seat][:s.nHand[seat]]...)
	}
	pile = card.SetOf(s.pile[:s.nPile]...)
	pick = card.SetOf(s.pick[:s.nPick]...)
	hands, supports, unseen := field(fHands), field(fSupports), field(fUnseen)
	var ownBit uint16
	if own {
		ownBit = handBit(seat)
	}
	const seatBits = uint16(1)<<pRandom - 1 // the hand and support bits
	for _, c := range pack52 {
		i := cardIndex(c)
		switch {
		case hand.Has(c):
			hands[i] = 1
		case pile.Has(c), pick.Has(c):
		default:
			k := s.known[c] &^ ownBit
			if k&^seatBits != 0 || k == 0 {
				unseen[i] = 1
				break
			}
			for p := 0; p < n; p++ {
				r := rel(p)
				if k&handBit(p) != 0 {
					hands[r*packSize+i] = 1
				}
				if k&supportBit(p) != 0 {
					supports[r*packSize+i] = 1
				}
			}
		}
	}
	setCards(field(fPile), pile)
	setCards(field(fPicked), pick)
	if s.nPile > 0 {
		field(fTop)[cardIndex(s.pile[s.nPile-1])] = 1
	}
	field(fPileSize)[0] = float32(s.nPile)
	field(fCentral)[0] = float32(s.nCentral)

	hs, ss, rs, held, out := field(fHandSizes), field(fSupportSizes), field(fRandomSizes), field(fHeld), field(fOut)
	for i := 0; i < n; i++ {
		r := rel(i)
		hs[r] = float32(s.nHand[i])
		ss[r] = float32(s.nSupport[i])
		rs[r] = float32(s.nRandom[i])
		held[r] = float32(s.held(i))
	}
	for k, i := range s.outOrder[:s.nOut] {
		out[rel(i)] = float32(k + 1)
	}
	if !s.over {
		field(fTurn)[rel(s.turn)] = 1
	}
	field(fDealer)[rel(s.dealer)] = 1
	if s.pending {
		field(fPending)[0] = 1
	}
	if s.over {
		field(fOver)[0] = 1
	}
	if s.capped {
		field(fUnresolved)[0] = 1
	}
	field(fTurns)[0] = float32(s.turns)
	field(fTurnsLeft)[0] = float32(max(s.maxTurns-s.turns, 0))
}

// setCards marks the cards of set in dst, by card index.
func setCards(dst []float32, set card.Set) {
	for ; set != 0; set &= set - 1 {
		dst[cardIndex(card.Card(bits.TrailingZeros64(uint64(set))))] = 1
	}
}

// ActionID returns m's index in the action space (see Encoding().ActionDoc):
// a play the card's index (0-51); turn, pickup and random 52, 53 and 54; a
// keep 55 plus the combinatorial number of its four card indices, which
// numbers every four-card set of the pack exactly once. It does not depend
// on seat. It returns -1 for a move that is not a Damn move.
func (s *State) ActionID(seat int, m game.Move) int {
	switch {
	case m == mTurn:
		return idTurn
	case m == mPickup:
		return idPickup
	case m == mRandom:
		return idRandom
	case isPlay(m):
		return cardIndex(card.Card(m))
	case isKeep(m):
		id, k := idKeep, 1
		for set := uint64(keepSet(m)); set != 0; set &= set - 1 {
			id += binom[k][cardIndex(card.Card(bits.TrailingZeros64(set)))]
			k++
		}
		return id
	}
	return -1
}
