package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"parlour/bot"
	"parlour/game"
)

// damnSampleEvery is how often (in moves) a Damn match's standing is
// sampled for the fit: a Damn search judges its playouts at a horizon, in
// the middle of the deal, not at a deal's end.
const damnSampleEvery = 15

// sample is one standing met in a fitting match, and how the match ended.
type sample struct {
	bucket int
	x      [][]float64 // per side
	y      []float64   // per side: its share of the win
}

// Fit plays matches of g under opts (resolved) with the heuristic bot on
// every seat, match i from seed+i, reads the standing at the end of every
// deal (in Damn, every few moves), and fits the win-chance model's weights
// to how the matches ended: per progress bucket, the weights θ of the
// softmax exp(θ·x_side) that make the outcomes likeliest (a conditional
// logit, by Newton's method). It returns theta[bucket][feature]; a bucket
// that few standings reached gets the weights fitted on all of them.
func Fit(ctx context.Context, g game.Game, opts game.Options, matches int, seed uint64) ([][]float64, error) {
	data, err := fitSamples(ctx, g, opts, matches, seed)
	if err != nil {
		return nil, err
	}
	m := newModel(g, opts)
	pooled := fitLogit(data, m.features)
	theta := make([][]float64, m.buckets)
	for b := range theta {
		var in []sample
		for _, s := range data {
			if s.bucket == b {
				in = append(in, s)
			}
		}
		if len(in) < minBucket {
			// Too few standings to fit the bucket alone: the weights of
			// all buckets together.
			theta[b] = pooled
			continue
		}
		theta[b] = fitLogit(in, m.features)
	}
	return theta, nil
}

// minBucket is the fewest standings a progress bucket is fitted on alone.
const minBucket = 500

// fitSamples plays the fitting matches and returns their standings.
func fitSamples(ctx context.Context, g game.Game, opts game.Options, matches int, seed uint64) ([]sample, error) {
	m := newModel(g, opts)
	n := opts.Players()
	nsides, side := sides(g, n)
	h := bot.Heuristic{}
	var out []sample
	for i := range matches {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := g.New(opts, seed+uint64(i), nil)
		if err != nil {
			return nil, err
		}
		rng := rand.New(rand.NewPCG(seed+uint64(i), 99))
		var match []sample
		record := func() {
			st := standing{x: make([][]float64, nsides)}
			for k := range st.x {
				st.x[k] = make([]float64, m.features)
			}
			if m.read(s, &st) {
				match = append(match, sample{bucket: st.bucket, x: st.x})
			}
		}
		played := s.DealsPlayed()
		for moves := 0; s.ToAct() != 0; moves++ {
			if moves > 1_000_000 {
				return nil, fmt.Errorf("fitting %s: match %d did not end", g.Name(), i)
			}
			seat := s.ToAct().First()
			s.ApplyFast(seat, h.Choose(s, seat, rng))
			if s.ToAct() == 0 {
				break
			}
			if m.exact != nil {
				p := make([]float64, nsides)
				if m.exact(s, p) {
					continue
				}
			}
			if d := s.DealsPlayed(); d != played || (g.Info().OneDeal && moves%damnSampleEvery == 0) {
				played = d
				record()
			}
		}
		r := s.Result()
		if len(r.Winners) == 0 {
			continue // unresolved: no outcome to learn from
		}
		y := make([]float64, nsides)
		shares(r.Winners, side, nsides, y)
		for _, sm := range match {
			sm.y = y
			out = append(out, sm)
		}
	}
	return out, nil
}

// fitLogit returns the weights of a conditional logit over the samples'
// sides, fitted by Newton's method with a little ridge.
func fitLogit(data []sample, k int) []float64 {
	theta := make([]float64, k)
	if len(data) == 0 {
		return theta
	}
	const ridge = 1e-3
	for range 100 {
		grad := make([]float64, k)
		hess := make([][]float64, k)
		for a := range hess {
			hess[a] = make([]float64, k)
			hess[a][a] = ridge * float64(len(data))
			grad[a] = -ridge * float64(len(data)) * theta[a]
		}
		p := make([]float64, 8)
		mean := make([]float64, k)
		for _, s := range data {
			p = p[:len(s.x)]
			softmax(theta, s.x, p)
			for a := range mean {
				mean[a] = 0
				for i := range p {
					mean[a] += p[i] * s.x[i][a]
				}
			}
			for i := range p {
				for a := range k {
					grad[a] += (s.y[i] - p[i]) * s.x[i][a]
					for b := range k {
						hess[a][b] += p[i] * (s.x[i][a] - mean[a]) * (s.x[i][b] - mean[b])
					}
				}
			}
		}
		step := solve(hess, grad)
		size := 0.0
		for a := range theta {
			theta[a] += step[a]
			size += math.Abs(step[a])
		}
		if size < 1e-9 {
			break
		}
	}
	return theta
}

// solve returns x with a·x = b, a symmetric positive definite (Gaussian
// elimination with partial pivoting); a and b are overwritten.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	for c := range n {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		b[c], b[piv] = b[piv], b[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		if a[r][r] == 0 {
			continue
		}
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// ConfigKey returns the key the win-chance model's weights are kept under
// for g played under opts (resolved): "golf/4", "court-circular/2/1862".
func ConfigKey(g game.Game, opts game.Options) string { return configKey(g, opts) }

// Fitted returns the weights kept for key, theta[bucket][feature], and
// whether there are any.
func Fitted(key string) ([][]float64, bool) {
	th, ok := fitted[key]
	return th, ok
}
