package analysis

import (
	"context"
	"fmt"
	"math"
	"testing"

	"parlour/bot"
)

// miscalibrated returns what is wrong with a calibration table: a bin of
// enough decisions whose seats won more or less often than the chance
// rated, beyond what chance allows, or decisions not spread over the
// range (a rating that says little).
func miscalibrated(bins []Bin) []string {
	var out []string
	total, spread := 0, 0
	for _, b := range bins {
		total += b.Decisions
	}
	for _, b := range bins {
		if b.Decisions >= total/10 {
			spread++
		}
		if b.Decisions < 30 {
			continue
		}
		se := math.Sqrt(max(b.Chance*(1-b.Chance), 0.01) / float64(b.Decisions))
		if math.Abs(b.Won-b.Chance) > 3*se+0.05 {
			out = append(out, fmt.Sprintf("decisions rated %.1f-%.1f (%d, mean %.3f): %.3f won", b.Low, b.High, b.Decisions, b.Chance, b.Won))
		}
	}
	// Calibration in the large, over the decisions rated under one half
	// and over the others: an overconfident rating wins more than it
	// says below, and less above.
	for _, half := range [][2]int{{0, 5}, {5, 10}} {
		n, won, chance, v := 0.0, 0.0, 0.0, 0.0
		for _, b := range bins[half[0]:half[1]] {
			n += float64(b.Decisions)
			won += b.Won * float64(b.Decisions)
			chance += b.Chance * float64(b.Decisions)
			v += max(b.Chance*(1-b.Chance), 0.01) * float64(b.Decisions)
		}
		if n >= 20 && math.Abs(won-chance) > 3*math.Sqrt(v)+0.02*n {
			out = append(out, fmt.Sprintf("decisions rated %.1f-%.1f (%d): %.1f won, %.1f rated", float64(half[0])/10, float64(half[1])/10, int(n), won, chance))
		}
	}
	if spread < 3 {
		out = append(out, fmt.Sprintf("the chances rated fill only %d tenths of the range with a tenth of the decisions", spread))
	}
	return out
}

// slope fits won ~ sigmoid(a + b·logit(chance)) to rated decisions (a
// logistic recalibration, by Newton's method) and returns b: 1 for a
// calibrated rating, under 1 for an overconfident one, over 1 for one too
// timid.
func slope(rs []rated) float64 {
	var a, b float64
	for range 50 {
		var g0, g1, h00, h01, h11 float64
		for _, r := range rs {
			c := min(max(r.chance, 0.005), 0.995)
			x := math.Log(c / (1 - c))
			p := 1 / (1 + math.Exp(-(a + b*x)))
			g0 += r.won - p
			g1 += (r.won - p) * x
			w := p * (1 - p)
			h00 += w
			h01 += w * x
			h11 += w * x * x
		}
		det := h00*h11 - h01*h01
		if det == 0 {
			break
		}
		a += (h11*g0 - h01*g1) / det
		b += (h00*g1 - h01*g0) / det
	}
	return b
}

// TestCalibration: over seeded Golf matches of four heuristic players,
// decisions rated about p are won about p of the time (within the
// statistical error), and the recalibration slope is about 1. It shows
// that the checks catch an overconfident rating (the same analysis with
// the model's weights tripled) and a timid one (divided by three).
func TestCalibration(t *testing.T) {
	matches := 24
	if !testing.Short() {
		matches = 80
	}
	g, opts := setup(t, "golf", map[string]any{"players": 4})
	bots := []bot.Bot{bot.Heuristic{}, bot.Heuristic{}, bot.Heuristic{}, bot.Heuristic{}}
	c := CalibrationConfig{Game: g, Options: opts, Bots: bots, Matches: matches, Seed: 500, Rate: 0.025, Analysis: Options{Iterations: 300}}
	check := func(scale float64) (problems []string) {
		an := NewAnalyser(g, opts, c.Analysis)
		theta := make([][]float64, len(an.value.m.theta))
		for b, row := range an.value.m.theta {
			for _, x := range row {
				theta[b] = append(theta[b], scale*x)
			}
		}
		an.value.m.theta = theta
		rs, err := rate(context.Background(), c, an)
		if err != nil {
			t.Fatal(err)
		}
		bins := binned(rs)
		for _, b := range bins {
			t.Logf("weights ×%.2f, %.1f-%.1f: %4d decisions, rated %.3f, won %.3f [%.3f, %.3f]", scale, b.Low, b.High, b.Decisions, b.Chance, b.Won, b.CI95[0], b.CI95[1])
		}
		problems = miscalibrated(bins)
		sl := slope(rs)
		t.Logf("weights ×%.2f: %d decisions, slope %.2f", scale, len(rs), sl)
		if sl < 0.7 || sl > 1.4 {
			problems = append(problems, fmt.Sprintf("recalibration slope %.2f", sl))
		}
		return problems
	}
	for _, p := range check(1) {
		t.Error(p)
	}
	if len(check(3)) == 0 {
		t.Errorf("the checks do not catch an overconfident rating")
	}
	if len(check(1.0/3)) == 0 {
		t.Errorf("the checks do not catch a timid rating")
	}
}
