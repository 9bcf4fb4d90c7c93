package sim

import (
	"fmt"
	"slices"
	"strconv"
)

// Kind says how a figure is measured and how its interval is found.
type Kind uint8

// The kinds of figure.
const (
	// Mean is a value measured once a match (x = 1): its mean over the
	// matches, with a t interval.
	Mean Kind = iota
	// Proportion is a value between 0 and 1 measured in the matches where
	// it applies (x = 1, or 0 where it does not): a share of matches, with
	// a Wilson interval.
	Proportion
	// Rate is a total over units within matches (deals, tricks, players)
	// divided by the number of units: Σy/Σx with matches as clusters.
	Rate
)

// String returns "mean", "proportion" or "rate".
func (k Kind) String() string {
	return [...]string{"mean", "proportion", "rate"}[k]
}

// Spec declares one figure.
type Spec struct {
	// Key names the figure uniquely, e.g. "win/0" or "golf/pairs".
	Key string
	// Group is the report section: "Seats", "Length", "Tension", or the
	// game's title for its own figures.
	Group string
	// Label says what the figure is, e.g. "column pairs per player per hole".
	Label string
	Kind  Kind
	// Seat is the seat the figure is about, or -1.
	Seat int
	// Scale divides the recorded integers: a value recorded as y stands for
	// y/Scale (0 means 1). It keeps shared wins (1/k) exact.
	Scale int64
	// Hist keeps the distribution of the figure: of its per-match values
	// for a Mean, of the values given to Record.Observe for a Rate.
	Hist bool
	// Share marks a figure between 0 and 1, shown as a percentage.
	Share bool
}

func (s Spec) scale() int64 {
	if s.Scale == 0 {
		return 1
	}
	return s.Scale
}

// Record holds the figures of one match of one variant, as Observers and
// the runner record them.
type Record struct {
	specs []Spec
	index map[string]int
	y, x  []int64
	hist  [][]int64
}

func newRecord(specs []Spec, index map[string]int) *Record {
	return &Record{
		specs: specs, index: index,
		y: make([]int64, len(specs)), x: make([]int64, len(specs)),
		hist: make([][]int64, len(specs)),
	}
}

func (r *Record) reset() {
	clear(r.y)
	clear(r.x)
	for i := range r.hist {
		r.hist[i] = r.hist[i][:0]
	}
}

func (r *Record) at(key string) int {
	i, ok := r.index[key]
	if !ok {
		panic(fmt.Sprintf("sim: figure %q is not declared", key))
	}
	return i
}

// Set records the figure key of this match as y over x (x = 1 for a figure
// measured once a match; x = 0 where the figure does not apply). A Mean
// with a histogram adds y to it.
func (r *Record) Set(key string, y, x int64) {
	i := r.at(key)
	r.y[i], r.x[i] = y, x
	if s := r.specs[i]; s.Hist && s.Kind == Mean && x != 0 {
		r.hist[i] = append(r.hist[i], y)
	}
}

// Add adds y over x to the figure key of this match: for Rates summed over
// the units of a match.
func (r *Record) Add(key string, y, x int64) {
	i := r.at(key)
	r.y[i] += y
	r.x[i] += x
}

// Observe adds one unit's value to the histogram of a Rate (a deal's
// length, a player's pairs in a hole).
func (r *Record) Observe(key string, v int64) {
	i := r.at(key)
	r.hist[i] = append(r.hist[i], v)
}

// tally sums the records of one variant, and the paired products with the
// other variant's, over the matches a worker played.
type tally struct {
	a, b  []moments // per figure of the report
	cr    []cross   // per figure of the report, where both variants have it
	ha    []map[int64]int64
	hb    []map[int64]int64
	mapA  []int // report figure -> index in A's specs, or -1
	mapB  []int
	pairs []bool // the figure is in both variants
}

func newTally(n int, mapA, mapB []int) *tally {
	t := &tally{a: make([]moments, n), b: make([]moments, n), cr: make([]cross, n),
		ha: make([]map[int64]int64, n), hb: make([]map[int64]int64, n), mapA: mapA, mapB: mapB,
		pairs: make([]bool, n)}
	for i := range n {
		t.ha[i] = map[int64]int64{}
		t.hb[i] = map[int64]int64{}
		t.pairs[i] = mapA[i] >= 0 && mapB != nil && mapB[i] >= 0
	}
	return t
}

// add sums one match: ra of variant A, rb of variant B (nil without B).
func (t *tally) add(ra, rb *Record) {
	for f := range t.a {
		var ya, xa, yb, xb int64
		if k := t.mapA[f]; k >= 0 {
			ya, xa = ra.y[k], ra.x[k]
			t.a[f].add(ya, xa)
			for _, v := range ra.hist[k] {
				t.ha[f][v]++
			}
		}
		if rb == nil {
			continue
		}
		if k := t.mapB[f]; k >= 0 {
			yb, xb = rb.y[k], rb.x[k]
			t.b[f].add(yb, xb)
			for _, v := range rb.hist[k] {
				t.hb[f][v]++
			}
		}
		if t.pairs[f] {
			t.cr[f].add(ya, xa, yb, xb)
		}
	}
}

func (t *tally) merge(o *tally) {
	for f := range t.a {
		t.a[f].merge(o.a[f])
		t.b[f].merge(o.b[f])
		t.cr[f].merge(o.cr[f])
		for v, c := range o.ha[f] {
			t.ha[f][v] += c
		}
		for v, c := range o.hb[f] {
			t.hb[f][v] += c
		}
	}
}

// unionSpecs lists the figures of both variants: A's in order, then those
// only B has. It returns each figure's index in A's and B's specs (-1 where
// a variant lacks it; mapB nil without B).
func unionSpecs(a, b []Spec) (all []Spec, mapA, mapB []int) {
	all = slices.Clone(a)
	for i := range a {
		mapA = append(mapA, i)
	}
	if b == nil {
		return all, mapA, nil
	}
	inA := map[string]int{}
	for i, s := range a {
		inA[s.Key] = i
	}
	mapB = make([]int, len(a))
	for i := range mapB {
		mapB[i] = -1
	}
	for j, s := range b {
		if i, ok := inA[s.Key]; ok {
			mapB[i] = j
			continue
		}
		all = append(all, s)
		mapA = append(mapA, -1)
		mapB = append(mapB, j)
	}
	return all, mapA, mapB
}

// seatKey returns prefix + "/" + seat: "golf/out/2".
func seatKey(prefix string, seat int) string { return prefix + "/" + strconv.Itoa(seat) }

// seatKeyList returns the seatKeys of seats 0 to n-1.
func seatKeyList(prefix string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = seatKey(prefix, i)
	}
	return keys
}
