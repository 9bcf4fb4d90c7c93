package parcellus

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"parlour/game"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }

func TestNotation(t *testing.T) {
	s := start(t, nil, "")
	for _, tc := range []struct{ in, out string }{
		{"pass", "pass"},
		{"  PASS ", "pass"},
		{"play qc", "play QC"},
		{"play T♥", "play 10H"},
		{"pass AS 10h 9S", "pass 9S 10H AS"},
		{"pass kc ks kh", "pass KS KH KC"},
		{"pass AD JC 9H", "pass 9H JC AD"},
	} {
		m, err := s.ParseMove(0, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := s.FormatMove(m); got != tc.out {
			t.Errorf("%q formats as %q, want %q", tc.in, got, tc.out)
		}
	}
	for _, tc := range []struct{ in, reason string }{
		{"", "empty move"},
		{"draw", `"draw" is not a parcellus move`},
		{"play", `"play" takes one card`},
		{"play QC KC", `"play" takes one card`},
		{"play 8C", "8C is not in the Parcellus pack"},
		{"play XY", "is not a card"},
		{"pass 9S 10S", "exactly three"},
		{"pass 9S 10S JS QS", "exactly three"},
		{"pass 9S 9S JS", "9S is named twice"},
	} {
		_, err := s.ParseMove(0, tc.in)
		if !errors.Is(err, game.ErrBadMove) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%q: %v, want a bad move saying %q", tc.in, err, tc.reason)
		}
	}
}

func TestLayoutErrors(t *testing.T) {
	o, _ := game.Resolve(Game{}, nil)
	for _, tc := range []struct{ layout, reason string }{
		{`{"hands": [["9S"], null, null]}`, "hands[0] has 1 cards"},
		{`{"hands": [null, null]}`, "2 entries for 3 seats"},
		{`{"common": ["9S","10S","JS","QS","KS","AS","9C"]}`, "lists 7 cards"},
		{`{"common": ["2S"]}`, "the pack has no 2S"},
		{`{"common": ["9S"], "hands": [["9S","10S","JS","QS","KS","AS"], null, null]}`, "9S is placed 2 times"},
		{`{"stock": ["9S"]}`, `"stock" is not used`},
	} {
		var l game.Layout
		if err := jsonUnmarshal(tc.layout, &l); err != nil {
			t.Fatal(err)
		}
		_, err := Game{}.New(o, 0, []game.Layout{l})
		if !errors.Is(err, game.ErrBadLayout) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: %v, want a bad layout saying %q", tc.layout, err, tc.reason)
		}
	}
	if _, err := game.Resolve(Game{}, map[string]any{"players": 4}); !errors.Is(err, game.ErrBadOption) {
		t.Errorf("4 players: %v", err)
	}
	if o, err := game.Resolve(Game{}, nil); err != nil || o.Int("target") != 30 || o.Players() != 3 {
		t.Errorf("defaults %v %v, want 3 players and target 30", o, err)
	}
}

func TestLaterDealsFromLayouts(t *testing.T) {
	o, _ := game.Resolve(Game{}, map[string]any{"dealer": 0})
	var l game.Layout
	if err := jsonUnmarshal(`{"common": ["QH","KH"]}`, &l); err != nil {
		t.Fatal(err)
	}
	st, err := Game{}.New(o, 3, []game.Layout{nil, l})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for seat := range 3 {
		s.ApplyFast(seat, s.Legal(seat, nil)[0])
	}
	allPass(t, s)
	if s.dealNo != 1 || s.common[0].String() != "QH" || s.common[1].String() != "KH" {
		t.Errorf("deal 2 should use its layout: common %v", s.common)
	}
}

func TestNoAllocations(t *testing.T) {
	s := start(t, nil, "")
	buf := make([]game.Move, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = s.Legal(0, buf[:0]) }); n != 0 {
		t.Errorf("Legal in the pass allocates %v times", n)
	}
	for seat := range 3 {
		s.ApplyFast(seat, s.Legal(seat, nil)[0])
	}
	if n := testing.AllocsPerRun(100, func() { buf = s.Legal(s.turn, buf[:0]) }); n != 0 {
		t.Errorf("Legal in the play allocates %v times", n)
	}
	c := s.Clone().(*State)
	if n := testing.AllocsPerRun(1, func() {
		for c.phase == phasePlay {
			c.ApplyFast(c.turn, Pass)
		}
	}); n != 0 {
		t.Errorf("ApplyFast over a deal allocates %v times", n)
	}
}
