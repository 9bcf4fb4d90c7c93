package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games/golf"
)

// variant resolves options for g with the same bot on every seat.
func variant(t testing.TB, g game.Game, opts map[string]any, botName string) Variant {
	t.Helper()
	o, err := game.Resolve(g, opts)
	if err != nil {
		t.Fatalf("Resolve(%v): %v", opts, err)
	}
	b, ok := bot.ByName(botName)
	if !ok {
		t.Fatalf("no bot %q", botName)
	}
	v := Variant{Options: o}
	for range o.Players() {
		v.Bots = append(v.Bots, b)
	}
	return v
}

func run(t testing.TB, cfg Config) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rep
}

func figure(t testing.TB, rep *Report, key string) *Figure {
	t.Helper()
	for i := range rep.Figures {
		if rep.Figures[i].Key == key {
			return &rep.Figures[i]
		}
	}
	t.Fatalf("no figure %q", key)
	return nil
}

func covers(e *Estimate, v float64) bool {
	return e != nil && e.CI95 != nil && e.CI95[0] <= v && v <= e.CI95[1]
}

func TestTQuantile(t *testing.T) {
	for _, tt := range []struct {
		df   int64
		want float64
	}{{1, 12.706}, {2, 4.303}, {10, 2.228}, {30, 2.042}, {31, 2.040}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {1000, 1.962}, {1 << 40, 1.960}} {
		if got := tQuantile(tt.df); math.Abs(got-tt.want) > 0.001 {
			t.Errorf("tQuantile(%d) = %.4f, want %.3f", tt.df, got, tt.want)
		}
	}
}

func TestInt128SumsExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sum int128
	want := new(big.Int)
	for range 2000 {
		a := int64(rng.Uint64()>>14) * (1 - 2*int64(rng.IntN(2)))
		b := int64(rng.Uint64()>>14) * (1 - 2*int64(rng.IntN(2)))
		sum.add(mul(a, b))
		want.Add(want, new(big.Int).Mul(big.NewInt(a), big.NewInt(b)))
	}
	got := new(big.Int).Lsh(big.NewInt(sum.hi), 64)
	got.Add(got, new(big.Int).SetUint64(sum.lo))
	if got.Cmp(want) != 0 {
		t.Fatalf("int128 sum %v, want %v", got, want)
	}
	if f, _ := new(big.Float).SetInt(want).Float64(); math.Abs(sum.float()-f) > 1e-9*math.Abs(f) {
		t.Errorf("float %g, want %g", sum.float(), f)
	}
	// Small sums, negative ones too, are exact.
	for _, vs := range [][]int64{{-5}, {3, -8}, {-1 << 40, -7}, {1 << 52, 1}, {0}} {
		var s int128
		var want int64
		for _, v := range vs {
			s.addInt(v)
			want += v
		}
		if s.float() != float64(want) {
			t.Errorf("sum of %v = %v, want %d", vs, s.float(), want)
		}
	}
}

// TestKnownMeanInterval checks the t interval on a small hand-computed
// sample: 1, 2, 3, 4, 5 has mean 3, sd 1.5811, and t(4) = 2.7764.
func TestKnownMeanInterval(t *testing.T) {
	var m moments
	for _, y := range []int64{1, 2, 3, 4, 5} {
		m.add(y, 1)
	}
	e := estimate(&m, Mean, 1, false)
	half := 2.7764 * 1.5811388 / math.Sqrt(5)
	if e.Value != 3 || math.Abs(e.CI95[0]-(3-half)) > 1e-3 || math.Abs(e.CI95[1]-(3+half)) > 1e-3 || math.Abs(*e.SD-1.5811388) > 1e-6 {
		t.Errorf("estimate %+v (ci %v, sd %v), want 3 ± %.4f, sd 1.5811", e, *e.CI95, *e.SD, half)
	}
	// A proportion: 30 of 100 gives the Wilson interval [0.2189, 0.3958].
	var p moments
	for i := range 100 {
		p.add(b2i(i < 30), 1)
	}
	e = estimate(&p, Proportion, 1, true)
	if e.Value != 0.3 || math.Abs(e.CI95[0]-0.2189) > 1e-3 || math.Abs(e.CI95[1]-0.3958) > 1e-3 {
		t.Errorf("proportion %v %v, want 0.3 [0.2189, 0.3958]", e.Value, *e.CI95)
	}
}

// TestFairCoin checks a fair coin: each seat wins about half the matches,
// every interval holds the truth, and the figures add up.
func TestFairCoin(t *testing.T) {
	g := coinGame{}
	rep := run(t, Config{Game: g, A: variant(t, g, nil, "random"), Matches: 4000, Seed: 7})
	w0, w1 := figure(t, rep, "win/0"), figure(t, rep, "win/1")
	if !covers(w0.A, 0.5) || !covers(w1.A, 0.5) {
		t.Errorf("fair coin: seat 0 wins %v %v, seat 1 %v %v; both intervals should hold 0.5", w0.A.Value, *w0.A.CI95, w1.A.Value, *w1.A.CI95)
	}
	if s := w0.A.Value + w1.A.Value; math.Abs(s-1) > 1e-12 {
		t.Errorf("wins add up to %v", s)
	}
	if width := w0.A.CI95[1] - w0.A.CI95[0]; math.Abs(width-2*1.96*0.5/math.Sqrt(4000)) > 0.002 {
		t.Errorf("interval width %v, want about ±1.55%%", width)
	}
	if u := figure(t, rep, "unresolved").A; u.Value != 0 {
		t.Errorf("unresolved %v", u.Value)
	}
	if m := figure(t, rep, "moves").A; m.Value != 1 || *m.SD != 0 {
		t.Errorf("moves per match %v (sd %v), want exactly 1", m.Value, *m.SD)
	}
	h := figure(t, rep, "score/0").Hist
	if h == nil || h.Width != 1 || len(h.A) != 2 || h.A[0]+h.A[1] != 4000 || h.A[1] != int64(math.Round(w0.A.Value*4000)) {
		t.Errorf("score histogram %+v", h)
	}
}

// TestRiggedSeat checks that a seat that wins 70% of deals shows it, and
// that the interval tells it from a fair seat.
func TestRiggedSeat(t *testing.T) {
	g := coinGame{}
	rep := run(t, Config{Game: g, A: variant(t, g, map[string]any{"bias": 70}, "random"), Matches: 2000, Seed: 3})
	w0 := figure(t, rep, "win/0").A
	if !covers(w0, 0.7) || covers(w0, 0.5) {
		t.Errorf("rigged seat wins %v %v; want an interval holding 0.7 and not 0.5", w0.Value, *w0.CI95)
	}
	// Three players: seat 0 takes 60%, seats 1 and 2 20% each.
	rep = run(t, Config{Game: g, A: variant(t, g, map[string]any{"players": 3, "bias": 60}, "random"), Matches: 3000, Seed: 4})
	for seat, want := range []float64{0.6, 0.2, 0.2} {
		if e := figure(t, rep, winKeys[seat]).A; !covers(e, want) {
			t.Errorf("seat %d wins %v %v, want %v", seat, e.Value, *e.CI95, want)
		}
	}
}

// TestLeadChangesAndLastDeal plays the fixed story of swingGame: two lead
// changes, and the last deal turns the match.
func TestLeadChangesAndLastDeal(t *testing.T) {
	g := swingGame{}
	rep := run(t, Config{Game: g, A: variant(t, g, nil, "random"), Matches: 10, Seed: 1})
	for key, want := range map[string]float64{"lead_changes": 2, "last_deal": 1, "deals": 3, "deal_moves": 1, "win/0": 1, "score/1": 3} {
		if e := figure(t, rep, key).A; e.Value != want {
			t.Errorf("%s = %v, want %v", key, e.Value, want)
		}
	}
}

// TestIntervalsCover runs many small independent experiments and checks
// that the 95% intervals hold the true value about 95% of the time: a
// share of matches (Wilson), a mean per match and a rate per deal (t over
// matches), and the paired difference between two variants.
func TestIntervalsCover(t *testing.T) {
	g := coinGame{}
	a := variant(t, g, map[string]any{"deals": 5, "stop": 30}, "random")
	b := variant(t, g, map[string]any{"deals": 5, "stop": 30, "bias": 60}, "random")
	// The truth: seat 0 wins half the matches in A (5 deals, no ties);
	// takes 2.5 points in A and 3 in B; a deal lasts 1/0.3 moves.
	truth := map[string]float64{"win/0": 0.5, "score/0": 2.5, "deal_moves": 1 / 0.3, "moves": 5 / 0.3}
	const runs, matches = 300, 100
	hits := map[string]int{}
	for r := range runs {
		rep := run(t, Config{Game: g, A: a, B: b, Matches: matches, Seed: uint64(r) * matches, Workers: 1})
		for key, v := range truth {
			if covers(figure(t, rep, key).A, v) {
				hits[key]++
			}
		}
		if covers(figure(t, rep, "score/0").Diff, -0.5) {
			hits["score/0 A-B"]++
		}
		if covers(figure(t, rep, "deal_moves").Diff, 0) {
			hits["deal_moves A-B"]++
		}
	}
	for _, key := range []string{"win/0", "score/0", "deal_moves", "moves", "score/0 A-B", "deal_moves A-B"} {
		rate := float64(hits[key]) / runs
		t.Logf("%s: %.1f%%", key, 100*rate)
		if rate < 0.9 || rate > 0.99 {
			t.Errorf("%s: the 95%% interval held the truth in %.1f%% of %d runs", key, 100*rate, runs)
		}
	}
}

// TestPairedDifference checks A/B on the same deals: a variant against
// itself differs by exactly 0; a rigged variant against a fair one by the
// bias, with an interval that excludes 0.
func TestPairedDifference(t *testing.T) {
	g := coinGame{}
	fair := variant(t, g, nil, "random")
	rep := run(t, Config{Game: g, A: fair, B: fair, Matches: 500, Seed: 9})
	for _, f := range rep.Figures {
		if f.A == nil {
			continue // last_deal: one deal
		}
		if f.Diff == nil || f.Diff.Value != 0 || (f.Diff.CI95 != nil && (f.Diff.CI95[0] != 0 || f.Diff.CI95[1] != 0)) {
			t.Errorf("%s: A against itself differs by %+v", f.Key, f.Diff)
		}
	}
	rigged := variant(t, g, map[string]any{"bias": 80}, "random")
	rep = run(t, Config{Game: g, A: fair, B: rigged, Matches: 2000, Seed: 10})
	d := figure(t, rep, "win/0").Diff
	if !covers(d, -0.3) || !Significant(d) {
		t.Errorf("fair minus rigged: %v %v, want an interval holding -0.3 and not 0", d.Value, *d.CI95)
	}
	// The same deals make the paired interval narrower than two
	// independent samples would give.
	wa, wb := figure(t, rep, "win/0").A, figure(t, rep, "win/0").B
	indep := 1.96 * math.Sqrt(wa.Value*(1-wa.Value)/2000+wb.Value*(1-wb.Value)/2000)
	if half := (d.CI95[1] - d.CI95[0]) / 2; half >= indep {
		t.Errorf("paired half-width %v, independent %v", half, indep)
	}
}

// TestVariantsWithDifferentTables compares 4 players with 3: the fourth
// seat is only in A, and has no difference.
func TestVariantsWithDifferentTables(t *testing.T) {
	g := golf.Game{}
	rep := run(t, Config{Game: g, A: variant(t, g, map[string]any{"holes": 2, "dealer": 0}, "random"),
		B: variant(t, g, map[string]any{"holes": 2, "players": 3, "dealer": 0}, "random"), Matches: 60, Seed: 1})
	if f := figure(t, rep, "win/3"); f.A == nil || f.B != nil || f.Diff != nil {
		t.Errorf("seat 3: %+v", f)
	}
	if f := figure(t, rep, "golf/out/3"); f.A == nil || f.B != nil {
		t.Errorf("golf seat 3: %+v", f)
	}
	if f := figure(t, rep, "win/2"); f.A == nil || f.B == nil || f.Diff == nil {
		t.Errorf("seat 2: %+v", f)
	}
	if rep.A.Players != 4 || rep.B.Players != 3 {
		t.Errorf("players %d, %d", rep.A.Players, rep.B.Players)
	}
}

// TestSameSeedSameReport checks that a run is reproducible whatever the
// number of workers, down to the bytes of the JSON and the page, and that
// another seed gives other figures.
func TestSameSeedSameReport(t *testing.T) {
	g := golf.Game{}
	cfg := Config{Game: g, A: variant(t, g, map[string]any{"holes": 3, "dealer": 0}, "random"),
		B: variant(t, g, map[string]any{"holes": 3, "target": 30, "dealer": 0}, "heuristic"), Matches: 60, Seed: 5}
	var jsons, pages [][]byte
	for _, workers := range []int{1, 2, 3} {
		cfg.Workers = workers
		rep := run(t, cfg)
		j, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := WriteHTML(&page, rep); err != nil {
			t.Fatal(err)
		}
		jsons, pages = append(jsons, j), append(pages, page.Bytes())
	}
	for i := 1; i < len(jsons); i++ {
		if !bytes.Equal(jsons[0], jsons[i]) || !bytes.Equal(pages[0], pages[i]) {
			var a, b Report
			json.Unmarshal(jsons[0], &a)
			json.Unmarshal(jsons[i], &b)
			for k := range a.Figures {
				ja, _ := json.Marshal(a.Figures[k])
				jb, _ := json.Marshal(b.Figures[k])
				if !bytes.Equal(ja, jb) {
					t.Errorf("%s\n%s\n%s", a.Figures[k].Key, ja, jb)
				}
			}
			t.Fatalf("the report differs between runs with %d and %d workers", 1, i+1)
		}
	}
	cfg.Seed = 6
	j, _ := json.Marshal(run(t, cfg))
	if bytes.Equal(j, jsons[0]) {
		t.Error("seeds 5 and 6 give the same report")
	}
}

func TestRunRefuses(t *testing.T) {
	g := coinGame{}
	v := variant(t, g, nil, "random")
	if _, err := Run(context.Background(), Config{Game: g, A: v}); err == nil {
		t.Error("no matches: no error")
	}
	v.Bots = v.Bots[:1]
	if _, err := Run(context.Background(), Config{Game: g, A: v, Matches: 3}); err == nil {
		t.Error("one bot for two seats: no error")
	}
}
