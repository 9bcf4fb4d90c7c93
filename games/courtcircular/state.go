package courtcircular

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"parlour/card"
	"parlour/game"
)

const (
	packSize = 52
	handSize = 6
)

var pack52 = card.Pack52()

type phase uint8

const (
	phasePlay phase = iota // the seat to play plays a card (or resigns)
	phaseTake              // 1862: the trick's winner takes her cards
	phaseLead              // the next Lead is chosen
	phaseOver
)

// fixedDeal is a deal from a layout: None where the shuffle fills in.
type fixedDeal struct {
	hands  [MaxPlayers][]card.Card
	lead   card.Card
	stock  []card.Card // top first
	placed []card.Card
}

// State is a Court Circular match in progress. It is a flat value: Clone is
// a copy plus the score rows.
type State struct {
	cfg   config
	n     int
	deal  int // 0-based
	phase phase

	dealer int
	first  int // the designated first-hand of the trick
	leader int // the seat that played the trick's first card, -1 before
	turn   int // the seat to act
	winner int // the trick's winner, once decided, else -1
	takeN  int // 1862: how many cards the winner takes

	hands    [MaxPlayers]card.Set
	played   [MaxPlayers][3]card.Card
	nPlayed  [MaxPlayers]uint8
	resigned game.Seats
	conceded bool                // the trick ended because all but one resigned
	keys     [MaxPlayers]lineKey // each side's best line, once the trick is decided
	table    card.Set            // the trick's played cards still on the table
	lead     card.Card           // the Lead; None once taken or cleared
	// hidden is set while No. 5 of an 1862 trick lies face down;
	// hiddenKnown when it came from the face-up shared cards.
	hidden, hiddenKnown bool
	shared              [3]card.Card // 1862: the face-up cards of the last trick

	stock  [packSize]card.Card // top is stock[nStock-1]
	nStock int

	wonUp, wonDown [MaxPlayers]card.Set // 1862 keeps its won cards in wonUp
	tricksWon      [MaxPlayers]uint8
	dead           card.Set // 1862: cards set aside

	totals [MaxPlayers]int
	hits   [2]int
	champ  int   // the match's winner, -1 before
	scores []int // finished deals, n per deal

	fixed []*fixedDeal
	rng   game.RNG

	// trickLead is the Lead the trick was played to: public.lead while the
	// next Lead is chosen, even once the old Lead has been taken (1862).
	trickLead card.Card
	watch     func(game.State) // WatchDeals's watcher, or nil
}

var (
	_ game.State           = (*State)(nil)
	_ game.Copier          = (*State)(nil)
	_ game.Resampler       = (*State)(nil)
	_ game.ResultFiller    = (*State)(nil)
	_ game.VisibleAppender = (*State)(nil)
)

// New starts a match. opts must come from game.Resolve(Game{}, ...); the
// 1862 edition refuses players other than 2 and any target. Every fixed
// deal is checked before New returns.
func (Game) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	cfg, err := readOptions(opts)
	if err != nil {
		return nil, err
	}
	s := &State{cfg: cfg, n: cfg.players, champ: -1, winner: -1, rng: game.NewRNG(seed)}
	s.fixed, err = game.ParseDeals(deals, func(_ int, l game.Layout) (*fixedDeal, error) { return parseDeal(l, s.n) })
	if err != nil {
		return nil, err
	}
	s.scores = make([]int, 0, 16*s.n)
	s.start()
	return s, nil
}

// start deals the first deal; the state holds only the match's settings
// and a freshly seeded RNG.
func (s *State) start() {
	s.dealer = s.cfg.dealer
	if s.dealer == game.DealerRandom {
		s.dealer = s.rng.IntN(s.n)
	}
	s.startDeal()
}

// Reset starts the same match again from seed, reusing the state's memory.
func (s *State) Reset(seed uint64) {
	*s = State{cfg: s.cfg, n: s.n, champ: -1, winner: -1, rng: game.NewRNG(seed),
		scores: s.scores[:0], fixed: s.fixed, watch: s.watch}
	s.start()
}

// WatchDeals sets f to be called at the end of every deal, once it is
// scored and before the next is dealt. The deal's last trick is still in
// place: TrickWinner, Played, Leader and TrickLead describe it, and the
// cards won (Won) include what the last trick took; the board is cleared
// (Lead is None).
func (s *State) WatchDeals(f func(game.State)) { s.watch = f }

func parseDeal(l game.Layout, n int) (*fixedDeal, error) {
	if err := l.Keys("hands", "lead", "stock"); err != nil {
		return nil, err
	}
	d := &fixedDeal{}
	hands, _, err := l.SeatCards("hands", n)
	if err != nil {
		return nil, err
	}
	for i, cs := range hands {
		if cs == nil {
			continue
		}
		if len(cs) != handSize {
			return nil, game.BadLayout("hands[%d] has %d cards; a hand is dealt 6", i, len(cs))
		}
		d.hands[i] = cs
		d.placed = append(d.placed, cs...)
	}
	if d.lead, _, err = l.Card("lead"); err != nil {
		return nil, err
	}
	if d.lead != card.None {
		d.placed = append(d.placed, d.lead)
	}
	if d.stock, _, err = l.Cards("stock"); err != nil {
		return nil, err
	}
	if most := packSize - handSize*n - 1; len(d.stock) > most {
		return nil, game.BadLayout("the stock lists %d cards; with %d players it holds %d", len(d.stock), n, most)
	}
	d.placed = append(d.placed, d.stock...)
	if _, err := game.Remaining(pack52, d.placed); err != nil {
		return nil, err
	}
	return d, nil
}

// startDeal shuffles and deals (or lays out a fixed deal): 6 cards to each
// player from first-hand (1860 one at a time, 1862 three at a time), the
// next card turned up as the Lead, the rest the stock.
func (s *State) startDeal() {
	var d *fixedDeal
	if s.deal < len(s.fixed) {
		d = s.fixed[s.deal]
	}
	var rest []card.Card
	if d == nil {
		rest = append(s.stock[:0], pack52...)
	} else {
		r, _ := game.Remaining(pack52, d.placed) // checked in New
		rest = append(s.stock[:0], r...)
	}
	game.Shuffle(&s.rng, rest)
	next := len(rest)
	take := func() card.Card { next--; return rest[next] }

	s.first = (s.dealer + 1) % s.n
	for i := range s.hands {
		s.hands[i], s.wonUp[i], s.wonDown[i], s.tricksWon[i] = 0, 0, 0, 0
	}
	per := 1 // 1860: one at a time
	if s.cfg.e62 {
		per = 3
	}
	for round := 0; round < handSize/per; round++ {
		for i := 0; i < s.n; i++ {
			seat := (s.first + i) % s.n
			if d != nil && d.hands[seat] != nil {
				continue
			}
			for range per {
				s.hands[seat] = s.hands[seat].Add(take())
			}
		}
	}
	if d != nil {
		for seat, cs := range d.hands[:s.n] {
			if cs != nil {
				s.hands[seat] = card.SetOf(cs...)
			}
		}
	}
	if d != nil && d.lead != card.None {
		s.lead = d.lead
	} else {
		s.lead = take()
	}
	s.nStock = next
	if d != nil {
		for i := len(d.stock) - 1; i >= 0; i-- {
			s.stock[s.nStock] = d.stock[i]
			s.nStock++
		}
	}
	s.dead = 0
	s.shared = [3]card.Card{}
	s.beginTrick()
}

// beginTrick clears the trick and gives the turn to first-hand, or to the
// next player clockwise who holds cards.
func (s *State) beginTrick() {
	s.played = [MaxPlayers][3]card.Card{}
	s.nPlayed = [MaxPlayers]uint8{}
	s.keys = [MaxPlayers]lineKey{}
	s.resigned, s.conceded = 0, false
	s.table = 0
	s.leader, s.winner = -1, -1
	s.trickLead = s.lead
	s.hidden, s.hiddenKnown = false, false
	s.phase = phasePlay
	s.turn = s.nextToPlay(s.first + s.n - 1)
}

// nextToPlay returns the first seat clockwise after from (from itself
// last) that still plays in this trick: not resigned, holding cards, fewer
// than 3 played. It returns -1 when nobody does.
func (s *State) nextToPlay(from int) int {
	for i := 1; i <= s.n; i++ {
		p := (from + i) % s.n
		if s.hands[p] != 0 && s.nPlayed[p] < 3 && !s.resigned.Has(p) {
			return p
		}
	}
	return -1
}

// Game returns Game{}.
func (s *State) Game() game.Game { return Game{} }

// Players returns the number of seats.
func (s *State) Players() int { return s.n }

// ToAct returns the seat to act, or none once the match is over.
func (s *State) ToAct() game.Seats {
	if s.phase == phaseOver {
		return 0
	}
	return game.SeatsOf(s.turn)
}

// canResign reports whether the seat to play may resign now (1860 Rule
// VII, Section II and Rulings 14-16).
func (s *State) canResign() bool {
	if s.cfg.e62 || s.leader < 0 || s.nStock == 0 {
		return false
	}
	for p := 0; p < s.n; p++ {
		if s.nPlayed[p] >= 3 {
			return false
		}
	}
	return true
}

// Legal appends seat's legal moves to buf.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	if s.phase == phaseOver || seat != s.turn {
		return buf
	}
	switch s.phase {
	case phasePlay:
		hand := uint64(s.hands[seat])
		for x := hand; x != 0; x &= x - 1 {
			buf = append(buf, Play(card.Card(bits.TrailingZeros64(x))))
		}
		if s.shared[0] != card.None {
			for _, c := range s.shared {
				for x := hand; x != 0; x &= x - 1 {
					buf = append(buf, PlayFor(c, card.Card(bits.TrailingZeros64(x))))
				}
			}
		}
		if s.canResign() {
			buf = append(buf, Resign)
		}
	case phaseLead:
		for x := uint64(s.onTable(s.cfg.e62)); x != 0; x &= x - 1 {
			buf = append(buf, LeadMove(card.Card(bits.TrailingZeros64(x))))
		}
	case phaseTake:
		var cs [8]card.Card
		k := 0
		for x := uint64(s.onTable(true)); x != 0; x &= x - 1 {
			cs[k] = card.Card(bits.TrailingZeros64(x))
			k++
		}
		// Every takeN-card subset of the k cards, by Gosper's hack.
		for sub := uint32(1)<<s.takeN - 1; sub < 1<<k; {
			var set card.Set
			for x := sub; x != 0; x &= x - 1 {
				set = set.Add(cs[bits.TrailingZeros32(x)])
			}
			buf = append(buf, Take(set))
			low := sub & -sub
			ripple := sub + low
			sub = ripple | (sub^ripple)>>2/low
		}
	}
	return buf
}

// ApplyFast applies a legal move without checks.
func (s *State) ApplyFast(seat int, m game.Move) {
	switch verb(m) {
	case vPlay:
		c := moveCard(m)
		s.hands[seat] = s.hands[seat].Remove(c)
		s.place(seat, c, false)
	case vSwap:
		c, d := moveCard(m), forCard(m)
		s.hands[seat] = s.hands[seat].Remove(d)
		for i, x := range s.shared {
			if x == c {
				s.shared[i] = d
			}
		}
		s.place(seat, c, true)
	case vResign:
		s.resign(seat)
	case vLead:
		s.chooseLead(moveCard(m))
	case vTake:
		s.take(takeSet(m))
	}
}

// place lays seat's card on the table and passes the turn or ends the trick.
func (s *State) place(seat int, c card.Card, fromShared bool) {
	if s.leader < 0 {
		s.leader = seat
	}
	s.played[seat][s.nPlayed[seat]] = c
	s.nPlayed[seat]++
	s.table = s.table.Add(c)
	if s.cfg.e62 && seat == s.leader && s.nPlayed[seat] == 3 {
		s.hidden, s.hiddenKnown = true, fromShared // No. 5 goes face down
	}
	if next := s.nextToPlay(seat); next >= 0 {
		s.turn = next
		return
	}
	s.hidden, s.hiddenKnown = false, false // No. 6 is down: No. 5 is turned up
	s.decide()
}

// resign takes seat out of the trick; the last one left wins it.
func (s *State) resign(seat int) {
	s.resigned = s.resigned.Add(seat)
	if left := game.AllSeats(s.n) &^ s.resigned; left.Len() == 1 {
		s.conceded = true
		s.wonTrick(left.First())
		return
	}
	s.turn = s.nextToPlay(seat)
}

// decide finds the trick's winner: the best line among the players still
// in the trick, or with no line the best card played.
func (s *State) decide() {
	best, w := lineKey(0), -1
	for p := 0; p < s.n; p++ {
		if s.resigned.Has(p) {
			continue
		}
		own := s.played[p][:s.nPlayed[p]]
		var k lineKey
		if s.cfg.e62 {
			k = best62(own, s.lead)
		} else {
			k = best60(own, s.lead)
		}
		s.keys[p] = k
		if w < 0 || k > best {
			best, w = k, p
		}
	}
	s.wonTrick(w)
}

// wonTrick hands the trick to w: the next Lead (1860), or the cards to take
// (1862); the last trick of an 1860 deal clears the board.
func (s *State) wonTrick(w int) {
	s.winner = w
	s.tricksWon[w]++
	s.turn = w
	if s.cfg.e62 {
		l := 1 - w
		wk, lk := s.keys[w], s.keys[l]
		s.takeN = 1
		if wk>>7 > lk>>7 { // a better line: kind, then the Lead
			s.takeN = int(ownValue[wk>>8&7] + loserValue[lk>>8&7])
		}
		s.phase = phaseTake
		return
	}
	if s.nStock == 0 && s.handsEmpty() {
		// The last trick: the winner clears the board, Lead included.
		s.addWon(w, s.table.Add(s.lead))
		s.table, s.lead = 0, card.None
		s.scoreDeal()
		return
	}
	s.phase = phaseLead
}

// Card counts of 1862 Rule IV, indexed by Kind: what the winner takes for
// her own line and for the loser's.
var (
	ownValue   = [4]uint8{Trio62: 1, Sequence62: 2, Suit: 3}
	loserValue = [4]uint8{Trio62: 5, Sequence62: 3, Suit: 1}
)

func (s *State) handsEmpty() bool {
	for p := 0; p < s.n; p++ {
		if s.hands[p] != 0 {
			return false
		}
	}
	return true
}

// addWon adds cards to the winner's pile: face up if she played the
// trick's first card, face down otherwise (1860 Ruling 11).
func (s *State) addWon(w int, cs card.Set) {
	if w == s.leader || s.cfg.e62 {
		s.wonUp[w] |= cs
	} else {
		s.wonDown[w] |= cs
	}
}

// onTable returns the cards that may be taken or chosen as the next Lead:
// the trick's played cards still on the table, with the Lead when withLead
// (1862, where the old Lead may be taken and chosen again).
func (s *State) onTable(withLead bool) card.Set {
	if withLead && s.lead != card.None {
		return s.table.Add(s.lead)
	}
	return s.table
}

// chooser is who picks the next 1862 Lead: the loser when only the winner
// made a line, else the winner.
func (s *State) chooser() int {
	w := s.winner
	if s.keys[w]>>8 != 0 && s.keys[1-w]>>8 == 0 {
		return 1 - w
	}
	return w
}

// take gives the 1862 winner her cards; the next Lead is chosen, or after
// the last trick the deal is scored.
func (s *State) take(cs card.Set) {
	s.addWon(s.winner, cs)
	s.table &^= cs
	if cs.Has(s.lead) {
		s.lead = card.None
	}
	if s.handsEmpty() {
		s.dead |= s.onTable(true) | card.SetOf(s.shared[:]...)
		s.shared = [3]card.Card{}
		s.table, s.lead = 0, card.None
		s.scoreDeal()
		return
	}
	s.phase = phaseLead
	s.turn = s.chooser()
}

// chooseLead sets the next Lead and starts the next trick.
func (s *State) chooseLead(c card.Card) {
	w := s.winner
	if s.cfg.e62 {
		s.dead |= s.onTable(true).Remove(c)
		s.table, s.lead = 0, c
		s.first = w
		// The loser deals three to each, the winner first; the last three
		// cards are turned up for the last trick.
		if s.nStock >= 6 {
			for _, p := range [2]int{w, 1 - w} {
				for range 3 {
					s.nStock--
					s.hands[p] = s.hands[p].Add(s.stock[s.nStock])
				}
			}
		} else {
			for i := range s.shared {
				s.nStock--
				s.shared[i] = s.stock[s.nStock]
			}
		}
		s.beginTrick()
		return
	}
	s.addWon(w, s.table.Remove(c).Add(s.lead))
	s.lead = c
	s.table = 0
	s.first = w
	s.refill()
	s.beginTrick()
}

// refill deals from the stock one card at a time from first-hand, skipping
// full hands, until every hand holds 6 or the stock is out (Ruling 12).
func (s *State) refill() {
	for s.nStock > 0 {
		gave := false
		for i := 0; i < s.n && s.nStock > 0; i++ {
			p := (s.first + i) % s.n
			if s.hands[p].Len() < handSize {
				s.nStock--
				s.hands[p] = s.hands[p].Add(s.stock[s.nStock])
				gave = true
			}
		}
		if !gave {
			return
		}
	}
}

// Marks returns seat's marks in the 1860 count: 2 per card won face up, 1
// face down, +1 per Heart, +1 per court card (K, Q, J).
func Marks(up, down card.Set) int {
	all := up | down
	m := 2*up.Len() + down.Len()
	for x := uint64(all); x != 0; x &= x - 1 {
		c := card.Card(bits.TrailingZeros64(x))
		if c.Suit() == card.Hearts {
			m++
		}
		if isCourt(c) {
			m++
		}
	}
	return m
}

// courts62 counts court cards for 1862 Rule VI, Aces included.
func courts62(cs card.Set) int {
	n := 0
	for x := uint64(cs); x != 0; x &= x - 1 {
		if r := card.Card(bits.TrailingZeros64(x)).Rank(); r == card.Ace || r >= card.Jack {
			n++
		}
	}
	return n
}

// scoreDeal scores the finished deal and starts the next one, or ends the
// match.
func (s *State) scoreDeal() {
	row := len(s.scores)
	for range s.n {
		s.scores = append(s.scores, 0)
	}
	pts := s.scores[row:]
	if s.cfg.e62 {
		s.score62(pts)
	} else {
		s.score60(pts)
	}
	if s.champ >= 0 {
		s.phase = phaseOver
	}
	if s.watch != nil {
		s.watch(s)
	}
	if s.phase == phaseOver {
		return
	}
	s.deal++
	s.startDeal()
}

// score60: everyone above the lowest marks scores the difference (with two
// players: the winner scores it); the game goes to the target, a tie for
// the highest total above it playing on (Ruling 19).
func (s *State) score60(pts []int) {
	var marks [MaxPlayers]int
	low := 1 << 30
	for p := 0; p < s.n; p++ {
		marks[p] = Marks(s.wonUp[p], s.wonDown[p])
		low = min(low, marks[p])
	}
	top, topSeats := 0, 0
	for p := 0; p < s.n; p++ {
		pts[p] = marks[p] - low
		s.totals[p] += pts[p]
		switch t := s.totals[p]; {
		case t > top:
			top, topSeats = t, 1
			s.champ = p
		case t == top:
			topSeats++
		}
	}
	if top < s.cfg.target || topSeats != 1 {
		s.champ = -1
	}
}

// score62 scores 1862 Rule VI: 1 per trick beyond four, 2 for most cards, 1
// for most court cards (Aces counted), in that order; the first to 5 takes
// a Hit and both start again from 0; two Hits win the Rubber.
func (s *State) score62(pts []int) {
	hit := -1
	add := func(p, v int) {
		pts[p] += v
		if hit < 0 && s.totals[p]+pts[p] >= 5 {
			hit = p
		}
	}
	for p := 0; p < 2; p++ {
		if t := int(s.tricksWon[p]); t > 4 {
			add(p, t-4)
		}
	}
	if a, b := s.wonUp[0].Len(), s.wonUp[1].Len(); a != b {
		add(firstIf(a > b), 2)
	}
	if a, b := courts62(s.wonUp[0]), courts62(s.wonUp[1]); a != b {
		add(firstIf(a > b), 1)
	}
	// The loser of the last trick deals the next deal.
	s.dealer = 1 - s.winner
	if hit < 0 {
		s.totals[0] += pts[0]
		s.totals[1] += pts[1]
		return
	}
	s.hits[hit]++
	s.totals[0], s.totals[1] = 0, 0
	if s.hits[hit] == 2 {
		s.champ = hit
	}
}

// firstIf returns seat 0 when first is true, else seat 1.
func firstIf(first bool) int {
	if first {
		return 0
	}
	return 1
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := &State{scores: make([]int, 0, cap(s.scores))}
	s.CopyTo(c)
	return c
}

// CopyTo makes dst, a Court Circular state, what Clone would return, reusing
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
	r := game.Result{Deal: s.deal + 1, Over: s.phase == phaseOver}
	r.DealScores, r.Totals = game.ResultRows(s.scores, len(s.scores)/s.n, s.n)
	copy(r.Totals, s.totals[:s.n])
	r.Winners = []int{}
	if r.Over && s.champ >= 0 {
		r.Winners = append(r.Winners, s.champ)
	}
	return r
}

// FillResult makes *r what Result returns, in r's memory
// (game.ResultFiller).
func (s *State) FillResult(r *game.Result) {
	r.Deal, r.Over = s.deal+1, s.phase == phaseOver
	game.FillResultRows(r, s.scores, len(s.scores)/s.n, s.n)
	copy(r.Totals, s.totals[:s.n])
	if r.Over && s.champ >= 0 {
		r.Winners = append(r.Winners, s.champ)
	}
}

// FormatMove returns the notation of m.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// ParseMove reads a move in notation.
func (s *State) ParseMove(seat int, text string) (game.Move, error) { return parseMove(text) }

// no5 returns the face-down No. 5 of an 1862 trick.
func (s *State) no5() card.Card { return s.played[s.leader][2] }

// Places lists every card and who may see it. Every card played in a trick
// was seen by all, so won and set-aside cards are public, face down or not;
// a face-down No. 5 is seen by its player only, unless it was one of the
// face-up shared cards.
func (s *State) Places() []game.Place {
	all := game.AllSeats(s.n)
	ps := make([]game.Place, 0, 3*s.n+6)
	pub := func(name string, cs card.Set) {
		ps = append(ps, game.Place{Name: name, Cards: cs.Cards(), Visible: all, Public: true})
	}
	for p := 0; p < s.n; p++ {
		ps = append(ps, game.Place{Name: "hand", Cards: s.hands[p].Cards(), Visible: game.SeatsOf(p)})
		pub("won face up", s.wonUp[p])
		pub("won face down", s.wonDown[p])
	}
	ps = append(ps, game.Place{Name: "stock", Cards: append([]card.Card{}, s.stock[:s.nStock]...)})
	table := s.table
	if s.hidden {
		table = table.Remove(s.no5())
		if s.hiddenKnown {
			pub("No. 5 face down (was a shared card)", card.SetOf(s.no5()))
		} else {
			ps = append(ps, game.Place{Name: "No. 5 face down", Cards: []card.Card{s.no5()}, Visible: game.SeatsOf(s.leader)})
		}
	}
	pub("table", table)
	if s.lead != card.None {
		pub("lead", card.SetOf(s.lead))
	}
	pub("shared", card.SetOf(s.shared[:]...).Remove(card.None))
	pub("set aside", s.dead)
	return ps
}

// Determinize returns a state sampled from what seat knows: the other
// hands, the stock and (for the other player) a face-down No. 5 are
// redealt among themselves, keeping their sizes.
func (s *State) Determinize(seat int, rng *rand.Rand) game.State {
	return game.Resample(s, seat, rng)
}

// DeterminizeTo makes dst, a Court Circular state, what Determinize would return,
// drawing the same from rng, in dst's memory (game.Resampler).
func (s *State) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*State)
	s.CopyTo(d)
	var pool [packSize]card.Card
	n := 0
	collect := func(cs card.Set) {
		for x := uint64(cs); x != 0; x &= x - 1 {
			pool[n] = card.Card(bits.TrailingZeros64(x))
			n++
		}
	}
	for p := 0; p < d.n; p++ {
		if p != seat {
			collect(d.hands[p])
		}
	}
	n += copy(pool[n:], d.stock[:d.nStock])
	no5 := d.hidden && !d.hiddenKnown && seat != d.leader
	if no5 {
		pool[n] = d.no5()
		n++
	}
	rng.Shuffle(n, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := 0
	for p := 0; p < d.n; p++ {
		if p == seat {
			continue
		}
		size := d.hands[p].Len()
		d.hands[p] = 0
		for range size {
			d.hands[p] = d.hands[p].Add(pool[k])
			k++
		}
	}
	k += copy(d.stock[:d.nStock], pool[k:])
	if no5 {
		old := d.no5()
		d.table = d.table.Remove(old).Add(pool[k])
		d.played[d.leader][2] = pool[k]
	}
	d.rng = game.NewRNG(rng.Uint64())
}

// Explain says why game.Apply refuses seat's move m (the seat to act's move
// that is not legal now).
func (s *State) Explain(seat int, m game.Move) string {
	if !s.ToAct().Has(seat) {
		return ""
	}
	v := verb(m)
	if v < vPlay || v > vTake || (v == vResign && m != Resign) {
		return "not a court-circular move"
	}
	switch s.phase {
	case phasePlay:
		switch v {
		case vPlay:
			if c := moveCard(m); !s.hands[seat].Has(c) {
				return fmt.Sprintf("you do not hold %v", c)
			}
		case vSwap:
			c, d := moveCard(m), forCard(m)
			switch {
			case !s.cfg.e62:
				return "\"play C for D\" belongs to the 1862 edition"
			case s.shared[0] == card.None:
				return "the three shared cards are turned up only for the last trick"
			case c != s.shared[0] && c != s.shared[1] && c != s.shared[2]:
				return fmt.Sprintf("%v is not one of the shared cards (%s)", c, card.Join(s.shared[:]))
			case !s.hands[seat].Has(d):
				return fmt.Sprintf("you do not hold %v", d)
			}
		case vResign:
			switch {
			case s.cfg.e62:
				return "there is no resigning in the 1862 edition"
			case s.leader < 0:
				return "the trick's first card must be played: resigning comes after it"
			case s.nStock == 0:
				return "no resigning once the pack is exhausted"
			default:
				return "no resigning once a player has played 3 cards in the trick"
			}
		case vLead, vTake:
			return "the trick is still being played: play a card"
		}
	case phaseLead:
		if v == vLead {
			c := moveCard(m)
			if !s.cfg.e62 && c == s.lead {
				return fmt.Sprintf("%v is the old Lead: the new Lead must be one of the cards played in the trick", c)
			}
			return fmt.Sprintf("%v is not on the table (the next Lead is one of %s)", c, card.Join(canonical(s.onTable(s.cfg.e62))))
		}
		return fmt.Sprintf("the trick is over: seat %d chooses the next Lead (lead C)", s.turn)
	case phaseTake:
		if v == vTake {
			cs, pool := takeSet(m), s.onTable(true)
			if bad := cs &^ pool; bad != 0 {
				return fmt.Sprintf("%v is not on the table (cards on the table: %s)", canonical(bad)[0], card.Join(canonical(pool)))
			}
			return fmt.Sprintf("take exactly %d (%s)", s.takeN, s.takeReason())
		}
		return fmt.Sprintf("the trick is over: seat %d first takes %d", s.turn, s.takeN)
	}
	return ""
}

// takeReason says why the 1862 winner takes s.takeN cards.
func (s *State) takeReason() string {
	w := s.winner
	wl, ll := s.keys[w].line62(), s.keys[1-w].line62()
	switch {
	case s.keys[w]>>7 == s.keys[1-w]>>7 && wl.Kind == NoLine:
		return "no line was made: the trick is won on cards"
	case s.keys[w]>>7 == s.keys[1-w]>>7:
		return "equal lines: the trick is won on cards"
	case ll.Kind == NoLine:
		return fmt.Sprintf("%s against no line: %d", wl.Describe(Edition1862), s.takeN)
	}
	return fmt.Sprintf("%s beat %s: %d + %d", wl.Describe(Edition1862), ll.Describe(Edition1862),
		ownValue[wl.Kind], loserValue[ll.Kind])
}

// AppendVisible appends what each receiver may see, as Places tells it
// (game.VisibleAppender).
func (s *State) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, s.n)
	public := s.dead | card.SetOf(s.shared[:]...).Remove(card.None)
	for p := 0; p < s.n; p++ {
		v.Seat(p, s.hands[p])
		public |= s.wonUp[p] | s.wonDown[p]
	}
	table := s.table
	if s.hidden {
		table = table.Remove(s.no5())
		if s.hiddenKnown {
			public = public.Add(s.no5())
		} else {
			v.Seat(s.leader, card.SetOf(s.no5()))
		}
	}
	public |= table
	if s.lead != card.None {
		public = public.Add(s.lead)
	}
	v.Public(public)
	return dst
}
