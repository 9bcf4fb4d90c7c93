// Package gametest is the conformance kit every Parlour game runs: seeded
// random playouts of whole matches that check the engine contract after
// every move, and golden playthrough files.
//
// A game's test calls Run once per player count it supports:
//
//	func TestConformance(t *testing.T) {
//		gametest.Run(t, golf.Game{}, gametest.Config{Options: map[string]any{"players": 4}})
//	}
package gametest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"parlour/card"
	"parlour/game"
)

// Under go test -short, the quick loop between edits, Run plays at most
// ShortMatches matches of a Config, of which at most ShortDeep get the deep
// checks. The full run plays what the Config asks.
const (
	ShortMatches = 200
	ShortDeep    = 2
)

// Config says what to play.
type Config struct {
	// Options are the game options, as a script would give them.
	Options map[string]any
	// Matches is how many whole matches to play (default 10,000; at most
	// ShortMatches under -short).
	Matches int
	// Deep is how many of those matches get the costly checks at every
	// move: every legal move applied to a clone, refusals of other moves,
	// views and determinisations of every seat (default 50; at most
	// ShortDeep under -short).
	Deep int
	// Seed is the seed of the first match; match i uses Seed+i.
	Seed uint64
	// Pack, if set, is the multiset of cards every state must hold.
	Pack card.Pack
	// MaxMoves bounds one match (default 1,000,000): a match longer than
	// this fails the test as one that does not end.
	MaxMoves int
}

func (c *Config) defaults() {
	if c.Matches == 0 {
		c.Matches = 10000
	}
	if c.Deep == 0 {
		c.Deep = 50
	}
	if testing.Short() {
		c.Matches = min(c.Matches, ShortMatches)
		c.Deep = min(c.Deep, ShortDeep)
	}
	if c.Deep > c.Matches {
		c.Deep = c.Matches
	}
	if c.MaxMoves == 0 {
		c.MaxMoves = 1000000
	}
}

// Stats are what Run saw, for the caller to log or check.
type Stats struct {
	Matches, Moves int
}

// Run plays cfg.Matches seeded random matches of g (fewer under -short:
// see ShortMatches) and checks, after every move:
//   - every card is in exactly one place (the multiset Places holds never
//     changes, and equals cfg.Pack when given);
//   - exactly the seats in ToAct have legal moves, and a seat outside ToAct
//     is refused;
//   - the chosen move applies through the validated path, its notation
//     round-trips, and the fast path gives the same state;
//   - the result is well formed (Over exactly when nobody is to act);
//   - DealsPlayed counts the deal scores, and the deal watcher (WatchDeals)
//     was called once for each deal ended, inside the move that ended it,
//     with that deal counted;
//
// and, in the first cfg.Deep matches, also:
//   - every listed legal move applies to a clone, and moves seen legal
//     elsewhere but not listed now are refused with ErrIllegalMove and
//     change nothing;
//   - a clone equals the original and does not change when it does;
//   - no view (every seat's and the spectator's) shows a card that Places
//     says that seat may not see;
//   - every view has a "prompt" that says what its seat must do: not
//     empty exactly for the seats in ToAct (empty for a spectator);
//   - a determinisation for each seat shows that seat the same view, holds
//     the same cards, and plays on legally;
//   - clones and determinisations do not carry the deal watcher over;
//   - at each deal's end, the deal-end views (game.DealEndViewer), if the
//     state has them, show nobody to act, no prompt, the deal that ended,
//     and no card their seat may not see then;
//
// and at the end of every match that replaying the seed and the moves gives
// the same state, on a state restarted with Reset (which keeps its watcher).
func Run(t testing.TB, g game.Game, cfg Config) Stats {
	t.Helper()
	cfg.defaults()
	opts, err := game.Resolve(g, cfg.Options)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	// Matches are shared out among one worker per core; match i is the
	// same whichever worker plays it.
	workers := runtime.GOMAXPROCS(0)
	var next, moves atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := &kit{t: t, g: g, opts: opts, cfg: cfg, vocab: map[string]bool{}}
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= cfg.Matches {
					return
				}
				n, ok := k.match(cfg.Seed+uint64(i), i < cfg.Deep)
				moves.Add(int64(n))
				if !ok {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() {
		t.FailNow()
	}
	st := Stats{Matches: cfg.Matches, Moves: int(moves.Load())}
	t.Logf("%s %v: %d matches, %d moves, %.1f moves a match", g.Name(), cfg.Options, st.Matches, st.Moves, float64(st.Moves)/float64(st.Matches))
	return st
}

type kit struct {
	t     testing.TB
	g     game.Game
	opts  game.Options
	cfg   Config
	vocab map[string]bool // move texts seen legal so far
	list  []string
	deals int // finished deals at the last deep check

	// reuse is the state this worker replays each match on, restarted
	// with Reset (New the first time): a Reset state must equal a new one.
	reuse game.State
	// spare is the state a game.Copier copies into: of another position,
	// so that CopyTo must overwrite all of it.
	spare game.State
	// result is the Result a game.ResultFiller last filled, in another
	// position, for FillResult to fill again.
	result game.Result
	// sampled is the state a game.Resampler determinizes into: the last
	// determinisation it made, of another position.
	sampled game.State
	// filled is the view a game.ViewFiller last filled, in another
	// position or for another seat, for FillView to fill again.
	filled any
	// The deal watcher: cur is the state it watches, calls how often it
	// was called, wrong what it saw amiss.
	cur   game.State
	calls int
	wrong string
	// deep says the match gets the deep checks, and pack is its cards:
	// the watcher then checks the deal-end views (checkDealEnd).
	deep bool
	pack card.Counts
}

// watch is the kit's deal watcher (game.State.WatchDeals).
func (k *kit) watch(s game.State) {
	if s != k.cur {
		if k.wrong == "" {
			k.wrong = "the deal watcher was called for another state: a clone or determinisation carried it over"
		}
		return
	}
	k.calls++
	if d := s.DealsPlayed(); d != k.calls && k.wrong == "" {
		k.wrong = fmt.Sprintf("the deal watcher's call %d saw %d deals played: it must see the deal that ends counted", k.calls, d)
	}
	if k.deep && k.wrong == "" {
		k.wrong = checkDealEnd(s, k.pack)
	}
}

// checkDeals checks the watcher's calls and DealsPlayed after a move.
func (k *kit) checkDeals(s game.State) string {
	if k.wrong != "" {
		return k.wrong
	}
	d := s.DealsPlayed()
	if n := len(s.Result().DealScores); d != n {
		return fmt.Sprintf("DealsPlayed() is %d, Result() has %d deal scores", d, n)
	}
	if k.calls != d {
		return fmt.Sprintf("the deal watcher was called %d times for %d finished deals", k.calls, d)
	}
	return ""
}

type record struct {
	seat int
	move game.Move
}

func (k *kit) failf(seed uint64, moves []record, format string, args ...any) bool {
	k.t.Helper()
	k.t.Errorf("%s seed %d after %d moves: %s", k.g.Name(), seed, len(moves), fmt.Sprintf(format, args...))
	return false
}

// match plays one match; it returns the number of moves and false on failure.
func (k *kit) match(seed uint64, deep bool) (int, bool) {
	k.t.Helper()
	s, err := k.g.New(k.opts, seed, nil)
	if err != nil {
		return 0, k.failf(seed, nil, "New: %v", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
	pack := countPlaces(s.Places())
	if k.cfg.Pack != nil && pack != card.Count(k.cfg.Pack) {
		return 0, k.failf(seed, nil, "the cards in play are not the game's pack")
	}
	var moves []record
	var buf []game.Move
	k.cur, k.calls, k.wrong = s, 0, ""
	k.deep, k.pack = deep, pack
	for {
		// The watcher is on only while a move is applied: the checks below
		// compare states with reflect.DeepEqual, which never finds two
		// functions equal.
		s.WatchDeals(nil)
		if len(moves) > k.cfg.MaxMoves {
			return len(moves), k.failf(seed, moves, "the match has not ended after %d moves", k.cfg.MaxMoves)
		}
		if msg := k.checkPosition(s, pack, deep, rng); msg != "" {
			return len(moves), k.failf(seed, moves, "%s", msg)
		}
		acts := s.ToAct()
		if acts == 0 {
			break
		}
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = s.Legal(seat, buf[:0])
		m := buf[rng.IntN(len(buf))]
		text := s.FormatMove(m)
		if p, err := s.ParseMove(seat, text); err != nil || p != m {
			return len(moves), k.failf(seed, moves, "seat %d move %q does not parse back (%v, %v)", seat, text, p, err)
		}
		if up := strings.ToUpper(text); up != text {
			if p, err := s.ParseMove(seat, up); err != nil || p != m {
				return len(moves), k.failf(seed, moves, "seat %d move %q in upper case does not parse (%v)", seat, up, err)
			}
		}
		var fast game.State
		if deep {
			fast = s.Clone()
			if len(moves)%16 == 0 {
				if msg := k.checkCopiesUnwatched(s, rng); msg != "" {
					return len(moves), k.failf(seed, moves, "%s", msg)
				}
			}
		}
		s.WatchDeals(k.watch)
		err := game.Apply(s, seat, m)
		s.WatchDeals(nil)
		if err != nil {
			return len(moves), k.failf(seed, moves, "seat %d legal move %q refused: %v", seat, text, err)
		}
		if msg := k.checkDeals(s); msg != "" {
			return len(moves), k.failf(seed, moves, "after %q: %s", text, msg)
		}
		if deep {
			fast.ApplyFast(seat, m)
			if !reflect.DeepEqual(fast, s) {
				return len(moves), k.failf(seed, moves, "ApplyFast(%q) and Apply give different states", text)
			}
		}
		moves = append(moves, record{seat, m})
	}
	// Replay from the seed, on a state restarted with Reset (after the
	// worker's first match), with the watcher set before the Reset: Reset
	// keeps it.
	r := k.reuse
	if r == nil {
		var err error
		if r, err = k.g.New(k.opts, seed, nil); err != nil {
			return len(moves), k.failf(seed, moves, "New again: %v", err)
		}
		k.reuse = r
	} else {
		r.WatchDeals(k.watch)
		r.Reset(seed)
	}
	r.WatchDeals(k.watch)
	k.cur, k.calls, k.wrong = r, 0, ""
	k.deep = false // checked as the match was played
	for _, mv := range moves {
		r.ApplyFast(mv.seat, mv.move)
	}
	r.WatchDeals(nil)
	if !reflect.DeepEqual(r, s) {
		return len(moves), k.failf(seed, moves, "replaying the seed and the moves (on a state restarted with Reset) gives another state")
	}
	if msg := k.checkDeals(r); msg != "" {
		return len(moves), k.failf(seed, moves, "replaying on a state restarted with Reset: %s", msg)
	}
	return len(moves), true
}

// checkCopiesUnwatched plays a clone and a determinisation of s, whose
// watcher is the kit's, on to the end of the deal (at most 300 moves):
// neither may call it.
func (k *kit) checkCopiesUnwatched(s game.State, rng *rand.Rand) string {
	s.WatchDeals(k.watch)
	defer s.WatchDeals(nil)
	seat := 0
	if a := s.ToAct(); a != 0 {
		seat = a.First()
	}
	var buf []game.Move
	for _, c := range []game.State{s.Clone(), s.Determinize(seat, rng)} {
		d := c.DealsPlayed()
		for i := 0; i < 300 && c.ToAct() != 0 && c.DealsPlayed() == d; i++ {
			a := c.ToAct()
			st := a.Nth(rng.IntN(a.Len()))
			buf = c.Legal(st, buf[:0])
			c.ApplyFast(st, buf[rng.IntN(len(buf))])
		}
	}
	return k.wrong
}

// checkPosition checks one position; it returns "" or what is wrong.
func (k *kit) checkPosition(s game.State, pack card.Counts, deep bool, rng *rand.Rand) string {
	places := s.Places()
	if countPlaces(places) != pack {
		return "cards appeared or vanished: " + diffCounts(pack, countPlaces(places))
	}
	acts := s.ToAct()
	res := s.Result()
	if res.Over != (acts == 0) {
		return fmt.Sprintf("Result().Over is %v with to_act %v", res.Over, acts)
	}
	if len(res.Totals) != s.Players() || res.Deal < 1 || res.DealScores == nil || res.Winners == nil {
		return fmt.Sprintf("malformed result %+v", res)
	}
	for _, row := range res.DealScores {
		if len(row) != s.Players() {
			return fmt.Sprintf("a deal_scores row has %d entries for %d seats", len(row), s.Players())
		}
	}
	if !res.Over && len(res.Winners) > 0 {
		return "winners named before the match is over"
	}
	for _, w := range res.Winners {
		if w < 0 || w >= s.Players() {
			return fmt.Sprintf("winner %d is not a seat", w)
		}
	}
	var some game.Move
	haveSome := false
	for seat := 0; seat < s.Players(); seat++ {
		legal := s.Legal(seat, nil)
		if acts.Has(seat) != (len(legal) > 0) {
			return fmt.Sprintf("seat %d: in to_act %v but %d legal moves", seat, acts.Has(seat), len(legal))
		}
		if len(legal) > 0 && !haveSome {
			some, haveSome = legal[0], true
		}
		seen := map[game.Move]bool{}
		for _, m := range legal {
			if seen[m] {
				return fmt.Sprintf("seat %d: move %q listed twice", seat, s.FormatMove(m))
			}
			seen[m] = true
			if deep {
				k.learn(s.FormatMove(m))
			}
		}
	}
	if !deep {
		return ""
	}
	if haveSome {
		for seat := 0; seat < s.Players(); seat++ {
			if acts.Has(seat) {
				continue
			}
			if err := game.Apply(s.Clone(), seat, some); !errors.Is(err, game.ErrIllegalMove) {
				return fmt.Sprintf("seat %d is not to act, but its move was not refused (%v)", seat, err)
			}
		}
	}
	return k.deepCheck(s, places, pack, rng)
}

func (k *kit) learn(text string) {
	if !k.vocab[text] {
		k.vocab[text] = true
		k.list = append(k.list, text)
	}
}

func (k *kit) deepCheck(s game.State, places []game.Place, pack card.Counts, rng *rand.Rand) string {
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		return "a clone differs from its original"
	}
	if msg := k.checkCopy(s, c); msg != "" {
		return msg
	}
	acts := s.ToAct()
	before := s.Clone()
	// Snapshots that do not rely on Clone, to catch clones that share
	// memory with their original.
	views := make([]string, s.Players()+1)
	for seat := game.Spectator; seat < s.Players(); seat++ {
		views[seat+1] = mustJSON(s.View(seat))
	}
	if msg := checkAppendView(s, views); msg != "" {
		return msg
	}
	if msg := checkAppendVisible(s, places); msg != "" {
		return msg
	}
	if msg := k.checkFillView(s, views); msg != "" {
		return msg
	}
	if msg := k.checkFillResult(s); msg != "" {
		return msg
	}
	if msg := checkPrompts(s, views); msg != "" {
		return msg
	}
	for _, seat := range acts.List() {
		legal := s.Legal(seat, nil)
		for _, m := range legal {
			x := s.Clone()
			if err := game.Apply(x, seat, m); err != nil {
				return fmt.Sprintf("seat %d: listed move %q refused: %v", seat, s.FormatMove(m), err)
			}
		}
		// Moves of the game's vocabulary that are not listed are refused.
		for i := 0; i < 12 && len(k.list) > 0; i++ {
			text := k.list[rng.IntN(len(k.list))]
			m, err := s.ParseMove(seat, text)
			if err != nil {
				if !errors.Is(err, game.ErrBadMove) {
					return fmt.Sprintf("ParseMove(%q) error does not match ErrBadMove: %v", text, err)
				}
				continue
			}
			if contains(legal, m) {
				continue
			}
			err = game.Apply(s, seat, m)
			if !errors.Is(err, game.ErrIllegalMove) {
				return fmt.Sprintf("seat %d: unlisted move %q was not refused (%v)", seat, text, err)
			}
			if strings.TrimSpace(err.Error()) == "" || strings.Contains(err.Error(), "\n") {
				return fmt.Sprintf("refusal of %q is not a one-line reason: %q", text, err.Error())
			}
			if !reflect.DeepEqual(s, before) {
				return fmt.Sprintf("refused move %q changed the state", text)
			}
		}
	}
	for seat := game.Spectator; seat < s.Players(); seat++ {
		if mustJSON(s.View(seat)) != views[seat+1] {
			return fmt.Sprintf("using clones changed the original (the view of %s)", who(seat))
		}
	}
	if countPlaces(s.Places()) != pack {
		return "using clones changed the original's cards"
	}
	if !reflect.DeepEqual(c, before) {
		return "a clone changed when its original was used"
	}
	// Views show only what their seat may see. A card may be shown more
	// often than the seat sees it only when the seat sees every copy of it
	// (a card shown in two roles, like Court Circular's old Lead once
	// taken, reveals nothing); otherwise the extra copy is a hidden one.
	for seat := game.Spectator; seat < s.Players(); seat++ {
		may := visibleTo(places, seat)
		shown, err := viewCards(s.View(seat))
		if err != nil {
			return err.Error()
		}
		for cd, n := range shown {
			if n > may[cd] && (may[cd] == 0 || may[cd] < pack[cd]) {
				return fmt.Sprintf("the view of %s shows %v %d times; it may see it %d times", who(seat), card.Card(cd), n, may[cd])
			}
		}
	}
	if msg := checkEncoding(s); msg != "" {
		return msg
	}
	// Determinisations agree with the seat's view: one seat a move, in turn
	// at random, and every seat at the start of each deal.
	for seat := 0; seat < s.Players(); seat++ {
		if seat != rng.IntN(s.Players()) && len(s.Result().DealScores) == k.deals {
			continue
		}
		d := s.Determinize(seat, rng)
		if countPlaces(d.Places()) != pack {
			return fmt.Sprintf("a determinisation for seat %d changed the cards: %s", seat, diffCounts(pack, countPlaces(d.Places())))
		}
		if a, b := mustJSON(s.View(seat)), mustJSON(d.View(seat)); a != b {
			return fmt.Sprintf("a determinisation for seat %d shows it another view:\n%s\n%s", seat, a, b)
		}
		if d.ToAct() != acts {
			return fmt.Sprintf("a determinisation for seat %d has to_act %v, not %v", seat, d.ToAct(), acts)
		}
		if !reflect.DeepEqual(s, before) {
			return fmt.Sprintf("determinising for seat %d changed the original", seat)
		}
		// A determinisation is the same information state for the seat:
		// the same encoding, whatever the hidden cards became.
		if enc, ok := s.(game.Encoder); ok {
			if a, b := observe(enc, seat), observe(d.(game.Encoder), seat); !slices.Equal(a, b) {
				return fmt.Sprintf("a determinisation for seat %d encodes differently for it (hidden information reaches the encoding): %s", seat, obsDiff(enc.Encoding(), a, b))
			}
		}
		// It plays on legally for a while.
		for i := 0; i < 8 && d.ToAct() != 0; i++ {
			a := d.ToAct()
			st := a.Nth(rng.IntN(a.Len()))
			legal := d.Legal(st, nil)
			if err := game.Apply(d, st, legal[rng.IntN(len(legal))]); err != nil {
				return fmt.Sprintf("a determinisation for seat %d refuses its own legal move: %v", seat, err)
			}
		}
	}
	if msg := k.checkResample(s, before, rng); msg != "" {
		return msg
	}
	k.deals = len(s.Result().DealScores)
	return ""
}

// checkEncoding checks a state's Encoder, if it has one: a layout that
// tiles its vector, observations that fill it the same way twice and on a
// clone without changing the state, and distinct in-range action indices
// for each seat's legal moves.
func checkEncoding(s game.State) string {
	enc, ok := s.(game.Encoder)
	if !ok {
		return ""
	}
	e := enc.Encoding()
	if err := e.Check(); err != nil {
		return err.Error()
	}
	c := s.Clone().(game.Encoder)
	for seat := 0; seat < s.Players(); seat++ {
		obs := make([]float32, e.Size)
		for i := range obs {
			obs[i] = -12345 // Observe must overwrite every entry
		}
		enc.Observe(seat, obs)
		for i, v := range obs {
			if v == -12345 || v != v {
				return fmt.Sprintf("Observe(%d) leaves entry %d (%s) unset or NaN", seat, i, fieldAt(e, i))
			}
		}
		if b := observe(c, seat); !slices.Equal(obs, b) {
			return fmt.Sprintf("seat %d: a clone encodes differently: %s", seat, obsDiff(e, obs, b))
		}
		ids := map[int]game.Move{}
		for _, m := range s.Legal(seat, nil) {
			id := enc.ActionID(seat, m)
			if id < 0 || id >= e.Actions {
				return fmt.Sprintf("seat %d: move %q has action index %d, outside 0-%d", seat, s.FormatMove(m), id, e.Actions-1)
			}
			if o, dup := ids[id]; dup {
				return fmt.Sprintf("seat %d: moves %q and %q share action index %d", seat, s.FormatMove(o), s.FormatMove(m), id)
			}
			ids[id] = m
		}
	}
	return ""
}

// observe returns seat's observation.
func observe(e game.Encoder, seat int) []float32 {
	obs := make([]float32, e.Encoding().Size)
	e.Observe(seat, obs)
	return obs
}

// obsDiff names the entries where two observations differ (the first few).
func obsDiff(e game.Encoding, a, b []float32) string {
	var out []string
	for i := range a {
		if a[i] != b[i] {
			out = append(out, fmt.Sprintf("%s: %v, not %v", fieldAt(e, i), a[i], b[i]))
			if len(out) == 5 {
				break
			}
		}
	}
	return strings.Join(out, "; ")
}

// fieldAt names the field holding entry i.
func fieldAt(e game.Encoding, i int) string {
	for _, f := range e.Fields {
		if i >= f.Offset && i < f.Offset+f.Size {
			return fmt.Sprintf("%s[%d]", f.Name, i-f.Offset)
		}
	}
	return "no field"
}

func contains(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func who(seat int) string {
	if seat == game.Spectator {
		return "a spectator"
	}
	return fmt.Sprintf("seat %d", seat)
}

func countPlaces(ps []game.Place) card.Counts {
	var c card.Counts
	for _, p := range ps {
		for _, x := range p.Cards {
			c[x]++
		}
	}
	return c
}

func visibleTo(ps []game.Place, seat int) card.Counts {
	var c card.Counts
	for _, p := range ps {
		if (seat == game.Spectator && p.Public) || (seat >= 0 && p.Visible.Has(seat)) {
			for _, x := range p.Cards {
				c[x]++
			}
		}
	}
	return c
}

func diffCounts(want, got card.Counts) string {
	var parts []string
	for i := range want {
		if want[i] != got[i] {
			parts = append(parts, fmt.Sprintf("%v: %d not %d", card.Card(i), got[i], want[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// checkCopy checks a game.Copier: CopyTo into a state of another
// position (a new match's, then the last copy's) makes what Clone made
// (clone), and the copy shares no memory
// with s (a move made on it leaves s as it was). The copy, moved on, is
// the next position's spare.
func (k *kit) checkCopy(s, clone game.State) string {
	cp, ok := s.(game.Copier)
	if !ok {
		return ""
	}
	if k.spare == nil {
		var err error
		if k.spare, err = k.g.New(k.opts, 1, nil); err != nil {
			return fmt.Sprintf("New for a state to copy into: %v", err)
		}
	}
	dst := k.spare
	cp.CopyTo(dst)
	if !reflect.DeepEqual(dst, clone) {
		return "CopyTo made a state that differs from Clone's"
	}
	if acts := dst.ToAct(); acts != 0 {
		seat := acts.First()
		dst.ApplyFast(seat, dst.Legal(seat, nil)[0])
		if !reflect.DeepEqual(s, clone) {
			return "a move made on CopyTo's copy changed the original: the copy shares memory with it"
		}
	}
	return ""
}

// checkFillResult checks a game.ResultFiller: FillResult into what it
// filled in another position makes every field of what Result returns,
// and what it made shares no memory with the state (changing its numbers
// leaves the state's Result as it was).
func (k *kit) checkFillResult(s game.State) string {
	f, ok := s.(game.ResultFiller)
	if !ok {
		return ""
	}
	want := s.Result()
	r := &k.result
	f.FillResult(r)
	if r.Deal != want.Deal || r.Over != want.Over || !reflect.DeepEqual(r.DealScores, want.DealScores) ||
		!reflect.DeepEqual(r.Totals, want.Totals) || !reflect.DeepEqual(r.Winners, want.Winners) {
		return fmt.Sprintf("FillResult differs from Result:\n got %+v\nwant %+v", *r, want)
	}
	for _, row := range append([][]int{r.Totals, r.Winners}, r.DealScores...) {
		for i := range row {
			row[i] = -row[i] - 1
		}
	}
	if again := s.Result(); !reflect.DeepEqual(again, want) {
		return "changing what FillResult made changed the state's Result: it shares memory with the state"
	}
	return ""
}

// checkResample checks a game.Resampler: DeterminizeTo into a state of
// another position (the last it made), for the seat to act (seat 0 if
// none), makes what Determinize makes from an rng in the same state,
// draws as many numbers, and shares no memory with s (a move made on it
// leaves s as before, a clone of it).
func (k *kit) checkResample(s, before game.State, rng *rand.Rand) string {
	rs, ok := s.(game.Resampler)
	if !ok {
		return ""
	}
	if k.sampled == nil {
		var err error
		if k.sampled, err = k.g.New(k.opts, 2, nil); err != nil {
			return fmt.Sprintf("New for a state to determinize into: %v", err)
		}
	}
	seat := 0
	if a := s.ToAct(); a != 0 {
		seat = a.First()
	}
	seed1, seed2 := rng.Uint64(), rng.Uint64()
	r1, r2 := rand.New(rand.NewPCG(seed1, seed2)), rand.New(rand.NewPCG(seed1, seed2))
	want := s.Determinize(seat, r1)
	dst := k.sampled
	rs.DeterminizeTo(dst, seat, r2)
	if !reflect.DeepEqual(dst, want) {
		return fmt.Sprintf("DeterminizeTo for seat %d made a state that differs from Determinize's", seat)
	}
	if r1.Uint64() != r2.Uint64() {
		return fmt.Sprintf("DeterminizeTo for seat %d drew other numbers than Determinize", seat)
	}
	if acts := dst.ToAct(); acts != 0 {
		p := acts.First()
		dst.ApplyFast(p, dst.Legal(p, nil)[0])
	}
	if !reflect.DeepEqual(s, before) {
		return "DeterminizeTo, or a move made on its state, changed the original: the state shares memory with it"
	}
	return ""
}

// checkAppendView checks that a game.ViewAppender appends, after what
// the buffer holds, the bytes encoding/json gives for each view (views:
// the spectator's first, then each seat's).
func checkAppendView(s game.State, views []string) string {
	va, ok := s.(game.ViewAppender)
	if !ok {
		return ""
	}
	const prefix = `{"view":`
	for seat := game.Spectator; seat < s.Players(); seat++ {
		b := va.AppendView([]byte(prefix), seat)
		if got, want := string(b), prefix+views[seat+1]; got != want {
			return fmt.Sprintf("AppendView differs from encoding/json's View for %s:\n got %s\nwant %s", who(seat), got, want)
		}
	}
	return ""
}

// checkFillView checks that a game.ViewFiller fills, in the memory of
// the view it filled last (another seat's, another position's), a pointer
// to View's type that marshals as View does (views: the spectator's
// first, then each seat's).
func (k *kit) checkFillView(s game.State, views []string) string {
	f, ok := s.(game.ViewFiller)
	if !ok {
		return ""
	}
	for seat := game.Spectator; seat < s.Players(); seat++ {
		k.filled = f.FillView(k.filled, seat)
		if want := reflect.PointerTo(reflect.TypeOf(s.View(seat))); reflect.TypeOf(k.filled) != want {
			return fmt.Sprintf("FillView returned a %T, not a %v", k.filled, want)
		}
		if got := mustJSON(k.filled); got != views[seat+1] {
			return fmt.Sprintf("FillView differs from View for %s:\n got %s\nwant %s", who(seat), got, views[seat+1])
		}
	}
	return ""
}

// checkPrompts checks the views' prompts (views: the spectator's first,
// then each seat's): every view has a "prompt" string, which is not empty
// exactly for the seats in to_act, and empty for a spectator.
func checkPrompts(s game.State, views []string) string {
	acts := s.ToAct()
	for seat := game.Spectator; seat < s.Players(); seat++ {
		var v struct {
			Prompt *string `json:"prompt"`
		}
		if err := json.Unmarshal([]byte(views[seat+1]), &v); err != nil || v.Prompt == nil {
			return fmt.Sprintf("the view of %s has no \"prompt\" string (what the seat must do now)", who(seat))
		}
		switch p := strings.TrimSpace(*v.Prompt); {
		case seat >= 0 && acts.Has(seat) && p == "":
			return fmt.Sprintf("seat %d is to act but its view's prompt is empty: it must say what to do", seat)
		case (seat < 0 || !acts.Has(seat)) && p != "":
			return fmt.Sprintf("%s is not to act but its view's prompt is %q: it must be empty", who(seat), p)
		}
	}
	return ""
}

// checkAppendVisible checks that a game.VisibleAppender appends, after
// what the buffer holds, what VisibleSets makes of the places.
func checkAppendVisible(s game.State, places []game.Place) string {
	va, ok := s.(game.VisibleAppender)
	if !ok {
		return ""
	}
	want := game.VisibleSets(places, s.Players())
	got := va.AppendVisible([]card.Set{1})
	if len(got) != len(want)+1 || got[0] != 1 {
		return fmt.Sprintf("AppendVisible appended %d sets after what the buffer held, want %d (or changed what it held)", len(got)-1, len(want))
	}
	for i, w := range want {
		if g := got[i+1]; g != w {
			return fmt.Sprintf("AppendVisible differs from the places for %s: it shows %v, the places %v", who(i-1), g.Cards(), w.Cards())
		}
	}
	return ""
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "unmarshalable view: " + err.Error()
	}
	return string(b)
}

// viewCards counts the cards a view shows: every word, in every string of
// its JSON form, that is a card in canonical notation.
func viewCards(v any) (card.Counts, error) {
	var c card.Counts
	b, err := json.Marshal(v)
	if err != nil {
		return c, fmt.Errorf("a view does not marshal to JSON: %v", err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return c, err
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			for _, w := range strings.Fields(x) {
				if cd, err := card.Parse(w); err == nil && cd.String() == w {
					c[cd]++
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(tree)
	return c, nil
}
