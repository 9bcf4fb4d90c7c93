package tractric

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

func cards(t *testing.T, text string) []card.Card {
	t.Helper()
	cs, err := card.ParseList(text)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func newState(t *testing.T, n int, dealer int) *State {
	t.Helper()
	opts, err := game.Resolve(Game{}, map[string]any{"players": n, "dealer": dealer})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game{}.New(opts, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// The grid of the rulings' examples: value v at cell cellOf[v].
var testGrid = [9]int8{8, 1, 6, 3, 0, 7, 4, 2, 5}

func cellOfValue(grid [9]int8, v int) int {
	for i, g := range grid {
		if int(g) == v {
			return i
		}
	}
	return -1
}

func TestT001_1_Trump3(t *testing.T) {
	for _, tc := range []struct {
		cards string
		want  int
	}{
		{"7S KS 9H", int(card.Spades)},
		{"7S KH 9D", int(card.Clubs)},
		{"7S 7H 9D", NoTrump},
		{"7S KS 7H", NoTrump}, // Ruling 1: the rank rule comes first
		{"AD KD QD", int(card.Diamonds)},
		{"6C 8H 10C", int(card.Clubs)},
		{"6H 8C 10C", int(card.Clubs)},
		{"JS QH KC", int(card.Diamonds)},
		{"9S 9H 9D", NoTrump},
	} {
		cs := cards(t, tc.cards)
		if got := Trump3(cs[0], cs[1], cs[2]); got != tc.want {
			t.Errorf("Trump3(%s) = %d, want %d", tc.cards, got, tc.want)
		}
	}
}

func TestT001_2_Trump4(t *testing.T) {
	for _, tc := range []struct {
		cards string
		want  int
	}{
		{"7S KS 9H 2D", int(card.Spades)},
		{"7S KS 9S 2H", int(card.Spades)},
		{"7S KS 9H 2H", NoTrump},
		{"7S KH 9D 2C", NoTrump},
		{"7S 8S 9S 10S", int(card.Spades)},
		{"7H 7S 7D 2H", int(card.Hearts)}, // Ruling 11: no rank rule with 4 players
		{"3C 3D 4D 5H", int(card.Diamonds)},
	} {
		cs := cards(t, tc.cards)
		if got := Trump4([4]card.Card(cs)); got != tc.want {
			t.Errorf("Trump4(%s) = %d, want %d", tc.cards, got, tc.want)
		}
	}
}

// resolve sets up a state at the end of a hand with the given board
// (colour per cell, -1 empty) and tricks, and resolves the counters.
func resolve(t *testing.T, n int, board [9]int8, tricks []int8, lastTaker int) [9]int8 {
	t.Helper()
	s := newState(t, n, 0)
	s.grid = testGrid
	s.board = board
	for i := range s.since {
		if board[i] >= 0 {
			s.seq++
			s.since[i] = s.seq
		}
	}
	copy(s.tricks[:], tricks)
	s.lastTaker = lastTaker
	s.placeCounters()
	return s.board
}

// boardOf builds a board from value->colour pairs on testGrid.
func boardOf(holds map[int]int8) [9]int8 {
	b := [9]int8{-1, -1, -1, -1, -1, -1, -1, -1, -1}
	for v, c := range holds {
		b[cellOfValue(testGrid, v)] = c
	}
	return b
}

func TestT001_4_Placement3p(t *testing.T) {
	const A, B, C = 0, 1, 2
	for _, tc := range []struct {
		name   string
		before map[int]int8
		tricks []int8
		last   int
		after  map[int]int8
	}{
		{"5-5-2, card 5 empty: stays empty", nil, []int8{5, 5, 2}, A, map[int]int8{2: C}},
		{"5-5-2, card 5 held by C: stays C's", map[int]int8{5: C}, []int8{5, 5, 2}, A, map[int]int8{5: C, 2: C}},
		{"5-5-2, card 2 held by A: C displaces A", map[int]int8{2: A}, []int8{5, 5, 2}, A, map[int]int8{2: C}},
		{"5-5-2, card 2 held by C: nothing", map[int]int8{2: C}, []int8{5, 5, 2}, A, map[int]int8{2: C}},
		{"Ruling 5: card 5 held by a tied player stays", map[int]int8{5: A}, []int8{5, 5, 2}, A, map[int]int8{5: A, 2: C}},
		{"4-4-4, A took the last trick: A displaces B on 4", map[int]int8{4: B}, []int8{4, 4, 4}, A, map[int]int8{4: A}},
		{"4-4-4, A took the last trick: A keeps 4", map[int]int8{4: A}, []int8{4, 4, 4}, A, map[int]int8{4: A}},
		{"4-4-4 on an empty card 4", nil, []int8{4, 4, 4}, C, map[int]int8{4: C}},
		{"single placements, each on its own card", map[int]int8{8: B}, []int8{0, 4, 8}, A, map[int]int8{0: A, 4: B, 8: C}},
		{"three-way tie cannot happen but 6-6-0 does", map[int]int8{6: C, 0: B}, []int8{6, 6, 0}, A, map[int]int8{6: C, 0: C}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resolve(t, 3, boardOf(tc.before), tc.tricks, tc.last)
			if want := boardOf(tc.after); got != want {
				t.Errorf("board %v, want %v", got, want)
			}
		})
	}
}

func TestT001_6_Partners4p(t *testing.T) {
	const NS, EW = 0, 1 // seats 0 and 2; seats 1 and 3
	for _, tc := range []struct {
		name   string
		before map[int]int8
		tricks []int8 // by seat 0 (N) 1 (E) 2 (S) 3 (W)
		after  map[int]int8
	}{
		{"N and S both 3, N/S holds 3: removed", map[int]int8{3: NS}, []int8{3, 5, 3, 2}, map[int]int8{5: EW, 2: EW}},
		{"N and S both 3, card 3 empty: one counter placed", nil, []int8{3, 5, 3, 2}, map[int]int8{3: NS, 5: EW, 2: EW}},
		{"N and S both 3, E/W holds 3: displaced", map[int]int8{3: EW}, []int8{3, 5, 3, 2}, map[int]int8{3: NS, 5: EW, 2: EW}},
		{"N and E both 3: a tie between sides leaves it", map[int]int8{3: EW}, []int8{3, 3, 4, 3}, map[int]int8{3: EW, 4: NS}},
		{"N, E and W on 3: still a tie", nil, []int8{3, 3, 4, 3}, map[int]int8{4: NS}},
		{"each partner on its own card: two counters", nil, []int8{6, 0, 7, 0}, map[int]int8{6: NS, 7: NS, 0: EW}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resolve(t, 4, boardOf(tc.before), tc.tricks, 0)
			if want := boardOf(tc.after); got != want {
				t.Errorf("board %v, want %v", got, want)
			}
		})
	}
}

func TestRuling6_SupplyExhaustedMovesOldest(t *testing.T) {
	s := newState(t, 4, 0)
	s.grid = testGrid
	s.board = boardOf(nil)
	// Side 0 has all six counters out, on every card but the 8-0-5
	// diagonal (cells 0, 4, 8): placed in value order 1, 3, 2, 6, 7, 4.
	for _, v := range []int{1, 3, 2, 6, 7, 4} {
		s.place(0, cellOfValue(testGrid, v))
	}
	if r := s.View(0).(View).Reserve; r[0] != 0 || r[1] != 6 {
		t.Fatalf("reserve %v, want [0 6]", r)
	}
	// N takes 8, S takes 5: two placements with no counter in reserve.
	s.tricks = [MaxPlayers]int8{8, 0, 5, 0}
	s.placeCounters()
	// 0 and 0 (E, W) tie: both partners on Q, empty -> one E/W counter.
	want := boardOf(map[int]int8{2: 0, 6: 0, 7: 0, 4: 0, 8: 0, 5: 0, 0: 1})
	if s.board != want {
		t.Errorf("board %v, want %v (the counters on 1 and 3, the oldest, moved to 5 and 8)", s.board, want)
	}
	n := 0
	for _, b := range s.board {
		if b == 0 {
			n++
		}
	}
	if n != Counters {
		t.Errorf("side 0 has %d counters on the board, want %d", n, Counters)
	}
}

func TestT001_5_PhotoCaptionLines(t *testing.T) {
	// Case A: Yellow (0) holds 3 and 4 in a column with the 5; Blue (2)
	// holds A and 6 opposite each other through the Q. Yellow takes 5 and
	// Blue 0: both complete lines, Yellow wins 12 to 7.
	gridA := [9]int8{3, 1, 2, 4, 0, 7, 5, 6, 8}
	boardA := [9]int8{0, 2, -1, 0, 2, -1, 0, 2, -1}
	if y, b := BestLine(boardA, gridA, 0), BestLine(boardA, gridA, 2); y != 12 || b != 7 {
		t.Errorf("case A lines: Yellow %d, Blue %d; want 12 and 7", y, b)
	}
	if w := LineWinner(boardA, gridA, 3); w != 0 {
		t.Errorf("case A winner %d, want Yellow (0)", w)
	}
	// Case B: Red (1) completes 4+Q+3 = 7 while Blue (2) completes
	// 5+7+A = 13: Blue wins 13 to 7. (In the caption Red completes its 7 by
	// taking 2 tricks; with Blue on 1 that would leave Yellow 9 tricks, which
	// the give-away forbids, so the script test has Red take 3.)
	gridB := [9]int8{5, 4, 2, 7, 0, 6, 1, 3, 8}
	boardB := [9]int8{2, 1, -1, 2, 1, -1, 2, 1, 0}
	if r, b := BestLine(boardB, gridB, 1), BestLine(boardB, gridB, 2); r != 7 || b != 13 {
		t.Errorf("case B lines: Red %d, Blue %d; want 7 and 13", r, b)
	}
	if w := LineWinner(boardB, gridB, 3); w != 2 {
		t.Errorf("case B winner %d, want Blue (2)", w)
	}
}

func TestRuling9_EqualLinesNobodyWins(t *testing.T) {
	// Rows 0 and 2 both total 12: 8 A 3 / . Q . / 4 2 6 -> 12 and 12.
	grid := [9]int8{8, 1, 3, 5, 0, 7, 4, 2, 6}
	board := [9]int8{0, 0, 0, -1, -1, -1, 1, 1, 1}
	if w := LineWinner(board, grid, 3); w != -1 {
		t.Errorf("equal best lines: winner %d, want none", w)
	}
	// A colour's best line counts: colour 1 also holds column 2 (3 7 6 = 16).
	board = [9]int8{0, 0, 1, -1, -1, 1, 1, 1, 1}
	if w := LineWinner(board, grid, 3); w != 1 {
		t.Errorf("winner %d, want 1 (best line 16 beats 12)", w)
	}
	if w := LineWinner(boardOf(nil), grid, 3); w != -1 {
		t.Errorf("empty board: winner %d", w)
	}
}

// play applies moves in notation, failing the test on a refusal.
func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	gametest.Play(t, s, moves...)
}

// refuse checks that line is refused, saying reason, and changes nothing.
func refuse(t *testing.T, s *State, line, reason string) {
	t.Helper()
	seat, m, err := game.ParseSeatMove(s, line)
	if err == nil {
		before := *s
		err = game.Apply(s, seat, m)
		if s.hands != before.hands || s.phase != before.phase || s.turn != before.turn || s.chosen != before.chosen {
			t.Errorf("%s: the refusal changed the state", line)
		}
	}
	if err == nil {
		t.Fatalf("%s was accepted, want a refusal (%s)", line, reason)
	}
	if !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrBadMove) {
		t.Errorf("%s: %v does not match ErrIllegalMove", line, err)
	}
	if !strings.Contains(err.Error(), reason) {
		t.Errorf("%s refused with %q, want it to say %q", line, err, reason)
	}
}

// spec example hands: seat 1 holds nine spades and wins the first nine tricks.
func giveState(t *testing.T) *State {
	t.Helper()
	opts, _ := game.Resolve(Game{}, map[string]any{"players": 3, "dealer": 0})
	l := game.Layout{
		"hands": []byte(`[["6D","7D","8D","9D","10D","JD","QD","KD","AD","KC","QC","JC"],
			["6S","7S","8S","9S","10S","JS","QS","KS","AS","6C","7C","8C"],
			["6H","7H","8H","9H","10H","JH","QH","KH","AH","AC","9C","10C"]]`),
		"grid": []byte(`["8","A","6","3","Q","7","4","2","5"]`),
	}
	st, err := Game{}.New(opts, 0, []game.Layout{l})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	play(t, s, "1: propose 7S", "2: propose 7H", "0: propose KD")
	for _, sp := range []string{"AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"} {
		// The others cannot follow: each throws a club while it has one.
		var c2, c0 card.Card
		for _, c := range s.Hand(2) {
			if c2 == card.None || c.Suit() == card.Clubs && c2.Suit() != card.Clubs {
				c2 = c
			}
		}
		for _, c := range s.Hand(0) {
			if c0 == card.None || c.Suit() == card.Clubs && c0.Suit() != card.Clubs {
				c0 = c
			}
		}
		play(t, s, "1: play "+sp, "2: play "+c2.String(), "0: play "+c0.String())
	}
	return s
}

func TestT001_3_GiveAwayBeyondEight(t *testing.T) {
	s := giveState(t)
	if s.phase != phaseGive || s.ToAct() != game.SeatsOf(1) {
		t.Fatalf("after nine spade tricks: phase %d, to act %v; want seat 1 to give", s.phase, s.ToAct())
	}
	if got := s.Tricks(); got[1] != 8 {
		t.Fatalf("tricks %v, want seat 1 on 8 before the gift", got)
	}
	refuse(t, s, "1: give 1", "yourself")
	refuse(t, s, "1: play 6C", "give")
	refuse(t, s, "0: give 2", "may not act")
	play(t, s, "1: give 0")
	if got := s.Tricks(); got[0] != 1 || got[1] != 8 || got[2] != 0 {
		t.Errorf("tricks %v, want [1 8 0]", got)
	}
	if s.ToAct() != game.SeatsOf(0) || s.phase != phasePlay {
		t.Errorf("to act %v, want the receiver (0) to lead trick 10", s.ToAct())
	}
	refuse(t, s, "0: give 2", "no trick to give")
}

func TestRuling2_ProposalsStayInHandAndArePublic(t *testing.T) {
	s := newState(t, 3, 0)
	h := [3]card.Card{s.Hand(0)[0], s.Hand(1)[0], s.Hand(2)[0]}
	play(t, s, "0: propose "+h[0].String())
	v1 := s.View(1).(View)
	if v1.Proposals[0] != card.None || !v1.Proposed[0] {
		t.Errorf("seat 1 sees seat 0's pending proposal: %v (proposed %v)", v1.Proposals, v1.Proposed)
	}
	if v0 := s.View(0).(View); v0.Proposals[0] != h[0] {
		t.Errorf("seat 0 does not see its own proposal: %v", v0.Proposals)
	}
	refuse(t, s, "0: propose "+s.Hand(0)[1].String(), "already proposed")
	play(t, s, "1: propose "+h[1].String(), "2: propose "+h[2].String())
	for seat := range 3 {
		if n := len(s.Hand(seat)); n != 12 {
			t.Errorf("seat %d holds %d cards after the reveal, want 12", seat, n)
		}
		if p := s.View((seat + 1) % 3).(View).Proposals[seat]; p != h[seat] {
			t.Errorf("seat %d's proposal %v is not public after the reveal (got %v)", seat, h[seat], p)
		}
	}
}

func TestRuling3_FirstLeadFromDealersLeft(t *testing.T) {
	for dealer := range 4 {
		n := 3 + dealer%2
		if dealer >= n {
			continue
		}
		s := newState(t, n, dealer)
		for seat := 0; seat < n; seat++ {
			play(t, s, string(rune('0'+seat))+": propose "+s.Hand(seat)[0].String())
		}
		if want := (dealer + 1) % n; s.ToAct() != game.SeatsOf(want) {
			t.Errorf("%d players, dealer %d: to act %v, want %d", n, dealer, s.ToAct(), want)
		}
	}
}

func TestFollowSuitAndVoids(t *testing.T) {
	s := giveState(t)
	// Seat 2 and seat 0 showed out of spades on trick 1.
	if s.void[2]&(1<<card.Spades) == 0 || s.void[0]&(1<<card.Spades) == 0 {
		t.Errorf("voids %v: seats 0 and 2 should be known void in spades", s.void)
	}
	if s.void[1] != 0 {
		t.Errorf("seat 1 never showed out, voids %b", s.void[1])
	}
}

func TestRevokeRefused(t *testing.T) {
	s := newState(t, 3, 0)
	l := game.Layout{"hands": []byte(`[["6D","7D","8D","9D","10D","JD","QD","KD","AD","KC","QC","JC"],
		["6S","7S","8S","9S","10S","JS","QS","KS","AS","6C","7C","8C"],
		["6H","7H","8H","9H","10H","JH","QH","KH","AH","AC","9C","10C"]]`)}
	opts, _ := game.Resolve(Game{}, map[string]any{"players": 3, "dealer": 0})
	st, _ := Game{}.New(opts, 0, []game.Layout{l})
	s = st.(*State)
	refuse(t, s, "1: play 6C", "propose")
	refuse(t, s, "1: propose 6H", "do not hold 6H")
	refuse(t, s, "1: propose 2S", "not in the 36-card pack")
	play(t, s, "0: propose 6D", "1: propose 7S", "2: propose 8H")
	// Trump: three suits D S H -> clubs.
	if s.trump != int8(card.Clubs) {
		t.Fatalf("trump %d, want clubs", s.trump)
	}
	refuse(t, s, "0: play 6D", "may not act")
	play(t, s, "1: play 6C")
	refuse(t, s, "2: play 6H", "must follow suit")
	play(t, s, "2: play AC", "0: play KC")
	if s.ToAct() != game.SeatsOf(2) {
		t.Errorf("AC wins the trick: to act %v, want 2", s.ToAct())
	}
	// 2 leads a heart; 0 has no heart and trumps with QC; 1 discards.
	play(t, s, "2: play AH", "0: play QC", "1: play 6S")
	if s.ToAct() != game.SeatsOf(0) {
		t.Errorf("QC trumps AH: to act %v, want 0", s.ToAct())
	}
}

func TestDeterminizeKeepsVoidsAndRevealedProposals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{3, 4} {
		for seed := uint64(0); seed < 300; seed++ {
			opts, _ := game.Resolve(Game{}, map[string]any{"players": n})
			st, _ := Game{}.New(opts, seed, nil)
			s := st.(*State)
			steps := rng.IntN(3 * s.hand * n / 2)
			for i := 0; i < steps && s.phase != phaseOver; i++ {
				acts := s.ToAct()
				seat := acts.Nth(rng.IntN(acts.Len()))
				legal := s.Legal(seat, nil)
				s.ApplyFast(seat, legal[rng.IntN(len(legal))])
			}
			for seat := range n {
				d := s.Determinize(seat, rng).(*State)
				if d.hands[seat] != s.hands[seat] {
					t.Fatalf("seat %d's own hand changed", seat)
				}
				for j := range n {
					if d.hands[j].Len() != s.hands[j].Len() {
						t.Fatalf("seat %d's hand size changed", j)
					}
					for su := range 4 {
						if s.void[j]&(1<<su) != 0 && d.hands[j]&suitMask[su] != 0 {
							t.Fatalf("n=%d seed %d: seat %d is known void in %v but got %v",
								n, seed, j, card.Suit(su), d.Hand(j))
						}
					}
					if rev := s.revealed(j); d.hands[j]&rev != rev {
						t.Fatalf("seat %d lost its revealed proposal card", j)
					}
				}
			}
		}
	}
}

// TestDeterminizeTightVoids forces a position where the voids leave only one
// way to deal the unseen cards and checks it is always found.
func TestDeterminizeTightVoids(t *testing.T) {
	s := newState(t, 3, 0)
	s.phase = phasePlay
	s.hands[0] = card.SetOf(cards(t, "6S 7S 8S")...)
	s.hands[1] = card.SetOf(cards(t, "6H 7H 9S")...)
	s.hands[2] = card.SetOf(cards(t, "6D 7D 8H")...)
	s.void[1] = 1<<card.Diamonds | 1<<card.Clubs
	s.void[2] = 1<<card.Spades | 1<<card.Clubs
	s.proposal = [MaxPlayers]card.Card{}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		d := s.Determinize(0, rng).(*State)
		if d.hands[2]&suitMask[card.Diamonds] != s.hands[2]&suitMask[card.Diamonds] || d.hands[1].Has(card.MustParse("6D")) {
			t.Fatalf("diamonds must all stay with seat 2: %v / %v", d.Hand(1), d.Hand(2))
		}
		if !d.hands[1].Has(card.MustParse("9S")) {
			t.Fatalf("the spade must go to seat 1: %v", d.Hand(1))
		}
	}
}

func TestDeterminizeResamplesPendingProposals(t *testing.T) {
	s := newState(t, 3, 0)
	play(t, s, "1: propose "+s.Hand(1)[0].String())
	rng := rand.New(rand.NewPCG(5, 6))
	diff := 0
	for range 50 {
		d := s.Determinize(0, rng).(*State)
		if !d.hands[1].Has(d.proposal[1]) {
			t.Fatalf("seat 1's resampled proposal %v is not in its hand", d.proposal[1])
		}
		if d.proposal[1] != s.proposal[1] {
			diff++
		}
	}
	if diff == 0 {
		t.Error("seat 1's pending proposal was never resampled")
	}
	if d := s.Determinize(1, rng).(*State); d.proposal[1] != s.proposal[1] {
		t.Error("a seat's own proposal changed in its determinisation")
	}
}

func TestLayoutErrors(t *testing.T) {
	opts, _ := game.Resolve(Game{}, map[string]any{"players": 3})
	for _, tc := range []struct {
		name  string
		deals []game.Layout
		want  string
	}{
		{"Q not in the middle", []game.Layout{{"grid": []byte(`["Q","A","2","3","4","5","6","7","8"]`)}}, "middle"},
		{"a value twice", []game.Layout{{"grid": []byte(`["A","A","2","3","Q","5","6","7","8"]`)}}, "twice"},
		{"not a scorecard", []game.Layout{{"grid": []byte(`["9","A","2","3","Q","5","6","7","8"]`)}}, "not a scorecard"},
		{"eight values", []game.Layout{{"grid": []byte(`["A","2","3","Q","5","6","7","8"]`)}}, "9"},
		{"grid in deal 2", []game.Layout{nil, {"grid": []byte(`["8","A","6","3","Q","7","4","2","5"]`)}}, "deal 2"},
		{"grid in deal 3", []game.Layout{nil, nil, {"grid": []byte(`["8","A","6","3","Q","7","4","2","5"]`)}}, "deal 3"},
		{"short hand", []game.Layout{{"hands": []byte(`[["6S"],null,null]`)}}, "12 cards"},
		{"card not in pack", []game.Layout{{"hands": []byte(`[["2S","7S","8S","9S","10S","JS","QS","KS","AS","6C","7C","8C"],null,null]`)}}, "no 2S"},
		{"unknown key", []game.Layout{{"stock": []byte(`[]`)}}, "stock"},
	} {
		_, err := Game{}.New(opts, 0, tc.deals)
		if !errors.Is(err, game.ErrBadLayout) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want a bad layout saying %q", tc.name, err, tc.want)
		}
	}
	// With four players a game can end after two hands: deal 3 may fix a grid.
	opts4, _ := game.Resolve(Game{}, map[string]any{"players": 4})
	if _, err := (Game{}).New(opts4, 0, []game.Layout{nil, nil, {"grid": []byte(`["8","A","6","3","Q","7","4","2","5"]`)}}); err != nil {
		t.Errorf("4 players, grid in deal 3: %v", err)
	}
}

func TestMatchEnds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		winners []int // colour winning each game
		over    int   // game after which the match is over
	}{
		{"two in a row", []int{0, 0}, 2},
		{"two in a row after a loss", []int{1, 0, 0}, 3},
		{"three in all", []int{0, 1, 0, 2, 0}, 5},
		{"alternating", []int{0, 1, 0, 1, 2, 1}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newState(t, 3, 0)
			for i, w := range tc.winners {
				if s.phase == phaseOver {
					t.Fatalf("over after %d games, want %d", i, tc.over)
				}
				// Give colour w a line: the top row.
				s.board = [9]int8{int8(w), int8(w), int8(w), -1, -1, -1, -1, -1, -1}
				// 6 6 0: the tie leaves card 6 (top row) alone, the
				// third player takes the Q in the middle.
				s.tricks = [MaxPlayers]int8{}
				s.tricks[w], s.tricks[(w+1)%3] = 6, 6
				s.grid = testGrid
				s.endHand()
			}
			if s.phase != phaseOver {
				t.Fatalf("not over after %d games", len(tc.winners))
			}
			r := s.Result()
			last := tc.winners[len(tc.winners)-1]
			if len(r.Winners) != 1 || r.Winners[0] != last {
				t.Errorf("winners %v, want [%d]", r.Winners, last)
			}
		})
	}
}

func TestRuling7_NewGameNewGrid(t *testing.T) {
	s := newState(t, 3, 0)
	s.board = [9]int8{0, 0, 0, -1, -1, -1, -1, -1, -1}
	s.endHand()
	if s.gameNo != 1 {
		t.Fatalf("game %d, want 1", s.gameNo+1)
	}
	if s.board != boardOf(nil) {
		t.Errorf("the board is not cleared for game 2: %v", s.board)
	}
	if s.grid[4] != 0 {
		t.Errorf("Q is not in the middle: %v", s.grid)
	}
	if s.dealer != 1 {
		t.Errorf("dealer %d, want 1 (the deal passes left across games)", s.dealer)
	}
}

func TestParseMove(t *testing.T) {
	s := newState(t, 3, 0)
	for _, tc := range []struct {
		text string
		want game.Move
	}{
		{"propose 10H", Propose(card.MustParse("10H"))},
		{"PLAY th", Play(card.MustParse("10H"))},
		{"play Q♠", Play(card.MustParse("QS"))},
		{"give 2", Give(2)},
	} {
		m, err := s.ParseMove(0, tc.text)
		if err != nil || m != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.text, m, err, tc.want)
		}
	}
	for _, text := range []string{"", "give 3", "give x", "play", "play 1H", "lead 6S", "propose 6S 7S"} {
		if _, err := s.ParseMove(0, text); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q): %v, want ErrBadMove", text, err)
		}
	}
	if got := s.FormatMove(Play(card.MustParse("10H"))); got != "play 10H" {
		t.Errorf("FormatMove = %q", got)
	}
}
