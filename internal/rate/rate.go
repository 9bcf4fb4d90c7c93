// Package rate is a token bucket: the one rate limit of Parlour's
// server, for a connection's messages, a client's requests and a log's
// lines alike.
package rate

import "time"

// Bucket holds up to Burst tokens and gains Rate tokens a second. A
// bucket never used is full. The zero Bucket holds no tokens and gains
// none; set Rate and Burst before use. A Bucket is not safe for
// concurrent use.
type Bucket struct {
	Rate  float64 // tokens gained a second
	Burst float64 // the most tokens held

	tokens float64   // as of last
	last   time.Time // when tokens was counted; zero: full
}

// Level returns the tokens the bucket holds at now. A clock that went
// back adds none.
func (b *Bucket) Level(now time.Time) float64 {
	if b.last.IsZero() {
		return b.Burst
	}
	return min(b.Burst, b.tokens+max(now.Sub(b.last).Seconds(), 0)*b.Rate)
}

// Take takes a token at now and reports true if there is one. If there
// is none it takes nothing and returns how long until there is one.
func (b *Bucket) Take(now time.Time) (bool, time.Duration) {
	tokens := b.Level(now)
	if tokens < 1 {
		return false, time.Duration((1 - tokens) / b.Rate * float64(time.Second))
	}
	b.tokens, b.last = tokens-1, now
	return true, 0
}

// Allow is Take without the wait: whether a token was taken at now.
func (b *Bucket) Allow(now time.Time) bool {
	ok, _ := b.Take(now)
	return ok
}
