package parcellus

import (
	"encoding/json"
	"runtime"
	"testing"

	"parlour/game"
)

// restart begins a new match in place, reusing the state's memory, so that
// the benchmark measures play and not the allocation of New.
func (s *State) restart(seed uint64) {
	scores := s.scores[:0]
	*s = State{target: DefaultTarget, rng: game.NewRNG(seed), turn: -1, last: -1, scores: scores}
	s.dealer = s.rng.IntN(Players)
	s.deal()
}

// BenchmarkPlayout plays whole random matches through the game.State
// interface (Legal, a uniform choice, ApplyFast) and reports moves/s,
// allocations per move and moves per match. Matches are restarted in place;
// BenchmarkNewMatch measures starting one with New.
func BenchmarkPlayout(b *testing.B) {
	o, _ := game.Resolve(Game{}, nil)
	g, _ := Game{}.New(o, 1, nil)
	var st game.State = g
	rng := game.NewRNG(99)
	buf := make([]game.Move, 0, 64)
	moves, matches := 0, 0
	seed := uint64(1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		acts := st.ToAct()
		if acts == 0 {
			matches++
			seed++
			g.(*State).restart(seed)
			continue
		}
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = st.Legal(seat, buf[:0])
		st.ApplyFast(seat, buf[rng.IntN(len(buf))])
		moves++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(max(moves, 1)), "allocs/move")
	if matches > 0 {
		b.ReportMetric(float64(moves)/float64(matches), "moves/match")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkNewMatch measures New: one match's start.
func BenchmarkNewMatch(b *testing.B) {
	o, _ := game.Resolve(Game{}, nil)
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, err := (Game{}).New(o, seed, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// viewPositions plays a random match and returns a copy of every tenth
// position, for the view benchmarks.
func viewPositions(b *testing.B) []*State {
	o, _ := game.Resolve(Game{}, nil)
	g, err := Game{}.New(o, 3, nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(3)
	var buf []game.Move
	var states []*State
	for moves := 0; ; moves++ {
		if moves%10 == 0 {
			states = append(states, g.Clone().(*State))
		}
		acts := g.ToAct()
		if acts == 0 {
			return states
		}
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = g.Legal(seat, buf[:0])
		g.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
}

// BenchmarkAppendView measures seat 0's view appended by AppendView into a
// buffer used again, over every tenth position of a random match.
func BenchmarkAppendView(b *testing.B) {
	states := viewPositions(b)
	var out []byte
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		out = states[i%len(states)].AppendView(out[:0], 0)
		i++
	}
}

// BenchmarkViewMarshal measures the same views as BenchmarkAppendView
// built by View and encoded by encoding/json, for comparison.
func BenchmarkViewMarshal(b *testing.B) {
	states := viewPositions(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := json.Marshal(states[i%len(states)].View(0)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
