package gametest

import (
	"errors"
	"strings"
	"testing"

	"parlour/game"
)

// AssertNoAllocs checks the fast path allocates nothing: whole random
// matches of g with these options (as a script gives them), each started
// with Reset on one reused state and played with Legal into a reused buffer
// and ApplyFast, average zero allocations. It fails t otherwise.
func AssertNoAllocs(t testing.TB, g game.Game, options map[string]any) {
	t.Helper()
	s := newMatch(t, g, options)
	buf := make([]game.Move, 0, 4096)
	rng := game.NewRNG(1)
	seed := uint64(1)
	moves := 0
	// A warm-up match grows the state's own buffers to their size.
	for range 3 {
		s.Reset(seed)
		seed++
		n, b := game.Playout(s, &rng, buf)
		buf, moves = b, moves+n
	}
	allocs := testing.AllocsPerRun(20, func() {
		s.Reset(seed)
		seed++
		n, b := game.Playout(s, &rng, buf)
		buf, moves = b, moves+n
	})
	if allocs != 0 {
		t.Errorf("%s %v: %.2f allocations per match (Reset and a random playout); want 0", g.Name(), options, allocs)
	}
}

// FuzzParseMove fuzzes g's move notation for a match with these options
// (as a script gives them): for any seat and any text, ParseMove never
// panics; what it accepts formats back to text that the same seat parses
// to the same move, and that text is canonical (it formats to itself).
// Call it from the game's own fuzz target:
//
//	func FuzzParseMove(f *testing.F) { gametest.FuzzParseMove(f, golf.Game{}, nil) }
//
// The seed corpus is every move text seen in a few random matches, with
// its seat, plus the corpus in the package's testdata/fuzz.
func FuzzParseMove(f *testing.F, g game.Game, options map[string]any) {
	s := newMatch(f, g, options)
	n := s.Players()
	seen := map[string]bool{}
	for seed := range uint64(3) {
		s.Reset(seed)
		rng := game.NewRNG(seed)
		var buf []game.Move
		for s.ToAct() != 0 {
			acts := s.ToAct()
			seat := acts.Nth(rng.IntN(acts.Len()))
			buf = s.Legal(seat, buf[:0])
			for _, m := range buf {
				if text := s.FormatMove(m); !seen[text] {
					seen[text] = true
					f.Add(seat, text)
					f.Add(seat, strings.ToLower(text))
				}
			}
			s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
	}
	f.Fuzz(func(t *testing.T, seat int, text string) {
		if n > 0 {
			seat = ((seat % n) + n) % n
		}
		m, err := s.ParseMove(seat, text)
		if err != nil {
			if !isBadMove(err) {
				t.Fatalf("ParseMove(%d, %q): error %v does not match game.ErrBadMove", seat, text, err)
			}
			return
		}
		back := s.FormatMove(m)
		m2, err := s.ParseMove(seat, back)
		if err != nil {
			t.Fatalf("ParseMove(%d, %q) = %v, formatted %q, which does not parse: %v", seat, text, m, back, err)
		}
		if m2 != m {
			t.Fatalf("ParseMove(%d, %q) = %v, formatted %q, which parses to %v", seat, text, m, back, m2)
		}
		if again := s.FormatMove(m2); again != back {
			t.Fatalf("FormatMove is not canonical: %q then %q", back, again)
		}
	})
}

func isBadMove(err error) bool { return errors.Is(err, game.ErrBadMove) }

// newMatch starts a match of g with options as a script gives them, seed 1.
func newMatch(t testing.TB, g game.Game, options map[string]any) game.State {
	t.Helper()
	opts, err := game.Resolve(g, options)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	s, err := g.New(opts, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
