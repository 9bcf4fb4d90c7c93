package damn

import (
	"fmt"
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
)

const packSize = 52

var (
	pack52  = card.Pack52()
	packSet = card.SetOf(pack52...)
)

// The hidden piles, as bits of a knowledge mask: hand, support and random
// of each seat, and the central deck.
const (
	pHand    = 0 // + seat
	pSupport = 4 // + seat
	pRandom  = 8 // + seat
	pCentral = 12
	maskAll  = uint16(1)<<13 - 1
)

func handBit(seat int) uint16    { return 1 << (pHand + seat) }
func supportBit(seat int) uint16 { return 1 << (pSupport + seat) }

// fixedDeal is the deal a layout fixes: nil entries are shuffled.
type fixedDeal struct {
	hands, support, random [MaxPlayers][]card.Card // piles top first
	central                []card.Card             // top first
	placed                 []card.Card
}

// State is a Damn game in progress. It is a flat value: Clone is a copy.
//
// Piles are stacks with the top card last. known holds, per card, the
// hidden piles a spectator knows the card may be in (maskAll when nothing
// is known); a seat knows that much and, besides, its own hand.
type State struct {
	n        int
	dealer   int
	turn     int // seat whose turn it is
	maxTurns int
	turns    int // turns completed
	over     bool
	capped   bool // over because of max_turns: unresolved
	pending  bool // turn holds a random-pile pick-up of more than four cards: keep
	// mixed holds the seats whose support pile has been shuffled since the
	// deal. Its order is then drawn lazily: its top card is a card drawn at
	// random from it when it is taken, which is the same as shuffling the
	// whole pile at once, and cheaper.
	mixed game.Seats

	nOut     int
	outOrder [MaxPlayers]int
	outSet   game.Seats

	hand     [MaxPlayers][4]card.Card // in the order received
	nHand    [MaxPlayers]int
	support  [MaxPlayers][packSize]card.Card
	nSupport [MaxPlayers]int
	random   [MaxPlayers][4]card.Card
	nRandom  [MaxPlayers]int
	central  [packSize]card.Card
	nCentral int
	pile     [packSize]card.Card // the play pile
	nPile    int
	pick     [packSize]card.Card // picked up, awaiting keep
	nPick    int

	known [64]uint16
	rng   game.RNG

	fixed       *fixedDeal       // the layout of the deal, or nil
	firstDealer int              // the dealer option: a seat, or game.DealerRandom
	watch       func(game.State) // WatchDeals's watcher, or nil
}

var (
	_ game.State           = (*State)(nil)
	_ game.Copier          = (*State)(nil)
	_ game.Resampler       = (*State)(nil)
	_ game.ResultFiller    = (*State)(nil)
	_ game.VisibleAppender = (*State)(nil)
)

// New starts a game. opts must come from game.Resolve(Game{}, ...). Only the
// first layout is used (Damn is one deal); every layout is checked.
func (Game) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	s := &State{n: opts.Players(), maxTurns: opts.Int("max_turns"), rng: game.NewRNG(seed)}
	if s.n < 2 || s.n > MaxPlayers {
		return nil, &game.OptionError{Game: "damn", Option: "players", Reason: "must be 2 to 4"}
	}
	if s.maxTurns <= 0 {
		s.maxTurns = DefaultMaxTurns
	}
	fixed, err := game.ParseDeals(deals, func(_ int, l game.Layout) (*fixedDeal, error) { return parseDeal(l, s.n) })
	if err != nil {
		return nil, err
	}
	if len(fixed) > 0 {
		s.fixed = fixed[0]
	}
	s.firstDealer = opts.Dealer()
	s.start()
	return s, nil
}

// start deals the game; the state holds only its settings and a freshly
// seeded RNG.
func (s *State) start() {
	s.dealer = s.firstDealer
	if s.dealer == game.DealerRandom {
		s.dealer = s.rng.IntN(s.n)
	}
	s.deal(s.fixed)
}

// Reset starts the same game again from seed, reusing the state's memory.
func (s *State) Reset(seed uint64) {
	*s = State{n: s.n, maxTurns: s.maxTurns, rng: game.NewRNG(seed),
		fixed: s.fixed, firstDealer: s.firstDealer, watch: s.watch}
	s.start()
}

// WatchDeals sets f to be called when the game (Damn's one deal) ends,
// inside its last move, with the cards still where they were.
func (s *State) WatchDeals(f func(game.State)) { s.watch = f }

func parseDeal(l game.Layout, n int) (*fixedDeal, error) {
	if err := l.Keys("hands", "support", "random", "central"); err != nil {
		return nil, err
	}
	d := &fixedDeal{}
	for _, p := range []struct {
		key string
		dst *[MaxPlayers][]card.Card
	}{{"hands", &d.hands}, {"support", &d.support}, {"random", &d.random}} {
		seats, _, err := l.SeatCards(p.key, n)
		if err != nil {
			return nil, err
		}
		for i, cs := range seats {
			if cs == nil {
				continue
			}
			if len(cs) != 4 {
				return nil, game.BadLayout("%s[%d] has %d cards; it must have 4", p.key, i, len(cs))
			}
			p.dst[i] = cs
			d.placed = append(d.placed, cs...)
		}
	}
	central, _, err := l.Cards("central")
	if err != nil {
		return nil, err
	}
	if max := packSize - 12*n; len(central) > max {
		return nil, game.BadLayout("the central deck lists %d cards; with %d players it holds %d", len(central), n, max)
	}
	d.central = central
	d.placed = append(d.placed, central...)
	if _, err := game.Remaining(pack52, d.placed); err != nil {
		return nil, err
	}
	return d, nil
}

// deal shuffles and deals (laying the fixed cards first), splits each
// player's twelve cards blind (first four support, next four random, last
// four hand) and turns the first card of the play pile.
func (s *State) deal(fd *fixedDeal) {
	var buf [packSize]card.Card
	var rest []card.Card
	var none fixedDeal
	if fd == nil {
		fd = &none
		rest = append(buf[:0], pack52...)
	} else {
		r, _ := game.Remaining(pack52, fd.placed) // checked in New
		rest = append(buf[:0], r...)
	}
	game.Shuffle(&s.rng, rest)
	next := len(rest)
	take := func() card.Card { next--; return rest[next] }
	for i := 1; i <= s.n; i++ {
		seat := (s.dealer + i) % s.n
		for k := range 4 {
			if f := fd.support[seat]; f != nil {
				s.support[seat][3-k] = f[k]
			} else {
				s.support[seat][k] = take()
			}
		}
		for k := range 4 {
			if f := fd.random[seat]; f != nil {
				s.random[seat][3-k] = f[k]
			} else {
				s.random[seat][k] = take()
			}
		}
		for k := range 4 {
			if f := fd.hands[seat]; f != nil {
				s.hand[seat][k] = f[k]
			} else {
				s.hand[seat][k] = take()
			}
		}
		s.nSupport[seat], s.nRandom[seat], s.nHand[seat] = 4, 4, 4
	}
	s.nCentral = copy(s.central[:], rest[:next])
	for k := len(fd.central) - 1; k >= 0; k-- {
		s.central[s.nCentral] = fd.central[k]
		s.nCentral++
	}
	for _, c := range pack52 {
		s.known[c] = maskAll
	}
	s.nCentral--
	s.pile[0] = s.central[s.nCentral]
	s.nPile = 1
	s.turn = (s.dealer + 1) % s.n
}

// Game returns Game{}.
func (s *State) Game() game.Game { return Game{} }

// Players returns the number of seats.
func (s *State) Players() int { return s.n }

// ToAct returns the seat whose turn it is, or none once the game is over.
func (s *State) ToAct() game.Seats {
	if s.over {
		return 0
	}
	return game.SeatsOf(s.turn)
}

// top returns the top card of the play pile, or card.None when it is empty.
func (s *State) top() card.Card {
	if s.nPile == 0 {
		return card.None
	}
	return s.pile[s.nPile-1]
}

// Legal appends seat's legal moves to buf.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	if s.over || seat != s.turn {
		return buf
	}
	if s.pending {
		p := s.pick[:s.nPick]
		for a := 0; a < len(p); a++ {
			ma := mKeep | 1<<p[a]
			for b := a + 1; b < len(p); b++ {
				mb := ma | 1<<p[b]
				for c := b + 1; c < len(p); c++ {
					mc := mb | 1<<p[c]
					for d := c + 1; d < len(p); d++ {
						buf = append(buf, mc|1<<p[d])
					}
				}
			}
		}
		return buf
	}
	nh, ns := s.nHand[seat], s.nSupport[seat]
	if nh == 0 && ns == 0 {
		return append(buf, mRandom)
	}
	fit := uint16(1<<14 - 2) // every rank fits on an empty pile
	if s.nPile > 0 {
		fit = fitTable[s.pile[s.nPile-1].Rank()]
	}
	for _, c := range s.hand[seat][:nh] {
		if fit&(1<<c.Rank()) != 0 {
			buf = append(buf, Play(c))
		}
	}
	if ns > 0 {
		buf = append(buf, mTurn)
	}
	if s.nPile > 0 {
		buf = append(buf, mPickup)
	}
	return buf
}

// Explain says why game.Apply refuses seat's move m, or "" when it has
// nothing to add (the seat is not to act) or finds the move legal. It
// agrees with Legal without listing the keep moves.
func (s *State) Explain(seat int, m game.Move) string {
	if s.over || seat != s.turn {
		return ""
	}
	if !isPlay(m) && !isKeep(m) && m != mTurn && m != mPickup && m != mRandom {
		return "not a damn move"
	}
	if s.pending {
		if !isKeep(m) {
			return fmt.Sprintf("you picked up %d cards: first keep four of them as your new hand (keep C C C C)", s.nPick)
		}
		if missing := keepSet(m) &^ s.pickSet(); missing != 0 {
			return fmt.Sprintf("%s not picked up (you picked up %s)", listCards(missing), card.Join(sorted(s.pick[:s.nPick])))
		}
		return ""
	}
	if isKeep(m) {
		return "there is nothing to keep: keep follows a random-pile pick-up of more than four cards"
	}
	nh, ns := s.nHand[seat], s.nSupport[seat]
	if nh == 0 && ns == 0 {
		if m != mRandom {
			return "your hand and support pile are empty: turn your random card (random)"
		}
		return ""
	}
	switch m {
	case mRandom:
		return "the random pile is used only when your hand and support pile are both empty"
	case mTurn:
		if ns == 0 {
			return "your support pile is empty"
		}
	case mPickup:
		if s.nPile == 0 {
			return "the play pile is empty: start a new one with any card"
		}
	default:
		c := card.Card(m)
		if !s.inHand(seat, c) {
			return fmt.Sprintf("%v is not in your hand", c)
		}
		if top := s.top(); !Fits(c, top) {
			lo, hi := neighbours(top.Rank())
			return fmt.Sprintf("%v does not fit on %v (it needs %s or %s)", c, top, article(lo), article(hi))
		}
	}
	return ""
}

// neighbours returns the ranks one below and one above r, round the corner.
func neighbours(r card.Rank) (card.Rank, card.Rank) {
	return (r+11)%13 + 1, r%13 + 1
}

// article returns the rank with its indefinite article: "an A", "a 3".
func article(r card.Rank) string {
	if r == card.Ace || r == card.Eight {
		return "an " + r.String()
	}
	return "a " + r.String()
}

func (s *State) inHand(seat int, c card.Card) bool {
	for _, h := range s.hand[seat][:s.nHand[seat]] {
		if h == c {
			return true
		}
	}
	return false
}

func (s *State) pickSet() card.Set { return card.SetOf(s.pick[:s.nPick]...) }

func listCards(set card.Set) string {
	cs := set.Cards()
	if len(cs) == 1 {
		return cs[0].String() + " was"
	}
	return card.Join(cs) + " were"
}

// sorted returns the cards in Damn's rank order (A 2 ... K, then S H D C).
func sorted(cs []card.Card) []card.Card { return card.SetOf(cs...).Cards() }

// ApplyFast applies a legal move without checks.
func (s *State) ApplyFast(seat int, m game.Move) {
	switch {
	case m == mTurn:
		c := s.popSupport(seat)
		fits := Fits(c, s.top())
		s.pile[s.nPile] = c
		s.nPile++
		if fits {
			s.played(seat)
		} else {
			s.collect(seat) // the turned card goes back with the pile
		}
	case m == mPickup:
		s.collect(seat)
	case m == mRandom:
		s.nRandom[seat]--
		c := s.random[seat][s.nRandom[seat]]
		if Fits(c, s.top()) {
			s.pile[s.nPile] = c
			s.nPile++
			s.played(seat)
			break
		}
		s.nPick = copy(s.pick[:], s.pile[:s.nPile])
		s.pick[s.nPick] = c
		s.nPick++
		s.nPile = 0
		if s.nPick > 4 {
			s.pending = true
			return // the turn goes on with keep
		}
		for _, x := range s.pick[:s.nPick] {
			s.hand[seat][s.nHand[seat]] = x
			s.nHand[seat]++
			s.known[x] = handBit(seat)
		}
		s.nPick = 0
	case m&mKeep != 0:
		keep := keepSet(m)
		zone := handBit(seat) | supportBit(seat)
		for _, x := range s.pick[:s.nPick] {
			if keep.Has(x) {
				s.hand[seat][s.nHand[seat]] = x
				s.nHand[seat]++
			} else {
				s.support[seat][s.nSupport[seat]] = x
				s.nSupport[seat]++
			}
			s.known[x] = zone
		}
		s.nPick = 0
		s.pending = false
		s.mixed = s.mixed.Add(seat) // shuffled
	default: // play from hand
		c := card.Card(m)
		h := &s.hand[seat]
		nh := s.nHand[seat]
		for i := 0; i < nh; i++ {
			if h[i] == c {
				copy(h[i:nh], h[i+1:nh])
				break
			}
		}
		nh--
		s.pile[s.nPile] = c
		s.nPile++
		switch {
		case s.nCentral > 0:
			s.nCentral--
			h[nh] = s.central[s.nCentral]
			nh++
		case s.nSupport[seat] > 0:
			x := s.popSupport(seat)
			ns := s.nSupport[seat]
			h[nh] = x
			nh++
			// Others do not know which support card went to hand.
			hb := handBit(seat)
			s.known[x] |= hb
			for _, y := range s.support[seat][:ns] {
				s.known[y] |= hb
			}
		}
		s.nHand[seat] = nh
		s.played(seat)
	}
	s.endTurn()
}

// collect moves the play pile into seat's support pile and shuffles it.
func (s *State) collect(seat int) {
	sb := supportBit(seat)
	ns := s.nSupport[seat]
	for _, c := range s.pile[:s.nPile] {
		s.support[seat][ns] = c
		ns++
		s.known[c] = sb
	}
	s.nSupport[seat] = ns
	s.nPile = 0
	s.mixed = s.mixed.Add(seat) // shuffled
}

// popSupport removes and returns the top card of seat's support pile; once
// the pile has been shuffled, that is a card drawn at random from it.
func (s *State) popSupport(seat int) card.Card {
	ns := s.nSupport[seat] - 1
	p := &s.support[seat]
	if s.mixed.Has(seat) && ns > 0 {
		j := s.rng.IntN(ns + 1)
		p[j], p[ns] = p[ns], p[j]
	}
	s.nSupport[seat] = ns
	return p[ns]
}

// played checks, after seat got a card onto the pile, whether it is out of
// cards, and whether the game is over.
func (s *State) played(seat int) {
	if s.nHand[seat]+s.nSupport[seat]+s.nRandom[seat] > 0 {
		return
	}
	s.outOrder[s.nOut] = seat
	s.nOut++
	s.outSet = s.outSet.Add(seat)
	if s.nOut == s.n-1 {
		s.over = true
	}
}

// endTurn counts the turn and passes it to the next player still in.
func (s *State) endTurn() {
	s.turns++
	if !s.over && s.turns >= s.maxTurns {
		s.over, s.capped = true, true
	}
	if s.over {
		if s.watch != nil {
			s.watch(s)
		}
		return
	}
	t := s.turn
	for {
		t = (t + 1) % s.n
		if !s.outSet.Has(t) {
			break
		}
	}
	s.turn = t
}

// held returns how many cards seat holds (a pick-up awaiting keep included).
func (s *State) held(seat int) int {
	h := s.nHand[seat] + s.nSupport[seat] + s.nRandom[seat]
	if s.pending && seat == s.turn {
		h += s.nPick
	}
	return h
}

// Loser returns the loser, or -1 while the game goes on or when it ended
// unresolved.
func (s *State) Loser() int {
	if !s.over || s.capped {
		return -1
	}
	return (^s.outSet & game.AllSeats(s.n)).First()
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := new(State)
	s.CopyTo(c)
	return c
}

// CopyTo makes dst, a Damn state, what Clone would return, reusing
// its memory (game.Copier).
func (s *State) CopyTo(dst game.State) {
	d := dst.(*State)
	*d = *s
	d.watch = nil
}

// Result returns the cards held and, once over, the first seat out as the
// winner (none when the game ended unresolved).
func (s *State) Result() game.Result {
	r := game.Result{Deal: 1, Over: s.over, DealScores: [][]int{}, Winners: []int{}}
	r.Totals = make([]int, s.n)
	for i := range r.Totals {
		r.Totals[i] = s.held(i)
	}
	if s.over {
		r.DealScores = append(r.DealScores, append([]int{}, r.Totals...))
	}
	r.Winners = s.appendWinners(r.Winners)
	return r
}

// FillResult makes *r what Result returns, in r's memory
// (game.ResultFiller): one deal, scored once the match is over.
func (s *State) FillResult(r *game.Result) {
	var held [MaxPlayers]int
	for i := range s.n {
		held[i] = s.held(i)
	}
	deals := 0
	if s.over {
		deals = 1
	}
	r.Deal, r.Over = 1, s.over
	game.FillResultRows(r, held[:s.n], deals, s.n)
	copy(r.Totals, held[:s.n])
	r.Winners = s.appendWinners(r.Winners)
}

// appendWinners appends the winner to out once the game is over: the
// first seat out, none when it ended unresolved.
func (s *State) appendWinners(out []int) []int {
	if s.over && !s.capped && s.nOut > 0 {
		out = append(out, s.outOrder[0])
	}
	return out
}

// FormatMove returns the notation of m.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// ParseMove reads a move in notation.
func (s *State) ParseMove(seat int, text string) (game.Move, error) { return parseMove(text) }

// Places lists every card and who may see it: a hand only its owner; the
// support and random piles and the central deck nobody; the play pile and a
// pick-up awaiting keep everyone.
func (s *State) Places() []game.Place {
	all := game.AllSeats(s.n)
	ps := make([]game.Place, 0, 3*s.n+3)
	for i := 0; i < s.n; i++ {
		ps = append(ps,
			game.Place{Name: "hand", Cards: append([]card.Card{}, s.hand[i][:s.nHand[i]]...), Visible: game.SeatsOf(i)},
			game.Place{Name: "support pile", Cards: append([]card.Card{}, s.support[i][:s.nSupport[i]]...)},
			game.Place{Name: "random pile", Cards: append([]card.Card{}, s.random[i][:s.nRandom[i]]...)})
	}
	ps = append(ps,
		game.Place{Name: "central deck", Cards: append([]card.Card{}, s.central[:s.nCentral]...)},
		game.Place{Name: "play pile", Cards: append([]card.Card{}, s.pile[:s.nPile]...), Visible: all, Public: true},
		game.Place{Name: "picked up", Cards: append([]card.Card{}, s.pick[:s.nPick]...), Visible: all, Public: true})
	return ps
}

// slot is a place a hidden card lies in: a pile id and an index.
type slot struct{ pile, i uint8 }

// Determinize returns a state sampled from what seat knows. Seat knows its
// own hand, the play pile and any pick-up awaiting keep, every pile's size,
// and where cards went that were seen going there (a picked-up play pile
// went into its taker's support pile; kept cards are in the keeper's hand or
// support). Every other card is unseen (support and random piles are unseen
// even by their owner) and is redealt among the hidden places it may be in;
// the order of every hidden pile is drawn anew.
func (s *State) Determinize(seat int, rng *rand.Rand) game.State {
	return game.Resample(s, seat, rng)
}

// DeterminizeTo makes dst, a Damn state, what Determinize would return,
// drawing the same from rng, in dst's memory (game.Resampler).
func (s *State) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*State)
	s.CopyTo(d)
	var own uint16
	if seat >= 0 && seat < d.n {
		own = handBit(seat)
	}
	var slots [packSize]slot
	var cards [packSize]card.Card
	var masks [packSize]uint16
	n := 0
	add := func(pile int, cs []card.Card) {
		for i, c := range cs {
			slots[n] = slot{uint8(pile), uint8(i)}
			cards[n] = c
			masks[n] = d.known[c] &^ own
			n++
		}
	}
	for i := 0; i < d.n; i++ {
		if i != seat {
			add(pHand+i, d.hand[i][:d.nHand[i]])
		}
		add(pSupport+i, d.support[i][:d.nSupport[i]])
		add(pRandom+i, d.random[i][:d.nRandom[i]])
	}
	add(pCentral, d.central[:d.nCentral])
	// Cards with the same knowledge are exchangeable: shuffle each class
	// over the slots it fills.
	var idx [packSize]int
	for i := range n {
		idx[i] = i
	}
	for i := 1; i < n; i++ { // insertion sort by mask
		for j := i; j > 0 && masks[idx[j-1]] > masks[idx[j]]; j-- {
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && masks[idx[hi]] == masks[idx[lo]] {
			hi++
		}
		for i := hi - 1; i > lo; i-- {
			j := lo + rng.IntN(i-lo+1)
			a, b := idx[i], idx[j]
			cards[a], cards[b] = cards[b], cards[a]
		}
		lo = hi
	}
	// Mix across classes: swap two cards when each may lie where the other is.
	for range 2 * n {
		if n < 2 {
			break
		}
		a, b := rng.IntN(n), rng.IntN(n)
		if masks[a]&(1<<slots[b].pile) != 0 && masks[b]&(1<<slots[a].pile) != 0 {
			cards[a], cards[b] = cards[b], cards[a]
			masks[a], masks[b] = masks[b], masks[a]
		}
	}
	for k := range n {
		p, i := int(slots[k].pile), slots[k].i
		switch {
		case p == pCentral:
			d.central[i] = cards[k]
		case p >= pRandom:
			d.random[p-pRandom][i] = cards[k]
		case p >= pSupport:
			d.support[p-pSupport][i] = cards[k]
		default:
			d.hand[p-pHand][i] = cards[k]
		}
	}
	// Nobody knows the order of a hidden pile.
	shuffle := func(cs []card.Card) {
		rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	}
	for i := 0; i < d.n; i++ {
		shuffle(d.support[i][:d.nSupport[i]])
		shuffle(d.random[i][:d.nRandom[i]])
	}
	shuffle(d.central[:d.nCentral])
	d.rng = game.NewRNG(rng.Uint64())
}

// AppendVisible appends what each receiver may see, as Places tells it
// (game.VisibleAppender).
func (s *State) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, s.n)
	for i := 0; i < s.n; i++ {
		v.Seat(i, card.SetOf(s.hand[i][:s.nHand[i]]...))
	}
	v.Public(card.SetOf(s.pile[:s.nPile]...) | card.SetOf(s.pick[:s.nPick]...))
	return dst
}
