package courtcircular

import (
	"slices"
	"testing"

	"parlour/card"
	"parlour/game"
)

// newState starts a match with the given options, for tests that set its
// fields directly.
func newState(t *testing.T, opts map[string]any) *State {
	t.Helper()
	o, err := game.Resolve(Game{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game{}.New(o, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// pile returns n cards of the pack from index from, in pack order.
func pile(from, n int) card.Set {
	return card.SetOf(pack52[from : from+n]...)
}

// TestT003_9_EndScoring1862: tricks 6-2 score 2, cards 20 v 14 score 2 to
// the player with 20, court cards (Aces counted) 7 v 7 score nothing.
func TestT003_9_EndScoring1862(t *testing.T) {
	s := newState(t, map[string]any{"edition": "1862"})
	s.tricksWon = [MaxPlayers]uint8{6, 2}
	// Seat 0: 20 cards with 7 of A K Q J; seat 1: 14 cards with 7.
	courts := card.SetOf(card.MustParseList("AS KS QS JS AH KH QH JH AD KD QD JD AC KC")...)
	low := card.SetOf(card.MustParseList("2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H 7H 8H 9H 10H 2D 3D")...)
	s.wonUp[0] = card.SetOf(courts.Cards()[:7]...) | card.SetOf(low.Cards()[:13]...)
	s.wonUp[1] = card.SetOf(courts.Cards()[7:]...) | card.SetOf(low.Cards()[13:]...)
	if a, b := s.wonUp[0].Len(), s.wonUp[1].Len(); a != 20 || b != 14 {
		t.Fatalf("set up %d v %d cards", a, b)
	}
	if a, b := courts62(s.wonUp[0]), courts62(s.wonUp[1]); a != 7 || b != 7 {
		t.Fatalf("set up %d v %d court cards", a, b)
	}
	s.winner = 0
	pts := []int{0, 0}
	s.score62(pts)
	if !slices.Equal(pts, []int{4, 0}) || s.totals[0] != 4 || s.hits != [2]int{} {
		t.Errorf("points %v totals %v hits %v, want [4 0], 4, no Hit", pts, s.totals[:2], s.hits)
	}
	// A 4-4 split of tricks scores nothing; a court-card majority 1.
	s.totals = [MaxPlayers]int{}
	s.tricksWon = [MaxPlayers]uint8{4, 4}
	s.wonUp[0], s.wonUp[1] = pile(0, 10), pile(13, 10) // A-10 of S v A-10 of H: 1 court each
	s.wonUp[1] = s.wonUp[1].Add(card.MustParse("KD")).Remove(card.MustParse("10H"))
	pts = []int{0, 0}
	s.score62(pts)
	if !slices.Equal(pts, []int{0, 1}) {
		t.Errorf("4-4, 10 v 10 cards, courts 1 v 2: points %v, want [0 1]", pts)
	}
}

// TestRuling20_HitsAndRubber: the first to 5 takes a Hit (counting tricks,
// then cards, then court cards), both go back to 0, two Hits win.
func TestRuling20_HitsAndRubber(t *testing.T) {
	s := newState(t, map[string]any{"edition": "1862"})
	s.totals = [MaxPlayers]int{4, 4}
	s.tricksWon = [MaxPlayers]uint8{3, 5}              // seat 1: 1 for tricks, reaching 5 first
	s.wonUp[0], s.wonUp[1] = pile(0, 20), pile(20, 10) // seat 0: 2 for most cards
	s.winner = 1
	pts := []int{0, 0}
	s.score62(pts)
	if s.hits != [2]int{0, 1} || s.totals[0] != 0 || s.totals[1] != 0 || s.champ != -1 {
		t.Errorf("hits %v totals %v champ %d, want the Hit to seat 1 and both back to 0", s.hits, s.totals[:2], s.champ)
	}
	if s.dealer != 0 {
		t.Errorf("dealer %d, want 0 (the loser of the last trick)", s.dealer)
	}
	// A second Hit wins the Rubber.
	s.totals = [MaxPlayers]int{0, 3}
	s.tricksWon = [MaxPlayers]uint8{2, 6}
	s.wonUp[0], s.wonUp[1] = pile(0, 10), pile(20, 10)
	pts = make([]int, 2)
	s.score62(pts)
	if s.hits != [2]int{0, 2} || s.champ != 1 {
		t.Errorf("hits %v champ %d, want the Rubber to seat 1", s.hits, s.champ)
	}
}

// TestRuling19_ThreeOrMoreTies: every player tied for the lowest marks
// scores 0; a tie for the highest total at the target plays on.
func TestRuling19_ThreeOrMoreTies(t *testing.T) {
	s := newState(t, map[string]any{"players": 4})
	s.wonUp = [MaxPlayers]card.Set{pile(0, 2), pile(2, 2), pile(4, 5), pile(9, 3)} // A 2 / 3 4 of S: 4 marks each
	s.wonDown = [MaxPlayers]card.Set{}
	pts := make([]int, 4)
	s.score60(pts)
	// Marks: AS 2S = 4; 3S 4S = 4; 5S-9S = 10; 10S JS QS = 6 + 2 = 8.
	if !slices.Equal(pts, []int{0, 0, 6, 4}) || s.champ != -1 {
		t.Errorf("points %v champ %d, want [0 0 6 4] and no winner", pts, s.champ)
	}
	s.totals = [MaxPlayers]int{44, 46, 10, 0}
	s.score60(pts) // 44+0, 46+0, 10+6, 0+4: nobody at 50
	if s.champ != -1 {
		t.Errorf("champ %d below the target", s.champ)
	}
	s.totals = [MaxPlayers]int{50, 48, 46, 0}
	s.score60(pts) // 50, 48, 52, 4: seat 2 alone at the top
	if s.champ != 2 {
		t.Errorf("totals %v: champ %d, want 2", s.totals[:4], s.champ)
	}
	s.totals = [MaxPlayers]int{52, 40, 46, 0}
	s.score60(pts) // 52, 40, 52, 4: tied at the top, play on
	if s.champ != -1 {
		t.Errorf("totals %v: champ %d, want another deal", s.totals[:4], s.champ)
	}
}

// TestFurther_FirstHandOutOfCards: with the stock out, a designated
// first-hand without cards is passed over; the next player with cards plays
// first and counts as first-hand (face-up cards).
func TestFurther_FirstHandOutOfCards(t *testing.T) {
	s := newState(t, map[string]any{"players": 3, "dealer": 2})
	c := card.MustParse
	s.nStock = 0
	s.lead = c("KH")
	s.hands = [MaxPlayers]card.Set{0, card.SetOf(c("2S"), c("3S"), c("4S"), c("9D")), card.SetOf(c("5D"))}
	s.wonUp, s.wonDown = [MaxPlayers]card.Set{}, [MaxPlayers]card.Set{}
	s.first = 0
	s.beginTrick()
	if s.turn != 1 {
		t.Fatalf("turn %d, want 1 (seat 0 has no cards)", s.turn)
	}
	s.ApplyFast(1, Play(c("2S")))
	if s.leader != 1 || s.turn != 2 || s.canResign() {
		t.Fatalf("leader %d turn %d resign %v, want 1, 2, no resigning", s.leader, s.turn, s.canResign())
	}
	s.ApplyFast(2, Play(c("5D")))
	if s.turn != 1 {
		t.Fatalf("turn %d, want 1 (seat 2 is out of cards)", s.turn)
	}
	s.ApplyFast(1, Play(c("3S")))
	s.ApplyFast(1, Play(c("4S")))
	if s.phase != phaseLead || s.winner != 1 {
		t.Fatalf("phase %d winner %d, want seat 1 choosing the Lead", s.phase, s.winner)
	}
	s.ApplyFast(1, LeadMove(c("2S")))
	if want := card.SetOf(c("3S"), c("4S"), c("5D"), c("KH")); s.wonUp[1] != want || s.wonDown[1] != 0 {
		t.Errorf("seat 1 won face up %v, face down %v; want %v face up", s.wonUp[1].Cards(), s.wonDown[1].Cards(), want.Cards())
	}
	// Seat 1 alone has a card: she plays it and wins the last trick,
	// clearing the board.
	if s.turn != 1 {
		t.Fatalf("turn %d, want 1", s.turn)
	}
	s.ApplyFast(1, Play(c("9D")))
	if got := s.Result().DealScores; len(got) != 1 {
		t.Fatalf("the deal was not scored: %v", got)
	}
}
