package damn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

func TestEncodingLayout(t *testing.T) {
	for _, tc := range []struct{ n, size int }{{2, 437}, {3, 548}, {4, 659}} {
		s := start(t, map[string]any{"players": tc.n}, 1, "")
		e := s.Encoding()
		if err := e.Check(); err != nil {
			t.Errorf("%d players: %v", tc.n, err)
		}
		if e.Size != tc.size || e.Actions != 270780 {
			t.Errorf("%d players: size %d, %d actions; want %d and 270780", tc.n, e.Size, e.Actions, tc.size)
		}
		for _, f := range e.Fields {
			if f.Doc == "" {
				t.Errorf("field %q has no doc", f.Name)
			}
		}
		if e.ActionDoc == "" {
			t.Error("no ActionDoc")
		}
		// The layout depends on the options alone: max_turns does not change it.
		if o := start(t, map[string]any{"players": tc.n, "max_turns": 7}, 2, "").Encoding(); o.Size != e.Size {
			t.Errorf("%d players: max_turns changes the size", tc.n)
		}
	}
}

// marked returns the cards marked in a 52-entry block, in index order.
func marked(v []float32) []card.Card {
	var out []card.Card
	for i, x := range v {
		if x != 0 {
			out = append(out, card.Card(i+4))
		}
	}
	return out
}

func floats(xs ...float32) []float32 { return xs }

func count(v []float32) int {
	k := 0
	for _, x := range v {
		if x != 0 {
			k++
		}
	}
	return k
}

// TestObserveKnownPosition checks named fields of the spec's fixed deals.
func TestObserveKnownPosition(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	check := func(seat int, name string, want []float32) {
		t.Helper()
		if got := gametest.ObserveField(t, s, seat, name); !slices.Equal(got, want) {
			t.Errorf("seat %d %s = %v, want %v", seat, name, got, want)
		}
	}
	checkCards := func(seat int, name string, from, to int, want string) {
		t.Helper()
		if got := marked(gametest.ObserveField(t, s, seat, name)[from:to]); !slices.Equal(got, sorted(cards(want))) {
			t.Errorf("seat %d %s[%d:%d] = %v, want %s", seat, name, from, to, got, want)
		}
	}
	checkCards(1, "hands", 0, 52, "AH QD KD 2C")
	checkCards(1, "hands", 52, 104, "") // seat 0's hand is unseen
	checkCards(0, "hands", 0, 52, "2S KC AC 3D")
	checkCards(1, "top", 0, 52, "KS")
	checkCards(1, "pile", 0, 52, "KS")
	check(1, "pile_size", floats(1))
	check(1, "central", floats(27))
	check(1, "turn", floats(1, 0))
	check(0, "turn", floats(0, 1))
	check(1, "dealer", floats(0, 1))
	check(1, "held", floats(12, 12))
	check(1, "support_sizes", floats(4, 4))
	if got := count(gametest.ObserveField(t, s, 1, "unseen")); got != 47 {
		t.Errorf("seat 1 has %d unseen cards, want 47 (52 - 4 in hand - KS)", got)
	}
	play(t, s, "1: play AH")
	checkCards(1, "hands", 0, 52, "QD KD 2C 3C")
	checkCards(0, "top", 0, 52, "AH")
	checkCards(0, "pile", 0, 52, "KS AH")
	check(0, "turn", floats(1, 0))
	check(0, "turns", floats(1))
	check(0, "turns_left", floats(DefaultMaxTurns-1))

	// A picked-up pile is seen going into the taker's support pile.
	s = start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec3)
	play(t, s, "1: turn") // 9C does not fit on 4D: 4D and 9C go to seat 1's support
	checkCards(0, "supports", 52, 104, "4D 9C")
	checkCards(1, "supports", 0, 52, "4D 9C")
	checkCards(0, "supports", 0, 52, "")
	check(0, "support_sizes", floats(4, 5))
	check(0, "pile_size", floats(0))
	checkCards(0, "top", 0, 52, "") // empty pile: nothing on top

	// T002-5: a random-pile pick-up of eight cards, then the keep.
	s = start(t, opts3, 5, long("3C"))
	play(t, s, longMoves...)
	play(t, s, "0: random")
	check(1, "keep_due", floats(1))
	checkCards(1, "picked_up", 0, 52, "3C 4D 5D 6D 7D 8D 9D 10D")
	if got := gametest.ObserveField(t, s, 1, "held")[2]; got != 11 {
		t.Errorf("seat 1 sees seat 0 holding %v, want 11 (3 random + 8 picked up)", got)
	}
	check(1, "turn", floats(0, 0, 1))
	m, err := s.ParseMove(0, "keep 3C 4D 5D 6D")
	if err != nil {
		t.Fatal(err)
	}
	// 3C 4D 5D 6D have indices 11 14 18 22: 55 + 11 + C(14,2) + C(18,3) + C(22,4).
	if id := s.ActionID(0, m); id != 55+11+91+816+7315 {
		t.Errorf("keep 3C 4D 5D 6D has id %d, want 8288", id)
	}
	play(t, s, "0: keep 3C 4D 5D 6D")
	check(1, "keep_due", floats(0))
	// The keeper knows which four are in her hand; the others only that the
	// eight are in her hand or support.
	checkCards(0, "hands", 0, 52, "3C 4D 5D 6D")
	checkCards(0, "supports", 0, 52, "7D 8D 9D 10D")
	checkCards(1, "hands", 2*52, 3*52, "3C 4D 5D 6D 7D 8D 9D 10D")
	checkCards(1, "supports", 2*52, 3*52, "3C 4D 5D 6D 7D 8D 9D 10D")
}

func TestObserveNoAllocs(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		s := start(t, map[string]any{"players": n}, 3, "")
		obs := make([]float32, s.Encoding().Size)
		legal := s.Legal(s.Turn(), nil)
		keep := Keep(cards("AS 2H 3D KC")...)
		allocs := testing.AllocsPerRun(100, func() {
			for seat := range n {
				s.Observe(seat, obs)
			}
			for _, m := range legal {
				_ = s.ActionID(s.Turn(), m)
			}
			_ = s.ActionID(0, keep)
		})
		if allocs != 0 {
			t.Errorf("%d players: Observe and ActionID make %v allocations", n, allocs)
		}
	}
}

// TestKeepIDsExact checks that the keep ids number the four-card sets of
// the pack one to one onto the end of the action space.
func TestKeepIDsExact(t *testing.T) {
	s := start(t, map[string]any{"players": 2}, 1, "")
	e := s.Encoding()
	seen := make([]bool, e.Actions)
	p := pack52
	for a := 0; a < len(p); a++ {
		for b := a + 1; b < len(p); b++ {
			for c := b + 1; c < len(p); c++ {
				for d := c + 1; d < len(p); d++ {
					id := s.ActionID(0, Keep(p[a], p[b], p[c], p[d]))
					if id < idKeep || id >= e.Actions || seen[id] {
						t.Fatalf("keep %v %v %v %v: id %d out of range or taken", p[a], p[b], p[c], p[d], id)
					}
					seen[id] = true
				}
			}
		}
	}
	for id := idKeep; id < e.Actions; id++ {
		if !seen[id] {
			t.Fatalf("keep id %d is not used", id)
		}
	}
	for _, c := range pack52 {
		if id := s.ActionID(0, Play(c)); id != cardIndex(c) || id < 0 || id >= idTurn {
			t.Errorf("play %v: id %d", c, id)
		}
	}
	if s.ActionID(0, Turn) != 52 || s.ActionID(0, Pickup) != 53 || s.ActionID(0, Random) != 54 {
		t.Error("turn, pickup, random are not 52, 53, 54")
	}
}

// randomPositions calls f with the positions of random games.
func randomPositions(t *testing.T, n, games int, f func(s *State)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 11))
	opts, err := game.Resolve(Game{}, map[string]any{"players": n, "max_turns": 400})
	if err != nil {
		t.Fatal(err)
	}
	var buf []game.Move
	for range games {
		st, _ := Game{}.New(opts, rng.Uint64(), nil)
		s := st.(*State)
		for s.ToAct() != 0 {
			f(s)
			buf = s.Legal(s.Turn(), buf[:0])
			s.ApplyFast(s.Turn(), buf[rng.IntN(len(buf))])
		}
		f(s)
	}
}

func TestActionIDInjective(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		actions := start(t, map[string]any{"players": n}, 1, "").Encoding().Actions
		keeps := 0
		randomPositions(t, n, 30, func(s *State) {
			if s.ToAct() == 0 {
				return
			}
			seen := map[int]bool{}
			for _, m := range s.Legal(s.Turn(), nil) {
				id := s.ActionID(s.Turn(), m)
				if id < 0 || id >= actions {
					t.Fatalf("%d players: %s has id %d, outside 0-%d", n, s.FormatMove(m), id, actions-1)
				}
				if seen[id] {
					t.Fatalf("%d players: two legal moves share id %d", n, id)
				}
				seen[id] = true
				if isKeep(m) {
					keeps++
				}
			}
		})
		if keeps == 0 {
			t.Errorf("%d players: no keep move met", n)
		}
	}
}

// unseenSlots returns where the cards lie that seat cannot see and nobody
// has seen since the deal, as pointers into the state.
func unseenSlots(s *State, seat int) []*card.Card {
	var out []*card.Card
	add := func(cs []card.Card) {
		for i := range cs {
			if s.known[cs[i]] == maskAll {
				out = append(out, &cs[i])
			}
		}
	}
	for i := 0; i < s.n; i++ {
		if i != seat {
			add(s.hand[i][:s.nHand[i]])
		}
		add(s.support[i][:s.nSupport[i]])
		add(s.random[i][:s.nRandom[i]])
	}
	add(s.central[:s.nCentral])
	return out
}

// TestObserveSeesOnlyItsOwn: what a seat cannot see (other hands, blind
// piles, the central deck, their order) leaves its encoding unchanged,
// while its own hand changes it.
func TestObserveSeesOnlyItsOwn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 3, 4} {
		checked := 0
		randomPositions(t, n, 10, func(s *State) {
			for seat := range n {
				before := gametest.Observe(s, seat)
				d := s.Determinize(seat, rng).(*State)
				if !slices.Equal(gametest.Observe(d, seat), before) {
					t.Fatalf("%d players: a determinisation for seat %d encodes differently", n, seat)
				}
				// Exchange two unseen cards wherever they lie.
				c := s.Clone().(*State)
				slots := unseenSlots(c, seat)
				if len(slots) < 2 {
					continue
				}
				a, b := slots[rng.IntN(len(slots))], slots[rng.IntN(len(slots))]
				*a, *b = *b, *a
				if !slices.Equal(gametest.Observe(c, seat), before) {
					t.Fatalf("%d players: exchanging unseen cards changes seat %d's encoding", n, seat)
				}
				// Exchange a card of the seat's own hand with an unseen one.
				if s.nHand[seat] == 0 {
					continue
				}
				c = s.Clone().(*State)
				slots = unseenSlots(c, seat)
				x := &c.hand[seat][rng.IntN(c.nHand[seat])]
				y := slots[rng.IntN(len(slots))]
				*x, *y = *y, *x
				c.known[*x], c.known[*y] = c.known[*y], c.known[*x]
				if slices.Equal(gametest.Observe(c, seat), before) {
					t.Fatalf("%d players: a change of seat %d's own hand does not change its encoding", n, seat)
				}
				checked++
			}
		})
		if checked < 1000 {
			t.Errorf("%d players: only %d positions checked", n, checked)
		}
	}
}
