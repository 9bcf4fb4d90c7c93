package tractric

import (
	"fmt"
	"math/bits"
	"strings"

	"parlour/card"
	"parlour/game"
)

type phase uint8

const (
	phasePropose phase = iota // every seat picks a trump proposal card
	phasePlay                 // seat turn plays to the trick
	phaseGive                 // seat turn, already holding 8 tricks, gives the trick away
	phaseOver
)

// fixedDeal is a deal fixed by a layout: the hands it sets (zero sets where
// the shuffle fills in), the grid if it sets one, and the cards left over.
type fixedDeal struct {
	hands   [MaxPlayers]card.Set
	hasHand [MaxPlayers]bool
	grid    [9]int8
	hasGrid bool
	rest    []card.Card // the pack's cards not placed, in pack order
}

// State is a Tractric match in progress. It is a flat value: Clone is a copy
// (plus the list of finished hands).
type State struct {
	n       int // players
	hand    int // cards per hand: 12 or 13
	colours int // 3, or 2 partnerships
	dealer  int
	deal    int // 0-based hand number across the match
	gameNo  int // 0-based game number
	phase   phase
	turn    int // seat to play, or to give in phaseGive
	leader  int // seat that led the current trick

	hands    [MaxPlayers]card.Set
	proposal [MaxPlayers]card.Card // proposals; secret until all have chosen
	chosen   game.Seats
	trump    int8 // Unset, a suit, or NoTrump

	trick     [MaxPlayers]card.Card // current trick by seat
	nTrick    int
	trickNo   int // tricks completed this hand
	lastTrick [MaxPlayers]card.Card
	lastLead  int
	lastTaker int // seat that won the last completed trick (before any give)
	played    card.Set
	tricks    [MaxPlayers]int8  // tricks counted this hand, gifts included
	void      [MaxPlayers]uint8 // bit s: the seat showed out of suit s this hand

	grid  [9]int8 // scorecard values 0-8, row-major; grid[4] is 0
	board [9]int8 // colour holding each cell, -1 empty
	since [9]uint32
	seq   uint32

	won         [MaxPlayers]int // games won, per colour
	streak      int
	lastWinner  int // colour that won the last game, -1 before
	matchWinner int // colour, -1 while the match goes on

	scores []int8 // tricks per seat, n per finished hand
	fixed  []*fixedDeal
	rng    game.RNG

	gridErr string // set when a fixed grid falls in a deal that starts no game

	laterGrid   bool             // a fixed deal after the first fixes a grid
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

var (
	pack36 = card.Pack36()
	pack52 = card.Pack52()
)

func packFor(n int) card.Pack {
	if n == 4 {
		return pack52
	}
	return pack36
}

// suitMask[s] is the set of every card of suit s.
var suitMask = func() (m [4]card.Set) {
	for r := card.Ace; r <= card.King; r++ {
		for s := range 4 {
			m[s] = m[s].Add(card.New(r, card.Suit(s)))
		}
	}
	return m
}()

// minHands is the fewest hands a game can last: a colour places one counter
// a hand (two in partnerships) and a line needs three.
func minHands(n int) int {
	if n == 4 {
		return 2
	}
	return 3
}

// New starts a match. opts must come from game.Resolve(Game{}, ...). Every
// fixed deal is checked before any move: its cards, hand sizes and grid,
// and a grid only in a deal that can start a game (deal 1, or a deal after
// the fewest hands a game lasts); whether a later deal does start a game
// depends on play, and Guard refuses the move that would reach one that
// does not.
func (Game) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	n := opts.Players()
	if n < 3 || n > MaxPlayers {
		return nil, &game.OptionError{Game: "tractric", Option: "players", Reason: "must be 3 or 4"}
	}
	s := &State{n: n, hand: 12, colours: 3, lastWinner: -1, matchWinner: -1, rng: game.NewRNG(seed)}
	if n == 4 {
		s.hand, s.colours = 13, 2
	}
	var err error
	s.fixed, err = game.ParseDeals(deals, func(i int, l game.Layout) (*fixedDeal, error) {
		f, err := parseDeal(l, n, s.hand)
		if err == nil && f.hasGrid && i > 0 {
			if i < minHands(n) {
				return nil, game.BadLayout("a grid is fixed only in a deal that starts a new game, and deal %d cannot (a game lasts at least %d hands)", i+1, minHands(n))
			}
			s.laterGrid = true
		}
		return f, err
	})
	if err != nil {
		return nil, err
	}
	s.scores = make([]int8, 0, 32*n)
	s.firstDealer = opts.Dealer()
	s.begin()
	return s, nil
}

// begin deals the first game; the state holds only the match's settings
// and a freshly seeded RNG.
func (s *State) begin() {
	s.dealer = s.firstDealer
	if s.dealer == game.DealerRandom {
		s.dealer = s.rng.IntN(s.n)
	}
	s.startGame()
}

// Reset starts the same match again from seed, reusing the state's memory.
func (s *State) Reset(seed uint64) {
	*s = State{n: s.n, hand: s.hand, colours: s.colours, lastWinner: -1, matchWinner: -1, rng: game.NewRNG(seed),
		scores: s.scores[:0], fixed: s.fixed, laterGrid: s.laterGrid, firstDealer: s.firstDealer, watch: s.watch}
	s.begin()
}

// WatchDeals sets f to be called at the end of every hand, once its tricks
// are counted, its counters placed and any line scored, before the next
// hand (or game) is dealt: the board and grid of the hand are in place.
func (s *State) WatchDeals(f func(game.State)) { s.watch = f }

func parseDeal(l game.Layout, n, size int) (*fixedDeal, error) {
	if err := l.Keys("hands", "grid"); err != nil {
		return nil, err
	}
	f := &fixedDeal{}
	seats, _, err := l.SeatCards("hands", n)
	if err != nil {
		return nil, err
	}
	var placed []card.Card
	for i, cs := range seats {
		if cs == nil {
			continue
		}
		if len(cs) != size {
			return nil, game.BadLayout("hands[%d] has %d cards; a hand is %d cards", i, len(cs), size)
		}
		f.hasHand[i] = true
		for _, c := range cs {
			f.hands[i] = f.hands[i].Add(c)
		}
		placed = append(placed, cs...)
	}
	if f.rest, err = game.Remaining(packFor(n), placed); err != nil {
		return nil, err
	}
	grid, ok, err := l.Strings("grid")
	if err != nil {
		return nil, err
	}
	if ok {
		if f.grid, err = parseGrid(grid); err != nil {
			return nil, err
		}
		f.hasGrid = true
	}
	return f, nil
}

// parseGrid reads the 9 scorecards, row-major: each of A 2-8 Q once, Q in
// the middle.
func parseGrid(ss []string) ([9]int8, error) {
	var g [9]int8
	if len(ss) != 9 {
		return g, game.BadLayout("layout \"grid\" has %d values; it is 9 (A 2 3 4 5 6 7 8 Q, row by row)", len(ss))
	}
	seen := 0
	for i, t := range ss {
		v := -1
		for k, name := range valueText {
			if strings.EqualFold(strings.TrimSpace(t), name) {
				v = k
			}
		}
		if v < 0 {
			return g, game.BadLayout("layout \"grid\": %q is not a scorecard (A 2 3 4 5 6 7 8 Q)", t)
		}
		if seen&(1<<v) != 0 {
			return g, game.BadLayout("layout \"grid\": %s is there twice", valueText[v])
		}
		seen |= 1 << v
		g[i] = int8(v)
	}
	if g[4] != 0 {
		return g, game.BadLayout("layout \"grid\": the middle scorecard must be Q, not %s", valueText[g[4]])
	}
	return g, nil
}

func (s *State) fixedDeal() *fixedDeal {
	if s.deal < len(s.fixed) {
		return s.fixed[s.deal]
	}
	return nil
}

// startGame clears the board, lays out the scorecards anew and deals.
func (s *State) startGame() {
	for i := range s.board {
		s.board[i] = -1
		s.since[i] = 0
	}
	if f := s.fixedDeal(); f != nil && f.hasGrid {
		s.grid = f.grid
	} else {
		vals := [8]int8{1, 2, 3, 4, 5, 6, 7, 8}
		game.Shuffle(&s.rng, vals[:])
		copy(s.grid[:4], vals[:4])
		s.grid[4] = 0
		copy(s.grid[5:], vals[4:])
	}
	s.dealHand()
}

// dealHand shuffles and deals the current hand (or lays out its fixed deal)
// and opens the trump proposals.
func (s *State) dealHand() {
	var buf [52]card.Card
	var rest []card.Card
	f := s.fixedDeal()
	if f == nil {
		rest = append(buf[:0], packFor(s.n)...)
	} else {
		rest = append(buf[:0], f.rest...)
	}
	game.Shuffle(&s.rng, rest)
	next := len(rest)
	for i := 1; i <= s.n; i++ {
		seat := (s.dealer + i) % s.n
		if f != nil && f.hasHand[seat] {
			s.hands[seat] = f.hands[seat]
			continue
		}
		var h card.Set
		for range s.hand {
			next--
			h = h.Add(rest[next])
		}
		s.hands[seat] = h
	}
	s.proposal = [MaxPlayers]card.Card{}
	s.chosen = 0
	s.trump = Unset
	s.trick = [MaxPlayers]card.Card{}
	s.nTrick = 0
	s.trickNo = 0
	s.lastTrick = [MaxPlayers]card.Card{}
	s.lastLead, s.lastTaker = -1, -1
	s.played = 0
	s.tricks = [MaxPlayers]int8{}
	s.void = [MaxPlayers]uint8{}
	s.leader = (s.dealer + 1) % s.n
	s.turn = s.leader
	s.phase = phasePropose
}

// Game returns Game{}.
func (s *State) Game() game.Game { return Game{} }

// Players returns the number of seats.
func (s *State) Players() int { return s.n }

// ToAct returns the seats that may act now.
func (s *State) ToAct() game.Seats {
	switch s.phase {
	case phasePropose:
		return game.AllSeats(s.n) &^ s.chosen
	case phaseOver:
		return 0
	}
	return game.SeatsOf(s.turn)
}

// colour returns the counter colour of seat: the seat itself, or its
// partnership (seat mod 2) with four players.
func (s *State) colour(seat int) int {
	if s.n == 4 {
		return seat & 1
	}
	return seat
}

// playable returns the cards seat may play now.
func (s *State) playable(seat int) card.Set {
	h := s.hands[seat]
	if s.nTrick > 0 {
		if f := h & suitMask[s.trick[s.leader].Suit()]; f != 0 {
			return f
		}
	}
	return h
}

// Legal appends seat's legal moves to buf.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	if seat < 0 || seat >= s.n {
		return buf
	}
	switch s.phase {
	case phasePropose:
		if s.chosen.Has(seat) {
			return buf
		}
		for h := s.hands[seat]; h != 0; h &= h - 1 {
			buf = append(buf, mPropose+game.Move(bits.TrailingZeros64(uint64(h))))
		}
	case phasePlay:
		if seat != s.turn {
			return buf
		}
		for h := s.playable(seat); h != 0; h &= h - 1 {
			buf = append(buf, mPlay+game.Move(bits.TrailingZeros64(uint64(h))))
		}
	case phaseGive:
		if seat != s.turn {
			return buf
		}
		for i := 0; i < s.n; i++ {
			if i != seat {
				buf = append(buf, mGive+game.Move(i))
			}
		}
	}
	return buf
}

// gridError refuses a move that would start a deal whose layout fixes the
// grid although the deal starts no new game. It matches both
// game.ErrIllegalMove (the move is refused) and game.ErrBadLayout (the
// script's layout is at fault).
type gridError struct{ reason string }

func (e *gridError) Error() string { return e.reason }

// Is matches game.ErrIllegalMove and game.ErrBadLayout.
func (e *gridError) Is(target error) bool {
	return target == game.ErrIllegalMove || target == game.ErrBadLayout
}

// Guard refuses a legal move that would reach a fixed deal whose grid it
// cannot use (a grid in a deal that starts no new game). It costs nothing
// unless a fixed deal after the first fixes a grid.
func (s *State) Guard(seat int, m game.Move) error {
	if !s.laterGrid {
		return nil
	}
	c := s.Clone().(*State)
	c.ApplyFast(seat, m)
	if c.gridErr != "" {
		return &gridError{c.gridErr}
	}
	return nil
}

var suitNames = [4]string{"spades", "hearts", "diamonds", "clubs"}

// Explain says why game.Apply refuses seat's move m.
func (s *State) Explain(seat int, m game.Move) string {
	if s.phase == phasePropose && s.chosen.Has(seat) {
		return fmt.Sprintf("seat %d has already proposed a card this hand; the others are still choosing", seat)
	}
	if !s.ToAct().Has(seat) {
		return ""
	}
	if m >= numMoves {
		return "not a tractric move"
	}
	if isPropose(m) || isPlay(m) {
		c := moveCard(m)
		inPack := false
		for _, x := range packFor(s.n) {
			inPack = inPack || x == c
		}
		if !inPack {
			return fmt.Sprintf("%v is not in the %d-card pack", c, len(packFor(s.n)))
		}
	}
	switch {
	case isPropose(m) && s.phase != phasePropose:
		return "trumps are already fixed for this hand"
	case isPropose(m) && !s.hands[seat].Has(moveCard(m)):
		return fmt.Sprintf("you do not hold %v", moveCard(m))
	case s.phase == phasePropose:
		return "every player must first propose a trump card (propose C)"
	case isPlay(m) && s.phase == phaseGive:
		return fmt.Sprintf("first give away the trick you won beyond %d (give S)", Cap)
	case isPlay(m) && !s.hands[seat].Has(moveCard(m)):
		return fmt.Sprintf("you do not hold %v", moveCard(m))
	case isPlay(m):
		led := s.trick[s.leader].Suit()
		return fmt.Sprintf("you must follow suit: %v was led and you hold %s", s.trick[s.leader], suitNames[led])
	case isGive(m) && s.phase != phaseGive:
		return fmt.Sprintf("there is no trick to give away (only a player who already has %d tricks gives)", Cap)
	case isGive(m) && int(m-mGive) == seat:
		return "you cannot give the trick to yourself: give it to another player"
	case isGive(m):
		return fmt.Sprintf("no seat %d (seats are 0-%d)", m-mGive, s.n-1)
	}
	return ""
}

// ApplyFast applies a legal move without checks.
func (s *State) ApplyFast(seat int, m game.Move) {
	switch {
	case isPlay(m):
		c := moveCard(m)
		s.hands[seat] = s.hands[seat].Remove(c)
		s.trick[seat] = c
		if s.nTrick > 0 {
			if led := s.trick[s.leader].Suit(); c.Suit() != led {
				s.void[seat] |= 1 << led
			}
		}
		s.nTrick++
		if s.nTrick < s.n {
			s.turn++
			if s.turn == s.n {
				s.turn = 0
			}
			return
		}
		s.endTrick()
	case isPropose(m):
		s.proposal[seat] = moveCard(m)
		s.chosen = s.chosen.Add(seat)
		if s.chosen == game.AllSeats(s.n) {
			if s.n == 4 {
				s.trump = int8(Trump4(s.proposal))
			} else {
				s.trump = int8(Trump3(s.proposal[0], s.proposal[1], s.proposal[2]))
			}
			s.phase = phasePlay
			s.turn = s.leader
		}
	default: // give
		to := int(m - mGive)
		s.tricks[to]++
		s.phase = phasePlay
		s.nextTrick(to)
	}
}

// endTrick settles a full trick: the winner counts it, or gives it away if
// she already has Cap tricks.
func (s *State) endTrick() {
	lead := s.trick[s.leader]
	w, best := s.leader, lead
	trump := card.Suit(s.trump)
	for i := 1; i < s.n; i++ {
		seat := s.leader + i
		if seat >= s.n {
			seat -= s.n
		}
		c := s.trick[seat]
		if c.Suit() == best.Suit() {
			if power(c) > power(best) {
				w, best = seat, c
			}
		} else if s.trump != NoTrump && c.Suit() == trump {
			w, best = seat, c
		}
	}
	s.lastTrick = s.trick
	s.lastLead, s.lastTaker = s.leader, w
	for i := 0; i < s.n; i++ {
		s.played = s.played.Add(s.trick[i])
		s.trick[i] = card.None
	}
	s.nTrick = 0
	s.trickNo++
	if s.tricks[w] >= Cap {
		s.phase = phaseGive
		s.turn = w
		return
	}
	s.tricks[w]++
	s.nextTrick(w)
}

// nextTrick lets seat lead the next trick, or ends the hand.
func (s *State) nextTrick(seat int) {
	if s.trickNo == s.hand {
		s.endHand()
		return
	}
	s.leader, s.turn = seat, seat
}

// place puts a counter of colour on cell: nothing if it holds one already;
// an opponent's counter there goes back to its owner. A colour with no
// counter in reserve moves the one that has stood longest on the board.
func (s *State) place(colour int8, cell int) {
	if s.board[cell] == colour {
		return
	}
	onBoard, oldest := 0, -1
	for i, b := range s.board {
		if b == colour {
			onBoard++
			if oldest < 0 || s.since[i] < s.since[oldest] {
				oldest = i
			}
		}
	}
	if onBoard >= Counters {
		s.board[oldest] = -1
	}
	s.seq++
	s.board[cell] = colour
	s.since[cell] = s.seq
}

// placeCounters resolves the counters after a hand, scorecard by scorecard
// from 0 up to 8 (see rules.txt).
func (s *State) placeCounters() {
	var cellOf [9]int
	for i, v := range s.grid {
		cellOf[v] = i
	}
	if s.n == 3 && s.tricks[0] == 4 && s.tricks[1] == 4 && s.tricks[2] == 4 {
		s.place(int8(s.colour(s.lastTaker)), cellOf[4])
		return
	}
	var colours, players [Cap + 1]uint8 // per trick count: colours and players on it
	for i := 0; i < s.n; i++ {
		t := s.tricks[i]
		colours[t] |= 1 << s.colour(i)
		players[t]++
	}
	for t := 0; t <= Cap; t++ {
		if bits.OnesCount8(colours[t]) != 1 {
			continue // nobody, or a tie between colours: the card stays as it is
		}
		c := int8(bits.TrailingZeros8(colours[t]))
		cell := cellOf[t]
		if players[t] == 2 && s.board[cell] == c {
			s.board[cell] = -1 // both partners on a card their side holds: take it off
			continue
		}
		s.place(c, cell)
	}
}

// endHand scores the hand, checks for lines and moves on to the next hand,
// the next game or the end of the match.
func (s *State) endHand() {
	for i := 0; i < s.n; i++ {
		s.scores = append(s.scores, s.tricks[i])
	}
	s.placeCounters()
	w := LineWinner(s.board, s.grid, s.colours)
	if w >= 0 {
		s.won[w]++
		if s.lastWinner == w {
			s.streak++
		} else {
			s.lastWinner, s.streak = w, 1
		}
		if s.streak >= 2 || s.won[w] >= 3 {
			s.matchWinner = w
			s.phase = phaseOver
		}
	}
	if s.watch != nil {
		s.watch(s)
	}
	if s.phase == phaseOver {
		return
	}
	s.dealer = (s.dealer + 1) % s.n
	s.deal++
	if w >= 0 {
		s.gameNo++
		s.startGame()
		return
	}
	if f := s.fixedDeal(); f != nil && f.hasGrid && s.gridErr == "" {
		s.gridErr = fmt.Sprintf("the layout of deal %d fixes the grid, but deal %d does not start a new game", s.deal+1, s.deal+1)
	}
	s.dealHand()
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := &State{scores: make([]int8, 0, cap(s.scores))}
	s.CopyTo(c)
	return c
}

// CopyTo makes dst, a Tractric state, what Clone would return, reusing
// its memory (game.Copier).
func (s *State) CopyTo(dst game.State) {
	d := dst.(*State)
	scores := d.scores[:0]
	*d = *s
	d.scores = append(scores, s.scores...)
	d.watch = nil
}

// Result returns the tricks of each finished hand, games won and winners.
func (s *State) Result() game.Result {
	r := game.Result{Deal: s.deal + 1, Over: s.phase == phaseOver}
	r.DealScores, r.Totals = game.ResultRows(s.scores, len(s.scores)/s.n, s.n)
	s.fillTotals(r.Totals)
	r.Winners = s.appendWinners([]int{})
	return r
}

// FillResult makes *r what Result returns, in r's memory
// (game.ResultFiller).
func (s *State) FillResult(r *game.Result) {
	r.Deal, r.Over = s.deal+1, s.phase == phaseOver
	game.FillResultRows(r, s.scores, len(s.scores)/s.n, s.n)
	s.fillTotals(r.Totals)
	r.Winners = s.appendWinners(r.Winners)
}

// fillTotals sets totals[i] to the games won by seat i's colour.
func (s *State) fillTotals(totals []int) {
	for i := range totals {
		totals[i] = s.won[s.colour(i)]
	}
}

// appendWinners appends the seats of the match's winning colour to out
// once it is over.
func (s *State) appendWinners(out []int) []int {
	if s.phase != phaseOver {
		return out
	}
	for i := 0; i < s.n; i++ {
		if s.colour(i) == s.matchWinner {
			out = append(out, i)
		}
	}
	return out
}

// FormatMove returns the notation of m.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// ParseMove reads a move in notation.
func (s *State) ParseMove(seat int, text string) (game.Move, error) { return parseMove(s.n, text) }

// revealed returns the proposal cards of seat that are public and still in
// its hand.
func (s *State) revealed(seat int) card.Set {
	if s.phase == phasePropose {
		return 0
	}
	return s.hands[seat] & card.SetOf(s.proposal[seat])
}

// sortedCards returns the cards of set in rank order, lowest first (6 or 2
// up to A), equal ranks in the order S H D C.
func sortedCards(set card.Set) []card.Card {
	return appendSorted(make([]card.Card, 0, set.Len()), set)
}

// Places lists every card and who may see it.
func (s *State) Places() []game.Place {
	all := game.AllSeats(s.n)
	var ps []game.Place
	for i := 0; i < s.n; i++ {
		rev := s.revealed(i)
		ps = append(ps,
			game.Place{Name: fmt.Sprintf("seat %d hand", i), Cards: sortedCards(s.hands[i] &^ rev), Visible: game.SeatsOf(i)},
			game.Place{Name: fmt.Sprintf("seat %d revealed proposal", i), Cards: sortedCards(rev), Visible: all, Public: true})
	}
	var trick []card.Card
	for i := 0; i < s.n; i++ {
		if s.trick[i] != card.None {
			trick = append(trick, s.trick[i])
		}
	}
	ps = append(ps,
		game.Place{Name: "trick", Cards: trick, Visible: all, Public: true},
		game.Place{Name: "played", Cards: sortedCards(s.played), Visible: all, Public: true})
	return ps
}

// AppendVisible appends what each receiver may see, as Places tells it
// (game.VisibleAppender).
func (s *State) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, s.n)
	public := s.played
	for i := 0; i < s.n; i++ {
		rev := s.revealed(i)
		v.Seat(i, s.hands[i]&^rev)
		public |= rev
		if s.trick[i] != card.None {
			public = public.Add(s.trick[i])
		}
	}
	v.Public(public)
	return dst
}
