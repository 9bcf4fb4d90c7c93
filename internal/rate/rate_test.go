package rate

import (
	"testing"
	"time"
)

// TestBucket: a new bucket holds Burst tokens, refills at Rate, never
// past Burst, tells how long until the next token, takes nothing when
// empty, and gains nothing from a clock that went back.
func TestBucket(t *testing.T) {
	b := Bucket{Rate: 2, Burst: 3}
	t0 := time.Unix(1000, 0)
	if got := b.Level(t0); got != 3 {
		t.Fatalf("a new bucket holds %v tokens, want 3", got)
	}
	for i := range 3 {
		if !b.Allow(t0) {
			t.Fatalf("token %d of a full bucket refused", i+1)
		}
	}
	ok, wait := b.Take(t0)
	if ok || wait != 500*time.Millisecond {
		t.Fatalf("an empty bucket: %v, wait %v; want false, 500ms", ok, wait)
	}
	if got := b.Level(t0.Add(-time.Second)); got != 0 {
		t.Errorf("a clock gone back gave %v tokens, want 0", got)
	}
	if got := b.Level(t0.Add(250 * time.Millisecond)); got != 0.5 {
		t.Errorf("after 250ms at 2/s: %v tokens, want 0.5", got)
	}
	if !b.Allow(t0.Add(500 * time.Millisecond)) {
		t.Errorf("a token refused once one had come")
	}
	if got := b.Level(t0.Add(time.Hour)); got != 3 {
		t.Errorf("an hour later: %v tokens, want the burst, 3", got)
	}
}
