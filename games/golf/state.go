package golf

import (
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
)

const packSize = 108

type phase uint8

const (
	phaseReveal       phase = iota // every seat picks a column to turn up
	phaseDraw                      // seat turn draws from the stock or the discard
	phaseHolding                   // seat turn holds a drawn card: swap or discard
	phaseFinalDraw                 // final play: draw from the stock or stop
	phaseFinalHolding              // final play: holds a drawn card
	phaseOver
)

// hole is a fixed deal from a layout: which cards go where, None where the
// shuffle fills in.
type hole struct {
	layouts [MaxPlayers][6]card.Card
	discard card.Card
	stock   []card.Card // top first
	placed  []card.Card
}

// State is a Golf match in progress. It is a flat value: Clone is a copy.
type State struct {
	n, holes int
	target   int // a total that ends the match after its hole; 0: off
	hole     int // 0-based current hole
	dealer   int
	turn     int
	phase    phase
	out      int // seat that went out, -1 before
	left     int // final-play turns still to come

	layout  [MaxPlayers][6]card.Card
	faceUp  [MaxPlayers]uint8 // bit p: position p is face up
	choice  [MaxPlayers]int8  // pending reveal column, -1 none
	chosen  game.Seats
	drawn   card.Card
	fromDis bool // the drawn card came from the discard pile
	known   bool // the stock holds only cards that were seen (after a reshuffle)

	stock    [packSize]card.Card // top is stock[nStock-1]
	nStock   int
	discards [packSize]card.Card // top is discards[nDiscard-1]
	nDiscard int

	totals [MaxPlayers]int
	scores []int // finished holes, n per hole
	fixed  []*hole
	rng    game.RNG

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

// New starts a match. opts must come from game.Resolve(Game{}, ...).
func (Game) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	s := &State{n: opts.Players(), holes: opts.Int("holes"), target: opts.Int("target"), out: -1, rng: game.NewRNG(seed)}
	if s.n < 2 || s.n > MaxPlayers {
		return nil, &game.OptionError{Game: "golf", Option: "players", Reason: "must be 2 to 8"}
	}
	var err error
	s.fixed, err = game.ParseDeals(deals, func(_ int, l game.Layout) (*hole, error) { return parseHole(l, s.n) })
	if err != nil {
		return nil, err
	}
	s.scores = make([]int, 0, s.n*s.holes)
	s.firstDealer = opts.Dealer()
	s.start()
	return s, nil
}

// start deals the first hole; the state holds only the match's settings
// and a freshly seeded RNG.
func (s *State) start() {
	s.dealer = s.firstDealer
	if s.dealer == game.DealerRandom {
		s.dealer = s.rng.IntN(s.n)
	}
	s.deal()
}

// Reset starts the same match again from seed, reusing the state's memory.
func (s *State) Reset(seed uint64) {
	*s = State{n: s.n, holes: s.holes, target: s.target, out: -1, rng: game.NewRNG(seed),
		scores: s.scores[:0], fixed: s.fixed, firstDealer: s.firstDealer, watch: s.watch}
	s.start()
}

// WatchDeals sets f to be called at the end of every hole, once it is
// scored and before the next is dealt: the final layouts are in place.
func (s *State) WatchDeals(f func(game.State)) { s.watch = f }

func parseHole(l game.Layout, n int) (*hole, error) {
	if err := l.Keys("layouts", "discard", "stock"); err != nil {
		return nil, err
	}
	h := &hole{}
	seats, _, err := l.SeatCards("layouts", n)
	if err != nil {
		return nil, err
	}
	for i, cs := range seats {
		if cs == nil {
			continue
		}
		if len(cs) != 6 {
			return nil, game.BadLayout("layouts[%d] has %d cards; a layout is 6 cards", i, len(cs))
		}
		copy(h.layouts[i][:], cs)
		h.placed = append(h.placed, cs...)
	}
	if h.discard, _, err = l.Card("discard"); err != nil {
		return nil, err
	}
	if h.discard != card.None {
		h.placed = append(h.placed, h.discard)
	}
	if h.stock, _, err = l.Cards("stock"); err != nil {
		return nil, err
	}
	if max := packSize - 6*n - 1; len(h.stock) > max {
		return nil, game.BadLayout("the stock lists %d cards; with %d players it holds %d", len(h.stock), n, max)
	}
	h.placed = append(h.placed, h.stock...)
	if _, err := game.Remaining(card.Pack108(), h.placed); err != nil {
		return nil, err
	}
	return h, nil
}

var pack108 = card.Pack108()

// deal shuffles and deals the current hole (or lays out its fixed deal) and
// opens the reveal.
func (s *State) deal() {
	var h *hole
	if s.hole < len(s.fixed) {
		h = s.fixed[s.hole]
	}
	var rest []card.Card
	if h == nil {
		rest = s.stock[:0]
		rest = append(rest, pack108...)
	} else {
		r, _ := game.Remaining(pack108, h.placed) // checked in New
		rest = append(s.stock[:0], r...)
	}
	game.Shuffle(&s.rng, rest)
	next := len(rest)
	take := func() card.Card { next--; return rest[next] }
	for i := 1; i <= s.n; i++ {
		seat := (s.dealer + i) % s.n
		for p := range 6 {
			if h != nil && h.layouts[seat][0] != card.None {
				s.layout[seat][p] = h.layouts[seat][p]
			} else {
				s.layout[seat][p] = take()
			}
		}
		s.faceUp[seat] = 0
		s.choice[seat] = -1
	}
	s.nDiscard = 1
	if h != nil && h.discard != card.None {
		s.discards[0] = h.discard
	} else {
		s.discards[0] = take()
	}
	// What is left of rest[:next] becomes the stock under the listed cards.
	s.nStock = next
	if h != nil {
		for i := len(h.stock) - 1; i >= 0; i-- {
			s.stock[s.nStock] = h.stock[i]
			s.nStock++
		}
	}
	s.chosen = 0
	s.drawn = card.None
	s.known = false
	s.out = -1
	s.phase = phaseReveal
}

// Game returns Game{}.
func (s *State) Game() game.Game { return Game{} }

// Players returns the number of seats.
func (s *State) Players() int { return s.n }

// ToAct returns the seats that may act now.
func (s *State) ToAct() game.Seats {
	switch s.phase {
	case phaseReveal:
		return game.AllSeats(s.n) &^ s.chosen
	case phaseOver:
		return 0
	}
	return game.SeatsOf(s.turn)
}

// canDrawStock reports whether a stock draw is possible (reshuffling the
// discards under the top card if the stock is empty).
func (s *State) canDrawStock() bool { return s.nStock > 0 || s.nDiscard > 1 }

// Legal appends seat's legal moves to buf.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	switch s.phase {
	case phaseReveal:
		if seat >= 0 && seat < s.n && !s.chosen.Has(seat) {
			buf = append(buf, mReveal, mReveal+1, mReveal+2)
		}
		return buf
	case phaseOver:
		return buf
	}
	if seat != s.turn {
		return buf
	}
	switch s.phase {
	case phaseDraw:
		if s.canDrawStock() {
			buf = append(buf, mDrawStock)
		}
		buf = append(buf, mDrawDiscard)
	case phaseFinalDraw:
		if s.canDrawStock() {
			buf = append(buf, mDrawStock)
		}
		buf = append(buf, mStop)
	case phaseHolding, phaseFinalHolding:
		buf = append(buf, mSwap, mSwap+1, mSwap+2, mSwap+3, mSwap+4, mSwap+5)
		if !s.fromDis {
			buf = append(buf, mDiscard)
		}
	}
	return buf
}

// Explain says why game.Apply refuses seat's move m.
func (s *State) Explain(seat int, m game.Move) string {
	if s.phase == phaseReveal && s.chosen.Has(seat) && m < mDrawStock {
		return "you have already chosen a column this hole"
	}
	if !s.ToAct().Has(seat) {
		return ""
	}
	switch {
	case m >= numMoves:
		return "not a golf move"
	case m < mDrawStock:
		return "columns are turned up only at the start of a hole"
	case s.phase == phaseReveal:
		return "every player must first turn up a column (reveal 0, 1 or 2)"
	case m == mDrawDiscard && s.phase == phaseFinalDraw:
		return "in the final play a card may be drawn only from the stock"
	case m == mDrawStock && (s.phase == phaseDraw || s.phase == phaseFinalDraw):
		return "the stock is empty and there are no discards to reshuffle"
	case m == mDrawStock || m == mDrawDiscard:
		return "you already hold a drawn card: swap it into your layout or discard it"
	case m == mDiscard && (s.phase == phaseHolding || s.phase == phaseFinalHolding):
		return "a card taken from the discard pile must be swapped into the layout"
	case m == mStop && s.phase == phaseFinalHolding:
		return "you have drawn a card: swap it into your layout or discard it"
	case m == mStop:
		return "stop is only for the final play, instead of drawing"
	default:
		return "draw a card first"
	}
}

// ApplyFast applies a legal move without checks.
func (s *State) ApplyFast(seat int, m game.Move) {
	switch {
	case m < mDrawStock:
		s.choice[seat] = int8(m - mReveal)
		s.chosen = s.chosen.Add(seat)
		if s.chosen == game.AllSeats(s.n) {
			for i := 0; i < s.n; i++ {
				k := s.choice[i]
				s.faceUp[i] = 1<<k | 1<<(k+3)
				s.choice[i] = -1
			}
			s.phase = phaseDraw
			s.turn = (s.dealer + 1) % s.n
		}
	case m == mDrawStock:
		if s.nStock == 0 {
			s.reshuffle()
		}
		s.nStock--
		s.drawn = s.stock[s.nStock]
		s.fromDis = false
		s.phase++ // draw -> holding, final draw -> final holding
	case m == mDrawDiscard:
		s.nDiscard--
		s.drawn = s.discards[s.nDiscard]
		s.fromDis = true
		s.phase = phaseHolding
	case m == mDiscard:
		s.discards[s.nDiscard] = s.drawn
		s.nDiscard++
		s.drawn = card.None
		s.endTurn()
	case m == mStop:
		s.endTurn()
	default: // swap
		p := m - mSwap
		s.discards[s.nDiscard] = s.layout[seat][p]
		s.nDiscard++
		s.layout[seat][p] = s.drawn
		s.faceUp[seat] |= 1 << p
		s.drawn = card.None
		s.endTurn()
	}
}

// reshuffle turns the discards under the top card into a new stock.
func (s *State) reshuffle() {
	top := s.discards[s.nDiscard-1]
	s.nStock = copy(s.stock[:], s.discards[:s.nDiscard-1])
	game.Shuffle(&s.rng, s.stock[:s.nStock])
	s.discards[0] = top
	s.nDiscard = 1
	s.known = true
}

func (s *State) endTurn() {
	if s.phase == phaseHolding {
		if s.faceUp[s.turn] == 0x3f {
			s.out = s.turn
			s.left = s.n - 1
		} else {
			s.turn = (s.turn + 1) % s.n
			s.phase = phaseDraw
			return
		}
	} else {
		s.left--
	}
	if s.left == 0 {
		s.scoreHole()
		return
	}
	s.turn = (s.turn + 1) % s.n
	s.faceUp[s.turn] = 0x3f // final play: her face-down cards are turned up
	s.phase = phaseFinalDraw
}

func (s *State) scoreHole() {
	reached := false
	for i := 0; i < s.n; i++ {
		v := LayoutScore(s.layout[i])
		s.scores = append(s.scores, v)
		s.totals[i] += v
		reached = reached || (s.target > 0 && s.totals[i] >= s.target)
	}
	s.hole++
	if s.hole == s.holes || reached {
		s.phase = phaseOver
	}
	if s.watch != nil {
		s.watch(s)
	}
	if s.phase == phaseOver {
		return
	}
	s.dealer = (s.dealer + 1) % s.n
	s.deal()
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := &State{scores: make([]int, 0, cap(s.scores))}
	s.CopyTo(c)
	return c
}

// CopyTo makes dst, a Golf state, what Clone would return, reusing
// its memory (game.Copier).
func (s *State) CopyTo(dst game.State) {
	d := dst.(*State)
	scores := d.scores[:0]
	*d = *s
	d.scores = append(scores, s.scores...)
	d.watch = nil
}

// Result returns the hole scores, totals and winners.
func (s *State) Result() game.Result {
	r := game.Result{Deal: s.holeNumber(), Over: s.phase == phaseOver}
	r.DealScores, r.Totals = game.ResultRows(s.scores, len(s.scores)/s.n, s.n)
	copy(r.Totals, s.totals[:s.n])
	r.Winners = s.winners([]int{})
	return r
}

// FillResult makes *r what Result returns, in r's memory
// (game.ResultFiller).
func (s *State) FillResult(r *game.Result) {
	r.Deal, r.Over = s.holeNumber(), s.phase == phaseOver
	game.FillResultRows(r, s.scores, len(s.scores)/s.n, s.n)
	copy(r.Totals, s.totals[:s.n])
	r.Winners = s.winners(r.Winners)
}

// holeNumber returns the hole under way (1-based), or the last one played
// once the match is over (a target may end it early).
func (s *State) holeNumber() int {
	if s.phase == phaseOver {
		return s.hole
	}
	return min(s.hole+1, s.holes)
}

// winners appends the seats with the lowest total to out once the match
// is over (out as it is before).
func (s *State) winners(out []int) []int {
	if s.phase != phaseOver {
		return out
	}
	best := s.totals[0]
	for _, t := range s.totals[:s.n] {
		best = min(best, t)
	}
	for i, t := range s.totals[:s.n] {
		if t == best {
			out = append(out, i)
		}
	}
	return out
}

// FormatMove returns the notation of m.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// ParseMove reads a move in notation.
func (s *State) ParseMove(seat int, text string) (game.Move, error) { return parseMove(text) }

// Places lists every card and who may see it.
func (s *State) Places() []game.Place {
	all := game.AllSeats(s.n)
	var ps []game.Place
	for i := 0; i < s.n; i++ {
		var up, down []card.Card
		for p, c := range s.layout[i] {
			if s.faceUp[i]&(1<<p) != 0 {
				up = append(up, c)
			} else {
				down = append(down, c)
			}
		}
		ps = append(ps,
			game.Place{Name: "face-up layout", Cards: up, Visible: all, Public: true},
			game.Place{Name: "face-down layout", Cards: down})
	}
	ps = append(ps,
		game.Place{Name: "stock", Cards: append([]card.Card{}, s.stock[:s.nStock]...)},
		game.Place{Name: "discard pile", Cards: append([]card.Card{}, s.discards[:s.nDiscard]...), Visible: all, Public: true})
	if s.drawn != card.None {
		if s.fromDis {
			ps = append(ps, game.Place{Name: "drawn card", Cards: []card.Card{s.drawn}, Visible: all, Public: true})
		} else {
			ps = append(ps, game.Place{Name: "drawn card", Cards: []card.Card{s.drawn}, Visible: game.SeatsOf(s.turn)})
		}
	}
	return ps
}

// Determinize returns a state sampled from what seat knows: face-down
// cards, the unseen stock and another seat's card drawn from the stock are
// redealt among those places; pending reveal choices of others are redrawn.
func (s *State) Determinize(seat int, rng *rand.Rand) game.State {
	return game.Resample(s, seat, rng)
}

// DeterminizeTo makes dst, a Golf state, what Determinize would return,
// drawing the same from rng, in dst's memory (game.Resampler).
func (s *State) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*State)
	s.CopyTo(d)
	// Unseen cards from the deal: every face-down card, and the stock while
	// it still holds dealt cards.
	var pool [packSize]card.Card
	n := 0
	for i := 0; i < d.n; i++ {
		for p := range 6 {
			if d.faceUp[i]&(1<<p) == 0 {
				pool[n] = d.layout[i][p]
				n++
			}
		}
	}
	hidden := d.drawn != card.None && !d.fromDis && d.turn != seat
	if !d.known {
		n += copy(pool[n:], d.stock[:d.nStock])
		if hidden {
			pool[n] = d.drawn
			n++
		}
	}
	rng.Shuffle(n, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := 0
	for i := 0; i < d.n; i++ {
		for p := range 6 {
			if d.faceUp[i]&(1<<p) == 0 {
				d.layout[i][p] = pool[k]
				k++
			}
		}
	}
	if !d.known {
		k += copy(d.stock[:d.nStock], pool[k:])
		if hidden {
			d.drawn = pool[k]
		}
	} else {
		// The stock is made of seen discards in an unknown order; a card
		// drawn from it by another seat is one of them.
		m := d.nStock
		if hidden {
			d.stock[m] = d.drawn
			m++
		}
		rng.Shuffle(m, func(i, j int) { d.stock[i], d.stock[j] = d.stock[j], d.stock[i] })
		if hidden {
			d.drawn = d.stock[m-1]
		}
	}
	// The other seats' column choices are unseen: draw them anew.
	for i := 0; i < d.n; i++ {
		if i != seat && d.chosen.Has(i) && d.phase == phaseReveal {
			d.choice[i] = int8(rng.IntN(3))
		}
	}
	d.rng = game.NewRNG(rng.Uint64())
}

// AppendVisible appends what each receiver may see, as Places tells it
// (game.VisibleAppender).
func (s *State) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, s.n)
	var up card.Set
	for i := 0; i < s.n; i++ {
		for p, c := range s.layout[i] {
			if s.faceUp[i]&(1<<p) != 0 {
				up = up.Add(c)
			}
		}
	}
	v.Public(up | card.SetOf(s.discards[:s.nDiscard]...))
	if s.drawn != card.None {
		if s.fromDis {
			v.Public(card.SetOf(s.drawn))
		} else {
			v.Seat(s.turn, card.SetOf(s.drawn))
		}
	}
	return dst
}
