package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/internal/script"
)

func TestLabel(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want string
	}{
		{0, "best"}, {0.0199, "best"}, {0.02, "good"}, {0.0499, "good"}, {0.05, "inaccuracy"},
		{0.0999, "inaccuracy"}, {0.10, "mistake"}, {0.1999, "mistake"}, {0.20, "blunder"}, {1, "blunder"},
	} {
		if got := Label(c.loss); got != c.want {
			t.Errorf("Label(%v) = %q, want %q", c.loss, got, c.want)
		}
	}
}

// parseScript reads a script from its JSON.
func parseScript(t *testing.T, text string) (*script.Script, uint64) {
	t.Helper()
	s, seed, err := script.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s, seed
}

// keys returns the sorted keys of a JSON object.
func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestReportFormat decodes a report's JSON by the field names of
// shared/spec/analysis.md and checks what each holds: the keys of the
// report, of a decision searched and of a forced one; chance, best, loss
// and label agreeing; at most 8 alternatives, best first; and the seats'
// sums.
func TestReportFormat(t *testing.T) {
	sc := matchScript(t, "tractric", nil, 4, 60)
	rep, err := Analyse(context.Background(), games.Lookup, sc, 4, Options{Iterations: 120})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(doc), []string{"decisions", "game", "mode", "players", "seats", "think_ms"}; !slices.Equal(got, want) {
		t.Fatalf("report keys %v, want %v", got, want)
	}
	if doc["game"] != "tractric" || doc["players"] != 3.0 || doc["mode"] != "information" {
		t.Errorf("game %v, players %v, mode %v", doc["game"], doc["players"], doc["mode"])
	}
	decisions := doc["decisions"].([]any)
	if len(decisions) != 60 {
		t.Fatalf("%d decisions for 60 moves of every seat", len(decisions))
	}
	forced, searched := 0, 0
	sum := map[int]*SeatSummary{}
	for i, x := range decisions {
		d := x.(map[string]any)
		if d["n"] != float64(i+1) || d["move"] != strings.TrimSpace(strings.SplitN(sc.Moves[i], ":", 2)[1]) {
			t.Errorf("decision %d: n %v move %v, want %d %q", i, d["n"], d["move"], i+1, sc.Moves[i])
		}
		seat := int(d["seat"].(float64))
		if sum[seat] == nil {
			sum[seat] = &SeatSummary{Seat: seat}
		}
		if d["forced"] == true {
			forced++
			if got := keys(d); !slices.Equal(got, []string{"forced", "move", "n", "seat"}) {
				t.Errorf("forced decision %d: keys %v", i+1, got)
			}
			continue
		}
		searched++
		if got, want := keys(d), []string{"alternatives", "best", "best_chance", "chance", "iterations", "label", "loss", "move", "n", "seat"}; !slices.Equal(got, want) {
			t.Fatalf("decision %d: keys %v, want %v", i+1, got, want)
		}
		chance, best := d["chance"].(float64), d["best_chance"].(float64)
		loss := d["loss"].(float64)
		if chance < 0 || chance > 1 || best < 0 || best > 1 {
			t.Errorf("decision %d: chance %v, best_chance %v out of 0-1", i+1, chance, best)
		}
		if math.Abs(loss-math.Max(0, best-chance)) > 1e-9 || loss < 0 {
			t.Errorf("decision %d: loss %v, best_chance %v - chance %v", i+1, loss, best, chance)
		}
		if d["label"] != Label(loss) {
			t.Errorf("decision %d: label %v for loss %v", i+1, d["label"], loss)
		}
		if (d["best"] == d["move"]) != (loss == 0) {
			t.Errorf("decision %d: best %v, move %v, loss %v", i+1, d["best"], d["move"], loss)
		}
		if d["iterations"].(float64) <= 0 {
			t.Errorf("decision %d: %v iterations", i+1, d["iterations"])
		}
		alts := d["alternatives"].([]any)
		if len(alts) == 0 || len(alts) > 8 {
			t.Errorf("decision %d: %d alternatives", i+1, len(alts))
		}
		for k, y := range alts {
			a := y.(map[string]any)
			if got := keys(a); !slices.Equal(got, []string{"chance", "move", "visits"}) {
				t.Errorf("decision %d: alternative keys %v", i+1, got)
			}
			if k == 0 && (a["move"] != d["best"] || a["chance"] != d["best_chance"]) {
				t.Errorf("decision %d: first alternative %v, best %v %v", i+1, a, d["best"], d["best_chance"])
			}
			if a["move"] == d["move"] && a["chance"] != d["chance"] {
				t.Errorf("decision %d: the move played rated %v among the alternatives, %v as chance", i+1, a["chance"], d["chance"])
			}
		}
		s := sum[seat]
		s.Decisions++
		s.MeanLoss += loss
		switch Label(loss) {
		case "inaccuracy":
			s.Inaccuracies++
		case "mistake":
			s.Mistakes++
		case "blunder":
			s.Blunders++
		}
	}
	if forced == 0 || searched == 0 {
		t.Fatalf("%d forced and %d searched decisions: the script should have both", forced, searched)
	}
	var seats []SeatSummary
	raw, _ := json.Marshal(doc["seats"])
	for _, x := range doc["seats"].([]any) {
		if got := keys(x.(map[string]any)); !slices.Equal(got, []string{"blunders", "decisions", "inaccuracies", "mean_loss", "mistakes", "seat"}) {
			t.Errorf("seat summary keys %v", got)
		}
	}
	if err := json.Unmarshal(raw, &seats); err != nil {
		t.Fatal(err)
	}
	if len(seats) != 3 {
		t.Fatalf("%d seat summaries for 3 seats", len(seats))
	}
	for _, s := range seats {
		want := *sum[s.Seat]
		want.MeanLoss = round(want.MeanLoss/float64(want.Decisions), 4)
		if math.Abs(s.MeanLoss-want.MeanLoss) > 1e-4 {
			t.Errorf("seat %d: mean loss %v, want %v", s.Seat, s.MeanLoss, want.MeanLoss)
		}
		s.MeanLoss = want.MeanLoss
		if s != want {
			t.Errorf("seat summary %+v, want %+v", s, want)
		}
	}
	// The report reads back into the Go types as it was.
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, rep) {
		t.Errorf("the report does not read back as written")
	}
}

// TestSeatsAndProgress: only the seats asked for are analysed and
// summed; progress counts every decision of theirs, forced ones too.
func TestSeatsAndProgress(t *testing.T) {
	sc := matchScript(t, "parcellus", nil, 2, 40)
	var calls [][2]int
	rep, err := Analyse(context.Background(), games.Lookup, sc, 2, Options{Iterations: 40, Seats: []int{2, 0},
		Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, line := range sc.Moves {
		if strings.HasPrefix(line, "0:") || strings.HasPrefix(line, "2:") {
			want++
		}
	}
	if len(rep.Decisions) != want {
		t.Errorf("%d decisions, want %d of seats 0 and 2", len(rep.Decisions), want)
	}
	for _, d := range rep.Decisions {
		if d.Seat == 1 {
			t.Errorf("decision %d of seat 1 analysed", d.N)
		}
	}
	if len(rep.Seats) != 2 || rep.Seats[0].Seat != 0 || rep.Seats[1].Seat != 2 {
		t.Errorf("seat summaries %+v, want seats 0 and 2", rep.Seats)
	}
	if len(calls) != want || calls[len(calls)-1] != [2]int{want, want} {
		t.Errorf("progress %v, want 1..%d of %d", calls, want, want)
	}
	if _, err := Analyse(context.Background(), games.Lookup, sc, 2, Options{Seats: []int{3}}); !errors.Is(err, ErrBadOptions) {
		t.Errorf("seat 3 of 3 players: %v, want ErrBadOptions", err)
	}
}

// TestRefusals: a refused move, text that is not a move, and an unusable
// script are told apart, and nothing is analysed.
func TestRefusals(t *testing.T) {
	progress := func(done, total int) { t.Errorf("progress %d/%d: something was analysed", done, total) }
	for _, c := range []struct {
		text string
		want error
		msg  string
	}{
		{`{"game":"golf","options":{"players":2,"dealer":1},"seed":3,"moves":["0: reveal 0","1: reveal 0","0: swap 7"]}`, game.ErrBadMove, `move 3 "0: swap 7"`},
		{`{"game":"golf","options":{"players":2,"dealer":1},"seed":3,"moves":["0: reveal 0","1: reveal 0","1: draw stock"]}`, game.ErrIllegalMove, `move 3 "1: draw stock"`},
		{`{"game":"golf","options":{"players":9},"moves":[]}`, script.ErrUnusable, "players"},
		{`{"game":"chess","moves":[]}`, script.ErrUnusable, "chess"},
	} {
		s, seed := parseScript(t, c.text)
		rep, err := Analyse(context.Background(), games.Lookup, s, seed, Options{Iterations: 20, Progress: progress})
		if !errors.Is(err, c.want) || rep != nil {
			t.Errorf("%s: %v, %v; want an error matching %v", c.text, rep, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %q does not say %q", c.text, err, c.msg)
		}
	}
}

// TestReproducible: with a fixed number of iterations two analyses are
// the same to the last digit; under a time budget they agree up to the
// search's noise, measured with other random draws.
func TestReproducible(t *testing.T) {
	sc := matchScript(t, "golf", map[string]any{"players": 3, "holes": 2}, 9, 0)
	opt := Options{Iterations: 300}
	a, err := Analyse(context.Background(), games.Lookup, sc, 9, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Analyse(context.Background(), games.Lookup, sc, 9, opt)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two analyses of 300 iterations differ")
	}
	think := 20 * time.Millisecond
	if !testing.Short() {
		think = 60 * time.Millisecond
	}
	x, _ := Analyse(context.Background(), games.Lookup, sc, 9, Options{Think: think})
	y, _ := Analyse(context.Background(), games.Lookup, sc, 9, Options{Think: think, salt: 1})
	diff, n := 0.0, 0
	for i, d := range x.Decisions {
		if d.Forced {
			continue
		}
		n++
		diff += math.Abs(d.Chance - y.Decisions[i].Chance)
	}
	if n == 0 {
		t.Fatal("no decision searched")
	}
	if diff/float64(n) > 0.03 {
		t.Errorf("two analyses at %v differ by %.3f in chance per decision on average", think, diff/float64(n))
	}
	t.Logf("%d decisions: chance differs by %.4f on average between two runs at %v", n, diff/float64(n), think)
}

// TestChancesAreShares: the model gives each side a chance, the chances
// sum to 1, partners share their side's, and at the match's end they are
// the shares of the win.
func TestChancesAreShares(t *testing.T) {
	for _, tab := range fairTables {
		g, opts := setup(t, tab.name, tab.given)
		v := newValuer(g, opts)
		if v.m.theta == nil {
			t.Errorf("%s: no fitted model for %s", tab.name, v.m.key)
		}
		for _, p := range decisionPoints(t, g, opts, 3, 5) {
			u := make([]float64, opts.Players())
			v.chances(p.st, u)
			total := 0.0
			for seat, x := range u {
				if x < 0 || x > 1 {
					t.Errorf("%s: chance %v", tab.name, x)
				}
				total += x
				if sd := g.Info().Side(len(u), seat); sd != seat && u[sd] != x {
					t.Errorf("%s: partners %d and %d rated %v and %v", tab.name, sd, seat, u[sd], x)
				}
			}
			if nsides, _ := sides(g, len(u)); math.Abs(total-float64(len(u))/float64(nsides)) > 1e-9 {
				t.Errorf("%s: chances %v do not sum to one per side", tab.name, u)
			}
		}
	}
	// Tractric with partners: a win by seats 1 and 3 is all theirs.
	g, opts := setup(t, "tractric", map[string]any{"players": 4})
	v := newValuer(g, opts)
	p := make([]float64, 2)
	shares([]int{1, 3}, v.side, v.nsides, p)
	if p[0] != 0 || p[1] != 1 {
		t.Errorf("partners' win: %v", p)
	}
	// Golf: a win shared by two of four is half each.
	g, opts = setup(t, "golf", map[string]any{"players": 4})
	v = newValuer(g, opts)
	p = make([]float64, 4)
	shares([]int{0, 2}, v.side, v.nsides, p)
	if !slices.Equal(p, []float64{0.5, 0, 0.5, 0}) {
		t.Errorf("a shared win: %v", p)
	}
}

// TestFittedIsCurrent: fitted.go holds what a fit from its seeds makes
// (the Golf, 2 players entry; fitgen makes them all).
func TestFittedIsCurrent(t *testing.T) {
	g, opts := setup(t, "golf", map[string]any{"players": 2})
	theta, err := Fit(context.Background(), g, opts, 4000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for b := range theta {
		for f := range theta[b] {
			if math.Abs(theta[b][f]-fitted["golf/2"][b][f]) > 1e-5*math.Abs(theta[b][f])+1e-9 {
				t.Fatalf("fitted[golf/2] = %v, a fit gives %v: run go run ./analysis/fitgen", fitted["golf/2"], theta)
			}
		}
		// A lead is worth more the fewer holes are left.
		if b > 0 && theta[b][0] >= theta[b-1][0] {
			t.Errorf("golf/2: a stroke weighs %v with %d holes left and %v with %d", theta[b][0], b+1, theta[b-1][0], b)
		}
	}
}
