package table

import (
	"context"
	"testing"
	"time"
)

// BenchmarkMoveDeadline measures the context a move is stored under:
// "timeout" a context.WithTimeout for each move, as a store call
// otherwise takes, and "deadline" the table's deadlineCtx, used again.
// docs/perf/README.md has the figures.
func BenchmarkMoveDeadline(b *testing.B) {
	b.Run("timeout", func(b *testing.B) {
		for b.Loop() {
			ctx, cancel := context.WithTimeout(context.Background(), defaultStoreTimeout)
			storeCall(ctx)
			cancel()
		}
	})
	b.Run("deadline", func(b *testing.B) {
		var c deadlineCtx
		for b.Loop() {
			c.at = time.Now().Add(defaultStoreTimeout)
			storeCall(&c)
		}
	})
}

// storeCall reads what a store's AppendMove reads of its context.
//
//go:noinline
func storeCall(ctx context.Context) {
	if _, ok := ctx.Deadline(); !ok {
		panic("no deadline")
	}
	select {
	case <-ctx.Done():
		panic("done")
	default:
	}
}

// TestDeadlineCtx: the table's move context has its deadline, is never
// done, and allocates nothing to set again.
func TestDeadlineCtx(t *testing.T) {
	var c deadlineCtx
	at := time.Now().Add(time.Second)
	c.at = at
	var ctx context.Context = &c
	if d, ok := ctx.Deadline(); !ok || !d.Equal(at) {
		t.Errorf("Deadline() = %v, %v; want %v, true", d, ok, at)
	}
	if ctx.Done() != nil || ctx.Err() != nil || ctx.Value("k") != nil {
		t.Errorf("Done %v, Err %v, Value %v; want nil each", ctx.Done(), ctx.Err(), ctx.Value("k"))
	}
	if n := testing.AllocsPerRun(100, func() {
		c.at = time.Now().Add(defaultStoreTimeout)
		storeCall(&c)
	}); n != 0 {
		t.Errorf("setting a move's deadline allocates %v times, want 0", n)
	}
}
