package bot

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"time"

	"parlour/game"
)

// Policy names the move policy of a search's playouts.
type Policy uint8

// The playout policies.
const (
	// PolicyHeuristic plays the game's heuristic for every seat, each on
	// its own view of the determinisation (random where the game has none).
	PolicyHeuristic Policy = iota
	// PolicyRandom plays uniformly random legal moves: the fastest.
	PolicyRandom
)

// Search is the Information-Set Monte Carlo Tree Search bot (single
// observer, SO-ISMCTS), the same for every game. It keeps one tree over its
// own information sets, nodes keyed by (seat, move) edges from the root.
// Each iteration deals a fresh determinisation of everything it cannot see
// (s.Determinize(seat, rng)); walks the tree, choosing its own moves by UCT
// among those legal in that determinisation, with availability counts, and
// the other seats' moves by the game's heuristic on their own view of the
// determinisation (or by UCT, see UCTOpponents); adds one node; plays the
// deal out with its playout policy; and scores the end of the deal with the
// game's Utility, which it backs up along the path, each node crediting the
// seat that moved into it. It answers with the most visited root move.
//
// Where several seats choose at once (a pass, a proposal), its own choice
// is a node and the others' hidden choices are drawn by the policy.
//
// It reads the real state only through ToAct, Players, Game, Legal(seat)
// and Determinize(seat, ...): it cannot see hidden cards by construction
// (see TestSearchSeesOnlyItsSeat). Under a given rng a search with a fixed
// number of iterations is reproducible, whatever its Workers; one that a
// time budget or cap (Think) stops is not.
type Search struct {
	// Label is the name the bot reports ("hard"); "search" if empty.
	Label string
	// Iterations is the number of iterations per decision (0: as many as
	// Think allows; with neither set, DefaultIterations).
	Iterations int
	// Think, if positive, is the wall-clock time a decision may take. With
	// Iterations 0 it is a budget: the search runs iterations until it is
	// spent. With Iterations set it is a cap: the iterations are the
	// target and Think only cuts them short. Either way the search answers
	// with the best root move so far. It reads the clock every few
	// iterations (ClockEvery), so it may overrun by that many.
	Think time.Duration
	// Workers, if more than 1, is the number of independent searches a
	// decision runs at once (root parallelism), each on a goroutine of its
	// own with its own determinisation of the state and its own random
	// source, drawn in turn from the rng the decision is given; their root
	// statistics are summed. They share the Iterations (the first
	// Iterations%Workers run one more), and each stops when Think is
	// spent. 0 or 1: one search, on the caller's goroutine, with the
	// caller's rng, as before Workers existed.
	Workers int
	// Playout is the playout policy (default: the heuristic).
	Playout Policy
	// C is the UCT exploration constant (0: DefaultC).
	C float64
	// UCTOpponents has the other seats' moves in the tree chosen by UCT on
	// their own statistics, as in plain SO-ISMCTS. By default they are
	// chosen by the game's heuristic on their own view of each
	// determinisation: statistics shared across determinisations cannot
	// tell the other seats' hands apart, so UCT models them as playing
	// blind to their own cards, and the search plays much weaker so
	// (docs/perf/levels.md).
	UCTOpponents bool
	// Depth, if positive, is how many of its own decisions the search
	// makes by UCT along a path, the root's included; later ones are made
	// by the heuristic, like the other seats'. The tree keys nodes by moves,
	// not by what chance showed in between (a card drawn), so deep own
	// nodes mix situations the bot would tell apart.
	Depth int
	// Observe keys the search's own decisions below the root also by what
	// the bot sees there (a hash of its view), so that chance it observed
	// (the card it drew) splits the node, as information sets do.
	Observe bool
	// Pace, if set, is asked every ClockEvery iterations whether the
	// search may go on, and the search waits until it returns. A server
	// sets one that waits while its tables want the processors. Unset,
	// the search yields to the goroutines waiting for one
	// (runtime.Gosched) at the same points. With Workers more than 1,
	// each worker asks it from its own goroutine.
	Pace Pacer
}

// A Pacer paces a search (Search.Pace).
type Pacer interface {
	// Pace returns when the search may run its next iterations, by
	// until at the latest: the end of the search's Think, or the zero
	// time for a search with none.
	Pace(until time.Time)
}

// DefaultC is the UCT exploration constant used when Search.C is zero.
const DefaultC = 0.7

// MaxBranch is the most moves the search weighs at its root; with more,
// it leaves the choice to the game's heuristic.
const MaxBranch = 200

// DefaultIterations is the budget of a Search with neither Iterations nor
// Think set.
const DefaultIterations = 1000

// ClockEvery is how many iterations a search with a time budget or cap
// runs between two readings of the clock.
const ClockEvery = 4

// clock is the search's clock: time.Now, but for tests.
var clock = time.Now

// Name returns the bot's label.
func (b Search) Name() string {
	if b.Label == "" {
		return "search"
	}
	return b.Label
}

// node is one node of the search tree: the information set reached by a
// sequence of (seat, move) edges from the root.
type node struct {
	move        game.Move
	seat        int8    // the seat that made move
	visits      int32   // times this edge was taken
	avail       int32   // times this edge was legal when its parent was visited
	reward      float64 // sum of the utilities of seat over the visits
	first, next int32   // first child, next sibling (-1: none)
}

// tree is the memory of one decision; trees are pooled.
type tree struct {
	nodes []node
	path  []int32
	legal []game.Move
	u     []float64
	det   game.State // the last determinisation, for a game.Resampler
}

var trees = sync.Pool{New: func() any {
	return &tree{nodes: make([]node, 0, 1024), path: make([]int32, 0, 64), legal: make([]game.Move, 0, 64)}
}}

func (t *tree) add(seat int, m game.Move) int32 {
	t.nodes = append(t.nodes, node{move: m, seat: int8(seat), first: -1, next: -1})
	return int32(len(t.nodes) - 1)
}

// child returns the child of n for (seat, m), or -1.
func (t *tree) child(n int32, seat int, m game.Move) int32 {
	for c := t.nodes[n].first; c >= 0; c = t.nodes[c].next {
		if t.nodes[c].move == m && int(t.nodes[c].seat) == seat {
			return c
		}
	}
	return -1
}

// Choose searches and returns the most visited move at the root.
func (b Search) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	return b.decide(s, seat, rng, nil, nil)
}

// Analysis is what a Search found in one decision.
type Analysis struct {
	// Move is the search's choice, the one Choose answers.
	Move game.Move
	// Iterations is the number of iterations run, over every worker: 0
	// when the search did not run (a single legal move, or more than
	// MaxBranch left to the heuristic).
	Iterations int
	// Workers holds the number of iterations each worker ran (nil when
	// the search did not run).
	Workers []int
	// Root holds the root's moves with their statistics, summed over the
	// workers: each iteration visits exactly one of them.
	Root []MoveStat
}

// MoveStat is a root move's statistics in an Analysis.
type MoveStat struct {
	// Move is the move.
	Move game.Move
	// Visits counts the iterations that took the move.
	Visits int
	// Reward is the sum of the deciding seat's utility over those visits.
	Reward float64
}

// Analyse searches as Choose does, under the same rng the same way, and
// returns the choice with the root's statistics.
func (b Search) Analyse(s game.State, seat int, rng *rand.Rand) Analysis {
	var a Analysis
	a.Move = b.decide(s, seat, rng, &a, nil)
	return a
}

// Weighing changes what a search weighs, for a caller that wants figures
// rather than a move (an analysis of a played game).
type Weighing struct {
	// Value, if not nil, scores the playouts' ends in place of the game's
	// Utility (a match-win chance rather than a deal's utility). With
	// Workers above 1 it is called from every worker at once.
	Value Utility
	// Only, if not empty, restricts the root to those of its moves that
	// are legal: the search weighs them, however many or few (even one,
	// even past MaxBranch), and no other.
	Only []game.Move
}

// AnalyseWith is Analyse under w: the root's statistics of a search that
// scores with w.Value and weighs w.Only at its root. A search restricted
// to one move still runs, to value that move.
func (b Search) AnalyseWith(s game.State, seat int, rng *rand.Rand, w Weighing) Analysis {
	var a Analysis
	a.Move = b.decide(s, seat, rng, &a, &w)
	return a
}

// decide runs the search and returns its choice; it fills a unless nil.
func (b Search) decide(s game.State, seat int, rng *rand.Rand, a *Analysis, w *Weighing) game.Move {
	var start time.Time
	if b.Think > 0 {
		start = clock()
	}
	t := trees.Get().(*tree)
	defer trees.Put(t)
	t.nodes = t.nodes[:0]
	t.legal = s.Legal(seat, t.legal[:0])
	if w != nil && len(w.Only) > 0 {
		t.legal = slices.DeleteFunc(t.legal, func(m game.Move) bool { return !slices.Contains(w.Only, m) })
		if len(t.legal) == 0 {
			return 0
		}
	} else if len(t.legal) == 1 {
		return t.legal[0]
	}
	prof := profileOf(s.Game())
	if len(t.legal) > MaxBranch && prof.heuristic != nil && (w == nil || len(w.Only) == 0) {
		// More moves than the search can weigh (a Damn keep after a big
		// pick-up): the heuristic chooses.
		return prof.decide(s, seat, t.legal, rng)
	}
	limit := b.Iterations
	if limit <= 0 {
		limit = -1 // as many as Think allows
		if b.Think <= 0 {
			limit = DefaultIterations
		}
	}
	if b.Workers <= 1 {
		n := b.grow(t, s, seat, rng, limit, start, prof, w)
		if a != nil {
			a.Iterations, a.Workers = n, []int{n}
			for ch := t.nodes[0].first; ch >= 0; ch = t.nodes[ch].next {
				nd := &t.nodes[ch]
				a.Root = append(a.Root, MoveStat{Move: nd.move, Visits: int(nd.visits), Reward: nd.reward})
			}
		}
		// The most visited move; ties go to the better mean, then the first.
		best := int32(-1)
		for ch := t.nodes[0].first; ch >= 0; ch = t.nodes[ch].next {
			if best < 0 || better(&t.nodes[ch], &t.nodes[best]) {
				best = ch
			}
		}
		if best < 0 {
			return t.legal[rng.IntN(len(t.legal))]
		}
		return t.nodes[best].move
	}
	return b.parallel(t.legal, s, seat, rng, limit, start, prof, a, w)
}

// parallel runs b.Workers searches at once, each from a determinisation of
// s with its share of limit iterations (no limit if negative), and answers
// with the most visited root move over all of them; legal is the root's
// moves.
func (b Search) parallel(legal []game.Move, s game.State, seat int, rng *rand.Rand, limit int, start time.Time, prof *profile, a *Analysis, weigh *Weighing) game.Move {
	w := b.Workers
	trs := make([]*tree, w)
	runs := make([]int, w)
	var wg sync.WaitGroup
	for i := range w {
		share := limit
		if limit >= 0 {
			share = limit / w
			if i < limit%w {
				share++
			}
		}
		// The workers' sources are drawn whether or not they run, so
		// that the rng moves on the same way.
		r := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
		if share == 0 {
			continue
		}
		// Each worker searches from a determinisation of its own: a
		// state the seat cannot tell from s, whose determinisations are
		// those of s, which the workers then never share (and the search
		// reads s, as ever, only through Determinize).
		st := s.Determinize(seat, r)
		trs[i] = trees.Get().(*tree)
		wg.Go(func() { runs[i] = b.grow(trs[i], st, seat, r, share, start, prof, weigh) })
	}
	wg.Wait()
	// Sum the root statistics, in the order the workers met the moves.
	var root []node
	for _, t := range trs {
		if t == nil {
			continue
		}
		for ch := t.nodes[0].first; ch >= 0; ch = t.nodes[ch].next {
			nd := &t.nodes[ch]
			k := slices.IndexFunc(root, func(x node) bool { return x.move == nd.move })
			if k < 0 {
				root = append(root, node{move: nd.move})
				k = len(root) - 1
			}
			root[k].visits += nd.visits
			root[k].reward += nd.reward
		}
		trees.Put(t)
	}
	best := -1
	for k := range root {
		if best < 0 || better(&root[k], &root[best]) {
			best = k
		}
	}
	if a != nil {
		a.Workers = runs
		for _, n := range runs {
			a.Iterations += n
		}
		for _, nd := range root {
			a.Root = append(a.Root, MoveStat{Move: nd.move, Visits: int(nd.visits), Reward: nd.reward})
		}
	}
	if best < 0 {
		return legal[rng.IntN(len(legal))]
	}
	return root[best].move
}

// grow runs the search from s into t: limit iterations (no limit if
// negative), fewer if b.Think has passed since start, weighing as w says
// (nil: as ever). It returns the number it ran; the root is t.nodes[0].
func (b Search) grow(t *tree, s game.State, seat int, rng *rand.Rand, limit int, start time.Time, prof *profile, w *Weighing) int {
	t.nodes = t.nodes[:0]
	n := s.Players()
	if cap(t.u) < n {
		t.u = make([]float64, n)
	}
	t.u = t.u[:n]
	c := b.C
	if c == 0 {
		c = DefaultC
	}
	root := t.add(seat, 0)
	var pol, model playout
	pol.init(b.Playout, prof)
	model.init(PolicyHeuristic, prof)
	var base game.Result
	it := 0
	for ; limit < 0 || it < limit; it++ {
		if it > 0 && it%ClockEvery == 0 {
			if b.Think > 0 && clock().Sub(start) >= b.Think {
				break
			}
			// Other goroutines waiting for a processor go first: on a
			// server, the tables' moves go before a bot's think.
			if b.Pace != nil {
				var until time.Time
				if b.Think > 0 {
					until = start.Add(b.Think)
				}
				b.Pace.Pace(until)
			} else {
				runtime.Gosched()
			}
		}
		d := t.sample(s, seat, rng)
		if it == 0 {
			base = d.Result() // public: the same in every determinisation
		}
		b.iterate(t, d, root, seat, c, prof, &pol, &model, &base, rng, w)
	}
	return it
}

// sample returns a determinisation of s for seat: in the tree's own
// state when s is a game.Resampler, so that an iteration allocates none.
// It is the tree's until the next sample.
func (t *tree) sample(s game.State, seat int, rng *rand.Rand) game.State {
	r, ok := s.(game.Resampler)
	if !ok {
		return s.Determinize(seat, rng)
	}
	if t.det == nil || reflect.TypeOf(t.det) != reflect.TypeOf(s) {
		t.det = s.Clone() // trees are pooled: the last may have been of another game
	}
	r.DeterminizeTo(t.det, seat, rng)
	return t.det
}

func better(a, b *node) bool {
	if a.visits != b.visits {
		return a.visits > b.visits
	}
	return a.reward*float64(b.visits) > b.reward*float64(a.visits)
}

// iterate runs one iteration on the determinisation d.
func (b Search) iterate(t *tree, d game.State, root int32, seat int, c float64, prof *profile, pol, model *playout, base *game.Result, rng *rand.Rand, w *Weighing) {
	t.path = append(t.path[:0], root)
	cur := root
	end := newDealEnd(prof, d)
	expanded := false
	own := 0 // own decisions on the path
	for !expanded {
		acts := d.ToAct()
		if end.over(d, acts) {
			break
		}
		p := acts.First()
		if acts&(acts-1) != 0 {
			// Several seats choose at once. Only the root seat's own choice
			// is a node: the others' choices are hidden from it, so they
			// are played by the policy and not told apart in the tree.
			if cur != root || !acts.Has(seat) {
				for a := acts; a != 0; a &= a - 1 {
					q := game.Seats(a & -a).First()
					d.ApplyFast(q, pol.choose(d, q, rng))
				}
				continue
			}
			p = seat
		}
		t.legal = d.Legal(p, t.legal[:0])
		if cur == root && w != nil && len(w.Only) > 0 {
			t.legal = slices.DeleteFunc(t.legal, func(m game.Move) bool { return !slices.Contains(w.Only, m) })
		}
		if len(t.legal) == 1 && cur != root {
			d.ApplyFast(p, t.legal[0])
			continue
		}
		var m game.Move
		var next int32
		var isNew bool
		byModel := p != seat && !b.UCTOpponents
		if p == seat {
			own++
			byModel = b.Depth > 0 && own > b.Depth
		}
		if byModel && model.heuristic != nil {
			m = model.choose(d, p, rng)
			next = t.child(cur, p, m)
			isNew = next < 0
		} else {
			if p == seat && cur != root && b.Observe {
				cur = t.observe(cur, d, seat)
				t.path = append(t.path, cur)
			}
			if t.nodes[cur].first < 0 && cur != root && model.heuristic != nil {
				// A new node's first move is the heuristic's: its value
				// then starts from sensible play, not a random move.
				m, next, isNew = model.choose(d, p, rng), -1, true
			} else {
				m, next, isNew = t.selectMove(cur, p, c, rng)
			}
		}
		if isNew {
			next = t.add(p, m)
			t.nodes[next].next = t.nodes[cur].first
			t.nodes[cur].first = next
			t.nodes[next].avail = 1
			expanded = true
		}
		d.ApplyFast(p, m)
		t.path = append(t.path, next)
		cur = next
		if acts&(acts-1) != 0 {
			// The root seat has chosen; the others choose by the policy.
			for a := acts.Remove(p); a != 0; a &= a - 1 {
				q := game.Seats(a & -a).First()
				d.ApplyFast(q, pol.choose(d, q, rng))
			}
		}
		if p == seat && b.Depth > 0 && own >= b.Depth && !b.UCTOpponents {
			break // no decision below is made by the tree: play out
		}
	}
	// Play the deal out.
	for {
		acts := d.ToAct()
		if end.over(d, acts) {
			break
		}
		for a := acts; a != 0; a &= a - 1 {
			q := game.Seats(a & -a).First()
			d.ApplyFast(q, pol.choose(d, q, rng))
		}
	}
	u := t.u
	if w != nil && w.Value != nil {
		w.Value(base, d, u)
	} else {
		prof.utility(base, d, u)
	}
	for _, k := range t.path[1:] {
		nd := &t.nodes[k]
		nd.visits++
		if nd.seat >= 0 {
			nd.reward += u[nd.seat]
		}
	}
}

// observe returns the child of cur for what seat sees in d, adding it if
// new: a node of seat -1 keyed by a hash of the seat's view.
func (t *tree) observe(cur int32, d game.State, seat int) int32 {
	v, err := json.Marshal(d.View(seat))
	if err != nil {
		return cur
	}
	h := fnv.New64a()
	h.Write(v)
	key := game.Move(h.Sum64())
	if ch := t.child(cur, -1, key); ch >= 0 {
		return ch
	}
	ch := t.add(-1, key)
	t.nodes[ch].next = t.nodes[cur].first
	t.nodes[cur].first = ch
	return ch
}

// selectMove picks the move to follow at node cur for seat p among t.legal:
// an untried move at random if there is one, else the best by UCT over the
// available children. It updates the availability counts.
func (t *tree) selectMove(cur int32, p int, c float64, rng *rand.Rand) (game.Move, int32, bool) {
	legal := t.legal
	large := len(legal) > 32
	if large {
		slices.Sort(legal)
	}
	has := func(m game.Move) bool {
		if large {
			_, ok := slices.BinarySearch(legal, m)
			return ok
		}
		return slices.Contains(legal, m)
	}
	// Count the children that are legal here, and bump their availability.
	tried := 0
	for ch := t.nodes[cur].first; ch >= 0; ch = t.nodes[ch].next {
		nd := &t.nodes[ch]
		if int(nd.seat) == p && has(nd.move) {
			nd.avail++
			tried++
		}
	}
	if tried < len(legal) {
		// Pick an untried legal move uniformly: the k-th untried one.
		k := rng.IntN(len(legal) - tried)
		for _, m := range legal {
			if t.child(cur, p, m) >= 0 {
				continue
			}
			if k == 0 {
				return m, -1, true
			}
			k--
		}
	}
	best, bestV := int32(-1), math.Inf(-1)
	for ch := t.nodes[cur].first; ch >= 0; ch = t.nodes[ch].next {
		nd := &t.nodes[ch]
		if int(nd.seat) != p || !has(nd.move) {
			continue
		}
		v := nd.reward/float64(nd.visits) + c*math.Sqrt(math.Log(float64(nd.avail))/float64(nd.visits))
		if v > bestV {
			best, bestV = ch, v
		}
	}
	return t.nodes[best].move, best, false
}
