package sim

import (
	"math"
	"math/bits"

	"parlour/internal/arena"
)

// int128 is a signed 128-bit integer (two's complement), enough to sum the
// squares of any figure over any number of matches exactly. Exact integer
// sums make a run's figures the same whatever the order in which the
// workers finish their matches.
type int128 struct {
	hi int64
	lo uint64
}

func (a *int128) add(b int128) {
	var carry uint64
	a.lo, carry = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + int64(carry)
}

func (a *int128) addInt(v int64) {
	a.add(int128{hi: v >> 63, lo: uint64(v)})
}

// mul returns a*b exactly.
func mul(a, b int64) int128 {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(absU(a), absU(b))
	r := int128{hi: int64(hi), lo: lo}
	if neg {
		r = r.neg()
	}
	return r
}

// neg returns -a (two's complement).
func (a int128) neg() int128 {
	r := int128{hi: ^a.hi, lo: ^a.lo + 1}
	if r.lo == 0 {
		r.hi++
	}
	return r
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func (a int128) float() float64 {
	if a.hi < 0 {
		return -a.neg().float() // small negative sums stay exact
	}
	return float64(a.hi)*(1<<64) + float64(a.lo)
}

// moments are the sums over matches of one figure of one variant: y is
// the figure's numerator in a match, x its denominator (1 for a figure
// measured once a match, the number of deals for a figure per deal).
type moments struct {
	n, nx         int64 // matches, matches with x > 0
	sy, sx        int128
	syy, sxx, sxy int128
}

func (m *moments) add(y, x int64) {
	m.n++
	if x != 0 {
		m.nx++
	}
	m.sy.addInt(y)
	m.sx.addInt(x)
	m.syy.add(mul(y, y))
	m.sxx.add(mul(x, x))
	m.sxy.add(mul(x, y))
}

func (m *moments) merge(o moments) {
	m.n += o.n
	m.nx += o.nx
	m.sy.add(o.sy)
	m.sx.add(o.sx)
	m.syy.add(o.syy)
	m.sxx.add(o.sxx)
	m.sxy.add(o.sxy)
}

// cross are the sums of products between the two variants of a figure in
// the same matches, for the paired difference.
type cross struct {
	yy, yx, xy, xx int128 // yA*yB, yA*xB, xA*yB, xA*xB
}

func (c *cross) add(ya, xa, yb, xb int64) {
	c.yy.add(mul(ya, yb))
	c.yx.add(mul(ya, xb))
	c.xy.add(mul(xa, yb))
	c.xx.add(mul(xa, xb))
}

func (c *cross) merge(o cross) {
	c.yy.add(o.yy)
	c.yx.add(o.yx)
	c.xy.add(o.xy)
	c.xx.add(o.xx)
}

// ratio returns the estimate Sy/Sx and the sum of squared residuals
// Σ(y - R·x)², or ok false when there is nothing to estimate (Sx = 0).
func (m *moments) ratio() (r, ss float64, ok bool) {
	sx := m.sx.float()
	if sx == 0 {
		return 0, 0, false
	}
	r = m.sy.float() / sx
	ss = m.syy.float() - 2*r*m.sxy.float() + r*r*m.sxx.float()
	return r, max(ss, 0), true
}

// Estimate is one figure of one variant (or the difference A-B) with its
// 95% confidence interval.
type Estimate struct {
	// Value is the figure: a mean, a rate or a proportion.
	Value float64 `json:"value"`
	// CI95 is the 95% confidence interval, null when there is too little
	// data for one.
	CI95 *[2]float64 `json:"ci95"`
	// SD is the spread (standard deviation) of the figure's values: per
	// match for a per-match figure, per unit (deal, player...) when the
	// figure has a histogram of units.
	SD *float64 `json:"sd,omitempty"`
	// N counts the matches that measured the figure; Units its denominator
	// summed over them (deals, tricks...), for figures per unit.
	N     int64   `json:"n"`
	Units float64 `json:"units,omitempty"`
}

// estimate returns the figure of one variant, or nil without data.
// Proportions use the Wilson interval; means and rates the t interval of
// the ratio estimator with matches as clusters (the delta method), which
// is the usual t interval of a mean when x is 1 in every match. A rate
// that is a share (of deals, of tricks) also takes in the Wilson interval
// of its pooled units.
func estimate(m *moments, kind Kind, scale int64, share bool) *Estimate {
	r, ss, ok := m.ratio()
	if !ok {
		return nil
	}
	sc := float64(scale)
	e := &Estimate{Value: r / sc, N: m.nx}
	sx := m.sx.float()
	if kind == Rate {
		e.Units = sx
	}
	switch {
	case kind == Proportion:
		ci := arena.Wilson(m.sy.float()/sc, int(math.Round(sx)))
		e.CI95 = &ci
	case m.nx >= 2:
		nx := float64(m.nx)
		xbar := sx / nx
		se := math.Sqrt(ss/(nx*(nx-1))) / xbar / sc
		h := tQuantile(m.nx-1) * se
		e.CI95 = &[2]float64{e.Value - h, e.Value + h}
		if share {
			// A share of units: the cluster interval, widened to the Wilson
			// interval of the pooled units, which stays sensible near 0 and
			// 1 where the other collapses; within [0, 1].
			w := arena.Wilson(m.sy.float()/sc, int(math.Round(sx)))
			e.CI95 = &[2]float64{max(0, min(e.CI95[0], w[0])), min(1, max(e.CI95[1], w[1]))}
		}
	}
	if kind == Mean && m.nx >= 2 {
		sd := math.Sqrt(ss/float64(m.nx-1)) / sc
		e.SD = &sd
	}
	return e
}

// difference returns the paired difference A-B of a figure measured in
// the same matches by both variants, with the t interval of the paired
// linearised residuals, or nil.
func difference(a, b *moments, c *cross, scale int64) *Estimate {
	ra, ssa, oka := a.ratio()
	rb, ssb, okb := b.ratio()
	if !oka || !okb || a.n != b.n {
		return nil
	}
	sc := float64(scale)
	n := float64(a.n)
	e := &Estimate{Value: (ra - rb) / sc, N: a.n}
	if a.n < 2 {
		return e
	}
	xa, xb := a.sx.float()/n, b.sx.float()/n
	// Σ (yA - rA xA)(yB - rB xB)
	sab := c.yy.float() - rb*c.yx.float() - ra*c.xy.float() + ra*rb*c.xx.float()
	ss := ssa/(xa*xa) + ssb/(xb*xb) - 2*sab/(xa*xb)
	se := math.Sqrt(max(ss, 0)/(n*(n-1))) / sc
	h := tQuantile(a.n-1) * se
	e.CI95 = &[2]float64{e.Value - h, e.Value + h}
	return e
}

// t975 holds the 97.5% quantiles of Student's t for 1 to 30 degrees of
// freedom.
var t975 = [...]float64{
	12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
	2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
	2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
}

// tQuantile returns the 97.5% quantile of Student's t with df degrees of
// freedom: from the table up to 30, by the Cornish-Fisher expansion beyond
// (within 1e-4).
func tQuantile(df int64) float64 {
	if df <= 0 {
		return math.Inf(1)
	}
	if df <= int64(len(t975)) {
		return t975[df-1]
	}
	const z = 1.959963984540054
	v := float64(df)
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v)
}
