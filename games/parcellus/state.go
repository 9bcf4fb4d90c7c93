package parcellus

import (
	"math/bits"
	"math/rand/v2"
	"strconv"

	"parlour/card"
	"parlour/game"
)

type phase uint8

const (
	phasePass phase = iota // every seat chooses three cards to pass
	phasePlay              // parcels are built and captured
	phaseOver
)

// Parcels is the number of parcels in a deal: one per common-deck card.
const Parcels = HandSize

// packSize is the number of cards in the pack.
const packSize = 24

// fixedDeal is a deal fixed by a layout; the shuffle fills what it leaves out.
type fixedDeal struct {
	hands  [Players]card.Set
	given  [Players]bool // hands[i] is fixed
	common []card.Card   // top first, perhaps only the top few
	rest   []card.Card   // the cards the layout does not place
}

// State is a Parcellus match in progress. It is a flat value: Clone is a
// copy plus the deal-score slice.
type State struct {
	target int
	dealNo int // 0-based current deal
	dealer int
	phase  phase

	hands    [Players]card.Set
	choice   [Players]card.Set // pending pass choices
	chosen   game.Seats        // seats that have chosen their pass
	recv     [Players]card.Set // the cards each seat received in this deal's pass
	postPass [Players]card.Set // each hand just after the pass

	common  [HandSize]card.Card // the common deck, top first
	nTurned int                 // common cards turned up so far

	// table holds every card put on the table this deal, in order: the
	// captured parcels, then the parcel being built (table[start:nTable]).
	table    [packSize]card.Card
	nTable   int
	start    int
	capturer [Parcels]int // seat that captured each parcel
	ends     [Parcels]int // table index just past each captured parcel
	nParcels int

	turner    int // seat that turned the current parcel's base card
	turn      int // seat to act in the play, -1 otherwise
	last      int // last seat to add to the parcel, -1 if none
	passes    int // consecutive passes since the last card went on the parcel
	parcelPts int // points the current parcel is worth

	points  [Players]int // card points captured this deal
	parcels [Players]int // parcels captured this deal
	totals  [Players]int
	scores  []int8 // finished deals, Players per deal
	fixed   []*fixedDeal
	rng     game.RNG

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

var pack24 = card.Pack24()

// New starts a match. opts must come from game.Resolve(Game{}, ...).
func (Game) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	if n := opts.Players(); n != Players {
		return nil, &game.OptionError{Game: "parcellus", Option: "players", Reason: "Parcellus is for exactly 3 players"}
	}
	s := &State{target: opts.Int("target"), rng: game.NewRNG(seed), turn: -1, last: -1}
	if s.target <= 0 {
		s.target = DefaultTarget
	}
	var err error
	s.fixed, err = game.ParseDeals(deals, func(_ int, l game.Layout) (*fixedDeal, error) { return parseDeal(l) })
	if err != nil {
		return nil, err
	}
	s.scores = make([]int8, 0, 8*Players)
	s.firstDealer = opts.Dealer()
	s.begin()
	return s, nil
}

// begin deals the first deal; the state holds only the match's settings
// and a freshly seeded RNG.
func (s *State) begin() {
	s.dealer = s.firstDealer
	if s.dealer == game.DealerRandom {
		s.dealer = s.rng.IntN(Players)
	}
	s.deal()
}

// Reset starts the same match again from seed, reusing the state's memory.
func (s *State) Reset(seed uint64) {
	*s = State{target: s.target, rng: game.NewRNG(seed), turn: -1, last: -1,
		scores: s.scores[:0], fixed: s.fixed, firstDealer: s.firstDealer, watch: s.watch}
	s.begin()
}

// WatchDeals sets f to be called at the end of every deal, once it is
// scored and before the next is dealt: the deal's parcels are still on the
// table, so ParcelCounts and Captor tell who captured what.
func (s *State) WatchDeals(f func(game.State)) { s.watch = f }

func parseDeal(l game.Layout) (*fixedDeal, error) {
	if err := l.Keys("hands", "common"); err != nil {
		return nil, err
	}
	d := &fixedDeal{}
	var placed []card.Card
	hands, _, err := l.SeatCards("hands", Players)
	if err != nil {
		return nil, err
	}
	for i, cs := range hands {
		if cs == nil {
			continue
		}
		if len(cs) != HandSize {
			return nil, game.BadLayout("hands[%d] has %d cards; a hand is %d cards", i, len(cs), HandSize)
		}
		d.hands[i] = card.SetOf(cs...)
		d.given[i] = true
		placed = append(placed, cs...)
	}
	if d.common, _, err = l.Cards("common"); err != nil {
		return nil, err
	}
	if len(d.common) > HandSize {
		return nil, game.BadLayout("the common deck lists %d cards; it holds %d", len(d.common), HandSize)
	}
	placed = append(placed, d.common...)
	if d.rest, err = game.Remaining(pack24, placed); err != nil {
		return nil, err
	}
	return d, nil
}

// receiver returns the seat that seat passes to in the current deal: left
// (the next seat) in deals 1, 3, 5, ..., right in deals 2, 4, ...
func (s *State) receiver(seat int) int {
	if s.dealNo%2 == 0 {
		return (seat + 1) % Players
	}
	return (seat + Players - 1) % Players
}

// giver returns the seat that passes to seat in the current deal.
func (s *State) giver(seat int) int {
	if s.dealNo%2 == 0 {
		return (seat + Players - 1) % Players
	}
	return (seat + 1) % Players
}

// deal deals the current deal (or lays out its fixed cards) and opens the pass.
func (s *State) deal() {
	var d *fixedDeal
	if s.dealNo < len(s.fixed) {
		d = s.fixed[s.dealNo]
	}
	var buf [packSize]card.Card
	var rest []card.Card
	if d == nil {
		rest = buf[:copy(buf[:], pack24)]
	} else {
		rest = buf[:copy(buf[:], d.rest)]
	}
	game.Shuffle(&s.rng, rest)
	n := len(rest)
	for i := 1; i <= Players; i++ {
		seat := (s.dealer + i) % Players
		if d != nil && d.given[seat] {
			s.hands[seat] = d.hands[seat]
			continue
		}
		var h card.Set
		for range HandSize {
			n--
			h = h.Add(rest[n])
		}
		s.hands[seat] = h
	}
	k := 0
	if d != nil {
		k = copy(s.common[:], d.common)
	}
	for ; k < HandSize; k++ {
		n--
		s.common[k] = rest[n]
	}
	s.phase = phasePass
	s.choice = [Players]card.Set{}
	s.chosen = 0
	s.recv = [Players]card.Set{}
	s.postPass = [Players]card.Set{}
	s.nTurned = 0
	s.nTable, s.start, s.nParcels = 0, 0, 0
	s.capturer = [Parcels]int{}
	s.ends = [Parcels]int{}
	s.turner, s.turn, s.last, s.passes, s.parcelPts = s.dealer, -1, -1, 0, 0
	s.points = [Players]int{}
	s.parcels = [Players]int{}
}

// Game returns Game{}.
func (s *State) Game() game.Game { return Game{} }

// Players returns 3.
func (s *State) Players() int { return Players }

// ToAct returns the seats that may act now.
func (s *State) ToAct() game.Seats {
	switch s.phase {
	case phasePass:
		return game.AllSeats(Players) &^ s.chosen
	case phasePlay:
		if s.turn >= 0 { // -1 at a deal's end, while its watcher looks
			return game.SeatsOf(s.turn)
		}
	}
	return 0
}

// top returns the top card of the parcel being built.
func (s *State) top() card.Card { return s.table[s.nTable-1] }

// Legal appends seat's legal moves to buf.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	switch s.phase {
	case phasePass:
		if seat < 0 || seat >= Players || s.chosen.Has(seat) {
			return buf
		}
		for a := uint64(s.hands[seat]); a != 0; a &= a - 1 {
			ba := a & -a
			for b := a &^ ba; b != 0; b &= b - 1 {
				bb := b & -b
				for c := b &^ bb; c != 0; c &= c - 1 {
					buf = append(buf, flagThree|game.Move(ba|bb|c&-c))
				}
			}
		}
	case phasePlay:
		if seat != s.turn {
			return buf
		}
		buf = append(buf, Pass)
		for p := uint64(s.hands[seat] & next[s.top()]); p != 0; p &= p - 1 {
			buf = append(buf, game.Move(bits.TrailingZeros64(p)))
		}
	}
	return buf
}

// Explain says why game.Apply refuses seat's move m, in one line, or ""
// if the seat may make it.
func (s *State) Explain(seat int, m game.Move) string {
	set, three := isThree(m)
	c, play := isPlay(m)
	if !three && !play && m != Pass {
		return "not a parcellus move"
	}
	switch s.phase {
	case phaseOver:
		return "the match is over"
	case phasePass:
		if !three {
			return "every player must first pass three cards (pass C C C)"
		}
		if s.chosen.Has(seat) {
			return "you have already chosen the three cards to pass"
		}
		if miss := set &^ s.hands[seat]; miss != 0 {
			return "you do not hold " + Cards(miss)[0].String()
		}
		return ""
	}
	if three {
		return "the pass of three cards is over: play a card or pass"
	}
	if seat != s.turn {
		return "seat " + strconv.Itoa(seat) + " may not act now: it is seat " + strconv.Itoa(s.turn) + "'s turn"
	}
	if play {
		if !s.hands[seat].Has(c) {
			return "you do not hold " + c.String()
		}
		if top := s.top(); !Follows(top, c) {
			return c.String() + " cannot go on " + top.String() + ": it needs a " +
				top.Colour().String() + " " + NextRank(top.Rank()).String() + " next"
		}
	}
	return ""
}

// ApplyFast applies a legal move without checks. Everything the rules do
// on their own follows at once: the exchange once every pass is chosen,
// turning up cards, automatic passes of players out of cards, captures,
// scoring, the next deal.
func (s *State) ApplyFast(seat int, m game.Move) {
	switch {
	case m == Pass:
		s.passes++
		s.step()
	case m&flagThree != 0:
		s.choice[seat] = card.Set(m &^ flagThree)
		s.chosen = s.chosen.Add(seat)
		if s.chosen == game.AllSeats(Players) {
			s.exchange()
		}
	default:
		c := card.Card(m)
		s.hands[seat] = s.hands[seat].Remove(c)
		s.table[s.nTable] = c
		s.nTable++
		s.parcelPts += Value(c)
		s.last = seat
		s.passes = 0
		s.step()
	}
}

// exchange makes the pass: every seat's three cards go to its receiver at once.
func (s *State) exchange() {
	for k := range Players {
		g := s.giver(k)
		s.recv[k] = s.choice[g]
	}
	for k := range Players {
		s.hands[k] = s.hands[k]&^s.choice[k] | s.recv[k]
	}
	s.postPass = s.hands
	s.choice = [Players]card.Set{}
	s.chosen = 0
	s.phase = phasePlay
	s.turner = s.dealer
	s.turnUp()
	s.step()
}

// turnUp has the turner turn the next common card as the base of a new parcel.
func (s *State) turnUp() {
	c := s.common[s.nTurned]
	s.nTurned++
	s.start = s.nTable
	s.table[s.nTable] = c
	s.nTable++
	s.parcelPts = Value(c)
	s.last = -1
	s.passes = 0
	s.turn = s.turner
}

// step moves the turn to the left after a move, passing automatically for
// players out of cards and closing the parcel after three passes in a row.
func (s *State) step() {
	for {
		if s.passes == Players {
			if !s.capture() {
				return
			}
		}
		s.turn = (s.turn + 1) % Players
		if s.hands[s.turn] != 0 {
			return
		}
		s.passes++
	}
}

// capture gives the closed parcel to its last contributor (the turner if
// nobody added to it); she turns the next card. It reports false when that
// was the deal's last parcel.
func (s *State) capture() bool {
	w := s.last
	if w < 0 {
		w = s.turner
	}
	s.capturer[s.nParcels] = w
	s.ends[s.nParcels] = s.nTable
	s.nParcels++
	s.points[w] += s.parcelPts
	s.parcels[w]++
	s.start = s.nTable
	s.parcelPts = 0
	if s.nTurned == HandSize {
		s.endDeal()
		return false
	}
	s.turner = w
	s.turnUp()
	return true
}

// endDeal scores the deal and ends the match or deals the next deal.
func (s *State) endDeal() {
	sc := DealScores(s.points, s.parcels)
	best, tied := -1, 0
	for i, v := range sc {
		s.scores = append(s.scores, int8(v))
		s.totals[i] += v
	}
	for _, t := range s.totals {
		switch {
		case t > best:
			best, tied = t, 1
		case t == best:
			tied++
		}
	}
	s.turn, s.last, s.passes = -1, -1, 0
	if best >= s.target && tied == 1 {
		s.phase = phaseOver
	}
	if s.watch != nil {
		s.watch(s)
	}
	if s.phase == phaseOver {
		return
	}
	s.dealer = (s.dealer + 1) % Players
	s.dealNo++
	s.deal()
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := &State{scores: make([]int8, 0, cap(s.scores))}
	s.CopyTo(c)
	return c
}

// CopyTo makes dst, a Parcellus state, what Clone would return, reusing
// its memory (game.Copier).
func (s *State) CopyTo(dst game.State) {
	d := dst.(*State)
	scores := d.scores[:0]
	*d = *s
	d.scores = append(scores, s.scores...)
	d.watch = nil
}

// Result returns the deal scores, totals and the winner.
func (s *State) Result() game.Result {
	r := game.Result{Deal: s.dealNo + 1, Over: s.phase == phaseOver}
	r.DealScores, r.Totals = game.ResultRows(s.scores, len(s.scores)/Players, Players)
	copy(r.Totals, s.totals[:])
	r.Winners = s.appendWinners([]int{})
	return r
}

// FillResult makes *r what Result returns, in r's memory
// (game.ResultFiller).
func (s *State) FillResult(r *game.Result) {
	r.Deal, r.Over = s.dealNo+1, s.phase == phaseOver
	game.FillResultRows(r, s.scores, len(s.scores)/Players, Players)
	copy(r.Totals, s.totals[:])
	r.Winners = s.appendWinners(r.Winners)
}

// appendWinners appends the match's winner to out once it is over: the
// first seat with the highest total.
func (s *State) appendWinners(out []int) []int {
	if s.phase != phaseOver {
		return out
	}
	best := 0
	for i, t := range s.totals {
		if t > s.totals[best] {
			best = i
		}
	}
	return append(out, best)
}

// FormatMove returns the notation of m.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// ParseMove reads a move in notation.
func (s *State) ParseMove(seat int, text string) (game.Move, error) { return parseMove(text) }

// Places lists every card and who may see it. A hand is seen by its owner;
// the cards a seat received in the pass are seen by their giver too. The
// common deck is seen by nobody; the parcel and the captured cards by all.
func (s *State) Places() []game.Place {
	all := game.AllSeats(Players)
	var ps []game.Place
	for k := range Players {
		own := s.hands[k] &^ s.recv[k]
		ps = append(ps, game.Place{Name: "seat " + strconv.Itoa(k) + " hand", Cards: Cards(own), Visible: game.SeatsOf(k)})
		if got := s.hands[k] & s.recv[k]; got != 0 {
			g := s.giver(k)
			ps = append(ps, game.Place{Name: "seat " + strconv.Itoa(k) + " hand, passed by seat " + strconv.Itoa(g),
				Cards: Cards(got), Visible: game.SeatsOf(k, g)})
		}
	}
	ps = append(ps, game.Place{Name: "common deck", Cards: append([]card.Card{}, s.common[s.nTurned:]...)})
	if s.start < s.nTable {
		ps = append(ps, game.Place{Name: "parcel", Cards: append([]card.Card{}, s.table[s.start:s.nTable]...), Visible: all, Public: true})
	}
	from := 0
	for p := 0; p < s.nParcels; p++ {
		ps = append(ps, game.Place{Name: "captured by seat " + strconv.Itoa(s.capturer[p]),
			Cards: append([]card.Card{}, s.table[from:s.ends[p]]...), Visible: all, Public: true})
		from = s.ends[p]
	}
	return ps
}

// Determinize returns a state sampled from what seat knows. The seat keeps
// its hand; the cards it passed stay in its receiver's hand until played;
// the other cards of the other hands and the unturned common deck are
// redealt at random among those places. Other seats' pending pass choices,
// and what the other two seats passed each other, are drawn anew; later
// deals get a fresh shuffle.
func (s *State) Determinize(seat int, rng *rand.Rand) game.State {
	return game.Resample(s, seat, rng)
}

// DeterminizeTo makes dst, a Parcellus state, what Determinize would return,
// drawing the same from rng, in dst's memory (game.Resampler).
func (s *State) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*State)
	s.CopyTo(d)
	passed := s.phase != phasePass // the pass of this deal is complete
	var known [Players]card.Set
	var pool [packSize]card.Card
	n := 0
	for k := range Players {
		switch {
		case k == seat:
			known[k] = d.hands[k]
		case seat >= 0 && passed && d.giver(k) == seat:
			known[k] = d.hands[k] & d.recv[k]
		}
		for u := d.hands[k] &^ known[k]; u != 0; u &= u - 1 {
			pool[n] = card.Card(bits.TrailingZeros64(uint64(u)))
			n++
		}
	}
	n += copy(pool[n:], d.common[d.nTurned:])
	rng.Shuffle(n, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	i := 0
	for k := range Players {
		h := known[k]
		for range d.hands[k].Len() - known[k].Len() {
			h = h.Add(pool[i])
			i++
		}
		d.hands[k] = h
	}
	copy(d.common[d.nTurned:], pool[i:n])
	switch {
	case d.phase == phasePass:
		for k := range Players {
			if k != seat && d.chosen.Has(k) {
				d.choice[k] = randomSubset(d.hands[k], PassSize, rng)
			}
		}
	case passed:
		for k := range Players {
			played := s.postPass[k] &^ s.hands[k] // public: on the table
			d.postPass[k] = d.hands[k] | played
			if k != seat && (seat < 0 || d.giver(k) != seat) {
				d.recv[k] = randomSubset(d.postPass[k], PassSize, rng)
			}
		}
	}
	d.rng = game.NewRNG(rng.Uint64())
}

// randomSubset returns n cards of set chosen at random.
func randomSubset(set card.Set, n int, rng *rand.Rand) card.Set {
	var cs [packSize]card.Card
	k := 0
	for u := set; u != 0; u &= u - 1 {
		cs[k] = card.Card(bits.TrailingZeros64(uint64(u)))
		k++
	}
	var out card.Set
	for i := 0; i < n && i < k; i++ {
		j := i + rng.IntN(k-i)
		cs[i], cs[j] = cs[j], cs[i]
		out = out.Add(cs[i])
	}
	return out
}

// AppendVisible appends what each receiver may see, as Places tells it
// (game.VisibleAppender).
func (s *State) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, Players)
	for k := range Players {
		v.Seat(k, s.hands[k]&^s.recv[k])
		if got := s.hands[k] & s.recv[k]; got != 0 {
			v.Seats(game.SeatsOf(k, s.giver(k)), got)
		}
	}
	if s.start < s.nTable {
		v.Public(card.SetOf(s.table[s.start:s.nTable]...))
	}
	if s.nParcels > 0 {
		v.Public(card.SetOf(s.table[:s.ends[s.nParcels-1]]...))
	}
	return dst
}
