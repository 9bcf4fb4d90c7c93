package game

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is a game's source of chance: a PCG generator held by value, so a
// state that embeds it copies it with a plain assignment and never allocates
// to draw.
type RNG struct {
	pcg rand.PCG
}

// NewRNG returns the generator for a seed.
func NewRNG(seed uint64) RNG {
	return RNG{pcg: *rand.NewPCG(seed, 0x9e3779b97f4a7c15)}
}

// Uint64 returns a uniformly random 64-bit value.
func (r *RNG) Uint64() uint64 { return r.pcg.Uint64() }

// IntN returns a uniform value in [0, n); n must be positive.
func (r *RNG) IntN(n int) int {
	// Lemire's nearly divisionless method.
	hi, lo := bits.Mul64(r.pcg.Uint64(), uint64(n))
	if lo < uint64(n) {
		thresh := -uint64(n) % uint64(n)
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), uint64(n))
		}
	}
	return int(hi)
}

// Shuffle permutes xs uniformly at random (Fisher-Yates).
func Shuffle[T any](r *RNG, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}
