package damn

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
)

func TestT002_1_Fit(t *testing.T) {
	tests := []struct {
		top        string
		fit, nofit string
	}{
		{"6D", "5S 7H", "6C 4S 8S AS KS"},
		{"AH", "2S KC", "AC QS 3S"},
		{"KS", "QD AD", "KH JD 2D"},
		{"2C", "AS 3H", "2D KS 4S"},
		{"10H", "9S JS", "10S QS"},
	}
	for _, tc := range tests {
		top := card.MustParse(tc.top)
		for _, c := range cards(tc.fit) {
			if !Fits(c, top) {
				t.Errorf("%v should fit on %v", c, top)
			}
		}
		for _, c := range cards(tc.nofit) {
			if Fits(c, top) {
				t.Errorf("%v should not fit on %v", c, top)
			}
		}
	}
	for _, c := range card.Pack52() {
		if !Fits(c, card.None) {
			t.Errorf("%v should fit on an empty pile", c)
		}
	}
}

// TestT002_1_FitInLegal checks the fit rule through Legal: on AH, 2S and KC
// fit but AC and 3D do not (the spec's damn-fit-on-ace example).
func TestT002_1_FitInLegal(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	play(t, s, "1: play AH")
	want := []string{"pickup", "play 2S", "play KC", "turn"}
	if got := legalText(s, 0); !slices.Equal(got, want) {
		t.Errorf("legal on AH = %v, want %v", got, want)
	}
}

func TestT002_2_HandPlayDrawsBackToFour(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	play(t, s, "1: play AH")
	if got := s.Hand(1); !slices.Equal(got, cards("QD KD 2C 3C")) {
		t.Errorf("seat 1's hand = %v, want QD KD 2C 3C (3C drawn from the central deck)", got)
	}
	if s.nCentral != 26 {
		t.Errorf("central deck has %d cards, want 26", s.nCentral)
	}
	if got := s.Pile(); !slices.Equal(got, cards("KS AH")) {
		t.Errorf("play pile = %v, want KS AH", got)
	}
}

func TestT002_3_SupportTurnMisfitPicksUp(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec3)
	play(t, s, "1: turn")
	if s.nPile != 0 {
		t.Errorf("play pile has %d cards, want 0", s.nPile)
	}
	sup := s.Support(1)
	if len(sup) != 5 || !slices.Contains(sup, card.MustParse("9C")) || !slices.Contains(sup, card.MustParse("4D")) {
		t.Errorf("seat 1's support = %v, want 8H 10H JH with 4D and 9C", sup)
	}
	if s.Turn() != 0 {
		t.Errorf("turn = %d, want 0", s.Turn())
	}
	// The next player may start a new pile with any card; no pick-up.
	want := []string{"play 2S", "play 3S", "play 5S", "play 6S", "turn"}
	if got := legalText(s, 0); !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", got, want)
	}
	if got := s.Result().Totals; !slices.Equal(got, []int{12, 13}) {
		t.Errorf("totals = %v, want [12 13]", got)
	}
}

func TestT002_4_RandomCardFits(t *testing.T) {
	s := start(t, opts3, 5, long("JC"))
	play(t, s, longMoves...)
	if s.nCentral != 0 || s.nHand[0] != 0 || s.nSupport[0] != 0 {
		t.Fatalf("seat 0 has hand %d, support %d, central %d; want all empty", s.nHand[0], s.nSupport[0], s.nCentral)
	}
	if got := s.Pile(); !slices.Equal(got, cards("4D 5D 6D 7D 8D 9D 10D")) {
		t.Fatalf("pile = %v", got)
	}
	if got := legalText(s, 0); !slices.Equal(got, []string{"random"}) {
		t.Errorf("legal = %v, want [random]", got)
	}
	play(t, s, "0: random")
	if got := s.Pile(); !slices.Equal(got, cards("4D 5D 6D 7D 8D 9D 10D JC")) {
		t.Errorf("pile = %v, want the J played on the 10", got)
	}
	if s.nRandom[0] != 3 || s.Turn() != 1 {
		t.Errorf("seat 0 random %d, turn %d; want 3 and 1", s.nRandom[0], s.Turn())
	}
}

func TestT002_5_RandomMisfitKeepFour(t *testing.T) {
	s := start(t, opts3, 5, long("3C"))
	play(t, s, longMoves...)
	play(t, s, "0: random")
	if got := sorted(s.pick[:s.nPick]); !slices.Equal(got, cards("3C 4D 5D 6D 7D 8D 9D 10D")) {
		t.Fatalf("picked up %v, want the 7 pile cards and the 3", got)
	}
	if s.Turn() != 0 || s.ToAct() != game.SeatsOf(0) || s.Turns() != 33 {
		t.Fatalf("turn %d, to act %v, turns %d: the keep belongs to the same turn", s.Turn(), s.ToAct(), s.Turns())
	}
	legal := legalText(s, 0)
	if len(legal) != 70 { // 8 choose 4
		t.Errorf("%d keep moves, want 70", len(legal))
	}
	for _, m := range legal {
		if !strings.HasPrefix(m, "keep ") {
			t.Errorf("legal move %q while a keep is due", m)
		}
	}
	if got := s.Result().Totals[0]; got != 11 {
		t.Errorf("seat 0 holds %d, want 11 (3 random + 8 picked up)", got)
	}
	play(t, s, "0: keep 6d 3C 5D 4D")
	if got := sorted(s.Hand(0)); !slices.Equal(got, cards("3C 4D 5D 6D")) {
		t.Errorf("hand = %v, want 3C 4D 5D 6D", got)
	}
	if got := sorted(s.Support(0)); !slices.Equal(got, cards("7D 8D 9D 10D")) {
		t.Errorf("support = %v, want 7D 8D 9D 10D", got)
	}
	if s.nPile != 0 || s.Turn() != 1 || s.Turns() != 34 {
		t.Errorf("pile %d, turn %d, turns %d; want 0, 1, 34", s.nPile, s.Turn(), s.Turns())
	}
}

// TestRuling1_TurnIsAFreeChoice: the support card may be turned although a
// hand card fits.
func TestRuling1_TurnIsAFreeChoice(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	play(t, s, "1: play AH")
	if !slices.Contains(legalText(s, 0), "turn") {
		t.Fatal("turn is not offered beside fitting hand cards")
	}
	play(t, s, "0: turn") // 4S does not fit on AH
	if s.Turn() != 1 || s.nPile != 0 || s.nSupport[0] != 6 {
		t.Errorf("turn %d, pile %d, support %d; want 1, 0, 6", s.Turn(), s.nPile, s.nSupport[0])
	}
}

// TestRuling2_TurnedCardIsCommitted: a turned card that fits is played
// (no fallback to the hand), one that does not fit is picked up with the
// pile into the shuffled support, and the turn ends.
func TestRuling2_TurnedCardIsCommitted(t *testing.T) {
	s := (spot{n: 2, hands: []string{"5S", "2H"}, support: []string{"9C 8H", "3H"}, random: []string{"", ""}, central: "AD", pile: "KS 4D"}).state(t)
	play(t, s, "0: turn")
	if got := sorted(s.Support(0)); !slices.Equal(got, cards("4D 8H 9C KS")) {
		t.Errorf("support = %v, want 4D 8H 9C KS", got)
	}
	if s.Turn() != 1 || s.nPile != 0 || !s.mixed.Has(0) {
		t.Errorf("turn %d, pile %d, shuffled %v", s.Turn(), s.nPile, s.mixed.Has(0))
	}
	s = (spot{n: 2, hands: []string{"5S", "2H"}, support: []string{"3C 8H", "3H"}, random: []string{"", ""}, central: "AD", pile: "KS 4D"}).state(t)
	play(t, s, "0: turn")
	if got := s.Pile(); !slices.Equal(got, cards("KS 4D 3C")) || s.Turn() != 1 {
		t.Errorf("pile = %v, turn %d; want KS 4D 3C and seat 1", got, s.Turn())
	}
}

// TestRuling3_Pickup: picking up is always allowed on a non-empty pile,
// never on an empty one, and is the only move without a fit or support.
func TestRuling3_Pickup(t *testing.T) {
	tests := []struct {
		name string
		spot spot
		want []string
	}{
		{"fitting card held", spot{n: 2, hands: []string{"5S 9H", ""}, support: []string{"2C", ""}, random: []string{"", "AS"}, pile: "4D"}, []string{"pickup", "play 5S", "turn"}},
		{"nothing fits, no support: forced", spot{n: 2, hands: []string{"9S 9H", ""}, support: []string{"", ""}, random: []string{"AC", "AS"}, pile: "4D"}, []string{"pickup"}},
		{"empty pile: must play", spot{n: 2, hands: []string{"9S 9H", ""}, support: []string{"2C", ""}, random: []string{"", "AS"}}, []string{"play 9H", "play 9S", "turn"}},
		{"no hand, support only, empty pile", spot{n: 2, hands: []string{"", ""}, support: []string{"2C", ""}, random: []string{"", "AS"}}, []string{"turn"}},
		{"no hand, no support: random only", spot{n: 2, hands: []string{"", ""}, support: []string{"", ""}, random: []string{"2C", "AS"}, pile: "4D"}, []string{"random"}},
	}
	for _, tc := range tests {
		s := tc.spot.state(t)
		if got := legalText(s, 0); !slices.Equal(got, tc.want) {
			t.Errorf("%s: legal = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRuling4_NoDrawAfterSupportPlay: a fitting support card is played and
// nothing is drawn.
func TestRuling4_NoDrawAfterSupportPlay(t *testing.T) {
	s := (spot{n: 2, hands: []string{"9S 9H", "2H"}, support: []string{"5C", "3H"}, random: []string{"", ""}, central: "AD QD", pile: "4D"}).state(t)
	play(t, s, "0: turn")
	if s.nHand[0] != 2 || s.nCentral != 2 || s.nSupport[0] != 0 {
		t.Errorf("hand %d, central %d, support %d; want 2, 2, 0", s.nHand[0], s.nCentral, s.nSupport[0])
	}
}

// TestRuling5_Replenish: with the central deck gone, a hand play takes the
// top support card into the hand; with no support, the hand shrinks.
func TestRuling5_Replenish(t *testing.T) {
	s := (spot{n: 2, hands: []string{"5S 9H", "2H"}, support: []string{"JC QC", "3H"}, random: []string{"AC", ""}, pile: "4D"}).state(t)
	play(t, s, "0: play 5S")
	if got := s.Hand(0); !slices.Equal(got, cards("9H JC")) {
		t.Errorf("hand = %v, want 9H JC", got)
	}
	if s.known[card.MustParse("QC")]&handBit(0) == 0 {
		t.Error("others cannot know which support card went to hand, but QC is ruled out of seat 0's hand")
	}
	s = (spot{n: 2, hands: []string{"5S 9H", "2H"}, support: []string{"", "3H"}, random: []string{"AC", ""}, pile: "4D"}).state(t)
	play(t, s, "0: play 5S")
	if got := s.Hand(0); !slices.Equal(got, cards("9H")) {
		t.Errorf("hand = %v, want 9H", got)
	}
}

// TestRuling6_RandomOnlyWithNoHandAndNoSupport: random is refused while
// hand or support holds a card, and turns one card a turn.
func TestRuling6_RandomOnlyWithNoHandAndNoSupport(t *testing.T) {
	s := (spot{n: 2, hands: []string{"9H", "2H"}, support: []string{"", "3H"}, random: []string{"AC 2C", ""}, pile: "4D"}).state(t)
	if err := step(s, "0: random"); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("random with a hand card: %v, want a refusal", err)
	}
	s = (spot{n: 2, hands: []string{"", "2H"}, support: []string{"", "3H"}, random: []string{"5C 6C", ""}, pile: "4D"}).state(t)
	play(t, s, "0: random")
	if s.nRandom[0] != 1 || s.Turn() != 1 {
		t.Errorf("random %d, turn %d; want one card turned and the turn over", s.nRandom[0], s.Turn())
	}
}

// TestRuling7_RandomCardCountsTowardFour: the turned random card joins the
// pick-up; four cards or fewer become the hand at once, more call for keep.
func TestRuling7_RandomCardCountsTowardFour(t *testing.T) {
	s := (spot{n: 2, hands: []string{"", "2H"}, support: []string{"", "3H"}, random: []string{"9C 6C", ""}, pile: "2D 3D 4D"}).state(t)
	play(t, s, "0: random")
	if got := sorted(s.Hand(0)); !slices.Equal(got, cards("2D 3D 4D 9C")) || s.pending || s.Turn() != 1 {
		t.Errorf("hand = %v, pending %v, turn %d; want 2D 3D 4D 9C as the hand and the turn over", got, s.pending, s.Turn())
	}
	s = (spot{n: 2, hands: []string{"", "2H"}, support: []string{"", "3H"}, random: []string{"9C 6C", ""}, pile: "AD 2D 3D 4D"}).state(t)
	play(t, s, "0: random")
	if !s.pending || s.nPick != 5 || s.Turn() != 0 || len(s.Legal(0, nil)) != 5 {
		t.Errorf("pending %v, picked %d, turn %d; want a keep of 4 from 5", s.pending, s.nPick, s.Turn())
	}
}

// TestRuling8_PickupEndsTurn: after a pick-up the next player clockwise
// starts a fresh pile.
func TestRuling8_PickupEndsTurn(t *testing.T) {
	s := (spot{n: 3, turn: 2, hands: []string{"5S", "2H", "9H"}, support: []string{"", "", ""}, random: []string{"", "", ""}, central: "AC", pile: "KS"}).state(t)
	play(t, s, "2: pickup")
	if s.Turn() != 0 || s.nPile != 0 {
		t.Errorf("turn %d, pile %d; want seat 0 and an empty pile", s.Turn(), s.nPile)
	}
	if got := legalText(s, 0); !slices.Equal(got, []string{"play 5S"}) {
		t.Errorf("legal = %v, want [play 5S]", got)
	}
}

// TestRuling9_BlindSplit: each player gets 4 hand, 4 support and 4 random
// cards, the rest is the central deck less the card turned; the dealer's
// left moves first; a partial layout is filled from the seed.
func TestRuling9_BlindSplit(t *testing.T) {
	for n := 2; n <= 4; n++ {
		s := start(t, map[string]any{"players": n, "dealer": 1}, 9, `{"central": ["7H"]}`)
		for i := 0; i < n; i++ {
			if s.nHand[i] != 4 || s.nSupport[i] != 4 || s.nRandom[i] != 4 {
				t.Errorf("%dp seat %d: %d/%d/%d cards", n, i, s.nHand[i], s.nSupport[i], s.nRandom[i])
			}
		}
		if s.nCentral != 52-12*n-1 || !slices.Equal(s.Pile(), cards("7H")) {
			t.Errorf("%dp: central %d, pile %v", n, s.nCentral, s.Pile())
		}
		if s.Turn() != 2%n {
			t.Errorf("%dp: first to act %d, want %d", n, s.Turn(), 2%n)
		}
		b := start(t, map[string]any{"players": n, "dealer": 1}, 9, `{"central": ["7H"]}`)
		if !reflect.DeepEqual(*b, *s) {
			t.Errorf("%dp: the same seed deals differently", n)
		}
	}
	// Without a layout the split follows the deal; the dealer is drawn.
	s := start(t, map[string]any{"players": 4}, 3, "")
	if s.dealer < 0 || s.dealer > 3 {
		t.Errorf("dealer %d", s.dealer)
	}
}

// TestRuling10_Information: no view shows a support, random or central card,
// not even to the owner; each seat sees its own hand, everyone the pile.
func TestRuling10_Information(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	play(t, s, "1: play AH")
	for seat := game.Spectator; seat < 2; seat++ {
		b, _ := json.Marshal(s.View(seat))
		var shown []string
		for _, c := range card.Pack52() {
			if strings.Contains(string(b), `"`+c.String()+`"`) {
				shown = append(shown, c.String())
			}
		}
		want := []string{"AH", "KS"}
		if seat == 0 {
			want = append(want, "2S", "KC", "AC", "3D")
		}
		if seat == 1 {
			want = append(want, "QD", "KD", "2C", "3C")
		}
		slices.Sort(shown)
		slices.Sort(want)
		if !slices.Equal(shown, want) {
			t.Errorf("view of %d shows %v, want %v", seat, shown, want)
		}
	}
}

// TestRuling11_DealersCardIsPickedUp: the card the dealer turned is part of
// the pile and goes with it.
func TestRuling11_DealersCardIsPickedUp(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec2)
	play(t, s, "1: pickup")
	if got := s.Support(1); len(got) != 5 || !slices.Contains(got, card.MustParse("KS")) {
		t.Errorf("seat 1's support = %v, want the 4 dealt and KS", got)
	}
}

// TestRuling12_DropOutAndLoser: players drop out when they get their last
// card onto the pile, later turns skip them, and the last one left loses.
func TestRuling12_DropOutAndLoser(t *testing.T) {
	s := start(t, opts3, 5, long("JC"))
	play(t, s, longMoves...)
	play(t, s, longFinish[:10]...)
	if got := s.Out(); !slices.Equal(got, []int{0}) || s.over {
		t.Fatalf("out %v, over %v; want [0] and the game on", got, s.over)
	}
	if s.Turn() != 1 {
		t.Errorf("turn %d, want 1", s.Turn())
	}
	play(t, s, longFinish[10:]...)
	r := s.Result()
	if !r.Over || !slices.Equal(s.Out(), []int{0, 2}) || s.Loser() != 1 {
		t.Fatalf("over %v, out %v, loser %d; want over, [0 2], 1", r.Over, s.Out(), s.Loser())
	}
	if !slices.Equal(r.Winners, []int{0}) || !slices.Equal(r.Totals, []int{0, 51, 0}) || len(r.DealScores) != 1 {
		t.Errorf("result %+v", r)
	}
	v := s.View(game.Spectator).(View)
	if v.Loser == nil || *v.Loser != 1 || v.ToAct == nil || len(v.ToAct) != 0 {
		t.Errorf("view loser %v, to_act %v", v.Loser, v.ToAct)
	}
	// With two players the game ends as soon as one is out.
	s = (spot{n: 2, hands: []string{"", "2H"}, support: []string{"", "3H"}, random: []string{"5C", ""}, pile: "4D"}).state(t)
	play(t, s, "0: random")
	if !s.over || s.Loser() != 1 || s.ToAct() != 0 {
		t.Errorf("over %v, loser %d", s.over, s.Loser())
	}
}

// TestRuling14_MaxTurns: after turn max_turns the game ends unresolved: no
// winner, no loser, the out order kept, one deal_scores row.
func TestRuling14_MaxTurns(t *testing.T) {
	o := map[string]any{"players": 3, "dealer": 2, "max_turns": 45}
	s := start(t, o, 5, long("JC"))
	play(t, s, longMoves...)
	play(t, s, longFinish[:12]...)
	r := s.Result()
	if !r.Over || len(r.Winners) != 0 || s.Loser() != -1 || !slices.Equal(s.Out(), []int{0}) {
		t.Fatalf("over %v, winners %v, loser %d, out %v", r.Over, r.Winners, s.Loser(), s.Out())
	}
	if len(r.DealScores) != 1 || !slices.Equal(r.DealScores[0], []int{0, 48, 3}) {
		t.Errorf("deal scores %v, want [[0 48 3]]", r.DealScores)
	}
	v := s.View(game.Spectator).(View)
	if v.Loser != nil || v.Unresolved == "" {
		t.Errorf("view: loser %v, unresolved %q", v.Loser, v.Unresolved)
	}
	if err := step(s, longFinish[12]); !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "over") {
		t.Errorf("a move after the cap: %v", err)
	}
	// A random-pile pick-up and its keep are one turn.
	o["max_turns"] = 34
	s = start(t, o, 5, long("3C"))
	play(t, s, longMoves...)
	play(t, s, "0: random")
	if s.over {
		t.Fatal("the game ended before the keep")
	}
	play(t, s, "0: keep 3C 4D 5D 6D")
	if !s.over || s.Loser() != -1 {
		t.Errorf("over %v after the keep that ends turn 34", s.over)
	}
}

func TestIllegalMoves(t *testing.T) {
	longAt := func(extra ...string) func(t *testing.T) *State {
		return func(t *testing.T) *State {
			s := start(t, opts3, 5, long("3C"))
			play(t, s, longMoves...)
			play(t, s, extra...)
			return s
		}
	}
	early := func(n int) func(t *testing.T) *State {
		return func(t *testing.T) *State {
			s := start(t, opts3, 5, long("3C"))
			play(t, s, longMoves[:n]...)
			return s
		}
	}
	tests := []struct {
		name  string
		state func(t *testing.T) *State
		move  string
		want  string
	}{
		{"card does not fit", early(1), "1: play 6S", "6S does not fit on 2S (it needs an A or a 3)"},
		{"card not in hand", early(1), "1: play 3C", "3C is not in your hand"},
		{"turn with empty support", early(12), "0: turn", "your support pile is empty"},
		{"keep a card not picked up", longAt("0: random"), "0: keep 3C 4D 5D JH", "JH was not picked up (you picked up 3C 4D 5D 6D 7D 8D 9D 10D)"},
		{"keep two cards not picked up", longAt("0: random"), "0: keep AS 4D 5D JH", "AS JH were not picked up (you picked up 3C 4D 5D 6D 7D 8D 9D 10D)"},
		{"play while a keep is due", longAt("0: random"), "0: random", "you picked up 8 cards: first keep four of them as your new hand (keep C C C C)"},
		{"keep with nothing picked up", early(0), "0: keep 2S 5S 8S JS", "there is nothing to keep: keep follows a random-pile pick-up of more than four cards"},
		{"random too early", early(0), "0: random", "the random pile is used only when your hand and support pile are both empty"},
		{"hand play instead of random", longAt(), "0: pickup", "your hand and support pile are empty: turn your random card (random)"},
		{"not your turn", early(0), "1: play 3S", "seat 1 may not act now (to act: {0})"},
		{"pickup on an empty pile", longAt("0: random", "0: keep 3C 4D 5D 6D"), "1: pickup", "the play pile is empty: start a new one with any card"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.state(t)
			before := *s
			err := step(s, tc.move)
			if !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("%s: %v, want an illegal move", tc.move, err)
			}
			if err.Error() != tc.want {
				t.Errorf("%s: %q, want %q", tc.move, err.Error(), tc.want)
			}
			if !reflect.DeepEqual(*s, before) {
				t.Error("the refusal changed the state")
			}
		})
	}
}

func TestParseAndFormat(t *testing.T) {
	s := start(t, map[string]any{"players": 2}, 0, "")
	good := map[string]string{
		"play 10h":           "play 10H",
		"PLAY T♥":            "play 10H",
		"turn":               "turn",
		" Pickup ":           "pickup",
		"pick up":            "pickup",
		"random":             "random",
		"keep KC 2S AD 2H":   "keep AD 2S 2H KC",
		"keep 10c 10s j♦ a♣": "keep AC 10S 10C JD",
	}
	for in, want := range good {
		m, err := s.ParseMove(0, in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
			continue
		}
		if got := s.FormatMove(m); got != want {
			t.Errorf("ParseMove(%q) formats as %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{"", "play", "play 1H", "play JK", "turn 2", "keep AS 2S 3S", "keep AS AS 2S 3S", "keep AS 2S 3S 4S 5S", "draw", "pick"} {
		if _, err := s.ParseMove(0, in); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("ParseMove(%q) = %v, want ErrBadMove", in, err)
		}
	}
}

// TestDeterminize checks what a determinisation keeps and what it redraws.
func TestDeterminize(t *testing.T) {
	s := start(t, map[string]any{"players": 2, "dealer": 0}, 0, spec3)
	play(t, s, "1: turn") // 4D and 9C go into seat 1's support, seen by all
	rng := rand.New(rand.NewPCG(1, 2))
	ownSupportMoved := false
	for range 200 {
		for seat := 0; seat < 2; seat++ {
			d := s.Determinize(seat, rng).(*State)
			if !slices.Equal(d.Hand(seat), s.Hand(seat)) {
				t.Fatalf("seat %d's own hand changed", seat)
			}
			sup := d.Support(1)
			if !slices.Contains(sup, card.MustParse("4D")) || !slices.Contains(sup, card.MustParse("9C")) {
				t.Fatalf("determinising for %d moved the picked-up cards out of seat 1's support: %v", seat, sup)
			}
			if seat == 0 && !slices.Equal(sorted(d.Support(0)), sorted(s.Support(0))) {
				ownSupportMoved = true // unseen even by its owner
			}
			if d.Turn() != s.Turn() || d.nCentral != s.nCentral {
				t.Fatal("determinisation changed the public position")
			}
		}
	}
	if !ownSupportMoved {
		t.Error("seat 0's own support pile is never redrawn, but seat 0 has not seen it")
	}
	// After a keep the keeper knows her support; others only that the eight
	// cards are in her hand or support.
	s = start(t, opts3, 5, long("3C"))
	play(t, s, longMoves...)
	play(t, s, "0: random", "0: keep 3C 4D 5D 6D")
	zone := card.SetOf(cards("3C 4D 5D 6D 7D 8D 9D 10D")...)
	for range 100 {
		d := s.Determinize(0, rng).(*State)
		if !slices.Equal(sorted(d.Support(0)), cards("7D 8D 9D 10D")) {
			t.Fatalf("determinising for the keeper changed her support: %v", d.Support(0))
		}
		d = s.Determinize(1, rng).(*State)
		got := card.SetOf(append(d.Hand(0), d.Support(0)...)...)
		if got != zone {
			t.Fatalf("determinising for seat 1 moved the kept cards: %v", got.Cards())
		}
	}
}

// TestNoAllocation checks that Legal and ApplyFast do not allocate.
func TestNoAllocation(t *testing.T) {
	s := start(t, map[string]any{"players": 4}, 7, "")
	buf := make([]game.Move, 0, 64)
	rng := rand.New(rand.NewPCG(3, 4))
	allocs := testing.AllocsPerRun(200, func() {
		if s.ToAct() == 0 {
			return
		}
		buf = s.Legal(s.Turn(), buf[:0])
		s.ApplyFast(s.Turn(), buf[rng.IntN(len(buf))])
	})
	if allocs != 0 {
		t.Errorf("%v allocations a move", allocs)
	}
}

func TestLayoutErrors(t *testing.T) {
	o, _ := game.Resolve(Game{}, map[string]any{"players": 4})
	for _, tc := range []struct{ layout, want string }{
		{`{"hands": [["AS","2S","3S"],null,null,null]}`, "hands[0] has 3 cards; it must have 4"},
		{`{"hands": [["AS","2S","3S","4S"],null,null,null], "random": [["AS","5S","6S","7S"],null,null,null]}`, "AS is placed 2 times but the pack holds it once"},
		{`{"central": ["AS","2S","3S","4S","5S"]}`, "the central deck lists 5 cards; with 4 players it holds 4"},
		{`{"stock": ["AS"]}`, "not used by this game"},
		{`{"support": [["JK","2S","3S","4S"],null,null,null]}`, "the pack has no JK"},
		{`{"hands": [["AS","2S","3S","4S"]]}`, "1 entries for 4 seats"},
	} {
		var l game.Layout
		if err := json.Unmarshal([]byte(tc.layout), &l); err != nil {
			t.Fatal(err)
		}
		_, err := Game{}.New(o, 0, []game.Layout{l})
		if !errors.Is(err, game.ErrBadLayout) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.layout, err, tc.want)
		}
	}
}

// TestApplyAgreesWithLegal plays random games and checks, at every step,
// that Apply accepts exactly the listed moves among every play, turn,
// pickup, random and a sample of keeps (of picked-up cards and others).
// Under -short it plays fewer games.
func TestApplyAgreesWithLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var vocab []game.Move
	for _, c := range card.Pack52() {
		vocab = append(vocab, Play(c))
	}
	vocab = append(vocab, Turn, Pickup, Random)
	keeps := 0
	games := 200
	if testing.Short() {
		games = 15
	}
	for g := range games {
		s := start(t, map[string]any{"players": 2 + g%3}, uint64(g), "")
		for s.ToAct() != 0 {
			seat := s.Turn()
			legal := s.Legal(seat, nil)
			try := append([]game.Move{}, vocab...)
			if s.pending {
				keeps++
				p := append([]card.Card{}, s.pick[:s.nPick]...)
				for range 20 {
					rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
					try = append(try, Keep(p[:4]...), Keep(p[0], p[1], p[2], card.MustParse("KS")))
				}
			}
			before := *s
			for _, m := range try {
				listed := slices.Contains(legal, m)
				x := s
				if listed {
					x = s.Clone().(*State)
				}
				if err := game.Apply(x, seat, m); (err == nil) != listed {
					t.Fatalf("game %d: %s: Apply says %v, listed %v", g, s.FormatMove(m), err, listed)
				}
			}
			if !reflect.DeepEqual(*s, before) {
				t.Fatalf("game %d: a refused move changed the state", g)
			}
			for other := 0; other < s.n; other++ {
				if other != seat && len(s.Legal(other, nil)) > 0 {
					t.Fatalf("seat %d has moves out of turn", other)
				}
			}
			s.ApplyFast(seat, legal[rng.IntN(len(legal))])
		}
	}
	if keeps == 0 {
		t.Error("no keep came up; the test does not cover it")
	}
}
