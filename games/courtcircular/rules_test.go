package courtcircular_test

import (
	"encoding/json"
	"errors"
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

// match drives a state through the validated path, as a script does.
type match struct {
	t  *testing.T
	st game.State
}

// newMatch starts a match; layout is the JSON of the first deal's layout,
// or "" for a shuffled one.
func newMatch(t *testing.T, opts map[string]any, layout string) *match {
	t.Helper()
	return &match{t: t, st: gametest.Start(t, cc.Game{}, opts, 1, layout)}
}

// do applies "SEAT: MOVE" lines, each of which must be legal.
func (m *match) do(lines ...string) {
	m.t.Helper()
	gametest.Play(m.t, m.st, lines...)
}

// refuse checks that line is refused as illegal, with a reason containing
// want, and that the refusal changes nothing.
func (m *match) refuse(line, want string) {
	m.t.Helper()
	before := m.st.Clone()
	err := gametest.Try(m.st, line)
	if !errors.Is(err, game.ErrIllegalMove) {
		m.t.Fatalf("%q: got %v, want an illegal-move refusal", line, err)
	}
	if !strings.Contains(err.Error(), want) {
		m.t.Errorf("%q refused with %q, want it to say %q", line, err, want)
	}
	if !reflect.DeepEqual(before, m.st) {
		m.t.Errorf("%q: the refusal changed the state", line)
	}
}

func (m *match) view() cc.View { return m.st.View(game.Spectator).(cc.View) }

func (m *match) legal(seat int) []string { return game.LegalText(m.st, seat) }

func (m *match) wantLegal(seat int, want ...string) {
	m.t.Helper()
	slices.Sort(want)
	if got := m.legal(seat); !slices.Equal(got, want) {
		m.t.Errorf("seat %d legal %q, want %q", seat, got, want)
	}
}

func (m *match) wantToAct(seats ...int) {
	m.t.Helper()
	if got := m.st.ToAct().List(); !slices.Equal(got, seats) {
		m.t.Errorf("to act %v, want %v", got, seats)
	}
}

func names(cs []card.Card) string { return card.Join(cs) }

// layout2 builds a two-player layout.
func layout2(h0, h1, lead string, stock ...string) string {
	q := func(s string) string {
		f := strings.Fields(s)
		b, _ := json.Marshal(f)
		return string(b)
	}
	l := fmt.Sprintf(`{"hands": [%s, %s], "lead": %q`, q(h0), q(h1), lead)
	if len(stock) > 0 {
		l += `, "stock": ` + q(strings.Join(stock, " "))
	}
	return l + "}"
}

var two = map[string]any{"players": 2, "dealer": 1} // seat 0 is first-hand

func TestT003_2_LeadNotInMiddle(t *testing.T) {
	m := newMatch(t, two, layout2("6S 8D KC 2S 4S 10C", "2C 3D 9S 5C 5D JH", "7H"))
	m.do("0: play 6S", "1: play 2C", "0: play 8D", "1: play 3D", "0: play KC", "1: play 9S")
	v := m.view()
	if v.TrickWinner != 0 || !slices.Equal(v.Lines, []string{"no line", "no line"}) {
		t.Errorf("winner %d lines %q, want 0 with no lines", v.TrickWinner, v.Lines)
	}
	m.wantToAct(0)
	m.wantLegal(0, "lead 2C", "lead 3D", "lead 6S", "lead 8D", "lead 9S", "lead KC")
}

func TestT003_3_KindBeforeLength(t *testing.T) {
	m := newMatch(t, two, layout2("9D 9S 2H 4C 5C 6C", "10C JD QS 4D 5D 6D", "9C"))
	m.do("0: play 9D", "1: play 10C", "0: play 9S", "1: play JD", "0: play 2H", "1: play QS")
	v := m.view()
	want := []string{"Trio with the Lead", "Sequence of 4 with the Lead"}
	if v.TrickWinner != 0 || !slices.Equal(v.Lines, want) {
		t.Errorf("winner %d lines %q, want 0 with %q", v.TrickWinner, v.Lines, want)
	}
}

func TestT003_4_SuitTieBreak(t *testing.T) {
	m := newMatch(t, two, layout2("AC 7S 4D 2H 3H 5H", "AD 9S 2C 8H 10H QH", "6H"))
	m.do("0: play AC", "1: play AD", "0: play 7S", "1: play 9S", "0: play 4D", "1: play 2C")
	if v := m.view(); v.TrickWinner != 1 {
		t.Errorf("winner %d, want 1 (AD beats AC); lines %q", v.TrickWinner, v.Lines)
	}
}

func TestT003_5_CardOrderByEdition(t *testing.T) {
	for _, tc := range []struct {
		edition string
		winner  int
	}{{"1860", 1}, {"1862", 0}} {
		t.Run(tc.edition, func(t *testing.T) {
			m := newMatch(t, map[string]any{"edition": tc.edition, "dealer": 1},
				layout2("AS 4D 9C 2H 3H 5H", "KH 6C 2D 8H 10H QH", "7S"))
			m.do("0: play AS", "1: play KH", "0: play 4D", "1: play 6C", "0: play 9C", "1: play 2D")
			v := m.view()
			if v.TrickWinner != tc.winner || v.Lines[0] != "no line" || v.Lines[1] != "no line" {
				t.Errorf("winner %d lines %q, want %d with no lines", v.TrickWinner, v.Lines, tc.winner)
			}
		})
	}
}

// TestT003_6_Marks: a court Heart face up 4, 7C face down 1, KS face down 2.
func TestT003_6_Marks(t *testing.T) {
	qh, c7, ks := card.SetOf(card.MustParse("QH")), card.SetOf(card.MustParse("7C")), card.SetOf(card.MustParse("KS"))
	for _, tc := range []struct {
		name     string
		up, down card.Set
		want     int
	}{
		{"QH face up", qh, 0, 4}, {"QH face down", 0, qh, 3}, {"7C face down", 0, c7, 1},
		{"7C face up", c7, 0, 2}, {"KS face down", 0, ks, 2}, {"all three", qh, c7 | ks, 7},
		{"AH face up: an Ace is no court card", card.SetOf(card.MustParse("AH")), 0, 3},
	} {
		if got := cc.Marks(tc.up, tc.down); got != tc.want {
			t.Errorf("%s: %d marks, want %d", tc.name, got, tc.want)
		}
	}
	// Through play (Ruling 11): seat 0 wins the first trick as first-hand
	// (a resignation) and takes the old Lead QH face up; seat 1 wins the
	// second as second player and takes 7C and KS face down.
	m := newMatch(t, two, layout2("7C KS 4S 5S 6S 8S", "2D 9D 3C 4C 5C 6C", "QH", "2H", "3H"))
	m.do("0: play 7C", "1: resign", "0: lead 7C")
	if v := m.view(); !slices.Equal(v.Marks, []int{4, 0}) || names(v.WonUp[0]) != "QH" {
		t.Fatalf("after trick 1: marks %v won up %v, want [4 0] and QH", v.Marks, v.WonUp)
	}
	m.do("0: play KS", "1: play 2D", "0: resign", "1: lead 2D")
	v := m.view()
	if !slices.Equal(v.Marks, []int{4, 3}) || names(v.WonDown[1]) != "7C KS" {
		t.Errorf("after trick 2: marks %v won down %v, want [4 3] and 7C KS", v.Marks, v.WonDown)
	}
	if v.Lead != card.MustParse("2D") || v.FirstHand != 1 {
		t.Errorf("lead %v first-hand %d, want 2D and 1", v.Lead, v.FirstHand)
	}
}

// TestT003_7_ResignOnTurnTwo: first-hand's one card becomes the Lead, she
// takes the old Lead face up, stays first-hand, and is refilled by one.
func TestT003_7_ResignOnTurnTwo(t *testing.T) {
	m := newMatch(t, two, layout2("4S 9C 10D JS QD KH", "2C 3D 5H 6S 8C AC", "7H", "2D"))
	m.do("0: play 4S", "1: resign")
	m.wantToAct(0)
	m.wantLegal(0, "lead 4S")
	if v := m.view(); v.Lead != card.MustParse("7H") {
		t.Errorf("while choosing, the Lead is %v, want the old 7H", v.Lead)
	}
	m.do("0: lead 4S")
	v := m.view()
	if v.Lead != card.MustParse("4S") || names(v.WonUp[0]) != "7H" || v.FirstHand != 0 {
		t.Errorf("lead %v won up %v first-hand %d, want 4S, [7H], 0", v.Lead, v.WonUp[0], v.FirstHand)
	}
	if !slices.Equal(v.HandSizes, []int{6, 6}) || v.Stock != 38 {
		t.Errorf("hands %v stock %d, want [6 6] and 38", v.HandSizes, v.Stock)
	}
	if h := m.st.(*cc.State).Hand(0); !slices.Contains(h, card.MustParse("2D")) {
		t.Errorf("seat 0 was refilled with %v, want the stock's top card 2D", h)
	}
}

// TestRuling10_OldLeadNotChosen: the new Lead is one of the cards played;
// the old Lead may not be chosen again.
func TestRuling10_OldLeadNotChosen(t *testing.T) {
	m := newMatch(t, two, layout2("6S 8D KC 2S 4S 10C", "2C 3D 9S 5C 5D JH", "7H"))
	m.do("0: play 6S", "1: play 2C", "0: play 8D", "1: play 3D", "0: play KC", "1: play 9S")
	m.refuse("0: lead 7H", "7H is the old Lead")
	m.refuse("0: lead 4S", "4S is not on the table")
	m.refuse("1: lead 2C", "seat 1 may not act now")
	m.refuse("0: play 2S", "the trick is over")
	m.do("0: lead 9S")
	v := m.view()
	if names(v.WonUp[0]) != "2C 3D 6S 7H 8D KC" {
		t.Errorf("won face up %v, want the other five played cards and the old Lead", v.WonUp[0])
	}
}

// TestRuling15_ResignWindowTwoPlayers: turns 2 to 5, never when leading or
// on turn 6.
func TestRuling15_ResignWindowTwoPlayers(t *testing.T) {
	m := newMatch(t, two, layout2("6S 8D KC 2S 4S 10C", "2C 3D 9S 5C 5D JH", "7H"))
	has := func(seat int) bool { return slices.Contains(m.legal(seat), "resign") }
	if has(0) {
		t.Error("turn 1: first-hand may not resign before the first card")
	}
	m.refuse("0: resign", "first card must be played")
	for i, mv := range []string{"0: play 6S", "1: play 2C", "0: play 8D", "1: play 3D"} {
		m.do(mv)
		if seat := 1 - i%2; !has(seat) {
			t.Errorf("turn %d: seat %d should be able to resign", i+2, seat)
		}
	}
	m.do("0: play KC")
	if has(1) {
		t.Error("turn 6: no resigning once first-hand has played 3 cards")
	}
	m.refuse("1: resign", "no resigning once a player has played 3 cards")
}

// playFirst plays the first legal move of the seat to act, never resigning.
func (m *match) playFirst() string {
	seat := m.st.ToAct().First()
	for _, mv := range m.legal(seat) {
		if mv != "resign" {
			line := fmt.Sprintf("%d: %s", seat, mv)
			m.do(line)
			return line
		}
	}
	m.t.Fatalf("seat %d has no move", seat)
	return ""
}

// TestRuling12_RefillAndNineTricks: without resignations a two-player deal
// has 9 tricks: 7 from full hands, then 5 v 4 and 2 v 1; and no one may
// resign once the pack is exhausted (Rulings 13-14).
func TestRuling12_RefillAndNineTricks(t *testing.T) {
	m := newMatch(t, two, "")
	var sizes [][2]int
	for m.st.Result().Deal == 1 {
		v := m.view()
		if v.Phase == "play" && v.Leader < 0 {
			fh := v.FirstHand
			sizes = append(sizes, [2]int{v.HandSizes[fh], v.HandSizes[1-fh]})
			if len(sizes) == 7 && v.Stock != 3 {
				t.Errorf("trick 7 starts with %d in the stock, want 3", v.Stock)
			}
			if len(sizes) >= 8 && v.Stock != 0 {
				t.Errorf("trick %d starts with %d in the stock, want 0", len(sizes), v.Stock)
			}
		}
		if v.Phase == "play" && v.Leader >= 0 {
			seat := m.st.ToAct().First()
			can := slices.Contains(m.legal(seat), "resign")
			open := len(v.Played[0]) < 3 && len(v.Played[1]) < 3
			if len(sizes) == 7 && open && !can {
				t.Errorf("trick 7: seat %d should still be able to resign", seat)
			}
			if len(sizes) >= 8 && can {
				t.Errorf("trick %d: resigning offered once the pack is exhausted", len(sizes))
			}
			if len(sizes) == 8 {
				m.refuse(fmt.Sprintf("%d: resign", seat), "no resigning once the pack is exhausted")
			}
		}
		m.playFirst()
	}
	want := [][2]int{{6, 6}, {6, 6}, {6, 6}, {6, 6}, {6, 6}, {6, 6}, {6, 6}, {5, 4}}
	if len(sizes) != 9 || !slices.Equal(sizes[:8], want) {
		t.Fatalf("hand sizes at the start of each trick %v, want %v then 2 v 1", sizes, want)
	}
	if s := sizes[8]; s != [2]int{2, 1} && s != [2]int{1, 2} {
		t.Errorf("trick 9 is played %d v %d, want 2 v 1", s[0], s[1])
	}
	r := m.st.Result()
	if len(r.DealScores) != 1 {
		t.Fatalf("deal scores %v, want one row", r.DealScores)
	}
}

// TestRuling13_LastTrickClearsTheBoard: the winner of the last trick takes
// every card on the table, the Lead included (face up if she played the
// trick's first card), and the deal scores the difference of marks.
func TestRuling13_LastTrickClearsTheBoard(t *testing.T) {
	for seed := range 20 {
		m := newMatch(t, map[string]any{"players": 2, "dealer": seed % 2}, "")
		for s := seed; s > 0; s-- { // vary the play a little
			seat := m.st.ToAct().First()
			l := m.legal(seat)
			m.do(fmt.Sprintf("%d: %s", seat, l[s%len(l)]))
		}
		var before cc.View
		var last card.Card
		for m.st.Result().Deal == 1 && m.st.ToAct() != 0 {
			before = m.view()
			seat := m.st.ToAct().First()
			if h := m.st.(*cc.State).Hand(seat); len(h) == 1 && before.Phase == "play" {
				last = h[0]
			}
			m.playFirst()
		}
		if before.Stock != 0 || before.Phase != "play" || last == card.None {
			t.Fatalf("the deal did not end on a played card: %+v", before)
		}
		board := card.SetOf(before.Lead, last)
		for _, cs := range before.Played {
			board |= card.SetOf(cs...)
		}
		var options [][]int
		for w := 0; w < 2; w++ {
			var marks [2]int
			for p := 0; p < 2; p++ {
				up, down := card.SetOf(before.WonUp[p]...), card.SetOf(before.WonDown[p]...)
				if p == w && (before.Leader == w || before.Leader < 0) {
					up |= board
				} else if p == w {
					down |= board
				}
				marks[p] = cc.Marks(up, down)
			}
			options = append(options, []int{max(marks[0]-marks[1], 0), max(marks[1]-marks[0], 0)})
		}
		row := m.st.Result().DealScores[0]
		if !slices.Equal(row, options[0]) && !slices.Equal(row, options[1]) {
			t.Errorf("seed %d: deal scores %v, want %v or %v", seed, row, options[0], options[1])
		}
	}
}

// TestRuling17_TargetAndWinnerOnly: the deal's points go to the player with
// more marks only; the match ends when someone reaches the target.
func TestRuling17_TargetAndWinnerOnly(t *testing.T) {
	for _, target := range []int{20, 50} {
		m := newMatch(t, map[string]any{"players": 2, "dealer": 0, "target": target}, "")
		for m.st.ToAct() != 0 {
			m.playFirst()
		}
		r := m.st.Result()
		sum := [2]int{}
		for _, row := range r.DealScores {
			if row[0] != 0 && row[1] != 0 {
				t.Errorf("target %d: both players scored in a deal: %v", target, row)
			}
			sum[0] += row[0]
			sum[1] += row[1]
		}
		if sum[0] != r.Totals[0] || sum[1] != r.Totals[1] {
			t.Errorf("totals %v are not the sums of the deals %v", r.Totals, r.DealScores)
		}
		if len(r.Winners) != 1 || r.Totals[r.Winners[0]] < target {
			t.Errorf("target %d: winners %v totals %v", target, r.Winners, r.Totals)
		}
		if prev := r.Totals[r.Winners[0]] - r.DealScores[len(r.DealScores)-1][r.Winners[0]]; prev >= target {
			t.Errorf("target %d: the match went on after %d", target, prev)
		}
		if v := m.view(); v.Lead != card.None || v.Phase != "over" {
			t.Errorf("at the end the Lead is %v (want null, the board cleared), phase %s", v.Lead, v.Phase)
		}
	}
}

// TestRuling18_DealerStays: the same dealer deals every deal; the player on
// her left is first-hand of each deal's first trick.
func TestRuling18_DealerStays(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		m := newMatch(t, map[string]any{"players": n, "dealer": 1}, "")
		for deal := 1; deal <= 3 && m.st.ToAct() != 0; {
			v := m.view()
			if v.Deal != deal {
				deal = v.Deal
				continue
			}
			if v.Dealer != 1 {
				t.Errorf("%d players, deal %d: dealer %d, want 1", n, deal, v.Dealer)
			}
			tricks := 0
			for _, x := range v.Tricks {
				tricks += x
			}
			if v.Leader < 0 && tricks == 0 && v.FirstHand != 2%n {
				t.Errorf("%d players, deal %d: first-hand %d, want %d", n, deal, v.FirstHand, 2%n)
			}
			m.playFirst()
		}
	}
}

var three = map[string]any{"players": 3, "dealer": 2} // seat 0 is first-hand

const layout3 = `{"hands": [["2S","5S","8S","JS","3D","6D"], ["3S","6S","9S","QS","4D","7D"], ["4S","7S","10S","KS","5D","8D"]], "lead": "AH"}`

// TestRuling16_ResignThreePlayers: a resigner is passed over and the others
// play on; her cards stay on the table and may become the Lead.
func TestRuling16_ResignThreePlayers(t *testing.T) {
	m := newMatch(t, three, layout3)
	m.do("0: play 2S", "1: play 3S", "2: play 4S", "0: play 5S", "1: resign")
	m.wantToAct(2)
	m.do("2: play 7S", "0: play 8S")
	m.refuse("1: play 6S", "seat 1 may not act now")
	m.do("2: play 10S")
	v := m.view()
	if v.Phase != "lead" || v.Lines[1] != "resigned" {
		t.Fatalf("phase %s lines %q, want the Lead choice with seat 1 resigned", v.Phase, v.Lines)
	}
	// Seat 2 has 4S 7S 10S: no line (the Lead AH is no help); seat 0 has
	// 2S 5S 8S: no line either; seat 2's 10S is the best card.
	if v.TrickWinner != 2 {
		t.Errorf("winner %d, want 2", v.TrickWinner)
	}
	m.wantLegal(2, "lead 10S", "lead 2S", "lead 3S", "lead 4S", "lead 5S", "lead 7S", "lead 8S")
	m.do("2: lead 3S") // the resigned player's card
	if v := m.view(); v.Lead != card.MustParse("3S") || len(v.WonDown[2]) != 7 {
		t.Errorf("lead %v, seat 2 won face down %v (it was not first-hand), want 3S and 7 cards", v.Lead, v.WonDown[2])
	}
}

// TestRuling16_AllButOneResign: the one left wins at once.
func TestRuling16_AllButOneResign(t *testing.T) {
	m := newMatch(t, three, layout3)
	m.do("0: play 2S", "1: resign", "2: resign")
	m.wantToAct(0)
	m.wantLegal(0, "lead 2S")
	if v := m.view(); v.TrickWinner != 0 || v.Lines[0] != "won by resignation" {
		t.Errorf("winner %d lines %q", v.TrickWinner, v.Lines)
	}
}

// TestRuling16_NoResignAfterThreeCards: once anyone has played 3 cards, no
// other player may resign.
func TestRuling16_NoResignAfterThreeCards(t *testing.T) {
	m := newMatch(t, three, layout3)
	m.do("0: play 2S", "1: play 3S", "2: play 4S", "0: play 5S", "1: play 6S", "2: play 7S")
	if !slices.Contains(m.legal(0), "resign") {
		t.Error("seat 0 may still resign before anyone has played 3 cards")
	}
	m.do("0: play 8S")
	m.refuse("1: resign", "no resigning once a player has played 3 cards")
}

// TestSection2_ThreeOrMoreScoring: everyone scores the difference from the
// lowest marks, several players at once.
func TestSection2_ThreeOrMoreScoring(t *testing.T) {
	for _, n := range []int{3, 4, 6} {
		m := newMatch(t, map[string]any{"players": n, "dealer": 0}, "")
		for m.st.Result().Deal == 1 && m.st.ToAct() != 0 {
			m.playFirst()
		}
		row := m.st.Result().DealScores[0]
		zero := 0
		for _, x := range row {
			if x < 0 {
				t.Errorf("%d players: negative score in %v", n, row)
			}
			if x == 0 {
				zero++
			}
		}
		if zero == 0 {
			t.Errorf("%d players: %v: the lowest should score nothing", n, row)
		}
	}
}

// TestOptions: edition and target choices; the 1862 edition takes two
// players and no target.
func TestOptions(t *testing.T) {
	g := cc.Game{}
	for _, tc := range []struct {
		opts map[string]any
		ok   bool
	}{
		{map[string]any{}, true},
		{map[string]any{"players": 6}, true},
		{map[string]any{"players": 7}, false},
		{map[string]any{"players": 1}, false},
		{map[string]any{"target": 20}, true},
		{map[string]any{"target": "50"}, true},
		{map[string]any{"target": 30}, true},
		{map[string]any{"target": 1}, true},
		{map[string]any{"target": 9999, "players": 6}, true},
		{map[string]any{"target": 7, "players": 3}, true},
		{map[string]any{"target": 0}, false},
		{map[string]any{"target": 10000}, false},
		{map[string]any{"target": "abc"}, false},
		{map[string]any{"target": 2.5}, false},
		{map[string]any{"edition": "1862"}, true},
		{map[string]any{"edition": 1862, "players": 2}, true},
		{map[string]any{"edition": "1862", "players": 3}, false},
		{map[string]any{"edition": "1862", "target": 20}, false},
		{map[string]any{"edition": "1862", "target": 50}, false},
		{map[string]any{"edition": "1862", "target": 1}, false},
		{map[string]any{"edition": "1861"}, false},
	} {
		opts, err := game.Resolve(g, tc.opts)
		if err == nil {
			_, err = g.New(opts, 0, nil)
		}
		if (err == nil) != tc.ok {
			t.Errorf("%v: error %v, want ok=%v", tc.opts, err, tc.ok)
		}
		var oe *game.OptionError
		if err != nil && (!errors.Is(err, game.ErrBadOption) || !errors.As(err, &oe)) {
			t.Errorf("%v: error %v is not a *game.OptionError", tc.opts, err)
		}
	}
}

func TestLayoutRefused(t *testing.T) {
	g := cc.Game{}
	opts, _ := game.Resolve(g, map[string]any{})
	for _, l := range []string{
		`{"hands": [["AS"], null]}`,
		`{"hands": [["AS","2S","3S","4S","5S","6S"], ["AS","2D","3D","4D","5D","6D"]]}`,
		`{"lead": "JK"}`,
		`{"grid": []}`,
		`{"hands": [null, null, null]}`,
	} {
		var lay game.Layout
		if err := json.Unmarshal([]byte(l), &lay); err != nil {
			t.Fatal(err)
		}
		if _, err := g.New(opts, 0, []game.Layout{lay}); !errors.Is(err, game.ErrBadLayout) {
			t.Errorf("%s: %v, want a bad layout", l, err)
		}
	}
}

func TestParseMove(t *testing.T) {
	m := newMatch(t, two, "")
	for _, tc := range []struct{ in, want string }{
		{"play 10h", "play 10H"}, {"PLAY T♥", "play 10H"}, {"resign", "resign"}, {"lead as", "lead AS"},
		{"play 7s for 2h", "play 7S for 2H"}, {"take KC 4D 9s", "take 4D 9S KC"}, {"take AS 2S AH", "take 2S AS AH"},
	} {
		mv, err := m.st.ParseMove(0, tc.in)
		if err != nil || m.st.FormatMove(mv) != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, m.st.FormatMove(mv), err, tc.want)
		}
	}
	for _, in := range []string{"", "play", "play 1H", "play JK", "lead", "resign now", "take", "take 4D 4D", "play 2H for 2H", "pass"} {
		if _, err := m.st.ParseMove(0, in); !errors.Is(err, game.ErrBadMove) {
			t.Errorf("%q: %v, want a bad move", in, err)
		}
	}
}

// bfWinner60 decides a trick with the independent evaluator.
func bfWinner(edition string, sides [][]card.Card, lead card.Card) int {
	w := -1
	var best cc.Line
	for p, own := range sides {
		var l cc.Line
		better := bfBetter60
		if edition == cc.Edition1862 {
			l, better = bfLine62(own, lead), bfBetter62
		} else {
			l = bfLine60(own, lead)
		}
		if w < 0 || better(l, best) {
			w, best = p, l
		}
	}
	return w
}

// TestTricksBruteForce plays random tricks for 2 to 6 players (and 1862)
// through the state and checks the winner, and in 1862 the number of cards
// taken and who chooses the Lead, against the independent evaluator.
// Under -short it plays fewer tricks.
func TestTricksBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2))
	tricks := 3000
	if testing.Short() {
		tricks = 300
	}
	for _, edition := range []string{"1860", "1862"} {
		for n := 2; n <= 6; n++ {
			if edition == "1862" && n > 2 {
				break
			}
			for i := 0; i < tricks; i++ {
				d := newDealer(rng)
				lead := d.draw()
				sides := make([][]card.Card, n)
				hands := make([][]string, n)
				for p := range sides {
					sides[p] = d.drawN(3)
					for _, c := range append(slices.Clone(sides[p]), d.drawN(3)...) {
						hands[p] = append(hands[p], c.String())
					}
				}
				lay, _ := json.Marshal(map[string]any{"hands": hands, "lead": lead.String()})
				m := newMatch(t, map[string]any{"players": n, "edition": edition, "dealer": n - 1}, string(lay))
				for r := 0; r < 3; r++ {
					for p := 0; p < n; p++ {
						m.do(fmt.Sprintf("%d: play %v", p, sides[p][r]))
					}
				}
				v := m.view()
				want := bfWinner(edition, sides, lead)
				if v.TrickWinner != want {
					t.Fatalf("%s, lead %v, sides %v: winner %d (%q), want %d", edition, lead, sides, v.TrickWinner, v.Lines, want)
				}
				if edition == "1862" {
					checkTake62(t, v, sides, lead)
				}
			}
		}
	}
}

// checkTake62 checks 1862 Rule IV against the independent evaluator.
func checkTake62(t *testing.T, v cc.View, sides [][]card.Card, lead card.Card) {
	t.Helper()
	w := v.TrickWinner
	wl, ll := bfLine62(sides[w], lead), bfLine62(sides[1-w], lead)
	own := map[cc.Kind]int{cc.Trio62: 1, cc.Sequence62: 2, cc.Suit: 3}
	loser := map[cc.Kind]int{cc.Trio62: 5, cc.Sequence62: 3, cc.Suit: 1}
	want := 1
	if wl.Kind > ll.Kind || (wl.Kind == ll.Kind && wl.Class > ll.Class) {
		want = own[wl.Kind] + loser[ll.Kind]
	}
	if v.Take != want {
		t.Fatalf("lead %v sides %v: take %d, want %d (%q)", lead, sides, v.Take, want, v.Lines)
	}
}

// TestResolvedOptions: what is stored and shown are the resolved options,
// and they resolve to themselves; 1862's resolved options have no target.
func TestResolvedOptions(t *testing.T) {
	g := cc.Game{}
	for _, given := range []map[string]any{
		{}, {"players": 4, "target": 20}, {"edition": "1862"}, {"edition": "1862", "dealer": 1},
	} {
		o, err := game.Resolve(g, given)
		if err != nil {
			t.Fatalf("%v: %v", given, err)
		}
		_, hasTarget := o["target"]
		if e62 := o.String("edition") == cc.Edition1862; hasTarget == e62 {
			t.Errorf("%v: resolved %v; target present %v with edition %s", given, o, hasTarget, o.String("edition"))
		}
		again, err := game.Resolve(g, o)
		if err != nil {
			t.Fatalf("%v: resolved options %v do not resolve again: %v", given, o, err)
		}
		if fmt.Sprint(again) != fmt.Sprint(o) {
			t.Errorf("%v: resolved %v, then %v", given, o, again)
		}
	}
	if o, _ := game.Resolve(g, nil); o.Int("target") != cc.DefaultTarget {
		t.Errorf("default target %d, want %d", o.Int("target"), cc.DefaultTarget)
	}
}

// TestRuling17_LowTargetEndsTheGame: a target of 1 ends an 1860 game with
// the first deal anyone scores in (two players: only the deal's winner
// scores, so there is no tie).
func TestRuling17_LowTargetEndsTheGame(t *testing.T) {
	for seed := range uint64(20) {
		s := gametest.Start(t, cc.Game{}, map[string]any{"target": 1}, seed, "")
		rng := game.NewRNG(seed)
		game.Playout(s, &rng, nil)
		r := s.Result()
		if !r.Over || len(r.Winners) != 1 {
			t.Fatalf("seed %d: over %v winners %v", seed, r.Over, r.Winners)
		}
		for i, row := range r.DealScores[:len(r.DealScores)-1] {
			for _, v := range row {
				if v > 0 {
					t.Fatalf("seed %d: deal %d scored %v and the game went on", seed, i+1, row)
				}
			}
		}
	}
}
