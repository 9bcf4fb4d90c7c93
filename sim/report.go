package sim

import (
	"maps"
	"math"
	"slices"
)

// Report is the outcome of a run: every figure of variant A, of variant B
// if there is one, and their paired difference. The same configuration and
// seed give the same report.
type Report struct {
	Game    string       `json:"game"`
	Title   string       `json:"title"`
	Matches int          `json:"matches"`
	Seed    uint64       `json:"seed"`
	A       VariantInfo  `json:"a"`
	B       *VariantInfo `json:"b,omitempty"`
	Figures []Figure     `json:"figures"`
}

// VariantInfo describes a variant in a report.
type VariantInfo struct {
	Label   string         `json:"label"`
	Players int            `json:"players"`
	Options map[string]any `json:"options"`
	Bots    []string       `json:"bots"`
}

// Figure is one measured figure.
type Figure struct {
	Key   string `json:"key"`
	Group string `json:"group"`
	Label string `json:"label"`
	Kind  string `json:"kind"` // mean, proportion or rate
	Seat  *int   `json:"seat,omitempty"`
	// Share marks a figure between 0 and 1 (shown as a percentage).
	Share bool `json:"share,omitempty"`
	// A and B are the figure in each variant (null where a variant does not
	// have it); Diff is the paired difference A-B.
	A    *Estimate  `json:"a"`
	B    *Estimate  `json:"b,omitempty"`
	Diff *Estimate  `json:"diff,omitempty"`
	Hist *Histogram `json:"histogram,omitempty"`
}

// Histogram is the distribution of a figure's values in both variants, in
// bins of Width values starting at Lo[i].
type Histogram struct {
	Width int64   `json:"width"`
	Lo    []int64 `json:"lo"`
	A     []int64 `json:"a"`
	B     []int64 `json:"b,omitempty"`
}

// maxBins bounds the bins of a histogram.
const maxBins = 40

func buildReport(cfg Config, specs []Spec, t *tally) *Report {
	rep := &Report{Game: cfg.Game.Name(), Title: cfg.Game.Title(), Matches: cfg.Matches, Seed: cfg.Seed}
	rep.A = info(cfg.A, "A")
	hasB := cfg.B.Options != nil
	if hasB {
		b := info(cfg.B, "B")
		rep.B = &b
	}
	for f, s := range specs {
		fig := Figure{Key: s.Key, Group: s.Group, Label: s.Label, Kind: s.Kind.String(), Share: s.Share}
		if s.Seat >= 0 {
			seat := s.Seat
			fig.Seat = &seat
		}
		sc := s.scale()
		if t.mapA[f] >= 0 {
			fig.A = estimate(&t.a[f], s.Kind, sc, s.Share)
		}
		if hasB && t.mapB[f] >= 0 {
			fig.B = estimate(&t.b[f], s.Kind, sc, s.Share)
		}
		if t.pairs[f] {
			fig.Diff = difference(&t.a[f], &t.b[f], &t.cr[f], sc)
		}
		if s.Hist {
			var hb map[int64]int64
			if hasB {
				hb = t.hb[f]
			}
			fig.Hist = histogram(t.ha[f], hb, hasB)
			if s.Kind == Rate {
				setSD(fig.A, t.ha[f])
				setSD(fig.B, hb)
			}
		}
		rep.Figures = append(rep.Figures, fig)
	}
	// Keep each group's figures together, groups in order of first mention.
	order := map[string]int{}
	for _, f := range rep.Figures {
		if _, ok := order[f.Group]; !ok {
			order[f.Group] = len(order)
		}
	}
	slices.SortStableFunc(rep.Figures, func(a, b Figure) int { return order[a.Group] - order[b.Group] })
	return rep
}

func info(v Variant, def string) VariantInfo {
	vi := VariantInfo{Label: v.Label, Players: v.Options.Players(), Options: maps.Clone(map[string]any(v.Options))}
	if vi.Label == "" {
		vi.Label = def
	}
	for _, b := range v.Bots {
		vi.Bots = append(vi.Bots, b.Name())
	}
	return vi
}

// setSD sets the spread of a Rate from the histogram of its units, summed
// in the order of the values so that it does not depend on map order.
func setSD(e *Estimate, h map[int64]int64) {
	if e == nil || len(h) == 0 {
		return
	}
	vals := slices.Sorted(maps.Keys(h))
	var n, s, ss float64
	for _, v := range vals {
		n += float64(h[v])
		s += float64(h[v]) * float64(v)
	}
	if n < 2 {
		return
	}
	mean := s / n
	for _, v := range vals {
		d := float64(v) - mean
		ss += float64(h[v]) * d * d
	}
	sd := math.Sqrt(ss / (n - 1))
	e.SD = &sd
}

// histogram bins the value counts of A (and B) on common bins.
func histogram(a, b map[int64]int64, hasB bool) *Histogram {
	keys := slices.Collect(maps.Keys(a))
	keys = slices.AppendSeq(keys, maps.Keys(b))
	if len(keys) == 0 {
		return nil
	}
	lo, hi := slices.Min(keys), slices.Max(keys)
	w := binWidth(hi - lo + 1)
	start := floorDiv(lo, w) * w
	nb := floorDiv(hi-start, w) + 1
	h := &Histogram{Width: w, Lo: make([]int64, nb), A: make([]int64, nb)}
	for i := range h.Lo {
		h.Lo[i] = start + int64(i)*w
	}
	for v, c := range a {
		h.A[floorDiv(v-start, w)] += c
	}
	if hasB {
		h.B = make([]int64, nb)
		for v, c := range b {
			h.B[floorDiv(v-start, w)] += c
		}
	}
	return h
}

// binWidth returns the smallest of 1, 2, 5, 10, 20, 50... that puts span
// values in at most maxBins-1 bins (one more for an unaligned start).
func binWidth(span int64) int64 {
	if span <= maxBins {
		return 1
	}
	for w := int64(1); ; w *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if span <= (maxBins-1)*w*m {
				return w * m
			}
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
