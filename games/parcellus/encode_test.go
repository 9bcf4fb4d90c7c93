package parcellus

import (
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

// field returns the entries of the field called name in obs.
func field(t *testing.T, obs []float32, name string) []float32 {
	t.Helper()
	f, ok := encoding.Field(name)
	if !ok {
		t.Fatalf("no field %q", name)
	}
	return obs[f.Offset : f.Offset+f.Size]
}

// oneHot returns n zeros with a 1 at each index of at.
func oneHot(n int, at ...int) []float32 {
	v := make([]float32, n)
	for _, i := range at {
		v[i] = 1
	}
	return v
}

// cardVec returns the 24-entry vector of the cards of text.
func cardVec(text string) []float32 {
	v := make([]float32, packSize)
	for _, c := range cards(text) {
		v[CardIndex(c)] = 1
	}
	return v
}

func checkField(t *testing.T, obs []float32, name string, want []float32) {
	t.Helper()
	if got := field(t, obs, name); !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func TestEncodingCheck(t *testing.T) {
	for _, opts := range []map[string]any{nil, {"target": 8}, {"players": 3, "target": 999}} {
		s := start(t, opts, "")
		e := s.Encoding()
		if err := e.Check(); err != nil {
			t.Errorf("%v: %v", opts, err)
		}
		if e.Actions != NumActions || NumActions != 24+1+2024 || e.ActionDoc == "" {
			t.Errorf("%v: %d actions, want %d", opts, e.Actions, 24+1+2024)
		}
		for _, f := range e.Fields {
			if f.Doc == "" {
				t.Errorf("field %q has no doc", f.Name)
			}
		}
		rng := game.NewRNG(3)
		game.Playout(s, &rng, nil)
		if e2 := s.Encoding(); e2.Size != e.Size || !slices.Equal(e2.Fields, e.Fields) {
			t.Errorf("the layout changed during play")
		}
		t.Logf("%v: %d entries, %d actions", opts, e.Size, e.Actions)
	}
}

func TestCardAndThreeIndex(t *testing.T) {
	for i, c := range order {
		if got := CardIndex(c); got != i {
			t.Errorf("CardIndex(%v) = %d, want %d", c, got, i)
		}
	}
	if CardIndex(card.MustParse("8S")) != -1 || CardIndex(card.None) != -1 {
		t.Error("CardIndex of a card outside the pack is not -1")
	}
	seen := map[int]bool{}
	for a := range order {
		for b := a + 1; b < len(order); b++ {
			for c := b + 1; c < len(order); c++ {
				i := ThreeIndex(card.SetOf(order[a], order[b], order[c]))
				if i < 0 || i >= NumActions-ThreeActions || seen[i] {
					t.Fatalf("ThreeIndex(%v %v %v) = %d: out of range or repeated", order[a], order[b], order[c], i)
				}
				seen[i] = true
			}
		}
	}
	if len(seen) != NumActions-ThreeActions {
		t.Errorf("%d three-card indices, want %d", len(seen), NumActions-ThreeActions)
	}
	if got := ThreeIndex(set("9S 9H 9D")); got != 0 {
		t.Errorf("ThreeIndex(9S 9H 9D) = %d, want 0", got)
	}
	if got := ThreeIndex(set("AH AD AC")); got != 2023 {
		t.Errorf("ThreeIndex(AH AD AC) = %d, want 2023", got)
	}
	// KC AS AC are 19, 20 and 23: 19 + C(20,2) + C(23,3).
	if got := ThreeIndex(set("AC KC AS")); got != 19+190+1771 {
		t.Errorf("ThreeIndex(KC AS AC) = %d, want %d", got, 19+190+1771)
	}
}

// TestObserveSeedExample checks hand-worked observations of the seed's
// worked example (dealer 0; see helpers_test.go).
func TestObserveSeedExample(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)

	// The pass: seat 0 has chosen, the others not yet.
	do(t, s, seedPasses[0])
	o0, o1 := gametest.Observe(s, 0), gametest.Observe(s, 1)
	checkField(t, o0, "phase", oneHot(3, 0))
	checkField(t, o0, "deal", []float32{1})
	checkField(t, o0, "target", []float32{30})
	checkField(t, o0, "pass_left", []float32{1})
	checkField(t, o0, "dealer", oneHot(3, 0))
	checkField(t, o1, "dealer", oneHot(3, 2))
	checkField(t, o0, "to_act", oneHot(3, 1, 2))
	checkField(t, o1, "to_act", oneHot(3, 0, 1))
	checkField(t, o0, "chosen", oneHot(3, 0))
	checkField(t, o1, "chosen", oneHot(3, 2))
	checkField(t, o0, "hand", cardVec("QD 9S KS"))
	checkField(t, o0, "passed", cardVec("QC 9C 10H"))
	checkField(t, o1, "hand", cardVec("JD AD QS AS 10C KH"))
	checkField(t, o1, "passed", cardVec(""))
	checkField(t, o0, "hand_sizes", []float32{6, 6, 6})
	checkField(t, o0, "common", []float32{6})
	checkField(t, o0, "parcel", cardVec(""))
	checkField(t, o0, "turn", oneHot(3))

	// After the exchange West (0) turns JS; North (1) is to act.
	do(t, s, seedPasses[1:]...)
	o0, o1 = gametest.Observe(s, 0), gametest.Observe(s, 1)
	checkField(t, o0, "phase", oneHot(3, 1))
	checkField(t, o0, "hand", cardVec("QD 9S KS KC JH 10D"))
	checkField(t, o0, "passed", cardVec("QC 9C 10H"))
	checkField(t, o0, "passed_held", cardVec("QC 9C 10H"))
	checkField(t, o0, "received", cardVec("KC JH 10D"))
	checkField(t, o1, "received", cardVec("QC 9C 10H"))
	checkField(t, o0, "chosen", oneHot(3))
	checkField(t, o0, "common", []float32{5})
	checkField(t, o0, "parcel", cardVec("JS"))
	checkField(t, o0, "parcel_top", cardVec("JS"))
	checkField(t, o0, "parcel_points", []float32{1})
	checkField(t, o0, "turner", oneHot(3, 0))
	checkField(t, o1, "turner", oneHot(3, 2))
	checkField(t, o0, "turn", oneHot(3, 1))
	checkField(t, o1, "turn", oneHot(3, 0))
	checkField(t, o0, "contributor", oneHot(3))

	// North plays the QC West passed her.
	do(t, s, "1: play QC")
	o0 = gametest.Observe(s, 0)
	checkField(t, o0, "passed", cardVec("QC 9C 10H"))
	checkField(t, o0, "passed_held", cardVec("9C 10H"))
	checkField(t, o0, "parcel", cardVec("JS QC"))
	checkField(t, o0, "parcel_top", cardVec("QC"))
	checkField(t, o0, "parcel_points", []float32{2})
	checkField(t, o0, "contributor", oneHot(3, 1))
	checkField(t, o0, "hand_sizes", []float32{6, 5, 6})
	checkField(t, o0, "passes", []float32{0})

	// The rest of T000-1: South (2) captures JS QC KC AS 9C 10C, turns 9H.
	do(t, s, "2: pass", "0: play KC", "1: pass", "2: play AS", "0: pass", "1: play 9C", "2: play 10C",
		"0: pass", "1: pass", "2: pass")
	o0, o1 = gametest.Observe(s, 0), gametest.Observe(s, 1)
	checkField(t, o0, "captured", append(append(cardVec(""), cardVec("")...), cardVec("JS QC KC AS 9C 10C")...))
	checkField(t, o1, "captured", append(append(cardVec(""), cardVec("JS QC KC AS 9C 10C")...), cardVec("")...))
	checkField(t, o0, "parcel_counts", []float32{0, 0, 1})
	checkField(t, o0, "points", []float32{0, 0, 6})
	checkField(t, o1, "points", []float32{0, 6, 0})
	checkField(t, o0, "parcel", cardVec("9H"))
	checkField(t, o0, "turner", oneHot(3, 2))
	checkField(t, o0, "turn", oneHot(3, 0))
	checkField(t, o0, "passed_held", cardVec("10H"))
	checkField(t, o0, "common", []float32{4})
	checkField(t, o0, "totals", []float32{0, 0, 0})

	// Everyone passes out the deal: the scores reach the totals.
	allPass(t, s)
	o0, o1 = gametest.Observe(s, 0), gametest.Observe(s, 1)
	want := make([]float32, Players)
	for k := range Players {
		want[k] = float32(s.totals[k])
	}
	checkField(t, o0, "totals", want)
	checkField(t, o0, "last_deal", want) // the first deal's scores are the totals
	checkField(t, o1, "totals", []float32{want[1], want[2], want[0]})
	checkField(t, o0, "deal", []float32{2})
	checkField(t, o0, "pass_left", []float32{0})
	checkField(t, o0, "dealer", oneHot(3, 1))
	checkField(t, o0, "received", cardVec(""))
	checkField(t, o0, "captured", make([]float32, 3*packSize))
}

// randomMove plays a random legal move of a random seat to act.
func randomMove(s *State, rng *rand.Rand) {
	seats := s.ToAct().List()
	seat := seats[rng.IntN(len(seats))]
	legal := s.Legal(seat, nil)
	s.ApplyFast(seat, legal[rng.IntN(len(legal))])
}

func TestObserveOverwritesAndNoAllocs(t *testing.T) {
	s := start(t, nil, "")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		if s.ToAct() == 0 {
			break
		}
		for seat := range Players {
			a := gametest.Observe(s, seat)
			b := make([]float32, len(a))
			for i := range b {
				b[i] = -7
			}
			s.Observe(seat, b)
			if !slices.Equal(a, b) {
				t.Fatalf("seat %d: Observe over garbage differs from Observe over zeros", seat)
			}
		}
		randomMove(s, rng)
	}
	s = start(t, nil, "")
	do(t, s, "0: pass "+card.Join(s.Hand(0)[:3]))
	obs := make([]float32, s.Encoding().Size)
	if a := testing.AllocsPerRun(100, func() { s.Observe(1, obs) }); a != 0 {
		t.Errorf("Observe allocates %v times a call", a)
	}
	h := s.Hand(1)
	m := PassCards(h[0], h[2], h[4])
	if a := testing.AllocsPerRun(100, func() { _ = s.ActionID(1, m) }); a != 0 {
		t.Errorf("ActionID allocates %v times a call", a)
	}
}

// TestActionIDs checks that legal moves get distinct in-range indices, the
// same for a move wherever it is legal, over many random positions.
func TestActionIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	idOf := map[game.Move]int{}
	moveOf := map[int]game.Move{}
	for match := range 100 {
		s := start(t, map[string]any{"target": 10}, "")
		s.Reset(uint64(match))
		for s.ToAct() != 0 {
			for seat := range Players {
				ids := map[int]bool{}
				for _, m := range s.Legal(seat, nil) {
					id := s.ActionID(seat, m)
					if id < 0 || id >= NumActions {
						t.Fatalf("%q: index %d out of range", s.FormatMove(m), id)
					}
					if ids[id] {
						t.Fatalf("seat %d: two legal moves share index %d", seat, id)
					}
					ids[id] = true
					if old, ok := idOf[m]; ok && old != id {
						t.Fatalf("%q has indices %d and %d", s.FormatMove(m), old, id)
					}
					if old, ok := moveOf[id]; ok && old != m {
						t.Fatalf("%q and %q share index %d", s.FormatMove(old), s.FormatMove(m), id)
					}
					idOf[m], moveOf[id] = id, m
				}
			}
			randomMove(s, rng)
		}
	}
	if got := s0ActionID(Pass); got != PassAction {
		t.Errorf("pass: index %d, want %d", got, PassAction)
	}
	if got := s0ActionID(Play(card.MustParse("AC"))); got != 23 {
		t.Errorf("play AC: index %d, want 23", got)
	}
	if got := s0ActionID(PassCards(card.MustParse("9S"), card.MustParse("9H"), card.MustParse("10S"))); got != 25+4 {
		t.Errorf("pass 9S 9H 10S (0, 1 and 4): index %d, want 25 + C(4,3) = %d", got, 25+4)
	}
	t.Logf("%d distinct moves seen", len(idOf))
}

func s0ActionID(m game.Move) int { return (&State{}).ActionID(0, m) }

// TestObserveHiddenInformation checks that what a seat may not see never
// reaches its observation, and that what it sees does.
func TestObserveHiddenInformation(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	base := gametest.Observe(s, 0)

	// Swapping cards between the other hands, or shuffling the common
	// deck, changes nothing for seat 0.
	c := s.Clone().(*State)
	x, y := card.MustParse("JD"), card.MustParse("9D") // seat 1's, seat 2's
	c.hands[1] = c.hands[1].Remove(x).Add(y)
	c.hands[2] = c.hands[2].Remove(y).Add(x)
	c.common[0], c.common[5] = c.common[5], c.common[0]
	if !slices.Equal(base, gametest.Observe(c, 0)) {
		t.Error("seat 0's observation depends on the other hands or the common deck")
	}
	if slices.Equal(gametest.Observe(s, 1), gametest.Observe(c, 1)) {
		t.Error("seat 1's observation does not show its own hand")
	}
	// Swapping one of seat 0's cards with another seat's changes it.
	c = s.Clone().(*State)
	x, y = card.MustParse("QD"), card.MustParse("JD")
	c.hands[0] = c.hands[0].Remove(x).Add(y)
	c.hands[1] = c.hands[1].Remove(y).Add(x)
	if slices.Equal(base, gametest.Observe(c, 0)) {
		t.Error("seat 0's observation does not show its own hand")
	}

	// Another seat's pending pass choice is hidden; one's own is not.
	do(t, s, seedPasses[1])
	c = s.Clone().(*State)
	do(t, c, "0: pass QD 9S KS")
	d := s.Clone().(*State)
	do(t, d, "0: pass QC 9C 10H")
	if !slices.Equal(gametest.Observe(c, 1), gametest.Observe(d, 1)) || !slices.Equal(gametest.Observe(c, 2), gametest.Observe(d, 2)) {
		t.Error("another seat's pending pass reaches the observation")
	}
	if slices.Equal(gametest.Observe(c, 0), gametest.Observe(d, 0)) {
		t.Error("seat 0's own pending pass does not reach its observation")
	}

	// After the pass, what seats 1 and 2 passed each other is hidden from
	// seat 0, but what seat 0 passed is known to it.
	do(t, d, seedPasses[2])
	for k := range 20 {
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		for seat := range Players {
			if e := d.Determinize(seat, rng); !slices.Equal(gametest.Observe(d, seat), gametest.Observe(e, seat)) {
				t.Fatalf("a determinisation for seat %d encodes differently", seat)
			}
		}
	}

	// Determinisations of random positions encode the same for their seat.
	rng := rand.New(rand.NewPCG(5, 6))
	for match := range 30 {
		s := start(t, map[string]any{"target": 12}, "")
		s.Reset(uint64(1000 + match))
		for s.ToAct() != 0 {
			seat := rng.IntN(Players)
			if e := s.Determinize(seat, rng); !slices.Equal(gametest.Observe(s, seat), gametest.Observe(e, seat)) {
				t.Fatalf("a determinisation for seat %d encodes differently", seat)
			}
			randomMove(s, rng)
		}
	}
}
