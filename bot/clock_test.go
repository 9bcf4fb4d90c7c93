package bot

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
)

// fakeClock makes the search's clock move on by step at every reading,
// until the test ends.
func fakeClock(t *testing.T, step time.Duration) {
	var n atomic.Int64
	base := time.Unix(1e9, 0)
	clock = func() time.Time { return base.Add(time.Duration(n.Add(1)) * step) }
	t.Cleanup(func() { clock = time.Now })
}

// position returns a Court Circular state where seat 0 has a choice.
func position(t *testing.T) game.State {
	g, err := games.Lookup("court-circular")
	if err != nil {
		t.Fatal(err)
	}
	o, err := game.Resolve(g, map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(o, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Legal(s.ToAct().First(), nil)) < 2 {
		t.Fatal("no choice at the start")
	}
	return s
}

// TestSearchClock: on a clock that moves 1ms at each reading, a 50ms
// budget stops the search at the 50th reading after the start, every
// ClockEvery iterations; as a cap it cuts a larger iteration count to the
// same, and leaves a smaller one alone.
func TestSearchClock(t *testing.T) {
	s := position(t)
	seat := s.ToAct().First()
	for _, c := range []struct {
		iterations, want int
	}{
		{0, 50 * ClockEvery},    // a budget
		{5000, 50 * ClockEvery}, // a cap that cuts
		{100, 100},              // a cap that does not
	} {
		fakeClock(t, time.Millisecond)
		b := Search{Iterations: c.iterations, Think: 50 * time.Millisecond}
		a := b.Analyse(s, seat, rand.New(rand.NewPCG(1, 1)))
		if a.Iterations != c.want {
			t.Errorf("Iterations %d, Think 50ms: %d iterations, want %d", c.iterations, a.Iterations, c.want)
		}
	}
	// Two workers read the same clock: each stops on a multiple of
	// ClockEvery, at its first reading on or past the budget.
	fakeClock(t, time.Millisecond)
	a := Search{Think: 50 * time.Millisecond, Workers: 2}.Analyse(s, seat, rand.New(rand.NewPCG(1, 1)))
	for _, n := range a.Workers {
		if n <= 0 || n%ClockEvery != 0 {
			t.Errorf("a worker ran %d iterations, want a positive multiple of %d", n, ClockEvery)
		}
	}
	// Readings: the start, then one every ClockEvery iterations of either
	// worker. The 50th after the start is the first on the budget, and
	// stops its worker; the other stops at its next one.
	if r := a.Iterations / ClockEvery; r != 51 {
		t.Errorf("two workers ran %v iterations: %d readings, want 51", a.Workers, r)
	}
}
