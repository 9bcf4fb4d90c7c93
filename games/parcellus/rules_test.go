package parcellus

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"parlour/card"
	"parlour/game"
)

func TestT000_1_SeedExample(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	if got := s.table[0]; got != card.MustParse("JS") || s.turner != 0 {
		t.Fatalf("West should have turned JS, got %v by %d", got, s.turner)
	}
	steps := []struct {
		move    string
		toAct   int
		open    bool // the parcel is still being built
		passesN int
	}{
		{"1: play QC", 2, true, 0},
		{"2: pass", 0, true, 1},
		{"0: play KC", 1, true, 0},
		{"1: pass", 2, true, 1},
		{"2: play AS", 0, true, 0}, // South re-enters after passing
		{"0: pass", 1, true, 1},
		{"1: play 9C", 2, true, 0}, // the A-to-9 wrap
		{"2: play 10C", 0, true, 0},
		{"0: pass", 1, true, 1},
		{"1: pass", 2, true, 2},
		{"2: pass", 0, false, 0}, // the third pass in a row closes it
	}
	for _, st := range steps {
		do(t, s, st.move)
		if got := s.ToAct(); got != game.SeatsOf(st.toAct) {
			t.Fatalf("after %q: to act %v, want %d", st.move, got, st.toAct)
		}
		if open := s.nParcels == 0; open != st.open {
			t.Fatalf("after %q: parcel open %v, want %v", st.move, open, st.open)
		}
		if st.open && s.passes != st.passesN {
			t.Fatalf("after %q: %d passes in a row, want %d", st.move, s.passes, st.passesN)
		}
	}
	v := s.View(game.Spectator).(View)
	want := []Captured{{Seat: 2, Cards: cards("JS QC KC AS 9C 10C")}}
	if !reflect.DeepEqual(v.Captured, want) {
		t.Errorf("captured %v, want %v", v.Captured, want)
	}
	if s.points != [3]int{0, 0, 6} || s.parcels != [3]int{0, 0, 1} {
		t.Errorf("points %v parcels %v, want South 6 points in 1 parcel", s.points, s.parcels)
	}
	// South turns the next card; West, on her left, acts first.
	if s.turner != 2 || s.turn != 0 || !slices.Equal(v.Parcel, cards("9H")) {
		t.Errorf("turner %d turn %d parcel %v, want South turning 9H and West to act", s.turner, s.turn, v.Parcel)
	}
}

func TestT000_2_AllPassTurnerCaptures(t *testing.T) {
	s := start(t, map[string]any{"dealer": 1}, `{"common": ["10H", "9H"]}`)
	for seat := range 3 {
		do(t, s, strconv.Itoa(seat)+": pass "+card.Join(s.Hand(seat)[:3]))
	}
	if s.turner != 1 || s.top() != card.MustParse("10H") {
		t.Fatalf("dealer 1 should have turned 10H")
	}
	do(t, s, passes(2, 3)...)
	if s.nParcels != 1 || s.capturer[0] != 1 || s.points[1] != 1 || s.parcels[1] != 1 {
		t.Fatalf("the turner should capture the lone 10H: parcels %d capturer %d points %v", s.nParcels, s.capturer[0], s.points)
	}
	if s.turner != 1 || s.top() != card.MustParse("9H") || s.turn != 2 {
		t.Errorf("the turner turns again (9H) and her left acts: turner %d top %v turn %d", s.turner, s.top(), s.turn)
	}
}

func TestT000_3_LegalPlaysOnKD(t *testing.T) {
	s := start(t, map[string]any{"dealer": 2}, kdLayout)
	do(t, s, kdPasses...)
	if got := s.Hand(0); !slices.Equal(got, cards("9C QD KH AS AH AD")) {
		t.Fatalf("seat 0 holds %v, want 9C QD KH AS AH AD (Parcellus order)", got)
	}
	if got, want := legalText(s, 0), []string{"pass", "play AD", "play AH"}; !slices.Equal(got, want) {
		t.Errorf("legal %v, want %v", got, want)
	}
	for _, tc := range []struct{ move, reason string }{
		{"0: play QD", "QD cannot go on KD: it needs a red A next"},
		{"0: play KH", "KH cannot go on KD: it needs a red A next"},
		{"0: play AS", "AS cannot go on KD: it needs a red A next"},
		{"0: play 9S", "you do not hold 9S"},
		{"1: play AH", "seat 1 may not act now: it is seat 0's turn"},
		{"0: pass AH AD QD", "the pass of three cards is over: play a card or pass"},
	} {
		before := s.Clone()
		err := try(s, tc.move)
		if !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("%q: error %v, want an illegal move", tc.move, err)
			continue
		}
		if err.Error() != tc.reason {
			t.Errorf("%q: reason %q, want %q", tc.move, err, tc.reason)
		}
		if !reflect.DeepEqual(before, game.State(s)) {
			t.Errorf("%q: the refusal changed the state", tc.move)
		}
	}
	do(t, s, "0: play AD")
}

func TestT000_4_T000_5_Ruling13_BonusSplit(t *testing.T) {
	for _, tc := range []struct {
		name            string
		points, parcels [3]int
		want            [3]int
	}{
		{"T000-4 3-3-0", [3]int{10, 10, 6}, [3]int{3, 3, 0}, [3]int{13, 13, 6}},
		{"T000-5 2-2-2", [3]int{2, 3, 3}, [3]int{2, 2, 2}, [3]int{4, 5, 5}},
		{"sole most", [3]int{15, 0, 0}, [3]int{6, 0, 0}, [3]int{21, 0, 0}},
		{"4-1-1", [3]int{1, 12, 3}, [3]int{1, 4, 1}, [3]int{1, 18, 3}},
		{"3-3-0 second and third", [3]int{0, 6, 6}, [3]int{0, 3, 3}, [3]int{0, 9, 9}},
	} {
		if got := DealScores(tc.points, tc.parcels); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestT000_6_Ruling12_MatchEnd(t *testing.T) {
	// Each case sets the totals before a deal in which the dealer (seat 0)
	// captures the six common cards alone: 6 points and the bonus, 12.
	for _, tc := range []struct {
		name   string
		target int
		before [3]int
		over   bool
		winner int
	}{
		{"31/31/20: tied above 30, another deal", 30, [3]int{19, 31, 20}, false, -1},
		{"33/30/12: the 33 wins", 30, [3]int{21, 30, 12}, true, 0},
		{"exactly 30 wins", 30, [3]int{18, 29, 29}, true, 0},
		{"nobody at 30", 30, [3]int{17, 25, 25}, false, -1},
		{"three-way tie above 30", 30, [3]int{20, 32, 32}, false, -1},
		{"the highest wins though another passed 30 too", 30, [3]int{20, 35, 0}, true, 1},
		{"target 50", 50, [3]int{30, 35, 0}, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, map[string]any{"dealer": 0, "target": tc.target}, plainLayout)
			s.totals = tc.before
			do(t, s, plainPasses...)
			allPass(t, s)
			r := s.Result()
			if r.DealScores[0][0] != 12 {
				t.Fatalf("deal scores %v, want 12 for the dealer", r.DealScores)
			}
			if r.Over != tc.over {
				t.Fatalf("totals %v: over %v, want %v", r.Totals, r.Over, tc.over)
			}
			if tc.over {
				if !slices.Equal(r.Winners, []int{tc.winner}) || s.ToAct() != 0 {
					t.Errorf("winners %v to act %v, want [%d] and nobody", r.Winners, s.ToAct(), tc.winner)
				}
				return
			}
			if r.Deal != 2 || len(r.Winners) != 0 || s.ToAct() != game.AllSeats(3) || s.dealer != 1 {
				t.Errorf("deal %d winners %v to act %v dealer %d: want deal 2 dealt by seat 1", r.Deal, r.Winners, s.ToAct(), s.dealer)
			}
		})
	}
}

func TestRuling1_ColourIsRedOrBlack(t *testing.T) {
	for _, tc := range []struct {
		top, c string
		ok     bool
	}{
		{"JS", "QC", true}, {"JS", "QS", true}, {"QC", "KC", true},
		{"JH", "QD", true}, {"JD", "QH", true},
		{"JS", "QH", false}, {"JH", "QC", false}, {"JC", "QD", false},
	} {
		if got := Follows(card.MustParse(tc.top), card.MustParse(tc.c)); got != tc.ok {
			t.Errorf("%s on %s: %v, want %v", tc.c, tc.top, got, tc.ok)
		}
	}
}

func TestRuling2_NextHigherRankWithAceToNineWrap(t *testing.T) {
	for _, tc := range []struct {
		top, c string
		ok     bool
	}{
		{"9S", "10S", true}, {"10S", "JC", true}, {"QS", "KS", true}, {"KS", "AC", true},
		{"AS", "9C", true}, {"AH", "9D", true}, // the wrap
		{"9S", "JS", false}, {"KD", "KH", false}, {"KD", "QD", false}, {"AS", "10S", false},
		{"9S", "9S", false},
	} {
		if got := Follows(card.MustParse(tc.top), card.MustParse(tc.c)); got != tc.ok {
			t.Errorf("%s on %s: %v, want %v", tc.c, tc.top, got, tc.ok)
		}
	}
}

func TestRuling3_ReentryAfterPassing(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	do(t, s, "1: play QC", "2: pass", "0: play KC", "1: pass")
	if got := legalText(s, 2); !slices.Contains(got, "play AS") {
		t.Errorf("South passed earlier on this parcel but may still add AS: legal %v", got)
	}
}

func TestRuling4_ContributorMayExtendHerOwnParcel(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	// North adds QC; South and West pass; North's turn comes round with the
	// parcel still open (two passes), and she may add to it again.
	do(t, s, "1: play QC", "2: pass", "0: pass")
	if s.nParcels != 0 || s.turn != 1 || s.passes != 2 {
		t.Fatalf("the parcel must stay open for North: parcels %d turn %d passes %d", s.nParcels, s.turn, s.passes)
	}
	do(t, s, "1: pass") // the third pass in a row: North captures
	if s.nParcels != 1 || s.capturer[0] != 1 {
		t.Errorf("North should capture after her own pass; capturer %v", s.capturer[:s.nParcels])
	}
}

func TestRuling5_CapturerTurnsNextAndHerLeftPlaysFirst(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	do(t, s, "1: play QC", "2: pass", "0: pass", "1: pass")
	if s.turner != 1 || s.turn != 2 || s.top() != card.MustParse("9H") {
		t.Errorf("North captured: she turns 9H and South acts; turner %d turn %d top %v", s.turner, s.turn, s.top())
	}
}

func TestRuling6_DealEndsAfterSixParcels(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, plainLayout)
	do(t, s, plainPasses...)
	for i := 0; i < 5; i++ {
		do(t, s, passes(1, 3)...)
		if s.dealNo != 0 || s.nParcels != i+1 {
			t.Fatalf("after parcel %d: deal %d parcels %d", i+1, s.dealNo+1, s.nParcels)
		}
	}
	do(t, s, passes(1, 3)...)
	r := s.Result()
	if r.Deal != 2 || !reflect.DeepEqual(r.DealScores, [][]int{{12, 0, 0}}) {
		t.Fatalf("after six parcels deal %d scores %v, want deal 2 and [[12 0 0]] (hand cards score nothing)", r.Deal, r.DealScores)
	}
	if s.phase != phasePass || s.ToAct() != game.AllSeats(3) {
		t.Errorf("deal 2 should open with the pass")
	}
}

func TestRuling7_AllHandsEmptyTurnerTakesTheRest(t *testing.T) {
	// Dealer 0 (pass left). After the pass the hands are 0: QS 9C QC QH 9D
	// QD, 1: 10H KH 10D 10S KS 10C, 2: JH AH JD JS AS JC. The seats play in
	// turn into a 10-card black parcel and a 10-card red one; dealer 0 adds
	// the last card of each.
	layout := `{"hands": [["QS","9C","QC","10S","KS","10C"], ["10H","KH","10D","JS","AS","JC"], ["JH","AH","JD","QH","9D","QD"]],
		"common": ["9S","9H","KC","AC","KD","AD"]}`
	s := start(t, map[string]any{"dealer": 0}, layout)
	do(t, s, "0: pass 10S KS 10C", "1: pass JS AS JC", "2: pass QH 9D QD")
	do(t, s, "1: play 10S", "2: play JS", "0: play QS", "1: play KS", "2: play AS", "0: play 9C",
		"1: play 10C", "2: play JC", "0: play QC", "1: pass", "2: pass", "0: pass")
	do(t, s, "1: play 10H", "2: play JH", "0: play QH", "1: play KH", "2: play AH", "0: play 9D",
		"1: play 10D", "2: play JD", "0: play QD")
	// Every hand is empty: the rest happens with no move.
	r := s.Result()
	if !reflect.DeepEqual(r.DealScores, [][]int{{32, 0, 0}}) || !r.Over || !slices.Equal(r.Winners, []int{0}) {
		t.Errorf("result %+v, want seat 0 with all 24 cards (JH 3) and 6 parcels: 32, winning", r)
	}
}

func TestRuling8_OutOfCardsPassesAutomatically(t *testing.T) {
	// After the pass seat 1 holds 10S JS QS KS AS 9C and plays them all.
	layout := `{"hands": [["AC","9H","10H","10S","JS","QS"], ["QH","KH","AH","KS","AS","9C"], ["9D","10D","JD","QD","KD","AD"]],
		"common": ["9S","JH","10C","JC","QC","KC"]}`
	s := start(t, map[string]any{"dealer": 0}, layout)
	do(t, s, "0: pass 10S JS QS", "1: pass QH KH AH", "2: pass QD KD AD")
	if h := s.hands[1]; h != set("10S JS QS KS AS 9C") {
		t.Fatalf("seat 1 holds %v", Cards(h))
	}
	for _, c := range []string{"10S", "JS", "QS", "KS", "AS"} {
		do(t, s, "1: play "+c, "2: pass", "0: pass")
	}
	do(t, s, "1: play 9C", "2: pass", "0: pass")
	// Seat 1 has no cards: her pass is automatic, the third in a row.
	if s.nParcels != 1 || s.capturer[0] != 1 || s.points[1] != 7 {
		t.Fatalf("seat 1 should have captured 7 cards: parcels %d points %v", s.nParcels, s.points)
	}
	if s.turner != 1 || s.turn != 2 || s.ToAct() != game.SeatsOf(2) {
		t.Fatalf("seat 1 turns JH and seat 2 acts; turner %d turn %d", s.turner, s.turn)
	}
	if got := s.Legal(1, nil); len(got) != 0 {
		t.Errorf("a seat out of cards has no moves, got %v", got)
	}
	for range 5 {
		do(t, s, "2: pass", "0: pass")
	}
	if r := s.Result(); !reflect.DeepEqual(r.DealScores, [][]int{{0, 20, 0}}) {
		t.Errorf("deal scores %v, want [[0 20 0]] (12 cards, JH 3, bonus 6)", r.DealScores)
	}
}

func TestRuling9_PassIsSimultaneousAndHidden(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	before := s.hands
	do(t, s, "1: pass AS 10C KH")
	if s.ToAct() != game.SeatsOf(0, 2) {
		t.Fatalf("to act %v, want {0 2}", s.ToAct())
	}
	if s.hands != before {
		t.Fatal("no card moves until every seat has chosen")
	}
	for _, seat := range []int{game.Spectator, 0, 2} {
		v := s.View(seat).(View)
		if v.Passed != nil || !v.Chosen[1] {
			t.Errorf("view of %d: passed %v chosen %v; it may see that seat 1 chose, not what", seat, v.Passed, v.Chosen)
		}
		if seat == 0 && slices.ContainsFunc(v.Hand, func(c card.Card) bool { return set("AS 10C KH").Has(c) }) {
			t.Errorf("seat 0 sees seat 1's pass: %v", v.Hand)
		}
	}
	if v := s.View(1).(View); !slices.Equal(v.Passed, cards("10C KH AS")) || len(v.Hand) != 3 {
		t.Errorf("seat 1 sees its own pending pass %v aside from its hand %v", v.Passed, v.Hand)
	}
	// A card seat 1 is about to receive cannot be passed on: seat 2 cannot
	// pass what seat 1 passes it, nor can seat 1 choose again.
	if err := try(s, "2: pass AS 10C KH"); !errors.Is(err, game.ErrIllegalMove) || err.Error() != "you do not hold 10C" {
		t.Errorf("seat 2 passing cards it has not received: %v", err)
	}
	if err := try(s, "1: pass JD AD QS"); !errors.Is(err, game.ErrIllegalMove) || err.Error() != "you have already chosen the three cards to pass" {
		t.Errorf("a second choice: %v", err)
	}
	do(t, s, "0: pass QC 9C 10H", "2: pass KC JH 10D")
	want := [3]card.Set{set("QD 9S KS KC JH 10D"), set("JD AD QS QC 9C 10H"), set("9D JC AC AS 10C KH")}
	if s.hands != want {
		t.Errorf("after the pass hands %v, want %v", s.hands, want)
	}
	v := s.View(0).(View)
	if !slices.Equal(v.Passed, cards("9C 10H QC")) {
		t.Errorf("seat 0 knows the cards it passed are with seat 1: %v", v.Passed)
	}
	var got []card.Card
	for i, c := range v.Hand {
		if v.Received[i] {
			got = append(got, c)
		}
	}
	if !slices.Equal(got, cards("10D JH KC")) {
		t.Errorf("seat 0 received %v, want 10D JH KC", got)
	}
}

func TestRuling10_PassDirectionAlternates(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, "")
	for deal, want := range []string{"left", "right", "left", "right"} {
		if s.phase != phasePass || s.dealNo != deal {
			t.Fatalf("expected deal %d's pass", deal+1)
		}
		var chosen [3]card.Set
		for seat := range 3 {
			m := s.Legal(seat, nil)[0]
			chosen[seat], _ = isThree(m)
			s.ApplyFast(seat, m)
		}
		if v := s.View(0).(View); v.PassDirection != want {
			t.Errorf("deal %d: view says %s, want %s", deal+1, v.PassDirection, want)
		}
		for seat := range 3 {
			to := (seat + 1) % 3
			if want == "right" {
				to = (seat + 2) % 3
			}
			if s.hands[to]&chosen[seat] != chosen[seat] {
				t.Errorf("deal %d: seat %d's cards did not go %s to seat %d", deal+1, seat, want, to)
			}
		}
		s.totals = [3]int{} // keep the match going
		allPass(t, s)
	}
}

func TestRuling11_DealerRotatesLeftFirstDealerRandom(t *testing.T) {
	s := start(t, map[string]any{"dealer": 2}, "")
	for _, want := range []int{2, 0, 1, 2, 0} {
		if s.dealer != want || s.turner != want {
			t.Fatalf("deal %d: dealer %d, want %d", s.dealNo+1, s.dealer, want)
		}
		for seat := range 3 {
			s.ApplyFast(seat, s.Legal(seat, nil)[0])
		}
		if s.turner != want || s.turn != (want+1)%3 {
			t.Fatalf("the dealer turns the first card and her left acts: turner %d turn %d", s.turner, s.turn)
		}
		s.totals = [3]int{}
		allPass(t, s)
	}
	seen := map[int]bool{}
	for seed := uint64(0); seed < 60; seed++ {
		o, _ := game.Resolve(Game{}, nil)
		st, err := Game{}.New(o, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen[st.(*State).dealer] = true
	}
	if len(seen) != 3 {
		t.Errorf("a drawn first dealer should be any seat: saw %v", seen)
	}
}

func TestRuling14_OneCardPerTurn(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	do(t, s, "1: play QC")
	if err := try(s, "1: play KH"); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("a second card in the same turn: %v", err)
	}
}

func TestRuling15_TurnedJackOfHeartsIsWorthThree(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, `{"common": ["JH"]}`)
	for seat := range 3 {
		s.ApplyFast(seat, s.Legal(seat, nil)[0])
	}
	do(t, s, passes(1, 3)...)
	if s.points[0] != 3 || s.parcels[0] != 1 {
		t.Errorf("the turner captured the lone JH: points %v parcels %v, want 3 and 1", s.points, s.parcels)
	}
	if Value(card.MustParse("JH")) != 3 || Value(card.MustParse("JD")) != 1 || Value(card.MustParse("AS")) != 1 {
		t.Error("card values: JH 3, every other card 1")
	}
}

func TestRuling17_Information(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	sp := s.View(game.Spectator).(View)
	if sp.Hand != nil || sp.Passed != nil || sp.Common != 5 || !slices.Equal(sp.HandSizes, []int{6, 6, 6}) {
		t.Errorf("spectator view: hand %v passed %v common %d sizes %v", sp.Hand, sp.Passed, sp.Common, sp.HandSizes)
	}
	if !slices.Equal(sp.Parcel, cards("JS")) {
		t.Errorf("the parcel is public: %v", sp.Parcel)
	}
	for seat := range 3 {
		v := s.View(seat).(View)
		if !slices.Equal(v.Hand, Cards(s.hands[seat])) {
			t.Errorf("seat %d sees hand %v", seat, v.Hand)
		}
	}
}

func TestDeterminizeKeepsPassedCardsWithReceiver(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	do(t, s, "1: play QC") // one of the cards seat 0 passed is now on the table
	rng := newRand(1)
	varied := false
	for range 200 {
		d := s.Determinize(0, rng).(*State)
		if d.hands[0] != s.hands[0] {
			t.Fatal("seat 0's own hand changed")
		}
		if kept := set("9C 10H"); d.hands[1]&kept != kept {
			t.Fatalf("seat 0 passed 9C 10H to seat 1, who still holds them: %v", Cards(d.hands[1]))
		}
		for k := range 3 {
			if d.hands[k].Len() != s.hands[k].Len() {
				t.Fatalf("hand sizes changed")
			}
		}
		if d.hands[1] != s.hands[1] {
			varied = true
		}
		if got := card.SetOf(d.common[d.nTurned:]...) | d.hands[1] | d.hands[2]; got != card.SetOf(s.common[s.nTurned:]...)|s.hands[1]|s.hands[2] {
			t.Fatal("the unseen cards changed")
		}
	}
	if !varied {
		t.Error("the unseen cards were never redealt")
	}
}

func TestDeterminizeResamplesPendingPasses(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, "0: pass QC 9C 10H", "1: pass AS 10C KH")
	rng := newRand(2)
	for range 100 {
		d := s.Determinize(0, rng).(*State)
		if d.choice[0] != s.choice[0] || d.hands[0] != s.hands[0] {
			t.Fatal("seat 0's own hand and choice must stay")
		}
		if d.choice[1].Len() != 3 || d.choice[1]&^d.hands[1] != 0 || d.choice[2] != 0 {
			t.Fatalf("seat 1's pending choice must be 3 of its (new) hand, seat 2 none: %v %v", Cards(d.choice[1]), Cards(d.hands[1]))
		}
	}
}

func TestDeterminizeTwiceStaysConsistent(t *testing.T) {
	s := start(t, map[string]any{"dealer": 0}, seedLayout)
	do(t, s, seedPasses...)
	do(t, s, "1: play QC", "2: pass", "0: play KC")
	rng := newRand(3)
	for range 100 {
		d0 := s.Determinize(0, rng).(*State)
		d := d0.Determinize(1, rng).(*State)
		for k := range 3 {
			played := d.postPass[k] &^ d.hands[k]
			if played != s.postPass[k]&^s.hands[k] {
				t.Fatalf("seat %d: played cards %v, want %v", k, Cards(played), Cards(s.postPass[k]&^s.hands[k]))
			}
			if d.recv[k]&^d.postPass[k] != 0 || d.recv[k].Len() != 3 {
				t.Fatalf("seat %d received %v, not 3 cards of its hand after the pass %v", k, Cards(d.recv[k]), Cards(d.postPass[k]))
			}
		}
		if d.hands[1] != d0.hands[1] {
			t.Fatal("seat 1's own hand changed")
		}
	}
}
