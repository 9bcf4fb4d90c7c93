package tractric

import (
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

func TestEncodingLayout(t *testing.T) {
	for _, tc := range []struct{ n, size, actions int }{
		{3, 571, 74},
		{4, 901, 107},
	} {
		s := newState(t, tc.n, 0)
		e := s.Encoding()
		if err := e.Check(); err != nil {
			t.Errorf("%d players: %v", tc.n, err)
		}
		if e.Size != tc.size || e.Actions != tc.actions {
			t.Errorf("%d players: size %d, %d actions; want %d and %d", tc.n, e.Size, e.Actions, tc.size, tc.actions)
		}
		for _, f := range e.Fields {
			if f.Doc == "" {
				t.Errorf("field %q has no doc", f.Name)
			}
		}
		if e.ActionDoc == "" {
			t.Error("no ActionDoc")
		}
		// Encoding returns a copy: changing it does not change the next.
		e.Fields[0].Name = "x"
		if s.Encoding().Fields[0].Name != "hand" {
			t.Error("Encoding shares its fields with the caller")
		}
	}
}

// ones returns the indices of the non-zero entries of v.
func ones(v []float32) []int {
	var out []int
	for i, x := range v {
		if x != 0 {
			out = append(out, i)
		}
	}
	return out
}

func floats(xs ...float32) []float32 { return xs }

// idx is the card index of c in a 3-player match.
func idx(t *testing.T, c string) int {
	t.Helper()
	return cardIndex(card.MustParse(c), 9, 6)
}

// TestObserveKnownPosition checks named fields of giveState's position:
// seat 1 has won nine spade tricks (8 counted) and must give the ninth away.
func TestObserveKnownPosition(t *testing.T) {
	s := giveState(t)
	check := func(seat int, name string, want []float32) {
		t.Helper()
		if got := gametest.ObserveField(t, s, seat, name); !slices.Equal(got, want) {
			t.Errorf("seat %d %s = %v, want %v", seat, name, got, want)
		}
	}
	check(1, "tricks", floats(8, 0, 0))
	check(0, "tricks", floats(0, 8, 0)) // relative: seat 1 is seat 0's next
	check(2, "tricks", floats(0, 0, 8))
	check(1, "phase", floats(0, 0, 1, 0))
	check(1, "to_act", floats(1, 0, 0))
	check(0, "to_act", floats(0, 1, 0))
	check(1, "trump", floats(0, 0, 0, 0, 0, 1)) // 7S 7H KD: no trump
	check(1, "hand_sizes", floats(3, 3, 3))
	check(1, "trick_number", floats(9))
	check(1, "deal", floats(1))
	check(1, "game", floats(1))
	check(1, "dealer", floats(0, 0, 1)) // dealer 0 is seat 1's third block
	check(1, "last_taker", floats(1, 0, 0))
	check(1, "reserve", floats(6, 6, 6))
	check(1, "board", make([]float32, 27))
	// Seat 1 keeps its three clubs.
	if got, want := ones(gametest.ObserveField(t, s, 1, "hand")), []int{idx(t, "6C"), idx(t, "7C"), idx(t, "8C")}; !slices.Equal(got, want) {
		t.Errorf("seat 1 hand entries %v, want %v (6C 7C 8C)", got, want)
	}
	// The others showed out of spades.
	check(1, "void", floats(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0))
	// The proposals stay public after the reveal: 7S (seat 1), 7H (2), KD (0).
	if got, want := ones(gametest.ObserveField(t, s, 1, "proposals")), []int{idx(t, "7S"), 36 + idx(t, "7H"), 72 + idx(t, "KD")}; !slices.Equal(got, want) {
		t.Errorf("seat 1 proposals entries %v, want %v", got, want)
	}
	// The grid: 8 A 6 / 3 Q 7 / 4 2 5.
	grid := gametest.ObserveField(t, s, 1, "grid")
	for cell, v := range []int{8, 1, 6, 3, 0, 7, 4, 2, 5} {
		if !slices.Equal(ones(grid[cell*9:cell*9+9]), []int{v}) {
			t.Errorf("grid cell %d: %v, want value %d", cell, grid[cell*9:cell*9+9], v)
		}
	}
	// The last trick: 6S led by seat 1, two clubs or diamonds from the others.
	last := gametest.ObserveField(t, s, 1, "last_trick")
	if last[idx(t, "6S")] != 1 || len(ones(last)) != 3 || len(ones(last[36:72])) != 1 || len(ones(last[72:])) != 1 {
		t.Errorf("last trick entries %v", ones(last))
	}
	if got := len(ones(gametest.ObserveField(t, s, 1, "played"))); got != 27 {
		t.Errorf("%d played cards, want 27", got)
	}
	// After the gift seat 0 has a trick and leads.
	play(t, s, "1: give 0")
	check(1, "tricks", floats(8, 0, 1))
	check(0, "tricks", floats(1, 8, 0))
	check(0, "to_act", floats(1, 0, 0))
	check(0, "phase", floats(0, 1, 0, 0))
}

// TestObserveProposalsSecret: a pending proposal shows only to its owner,
// and that a seat has proposed shows to all.
func TestObserveProposalsSecret(t *testing.T) {
	s := newState(t, 3, 0)
	c := s.Hand(0)[0]
	play(t, s, "0: propose "+c.String())
	if got := ones(gametest.ObserveField(t, s, 0, "proposals")); !slices.Equal(got, []int{idx(t, c.String())}) {
		t.Errorf("seat 0 sees proposals %v, want its own %v", got, c)
	}
	if got := ones(gametest.ObserveField(t, s, 1, "proposals")); len(got) != 0 {
		t.Errorf("seat 1 sees seat 0's pending proposal: %v", got)
	}
	if got := gametest.ObserveField(t, s, 1, "proposed"); !slices.Equal(got, floats(0, 0, 1)) {
		t.Errorf("seat 1 proposed = %v, want seat 0 (block 2) marked", got)
	}
	if got := gametest.ObserveField(t, s, 1, "to_act"); !slices.Equal(got, floats(1, 1, 0)) {
		t.Errorf("seat 1 to_act = %v, want seats 1 and 2", got)
	}
}

func TestObserveBoard4p(t *testing.T) {
	s := newState(t, 4, 0)
	s.grid = testGrid
	for _, c := range []struct {
		cell   int
		colour int8
	}{{0, 1}, {4, 0}, {8, 1}} {
		s.place(c.colour, c.cell)
	}
	s.won = [MaxPlayers]int{1, 0}
	s.lastWinner = 0
	// Seat 1 (side 1) sees its own side as colour 0.
	want := make([]float32, 18)
	want[0*2+0], want[4*2+1], want[8*2+0] = 1, 1, 1
	if got := gametest.ObserveField(t, s, 1, "board"); !slices.Equal(got, want) {
		t.Errorf("seat 1 board = %v, want %v", got, want)
	}
	if got := gametest.ObserveField(t, s, 1, "board_age"); !slices.Equal(got, floats(1, 0, 0, 0, 1, 0, 0, 0, 2)) {
		t.Errorf("seat 1 board_age = %v", got)
	}
	if got := gametest.ObserveField(t, s, 1, "reserve"); !slices.Equal(got, floats(4, 5)) {
		t.Errorf("seat 1 reserve = %v, want [4 5]", got)
	}
	if got := gametest.ObserveField(t, s, 1, "games_won"); !slices.Equal(got, floats(0, 1)) {
		t.Errorf("seat 1 games_won = %v, want [0 1]", got)
	}
	if got := gametest.ObserveField(t, s, 2, "games_won"); !slices.Equal(got, floats(1, 0)) {
		t.Errorf("seat 2 games_won = %v, want [1 0]", got)
	}
	if got := gametest.ObserveField(t, s, 3, "last_game_winner"); !slices.Equal(got, floats(0, 1)) {
		t.Errorf("seat 3 last_game_winner = %v, want [0 1]", got)
	}
}

func TestObserveNoAllocs(t *testing.T) {
	for _, n := range []int{3, 4} {
		s := newState(t, n, 0)
		play(t, s, "0: propose "+s.Hand(0)[0].String())
		obs := make([]float32, s.Encoding().Size)
		legal := s.Legal(1, nil)
		allocs := testing.AllocsPerRun(100, func() {
			for seat := range n {
				s.Observe(seat, obs)
			}
			for _, m := range legal {
				_ = s.ActionID(1, m)
			}
		})
		if allocs != 0 {
			t.Errorf("%d players: Observe and ActionID make %v allocations", n, allocs)
		}
	}
}

// randomPositions calls f with positions of random matches.
func randomPositions(t *testing.T, n, matches int, f func(s *State)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 9))
	opts, err := game.Resolve(Game{}, map[string]any{"players": n})
	if err != nil {
		t.Fatal(err)
	}
	var buf []game.Move
	for range matches {
		st, _ := Game{}.New(opts, rng.Uint64(), nil)
		s := st.(*State)
		for s.ToAct() != 0 {
			f(s)
			acts := s.ToAct()
			seat := acts.Nth(rng.IntN(acts.Len()))
			buf = s.Legal(seat, buf[:0])
			s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
		f(s)
	}
}

func TestActionIDInjective(t *testing.T) {
	for _, n := range []int{3, 4} {
		actions := newState(t, n, 0).Encoding().Actions
		byID := map[int]string{} // every id keeps one meaning for a seat
		positions := 0
		randomPositions(t, n, 40, func(s *State) {
			positions++
			for seat := range n {
				seen := map[int]bool{}
				for _, m := range s.Legal(seat, nil) {
					id := s.ActionID(seat, m)
					if id < 0 || id >= actions {
						t.Fatalf("%d players: %s has id %d, outside 0-%d", n, s.FormatMove(m), id, actions-1)
					}
					if seen[id] {
						t.Fatalf("%d players: two legal moves of seat %d share id %d", n, seat, id)
					}
					seen[id] = true
					key := id*MaxPlayers + seat
					if was, ok := byID[key]; ok && was != s.FormatMove(m) {
						t.Fatalf("%d players: id %d is %q and %q for seat %d", n, id, was, s.FormatMove(m), seat)
					}
					byID[key] = s.FormatMove(m)
				}
			}
		})
		if positions < 1000 {
			t.Errorf("%d players: only %d positions", n, positions)
		}
	}
}

// TestObserveSeesOnlyItsOwn: what a seat cannot see (the other hands, a
// pending proposal, the shuffle to come) leaves its encoding unchanged,
// while its own hand changes it. Under -short it plays fewer matches.
func TestObserveSeesOnlyItsOwn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	matches := 20
	if testing.Short() {
		matches = 5
	}
	for _, n := range []int{3, 4} {
		checked := 0
		randomPositions(t, n, matches, func(s *State) {
			for seat := range n {
				before := gametest.Observe(s, seat)
				d := s.Determinize(seat, rng).(*State)
				if !slices.Equal(gametest.Observe(d, seat), before) {
					t.Fatalf("%d players: a determinisation for seat %d encodes differently", n, seat)
				}
				// Swap a hidden card between the other two (or three) hands,
				// and exchange a card of seat's hand with a hidden one.
				a, b := (seat+1)%n, (seat+2)%n
				ha, hb := s.hands[a]&^s.revealed(a), s.hands[b]&^s.revealed(b)
				if ha == 0 || hb == 0 || s.hands[seat] == 0 {
					continue
				}
				ca := card.Card(rng.IntN(64))
				for !ha.Has(ca) {
					ca = card.Card(rng.IntN(64))
				}
				cb := card.Card(rng.IntN(64))
				for !hb.Has(cb) {
					cb = card.Card(rng.IntN(64))
				}
				c := s.Clone().(*State)
				c.hands[a] = c.hands[a].Remove(ca).Add(cb)
				c.hands[b] = c.hands[b].Remove(cb).Add(ca)
				if !slices.Equal(gametest.Observe(c, seat), before) {
					t.Fatalf("%d players: swapping hidden cards of seats %d and %d changes seat %d's encoding", n, a, b, seat)
				}
				if c.phase == phasePropose {
					for i := range n {
						if i != seat && c.chosen.Has(i) {
							c.proposal[i] = card.Card(bits64First(c.hands[i]))
						}
					}
					if !slices.Equal(gametest.Observe(c, seat), before) {
						t.Fatalf("%d players: another seat's pending proposal reaches seat %d's encoding", n, seat)
					}
				}
				own := s.hands[seat] &^ s.revealed(seat)
				if own == 0 {
					continue
				}
				co := card.Card(bits64First(own))
				c = s.Clone().(*State)
				c.hands[seat] = c.hands[seat].Remove(co).Add(ca)
				c.hands[a] = c.hands[a].Remove(ca).Add(co)
				if slices.Equal(gametest.Observe(c, seat), before) {
					t.Fatalf("%d players: a change of seat %d's own hand does not change its encoding", n, seat)
				}
				checked++
			}
		})
		if checked < 500 {
			t.Errorf("%d players: only %d positions checked", n, checked)
		}
	}
}

func bits64First(s card.Set) int {
	for c := 0; c < 64; c++ {
		if s.Has(card.Card(c)) {
			return c
		}
	}
	return -1
}
