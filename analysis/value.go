package analysis

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"parlour/bot"
	"parlour/game"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/tractric"
)

// A standing describes where a match stands for the win-chance model: a
// progress bucket (how much of the match is left, coarsely) and, for each
// side (a seat, or a partnership), a few numbers saying how well it
// stands. The model's chance of side i winning is a softmax over the
// sides, exp(θ·x_i) / Σ_j exp(θ·x_j), with θ fitted for each bucket from
// seeded matches (fitted.go, made by Fit).
type standing struct {
	bucket int
	x      [][]float64 // per side, nFeatures of its model
}

// model is a game's win-chance model: how to read a standing, and the
// fitted weights.
type model struct {
	// key names the configuration the weights were fitted for
	// ("golf/4"); config keys are "name/players" plus "/edition" where
	// the game has editions.
	key string
	// features is the number of numbers per side.
	features int
	// buckets is the number of progress buckets.
	buckets int
	// read fills st from the state s at a leaf (a deal's end, or a
	// playout's horizon); s is not over. It may return false for a
	// standing the model does not rate, then every side gets an equal
	// chance.
	read func(s game.State, st *standing) bool
	// exact, if set, returns the sides' chances when they are already
	// known though the match is not over (a Damn seat went out first).
	exact func(s game.State, chance []float64) bool
	// theta is the fitted weights, theta[bucket][feature].
	theta [][]float64
}

// sides returns the number of sides at a table of n and each seat's side
// index, 0 to sides-1 (partners share one).
func sides(g game.Game, n int) (int, []int) {
	info := g.Info()
	idx := make([]int, n)
	seen := map[int]int{}
	for seat := range n {
		sd := info.Side(n, seat)
		k, ok := seen[sd]
		if !ok {
			k = len(seen)
			seen[sd] = k
		}
		idx[seat] = k
	}
	return len(seen), idx
}

// configKey returns the key of a configuration: the game's name and
// players, and the edition for Court Circular.
func configKey(g game.Game, opts game.Options) string {
	k := g.Name() + "/" + strconv.Itoa(opts.Players())
	if e := opts.String("edition"); e != "" {
		k += "/" + e
	}
	return k
}

// newModel returns the win-chance model of g under opts, with its fitted
// weights (none yet when fitting).
func newModel(g game.Game, opts game.Options) *model {
	m := &model{key: configKey(g, opts)}
	switch g.Name() {
	case "golf":
		m.features, m.buckets = 1, golfBuckets
		holes := opts.Int("holes")
		m.read = func(s game.State, st *standing) bool {
			r := s.Result()
			left := holes - s.DealsPlayed()
			if left <= 0 {
				return false
			}
			st.bucket = min(left, golfBuckets) - 1
			// Past the buckets, a stroke weighs as the last bucket's
			// does, shrunk as the spread of the holes to play grows
			// (with the square root of their number).
			scale := 1.0
			if left > golfBuckets {
				scale = math.Sqrt(float64(golfBuckets) / float64(left))
			}
			for i, t := range r.Totals {
				st.x[i][0] = -float64(t) * scale
			}
			return true
		}
	case "parcellus", "court-circular":
		if opts.String("edition") == courtcircular.Edition1862 {
			m.features, m.buckets = 2, 3
			m.read = readHits
			break
		}
		m.features, m.buckets = 1, targetBuckets
		target := float64(opts.Int("target"))
		m.read = func(s game.State, st *standing) bool {
			r := s.Result()
			top := 0
			for _, t := range r.Totals {
				top = max(top, t)
			}
			st.bucket = min(targetBuckets-1, int(float64(targetBuckets)*float64(top)/target))
			for i, t := range r.Totals {
				st.x[i][0] = float64(t) / target
			}
			return true
		}
	case "tractric":
		m.features, m.buckets = 3, 4
		m.read = readTractric
	case "damn":
		m.features, m.buckets = 4, 3
		m.read = readDamn
		m.exact = damnOut
	default:
		// A game without a model: only a match's end is rated.
		m.features, m.buckets = 1, 1
		m.read = func(game.State, *standing) bool { return false }
	}
	if th, ok := nearestFit(m.key); ok && len(th) == m.buckets && len(th[0]) == m.features {
		m.theta = th
	}
	return m
}

const (
	// golfBuckets: a Golf standing is bucketed by holes left, 1 to
	// golfBuckets (more count as golfBuckets).
	golfBuckets = 8
	// targetBuckets: a standing of a game to a target is bucketed by the
	// leader's total as a part of the target.
	targetBuckets = 6
)

// nearestFit returns the fitted weights of key, or else of the same game
// and edition at the nearest number of players.
func nearestFit(key string) ([][]float64, bool) {
	if th, ok := fitted[key]; ok {
		return th, true
	}
	name, players, edition := splitKey(key)
	best, bestD := "", math.MaxInt
	for k := range fitted {
		n, p, e := splitKey(k)
		if n != name || e != edition {
			continue
		}
		d := abs(p - players)
		if d < bestD || (d == bestD && k < best) {
			best, bestD = k, d
		}
	}
	if best == "" {
		return nil, false
	}
	return fitted[best], true
}

func splitKey(key string) (name string, players int, edition string) {
	name, rest, _ := strings.Cut(key, "/")
	p, edition, _ := strings.Cut(rest, "/")
	players, _ = strconv.Atoi(p)
	return name, players, edition
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// spectatorViews holds the views the readers fill (game.ViewFiller).
var spectatorViews sync.Pool

type viewSlot struct{ v any }

// withView calls f with the spectator's view of s, filled in pooled
// memory where s is a game.ViewFiller.
func withView(s game.State, f func(v any)) {
	slot, _ := spectatorViews.Get().(*viewSlot)
	if slot == nil {
		slot = new(viewSlot)
	}
	if fv, ok := s.(game.ViewFiller); ok {
		slot.v = fv.FillView(slot.v, game.Spectator)
		f(slot.v)
	} else {
		v := s.View(game.Spectator)
		f(&v)
	}
	spectatorViews.Put(slot)
}

// readHits reads a Court Circular 1862 standing: Hits won and points
// towards the next Hit, bucketed by the Hits won so far.
func readHits(s game.State, st *standing) bool {
	r := s.Result()
	ok := false
	withView(s, func(v any) {
		cv, is := v.(*courtcircular.View)
		if !is || len(cv.Hits) != len(r.Totals) {
			return
		}
		hits := 0
		for i := range r.Totals {
			hits += cv.Hits[i]
			st.x[i][0] = float64(cv.Hits[i])
			st.x[i][1] = float64(r.Totals[i]) / 5
		}
		st.bucket = min(hits, 2)
		ok = true
	})
	return ok
}

// tractricLines are the eight lines of the 3×3 grid.
var tractricLines = [8][3]int{
	{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
	{0, 3, 6}, {1, 4, 7}, {2, 5, 8},
	{0, 4, 8}, {2, 4, 6},
}

// readTractric reads a Tractric standing per colour: games won, counters
// on the board, and lines it holds two cells of with the third empty;
// bucketed by the games won so far.
func readTractric(s game.State, st *standing) bool {
	ok := false
	withView(s, func(v any) {
		tv, is := v.(*tractric.View)
		if !is {
			return
		}
		nsides := len(st.x)
		games := 0
		for sd := range nsides {
			// GamesWon is by seat, and a side's number is its lower
			// seat (partners show the same count).
			w := 0
			if sd < len(tv.GamesWon) {
				w = tv.GamesWon[sd]
			}
			games += w
			st.x[sd][0] = float64(w)
			st.x[sd][1], st.x[sd][2] = 0, 0
		}
		for _, c := range tv.Board {
			if c >= 0 && int(c) < nsides {
				st.x[c][1]++
			}
		}
		for _, l := range tractricLines {
			var own [4]int
			empty := 0
			for _, x := range l {
				if c := tv.Board[x]; c < 0 {
					empty++
				} else if int(c) < nsides {
					own[c]++
				}
			}
			for sd := range nsides {
				if own[sd] == 2 && empty == 1 {
					st.x[sd][2]++
				}
			}
		}
		st.bucket = min(games, 3)
		ok = true
	})
	return ok
}

// readDamn reads a Damn standing: the cards each seat holds, as a count
// and its logarithm, and those in its face-down piles (support and
// random); bucketed by the central deck (while it lasts nobody can go
// out) and the fewest cards a seat holds.
func readDamn(s game.State, st *standing) bool {
	ok := false
	withView(s, func(v any) {
		dv, is := v.(*damn.View)
		if !is {
			return
		}
		fewest := math.MaxInt
		for i, sv := range dv.Seats {
			st.x[i][0] = -float64(sv.Held)
			st.x[i][1] = -math.Log1p(float64(sv.Held))
			st.x[i][2] = -float64(sv.Support)
			st.x[i][3] = -float64(sv.Random)
			fewest = min(fewest, sv.Held)
		}
		switch {
		case dv.Central > 0:
			st.bucket = 0
		case fewest > 6:
			st.bucket = 1
		default:
			st.bucket = 2
		}
		ok = true
	})
	return ok
}

// damnOut: once a seat has gone out, it has won.
func damnOut(s game.State, chance []float64) bool {
	known := false
	withView(s, func(v any) {
		dv, is := v.(*damn.View)
		if !is || len(dv.Out) == 0 {
			return
		}
		for i := range chance {
			chance[i] = 0
		}
		chance[dv.Out[0]] = 1
		known = true
	})
	return known
}

// valuer rates states for one analysis: each side's chance of winning
// the match. It is not safe for concurrent use.
type valuer struct {
	m      *model
	nsides int
	side   []int // per seat
	st     standing
	p      []float64 // per side
}

func newValuer(g game.Game, opts game.Options) *valuer {
	m := newModel(g, opts)
	nsides, side := sides(g, opts.Players())
	v := &valuer{m: m, nsides: nsides, side: side, p: make([]float64, nsides)}
	v.st.x = make([][]float64, nsides)
	for i := range v.st.x {
		v.st.x[i] = make([]float64, m.features)
	}
	return v
}

// chances sets u[seat] to each seat's chance of winning the match in s:
// at the match's end its share of the win (a win shared by k sides is
// worth 1/k to each; partners share their side's), otherwise the model's.
func (v *valuer) chances(s game.State, u []float64) {
	r := s.Result()
	if r.Over {
		shares(r.Winners, v.side, v.nsides, v.p)
	} else if v.m.exact != nil && v.nsides == len(u) && v.m.exact(s, v.p) {
		// p is set.
	} else if v.m.theta == nil || !v.m.read(s, &v.st) {
		for i := range v.p {
			v.p[i] = 1 / float64(v.nsides)
		}
	} else {
		softmax(v.m.theta[v.st.bucket], v.st.x, v.p)
	}
	for seat := range u {
		u[seat] = v.p[v.side[seat]]
	}
}

// utility returns v.chances as a bot.Utility for the search.
func (v *valuer) utility() bot.Utility {
	return func(_ *game.Result, leaf game.State, u []float64) { v.chances(leaf, u) }
}

// shares sets p[side] to each side's share of a win by winners.
func shares(winners []int, side []int, nsides int, p []float64) {
	for i := range p {
		p[i] = 0
	}
	var won [8]bool
	k := 0
	for _, w := range winners {
		if sd := side[w]; !won[sd] {
			won[sd] = true
			k++
		}
	}
	for sd := range nsides {
		if won[sd] {
			p[sd] = 1 / float64(k)
		}
	}
}

// softmax sets p to exp(θ·x_i) normalised.
func softmax(theta []float64, x [][]float64, p []float64) {
	top := math.Inf(-1)
	for i := range p {
		z := 0.0
		for f, t := range theta {
			z += t * x[i][f]
		}
		p[i] = z
		top = max(top, z)
	}
	sum := 0.0
	for i := range p {
		p[i] = math.Exp(p[i] - top)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
}
