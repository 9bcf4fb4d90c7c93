package loadgen

import (
	"math/bits"
	"time"
)

// Histogram is a log-linear histogram of durations in microseconds: exact
// below 256 µs, then 128 buckets per power of two (under 0.8% error), up to
// about 2^40 µs (12 days). It takes 36 KiB whatever the number of samples.
// The zero value is empty and ready; it is not safe for concurrent use.
type Histogram struct {
	counts [histBuckets]uint64
	n      uint64
	max    uint64 // µs, exact
}

const (
	histExact   = 256 // values below this have a bucket each
	histSub     = 128 // buckets per power of two above it
	histShifts  = 33  // powers of two above histExact kept
	histBuckets = histExact + histShifts*histSub
)

func histIndex(us uint64) int {
	if us < histExact {
		return int(us)
	}
	shift := bits.Len64(us) - 8 // us>>shift is in [128, 256)
	if shift > histShifts {
		return histBuckets - 1
	}
	return histExact + (shift-1)*histSub + int(us>>shift) - histSub
}

// histValue is the middle of bucket i, in microseconds.
func histValue(i int) uint64 {
	if i < histExact {
		return uint64(i)
	}
	shift := (i-histExact)/histSub + 1
	m := uint64((i-histExact)%histSub + histSub)
	return m<<shift + 1<<(shift-1)
}

// Add records one duration (negative ones as 0).
func (h *Histogram) Add(d time.Duration) {
	us := uint64(max(d, 0) / time.Microsecond)
	h.counts[histIndex(us)]++
	h.n++
	h.max = max(h.max, us)
}

// Count returns the number of durations recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Max returns the longest duration recorded (exact to the microsecond).
func (h *Histogram) Max() time.Duration { return time.Duration(h.max) * time.Microsecond }

// Quantile returns the duration below which a fraction q (0 to 1) of the
// recorded ones lie: 0 when nothing was recorded.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n) + 0.999999999) // the ceiling, at least 1
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return time.Duration(min(histValue(i), h.max)) * time.Microsecond
		}
	}
	return h.Max()
}

// Merge adds every duration of o to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// Reset empties h.
func (h *Histogram) Reset() { *h = Histogram{} }
