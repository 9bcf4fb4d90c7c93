package store

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestPackedRoundTrip packs moves and reads them back as they were, with
// the count and the last number kept beside them.
func TestPackedRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 29, 15, 4, 5, 123456000, time.UTC)
	moves := []Move{
		{N: 0, Seat: 0, Text: "deal", By: "", At: at},
		{N: 1, Seat: 3, Text: "swap 3", By: "bot", At: at.Add(time.Microsecond)},
		{N: 200, Seat: 7, Text: "", By: "clock", At: at.Add(time.Hour)},
		{N: 1 << 40, Seat: 1, Text: "Ω ♠ 10♥ « long enough to take more than one byte of length: " + string(make([]byte, 300)), By: "standin", At: time.UnixMicro(-5).UTC()},
	}
	var p packed
	for _, m := range moves {
		p = p.add(m)
	}
	if p.n != len(moves) || p.last != moves[len(moves)-1].N {
		t.Fatalf("packed holds %d moves, the last %d; want %d and %d", p.n, p.last, len(moves), moves[len(moves)-1].N)
	}
	for _, str := range []func([]byte) string{copied, new(words).str} {
		got := p.unpack([]Move{{N: -1}}, str)
		if !reflect.DeepEqual(got[1:], moves) || got[0].N != -1 {
			t.Fatalf("unpacked %+v; want the move given first, then %+v", got, moves)
		}
	}
	// The strings are copies: the bytes may be used again.
	got := p.unpack(nil, copied)
	clear(p.b)
	if got[1].Text != "swap 3" || got[1].By != "bot" {
		t.Fatalf("unpacked strings changed with the bytes: %q, %q", got[1].Text, got[1].By)
	}
}

// TestPackedCutShort panics on bytes that are not whole moves, rather than
// make up moves from them.
func TestPackedCutShort(t *testing.T) {
	p := packed{}.add(Move{N: 5, Seat: 1, Text: "swap 3", By: "bot", At: time.Now()})
	for cut := 1; cut < len(p.b); cut++ {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("unpacking the first %d of %d bytes did not panic", cut, len(p.b))
				}
			}()
			packed{b: p.b[:cut]}.unpack(nil, copied)
		}()
	}
}

// TestWordsKept makes each string once, and starts over when full.
func TestWordsKept(t *testing.T) {
	var w words
	a := w.str([]byte("swap 3"))
	b := w.str([]byte("swap 3"))
	if a != b || len(w) != 1 {
		t.Fatalf("got %q and %q, %d kept; want one string kept", a, b, len(w))
	}
	for i := range maxBoxedWords + 1 {
		w.str([]byte{byte(i), byte(i >> 8), 'x'})
	}
	if len(w) > maxBoxedWords {
		t.Fatalf("%d words kept; want at most %d", len(w), maxBoxedWords)
	}
}

// BenchmarkPending holds a busy log's pending moves (10,000 tables of 40
// moves) as Move values, as the writer held them before, and packed, and
// reports the heap each takes a move and what a collection costs with
// them live: an op is one runtime.GC.
func BenchmarkPending(b *testing.B) {
	const tables, perTable = 10000, 40
	at := time.Now().UTC().Truncate(time.Microsecond)
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", uint64(i)*0x9e3779b97f4a7c15)
	}
	// Each move's text and mover are strings of their own, as a table
	// makes them (FormatMove).
	move := func(n int) Move {
		return Move{N: n, Seat: n % 3, Text: strings.Clone("swap 3"), By: strings.Clone("bot"), At: at}
	}
	run := func(b *testing.B, hold func() any) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		held := hold()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ResetTimer()
		for range b.N {
			runtime.GC()
		}
		runtime.KeepAlive(held)
		// (After the loop: ResetTimer deletes metrics reported before it.)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(tables*perTable), "B/move")
	}
	b.Run("moves", func(b *testing.B) {
		run(b, func() any {
			m := map[string][]Move{}
			for _, id := range ids {
				for n := range perTable {
					m[id] = append(m[id], move(n))
				}
			}
			return m
		})
	})
	b.Run("packed", func(b *testing.B) {
		run(b, func() any {
			m := map[string]packed{}
			for _, id := range ids {
				for n := range perTable {
					m[id] = m[id].add(move(n))
				}
			}
			return m
		})
	})
}
