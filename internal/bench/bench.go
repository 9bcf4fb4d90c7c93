// Package bench measures the engine: random playouts of whole matches on
// one goroutine, on the fast path, in moves per second and allocations.
package bench

import (
	"runtime"
	"time"

	"parlour/game"
)

// Figures are one game's measurements, in the shape of shared/spec/cli.md.
type Figures struct {
	Game          string  `json:"game"`
	Players       int     `json:"players"`
	Matches       int64   `json:"matches"`
	Moves         int64   `json:"moves"`
	Seconds       float64 `json:"seconds"`
	MovesPerS     float64 `json:"moves_per_s"`
	AllocsPerMove float64 `json:"allocs_per_move"`
	// AllocsPerMatch counts every allocation, starting a match included.
	AllocsPerMatch float64 `json:"allocs_per_match"`
	MovesPerMatch  float64 `json:"moves_per_match"`
}

// Run plays seeded random matches of g with opts for about d, match i with
// seed+i, and returns the figures. It stops after the match that crosses d.
// One state plays every match, restarted with Reset, as a search or the lab
// would: the figures count the allocations of the whole loop, and a first
// match played before the clock starts (New's own, and the buffers growing
// to their size) is not counted.
func Run(g game.Game, opts game.Options, d time.Duration, seed uint64) (Figures, error) {
	f := Figures{Game: g.Name(), Players: opts.Players()}
	rng := game.NewRNG(seed)
	buf := make([]game.Move, 0, 256)
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return f, err
	}
	_, buf = game.Playout(s, &rng, buf)
	rng = game.NewRNG(seed)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for time.Since(start) < d {
		s.Reset(seed + uint64(f.Matches))
		var n int
		n, buf = game.Playout(s, &rng, buf)
		f.Moves += int64(n)
		f.Matches++
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs - before.Mallocs)
	f.Seconds = elapsed.Seconds()
	f.MovesPerS = float64(f.Moves) / f.Seconds
	if f.Moves > 0 {
		f.AllocsPerMove = allocs / float64(f.Moves)
	}
	if f.Matches > 0 {
		f.AllocsPerMatch = allocs / float64(f.Matches)
		f.MovesPerMatch = float64(f.Moves) / float64(f.Matches)
	}
	return f, nil
}
