package courtcircular_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	cc "parlour/games/courtcircular"
	"parlour/gametest"
)

// encTables are the option sets the encoding tests cover: every 1860 table
// and the 1862 edition.
func encTables() []map[string]any {
	var ts []map[string]any
	for n := 2; n <= cc.MaxPlayers; n++ {
		ts = append(ts, map[string]any{"players": n})
	}
	return append(ts, map[string]any{"players": 2, "target": 20}, map[string]any{"edition": "1862"})
}

func encName(o map[string]any) string {
	if o["edition"] == "1862" {
		return "1862"
	}
	if o["target"] != nil {
		return fmt.Sprintf("1860/players=%d/target=%d", o["players"], o["target"])
	}
	return fmt.Sprintf("1860/players=%d", o["players"])
}

// startEnc starts a shuffled match.
func startEnc(t *testing.T, opts map[string]any, seed uint64) *cc.State {
	t.Helper()
	o, err := game.Resolve(cc.Game{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cc.Game{}.New(o, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*cc.State)
}

// idx is a card's documented index: 4*(rank-1) + suit, suits S H D C.
func idx(text string) int {
	c := card.MustParse(text)
	return 4*(int(c.Rank())-1) + int(c.Suit())
}

// wantField checks a field's entries: want lists the entries that are
// not 0, every other entry must be 0.
func wantField(t *testing.T, s game.State, obs []float32, name string, want map[int]float32) {
	t.Helper()
	got := gametest.Field(t, s, obs, name)
	for i, v := range got {
		if v != want[i] {
			t.Errorf("%s[%d] = %v, want %v (field %v)", name, i, v, want[i], nonZero(got))
		}
	}
}

func nonZero(v []float32) map[int]float32 {
	m := map[int]float32{}
	for i, x := range v {
		if x != 0 {
			m[i] = x
		}
	}
	return m
}

// cardsAt returns the one-hot entries of cards in a block of 52 starting
// at base.
func cardsAt(base int, cards string) map[int]float32 {
	m := map[int]float32{}
	for _, c := range strings.Fields(cards) {
		m[base+idx(c)] = 1
	}
	return m
}

func merge(ms ...map[int]float32) map[int]float32 {
	out := map[int]float32{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// TestEncodingLayout: the layout checks out for every table, depends only
// on the options, and has the documented sizes.
func TestEncodingLayout(t *testing.T) {
	for _, o := range encTables() {
		t.Run(encName(o), func(t *testing.T) {
			s := startEnc(t, o, 1)
			e := s.Encoding()
			if err := e.Check(); err != nil {
				t.Fatal(err)
			}
			for _, f := range e.Fields {
				if f.Doc == "" {
					t.Errorf("field %q has no doc", f.Name)
				}
			}
			if e.ActionDoc == "" {
				t.Error("no ActionDoc")
			}
			want60 := map[int]int{2: 480}
			switch {
			case o["edition"] == "1862":
				if e.Size != 512 || e.Actions != 388 {
					t.Errorf("1862: size %d actions %d, want 512 and 388", e.Size, e.Actions)
				}
			case want60[o["players"].(int)] != 0:
				if w := want60[o["players"].(int)]; e.Size != w || e.Actions != 105 {
					t.Errorf("size %d actions %d, want %d and 105", e.Size, e.Actions, w)
				}
			default:
				if e.Actions != 105 {
					t.Errorf("actions %d, want 105", e.Actions)
				}
			}
			// The layout is the same after play.
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]game.Move, 0, 64)
			for i := 0; i < 150 && s.ToAct() != 0; i++ {
				seat := s.ToAct().First()
				buf = s.Legal(seat, buf[:0])
				s.ApplyFast(seat, buf[rng.IntN(len(buf))])
			}
			if e2 := s.Encoding(); !reflect.DeepEqual(e, e2) {
				t.Errorf("the layout changed with the position")
			}
			// Encoding returns a copy: changing it changes nothing.
			e.Fields[0].Name = "x"
			if s.Encoding().Fields[0].Name == "x" {
				t.Error("Encoding shares its fields")
			}
		})
	}
}

// TestEncodeKnownPosition1860 checks named fields in a hand-played 1860
// trick (Rulings T003-3: Trio with the Lead beats Sequence of 4).
func TestEncodeKnownPosition1860(t *testing.T) {
	m := newMatch(t, two, layout2("9D 9S 2H 4C 5C 6C", "10C JD QS 4D 5D 6D", "9C"))
	m.do("0: play 9D", "1: play 10C", "0: play 9S", "1: play JD", "0: play 2H")
	s := m.st
	// Seat 1 (the dealer) to play; seat 0 is first-hand and has played 3.
	o1 := gametest.Observe(s, 1)
	wantField(t, s, o1, "phase", map[int]float32{0: 1})
	wantField(t, s, o1, "deal", map[int]float32{0: 1})
	wantField(t, s, o1, "target", map[int]float32{0: 50})
	wantField(t, s, o1, "stock", map[int]float32{0: 39})
	wantField(t, s, o1, "hand", cardsAt(0, "QS 4D 5D 6D"))
	wantField(t, s, o1, "lead", cardsAt(0, "9C"))
	wantField(t, s, o1, "turn", map[int]float32{0: 1})
	wantField(t, s, o1, "dealer", map[int]float32{0: 1})
	wantField(t, s, o1, "first_hand", map[int]float32{1: 1})
	wantField(t, s, o1, "leader", map[int]float32{1: 1})
	wantField(t, s, o1, "winner", nil)
	wantField(t, s, o1, "hand_size", map[int]float32{0: 4, 1: 3})
	wantField(t, s, o1, "played", merge(cardsAt(0, "10C JD"), cardsAt(52, "9D 9S 2H")))
	wantField(t, s, o1, "played_count", map[int]float32{0: 2, 1: 3})
	wantField(t, s, o1, "line", nil)
	wantField(t, s, o1, "totals", nil)
	// Seat 0 sees the same table from its side.
	o0 := gametest.Observe(s, 0)
	wantField(t, s, o0, "hand", cardsAt(0, "4C 5C 6C"))
	wantField(t, s, o0, "turn", map[int]float32{1: 1})
	wantField(t, s, o0, "played", merge(cardsAt(0, "9D 9S 2H"), cardsAt(52, "10C JD")))
	wantField(t, s, o0, "hand_size", map[int]float32{0: 3, 1: 4})

	// Seat 1 may play (no resigning: seat 0 has played 3).
	for _, mv := range s.Legal(1, nil) {
		c, _ := cc.PlayedCard(mv)
		if id := s.(game.Encoder).ActionID(1, mv); id != idx(c.String()) {
			t.Errorf("%s: id %d, want %d", s.FormatMove(mv), id, idx(c.String()))
		}
	}

	m.do("1: play QS")
	o0 = gametest.Observe(s, 0)
	wantField(t, s, o0, "phase", map[int]float32{2: 1})
	wantField(t, s, o0, "winner", map[int]float32{0: 1})
	// Class A Trio (3 cards) is entry 7, class A Sequence of 4 entry 6.
	wantField(t, s, o0, "line", map[int]float32{7: 1, 16 + 6: 1})
	o1 = gametest.Observe(s, 1)
	wantField(t, s, o1, "line", map[int]float32{6: 1, 16 + 7: 1})
	wantField(t, s, o1, "winner", map[int]float32{1: 1})
	enc := s.(game.Encoder)
	for _, mv := range s.Legal(0, nil) {
		c, _ := cc.LeadCard(mv)
		if id := enc.ActionID(0, mv); id != 52+idx(c.String()) {
			t.Errorf("%s: id %d, want %d", s.FormatMove(mv), id, 52+idx(c.String()))
		}
	}

	m.do("0: lead 9D")
	o1 = gametest.Observe(s, 1)
	// Seat 0 won face up the five other cards and the old Lead: 6 x 2, the
	// 2H +1, JD and QS +1 each: 15 marks.
	wantField(t, s, o1, "won_up", cardsAt(52, "9S 2H 10C JD QS 9C"))
	wantField(t, s, o1, "won_down", nil)
	wantField(t, s, o1, "marks", map[int]float32{1: 15})
	wantField(t, s, o1, "deal_points", map[int]float32{1: 15})
	wantField(t, s, o1, "tricks", map[int]float32{1: 1})
	wantField(t, s, o1, "lead", cardsAt(0, "9D"))
	wantField(t, s, o1, "stock", map[int]float32{0: 33})
	wantField(t, s, o1, "phase", map[int]float32{0: 1})
	wantField(t, s, o1, "played", nil)
	wantField(t, s, o1, "line", nil)
}

// TestEncodeKnownPosition1862 checks the face-down No. 5, the take and its
// action ids in a hand-played 1862 trick.
func TestEncodeKnownPosition1862(t *testing.T) {
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	m.do("0: play AS", "1: play KH", "0: play 4D", "1: play 6C", "0: play 9C")
	s := m.st
	o0, o1 := gametest.Observe(s, 0), gametest.Observe(s, 1)
	wantField(t, s, o0, "no5_face_down", map[int]float32{0: 1})
	wantField(t, s, o1, "no5_face_down", map[int]float32{0: 1})
	wantField(t, s, o0, "played", merge(cardsAt(0, "AS 4D 9C"), cardsAt(52, "KH 6C")))
	wantField(t, s, o1, "played", merge(cardsAt(0, "KH 6C"), cardsAt(52, "AS 4D"))) // not 9C
	wantField(t, s, o1, "played_count", map[int]float32{0: 2, 1: 3})
	wantField(t, s, o1, "hand", cardsAt(0, "2D 10D 10C 7C"))
	wantField(t, s, o1, "stock", map[int]float32{0: 39})
	wantField(t, s, o1, "trick_lead", cardsAt(0, "7S"))
	wantField(t, s, o1, "hits", nil)

	m.do("1: play 2D") // No. 6: No. 5 turns up; AS wins on cards, take 1
	o1 = gametest.Observe(s, 1)
	wantField(t, s, o1, "played", merge(cardsAt(0, "KH 6C 2D"), cardsAt(52, "AS 4D 9C")))
	wantField(t, s, o1, "no5_face_down", nil)
	wantField(t, s, o1, "phase", map[int]float32{1: 1})
	wantField(t, s, o1, "take", map[int]float32{0: 1})
	wantField(t, s, o1, "winner", map[int]float32{1: 1})
	wantField(t, s, o1, "line", map[int]float32{0: 1, 7: 1}) // no line either side
	enc := s.(game.Encoder)
	want := map[string]int{
		"take 7S": 260 + 1, "take AS": 260 + 1<<1, "take 4D": 260 + 1<<2, "take 9C": 260 + 1<<3,
		"take KH": 260 + 1<<4, "take 6C": 260 + 1<<5, "take 2D": 260 + 1<<6,
	}
	legal := s.Legal(0, nil)
	if len(legal) != len(want) {
		t.Fatalf("legal %q", game.LegalText(s, 0))
	}
	for _, mv := range legal {
		if id := enc.ActionID(0, mv); id != want[s.FormatMove(mv)] {
			t.Errorf("%s: id %d, want %d", s.FormatMove(mv), id, want[s.FormatMove(mv)])
		}
	}
	m.do("0: take AS")
	o1 = gametest.Observe(s, 1)
	wantField(t, s, o1, "won", cardsAt(52, "AS"))
	wantField(t, s, o1, "phase", map[int]float32{2: 1})
	wantField(t, s, o1, "played", merge(cardsAt(0, "KH 6C 2D"), cardsAt(52, "4D 9C")))
	// 1 trick to 0, 1 card to 0 (2 points), 1 court card (the Ace) to 0 (1).
	wantField(t, s, o1, "deal_points", map[int]float32{1: 3})
	m.do("0: lead 7S")
	o1 = gametest.Observe(s, 1)
	wantField(t, s, o1, "set_aside", cardsAt(0, "4D 9C KH 6C 2D"))
	wantField(t, s, o1, "lead", cardsAt(0, "7S"))
}

// TestEncodeSharedSwapIDs: in the 1862 last trick every "play C for D"
// has its own id, from C's place in the shared row and D.
func TestEncodeSharedSwapIDs(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		s := startEnc(t, map[string]any{"edition": "1862"}, seed)
		buf := make([]game.Move, 0, 64)
		for s.View(game.Spectator).(cc.View).Shared == nil {
			seat := s.ToAct().First()
			buf = s.Legal(seat, buf[:0])
			s.ApplyFast(seat, buf[0])
		}
		seat := s.ToAct().First()
		shared := s.View(seat).(cc.View).Shared
		n := 0
		for _, mv := range s.Legal(seat, nil) {
			text := s.FormatMove(mv)
			var c, d string
			if _, err := fmt.Sscanf(text, "play %s for %s", &c, &d); err != nil {
				continue
			}
			slot := slices.Index(shared, card.MustParse(c))
			if id := s.ActionID(seat, mv); id != 104+52*slot+idx(d) {
				t.Errorf("seed %d: %s: id %d, want %d", seed, text, id, 104+52*slot+idx(d))
			}
			n++
		}
		if n != 9 {
			t.Errorf("seed %d: %d swaps, want 9", seed, n)
		}
	}
}

// playRandom plays random legal moves, calling f before each.
func playRandom(s *cc.State, rng *rand.Rand, moves int, f func(seat int, legal []game.Move)) {
	buf := make([]game.Move, 0, 64)
	for i := 0; i < moves && s.ToAct() != 0; i++ {
		seat := s.ToAct().First()
		buf = s.Legal(seat, buf[:0])
		f(seat, buf)
		s.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
}

// TestActionIDInjective: the legal moves of the seat to act have distinct
// ids in range, over many random positions; and an id always stands for
// the same kind of move.
func TestActionIDInjective(t *testing.T) {
	for _, o := range encTables() {
		t.Run(encName(o), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			positions := 0
			seen := map[int]bool{}
			for seed := uint64(0); seed < 30; seed++ {
				s := startEnc(t, o, seed)
				e := s.Encoding()
				playRandom(s, rng, 1000, func(seat int, legal []game.Move) {
					positions++
					ids := map[int]string{}
					for _, mv := range legal {
						id := s.ActionID(seat, mv)
						text := s.FormatMove(mv)
						if id < 0 || id >= e.Actions {
							t.Fatalf("%s: id %d outside 0-%d", text, id, e.Actions-1)
						}
						if other, dup := ids[id]; dup {
							t.Fatalf("%q and %q share id %d", other, text, id)
						}
						ids[id] = text
						seen[id] = true
						verb := strings.Fields(text)[0]
						if strings.Contains(text, " for ") {
							verb = "swap"
						}
						var lo, hi int
						switch verb {
						case "play":
							lo, hi = 0, 52
						case "lead":
							lo, hi = 52, 104
						case "resign":
							lo, hi = 104, 105
						case "swap":
							lo, hi = 104, 260
						case "take":
							lo, hi = 260, 388
						}
						if id < lo || id >= hi {
							t.Fatalf("%q: id %d outside its range %d-%d", text, id, lo, hi-1)
						}
					}
				})
			}
			t.Logf("%d positions, %d of %d ids used", positions, len(seen), s0Actions(t, o))
		})
	}
}

func s0Actions(t *testing.T, o map[string]any) int { return startEnc(t, o, 0).Encoding().Actions }

// TestObserveNoAllocs: Observe and ActionID do not allocate.
func TestObserveNoAllocs(t *testing.T) {
	for _, o := range encTables() {
		s := startEnc(t, o, 3)
		rng := rand.New(rand.NewPCG(3, 4))
		playRandom(s, rng, 17, func(int, []game.Move) {})
		obs := make([]float32, s.Encoding().Size)
		legal := s.Legal(s.ToAct().First(), nil)
		for seat := 0; seat < s.Players(); seat++ {
			if a := testing.AllocsPerRun(100, func() { s.Observe(seat, obs) }); a != 0 {
				t.Errorf("%s: Observe(%d) allocates %v times", encName(o), seat, a)
			}
		}
		seat := s.ToAct().First()
		if a := testing.AllocsPerRun(100, func() {
			for _, mv := range legal {
				s.ActionID(seat, mv)
			}
		}); a != 0 {
			t.Errorf("%s: ActionID allocates %v times", encName(o), a)
		}
	}
}

// TestObserveOverwrites: Observe sets every entry, whatever obs held.
func TestObserveOverwrites(t *testing.T) {
	for _, o := range encTables() {
		s := startEnc(t, o, 5)
		a, b := make([]float32, s.Encoding().Size), make([]float32, s.Encoding().Size)
		for i := range b {
			b[i] = 7
		}
		s.Observe(0, a)
		s.Observe(0, b)
		if !slices.Equal(a, b) {
			t.Errorf("%s: Observe leaves entries of obs as they were", encName(o))
		}
	}
}

// TestEncodeHiddenInformation: what a seat cannot see (other hands, the
// stock, the other player's face-down No. 5) does not change its
// encoding; its own hand does.
func TestEncodeHiddenInformation(t *testing.T) {
	// Determinisations, at random positions of every table.
	for _, o := range encTables() {
		rng := rand.New(rand.NewPCG(11, 12))
		for seed := uint64(0); seed < 5; seed++ {
			s := startEnc(t, o, seed)
			playRandom(s, rng, 400, func(int, []game.Move) {
				for seat := 0; seat < s.Players(); seat++ {
					d := s.Determinize(seat, rng)
					if !slices.Equal(gametest.Observe(s, seat), gametest.Observe(d, seat)) {
						t.Fatalf("%s: a determinisation for seat %d encodes differently for it", encName(o), seat)
					}
				}
			})
		}
	}

	// Two deals that differ only in one of seat 1's cards (6D or 7D, the
	// other lying in the stock): seat 0 cannot tell them apart, seat 1
	// can.
	a := newMatch(t, two, layout2("9D 9S 2H 4C 5C 6C", "10C JD QS 4D 5D 6D", "9C")).st
	b := newMatch(t, two, layout2("9D 9S 2H 4C 5C 6C", "10C JD QS 4D 5D 7D", "9C")).st
	if !slices.Equal(gametest.Observe(a, 0), gametest.Observe(b, 0)) {
		t.Error("seat 0's encoding depends on seat 1's hand")
	}
	if slices.Equal(gametest.Observe(a, 1), gametest.Observe(b, 1)) {
		t.Error("seat 1's encoding does not show its own hand")
	}

	// 1862: while No. 5 lies face down, redealing it leaves seat 1's
	// encoding alone and changes seat 0's (who played it).
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	m.do("0: play AS", "1: play KH", "0: play 4D", "1: play 6C", "0: play 9C")
	s := m.st.(*cc.State)
	rng := rand.New(rand.NewPCG(1, 1))
	changed := false
	for range 50 {
		d := s.Determinize(1, rng).(*cc.State)
		if d.Played(0)[2] == s.Played(0)[2] {
			continue
		}
		changed = true
		if !slices.Equal(gametest.Observe(s, 1), gametest.Observe(d, 1)) {
			t.Fatal("seat 1's encoding shows the face-down No. 5")
		}
		if slices.Equal(gametest.Observe(s, 0), gametest.Observe(d, 0)) {
			t.Fatal("seat 0's encoding does not show its own No. 5")
		}
	}
	if !changed {
		t.Fatal("no determinisation redealt No. 5")
	}
}
