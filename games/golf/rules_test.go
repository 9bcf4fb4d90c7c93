package golf_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
	"parlour/gametest"
)

// newMatch starts a match from option values and fixed deals (nil: shuffled).
func newMatch(t testing.TB, opts map[string]any, seed uint64, deals ...game.Layout) *golf.State {
	t.Helper()
	o, err := game.Resolve(golf.Game{}, opts)
	if err != nil {
		t.Fatalf("Resolve(%v): %v", opts, err)
	}
	st, err := golf.Game{}.New(o, seed, deals)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st.(*golf.State)
}

// layout builds a script layout from the JSON of its keys; "" leaves a key out.
func layout(layouts, discard, stock string) game.Layout {
	l := game.Layout{}
	if layouts != "" {
		l["layouts"] = json.RawMessage(layouts)
	}
	if discard != "" {
		l["discard"] = json.RawMessage(discard)
	}
	if stock != "" {
		l["stock"] = json.RawMessage(stock)
	}
	return l
}

// move reads "SEAT: MOVE".
func move(t *testing.T, st *golf.State, line string) (int, game.Move) {
	t.Helper()
	seat, m, err := game.ParseSeatMove(st, line)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return seat, m
}

// play applies "SEAT: MOVE" lines, failing the test on any refusal.
func play(t *testing.T, st *golf.State, lines ...string) {
	t.Helper()
	gametest.Play(t, st, lines...)
}

// refuse checks that the move of line is refused with a one-line reason
// containing reason, that the error matches game.ErrIllegalMove, and that
// the state is unchanged.
func refuse(t *testing.T, st *golf.State, line, reason string) {
	t.Helper()
	seat, m := move(t, st, line)
	refuseMove(t, st, seat, m, reason)
}

func refuseMove(t *testing.T, st *golf.State, seat int, m game.Move, reason string) {
	t.Helper()
	before := st.Clone()
	err := game.Apply(st, seat, m)
	if err == nil {
		t.Fatalf("seat %d %q was applied, want a refusal (%s)", seat, st.FormatMove(m), reason)
	}
	if !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("seat %d %q: error %v does not match game.ErrIllegalMove", seat, st.FormatMove(m), err)
	}
	var ie *game.IllegalMoveError
	if !errors.As(err, &ie) || ie.Seat != seat {
		t.Errorf("seat %d %q: error %#v is not an IllegalMoveError for the seat", seat, st.FormatMove(m), err)
	}
	if msg := err.Error(); !strings.Contains(msg, reason) || strings.Contains(msg, "\n") {
		t.Errorf("seat %d %q refused with %q, want one line containing %q", seat, st.FormatMove(m), msg, reason)
	}
	if !reflect.DeepEqual(before, game.State(st)) {
		t.Errorf("seat %d %q: the refusal changed the state", seat, st.FormatMove(m))
	}
}

// legal returns seat's legal moves in notation, sorted.
func legal(st *golf.State, seat int) []string { return game.LegalText(st, seat) }

func checkLegal(t *testing.T, st *golf.State, seat int, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := legal(st, seat); !slices.Equal(got, want) {
		t.Errorf("legal for seat %d = %q, want %q", seat, got, want)
	}
}

func checkToAct(t *testing.T, st *golf.State, want ...int) {
	t.Helper()
	if got := st.ToAct().List(); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("to act = %v, want %v", got, want)
	}
}

func view(st *golf.State, seat int) golf.View { return st.View(seat).(golf.View) }

func viewJSON(t *testing.T, st *golf.State, seat int) string {
	t.Helper()
	b, err := json.Marshal(st.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// faceUp counts the cards of seat's layout that the view shows.
func faceUp(v golf.View, seat int) int {
	n := 0
	for _, c := range v.Layouts[seat] {
		if c != card.None {
			n++
		}
	}
	return n
}

// cards reads six cards; "-" is a card not shown (None).
func cards(s string) [6]card.Card {
	var l [6]card.Card
	for i, f := range strings.Fields(s) {
		if f != "-" {
			l[i] = card.MustParse(f)
		}
	}
	return l
}

func checkResult(t *testing.T, st *golf.State, scores [][]int, totals []int, over bool, winners []int) {
	t.Helper()
	r := st.Result()
	if !reflect.DeepEqual(r.DealScores, scores) || !reflect.DeepEqual(r.Totals, totals) ||
		r.Over != over || !reflect.DeepEqual(r.Winners, winners) {
		t.Errorf("result = scores %v totals %v over %v winners %v; want %v %v %v %v",
			r.DealScores, r.Totals, r.Over, r.Winners, scores, totals, over, winners)
	}
}

// The seed's scoring example, as golf_seed_scoring.txtar plays it: seat 0
// builds AS 6D 9C / KH JK 9C and goes out; seat 1 stops.
var seedDeal = layout(`[["AS","8D","7C","KH","5S","4D"],["2H","3H","4H","5H","6H","7H"]]`, `"10D"`,
	`["6D","10S","JK","JS","9C","QS","9C"]`)

var seedMoves = []string{
	"0: reveal 0", "1: reveal 0",
	"0: draw stock", "0: swap 1", "1: draw stock", "1: discard",
	"0: draw stock", "0: swap 4", "1: draw stock", "1: discard",
	"0: draw stock", "0: swap 2", "1: draw stock", "1: discard",
	"0: draw stock", "0: swap 5",
}

func TestT004_1_SeedScoringExample(t *testing.T) {
	// A+K = 1, 6+JK = 4, 9C+9C = -1: the hole scores 4.
	l := cards("AS 6D 9C KH JK 9C")
	if got := golf.LayoutScore(l); got != 4 {
		t.Errorf("LayoutScore(%v) = %d, want 4", l, got)
	}
	for k, want := range []int{1, 4, -1} {
		if got := golf.ColumnScore(l[k], l[k+3]); got != want {
			t.Errorf("column %d (%v, %v) = %d, want %d", k, l[k], l[k+3], got, want)
		}
	}

	// The same through play.
	st := newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 1}, 0, seedDeal)
	play(t, st, seedMoves...)
	if got := st.Layout(0); got != l {
		t.Errorf("seat 0 layout %v, want %v", got, l)
	}
	play(t, st, "1: stop")
	checkResult(t, st, [][]int{{4, 27}}, []int{4, 27}, true, []int{0})
	checkToAct(t, st)
}

func TestT004_2_ColumnScores(t *testing.T) {
	tests := []struct {
		top, bottom string
		want        int
	}{
		// T004-2.
		{"JK", "JK", -4},
		{"9C", "9D", 0},
		{"9C", "9C", -1},
		{"QS", "JH", 23},
		{"QD", "JD", 23},
		{"KS", "KS", -1},
		// Ruling 10: K♥+K♥ = -1, K♥+K♠ = 0; a joker next to another card adds -2.
		{"KH", "KH", -1},
		{"KH", "KS", 0},
		{"JK", "5D", 3},
		{"JK", "KC", -2},
		{"JK", "AS", -1},
		{"QH", "QH", -1},
		{"QH", "QC", 0},
		{"10S", "10S", -1},
		{"AS", "KH", 1},
		{"6D", "JK", 4},
		{"QS", "QS", -1},
		{"2C", "3C", 5},
	}
	for _, tt := range tests {
		top, bottom := card.MustParse(tt.top), card.MustParse(tt.bottom)
		if got := golf.ColumnScore(top, bottom); got != tt.want {
			t.Errorf("ColumnScore(%s, %s) = %d, want %d", tt.top, tt.bottom, got, tt.want)
		}
		if got := golf.ColumnScore(bottom, top); got != tt.want {
			t.Errorf("ColumnScore(%s, %s) = %d, want %d", tt.bottom, tt.top, got, tt.want)
		}
	}
}

// threeDeal: 3 players, dealer 2, so seat 0 plays first. Seat 0 swaps in
// kings on each of her four turns and goes out on turn 10 with
// AS KS KH / 4S KD KD = 5 + 0 + 0 = 5; seats 1 and 2 draw and discard.
// Then the stock holds JK, QC.
var threeDeal = layout(`[["AS","2S","3S","4S","5S","6S"],["2H","3H","4H","5H","6H","7H"],["2D","3D","4D","5D","6D","7D"]]`,
	`"KC"`, `["KS","8C","8C","KH","9C","9C","KD","10C","10C","KD","JK","QC"]`)

var threeMoves = []string{
	"0: reveal 0", "1: reveal 1", "2: reveal 2",
	"0: draw stock", "0: swap 1", "1: draw stock", "1: discard", "2: draw stock", "2: discard",
	"0: draw stock", "0: swap 2", "1: draw stock", "1: discard", "2: draw stock", "2: discard",
	"0: draw stock", "0: swap 4", "1: draw stock", "1: discard", "2: draw stock", "2: discard",
	"0: draw stock", // KD, to go in at 5
}

func threeMatch(t *testing.T) *golf.State {
	t.Helper()
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	play(t, st, threeMoves...)
	return st
}

func TestT004_3_DiscardMustBeSwappedAndNoFlip(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2")
	// Turn 1: P1 draws from the discard and must swap it in.
	play(t, st, "0: draw discard")
	checkLegal(t, st, 0, "swap 0", "swap 1", "swap 2", "swap 3", "swap 4", "swap 5")
	refuse(t, st, "0: discard", "a card taken from the discard pile must be swapped into the layout")
	play(t, st, "0: swap 1")
	if got := view(st, 1).Layouts[0]; got != cards("AS KC - 4S - -") {
		t.Errorf("seat 0 shows %v after swapping KC in at 1", got)
	}
	// P2 draws from the stock and discards it: no flip, the turn ends.
	play(t, st, "1: draw stock", "1: discard")
	v := view(st, 1)
	if faceUp(v, 1) != 2 || v.Discard != card.MustParse("KS") || v.Holding {
		t.Errorf("after the discard: %d cards up, discard %v, holding %v", faceUp(v, 1), v.Discard, v.Holding)
	}
	checkToAct(t, st, 2)
}

func TestT004_4_FinalPlayAfterGoingOut(t *testing.T) {
	// P1-P4 are seats 0-3, dealer 3. P2 (seat 1) builds QS KS KC / JS KH KC
	// = 23 + 0 - 1 = 22 and goes out on her fourth turn. P3 draws JK and
	// swaps it in at 0: JK+5H, 3H+6H, 4H+7H = 3 + 9 + 11 = 23. P4 stops:
	// 7 + 9 + 11 = 27. P1 draws AS and discards it: AC+4C, 2C+5C, 3C+6C
	// = 5 + 7 + 9 = 21.
	deal := layout(`[["AC","2C","3C","4C","5C","6C"],["QS","QH","QD","JS","JH","JD"],`+
		`["2H","3H","4H","5H","6H","7H"],["2D","3D","4D","5D","6D","7D"]]`, `"8S"`,
		`["9S","KS","9S","9H","9H","KH","9D","9D","10S","KC","10S","10H","10H","KC","JK","AS"]`)
	st := newMatch(t, map[string]any{"players": 4, "dealer": 3, "holes": 1}, 3, deal)
	play(t, st, "0: reveal 0", "1: reveal 0", "2: reveal 1", "3: reveal 2")
	checkToAct(t, st, 0)
	swaps := []int{1, 4, 2, 5}
	for round := range 4 {
		play(t, st, "0: draw stock", "0: discard", "1: draw stock", fmt.Sprintf("1: swap %d", swaps[round]))
		if round < 3 {
			play(t, st, "2: draw stock", "2: discard", "3: draw stock", "3: discard")
		}
	}
	if got := st.Layout(1); got != cards("QS KS KC JS KH KC") {
		t.Fatalf("P2's layout %v", got)
	}
	for _, step := range []struct {
		seat int
		move []string
	}{
		{2, []string{"2: draw stock", "2: swap 0"}},
		{3, []string{"3: stop"}},
		{0, []string{"0: draw stock", "0: discard"}},
	} {
		checkToAct(t, st, step.seat)
		v := view(st, game.Spectator)
		if v.Phase != "final" || v.Out != 1 || faceUp(v, step.seat) != 6 {
			t.Errorf("seat %d's final turn: phase %q, out %d, %d cards up", step.seat, v.Phase, v.Out, faceUp(v, step.seat))
		}
		checkLegal(t, st, step.seat, "draw stock", "stop")
		play(t, st, step.move...)
	}
	checkResult(t, st, [][]int{{21, 22, 23, 27}}, []int{21, 22, 23, 27}, true, []int{0})
}

func TestRuling1_Players(t *testing.T) {
	o, err := game.Resolve(golf.Game{}, nil)
	if err != nil || o.Players() != 4 || o.Int("holes") != 9 || o.Dealer() != game.DealerRandom {
		t.Errorf("defaults: %v, %v; want 4 players, 9 holes, a random dealer", o, err)
	}
	if lo, hi := (golf.Game{}).Players(); lo != 2 || hi != 8 {
		t.Errorf("Players() = %d, %d; want 2, 8", lo, hi)
	}
	for _, tt := range []struct {
		opts   map[string]any
		option string
	}{
		{map[string]any{"players": 1}, "players"},
		{map[string]any{"players": 9}, "players"},
		{map[string]any{"holes": 0}, "holes"},
		{map[string]any{"holes": 100}, "holes"},
		{map[string]any{"players": 2.5}, "players"},
		{map[string]any{"players": 3, "dealer": 3}, "dealer"},
		{map[string]any{"players": 3, "dealer": -1}, "dealer"},
		{map[string]any{"target": -1}, "target"},
		{map[string]any{"target": 10000}, "target"},
		{map[string]any{"goal": 30}, "goal"},
	} {
		_, err := game.Resolve(golf.Game{}, tt.opts)
		var oe *game.OptionError
		if !errors.Is(err, game.ErrBadOption) || !errors.As(err, &oe) || oe.Option != tt.option {
			t.Errorf("Resolve(%v) = %v, want a bad %q option", tt.opts, err, tt.option)
		}
	}
	// 2 to 8 players: with 8, 48 + 1 cards are dealt and 59 remain in the stock.
	for n := 2; n <= 8; n++ {
		st := newMatch(t, map[string]any{"players": n}, uint64(n))
		v := view(st, game.Spectator)
		if st.Players() != n || v.Stock != 108-6*n-1 || v.Discards != 1 || v.Holes != 9 {
			t.Errorf("%d players: stock %d, discards %d, holes %d", n, v.Stock, v.Discards, v.Holes)
		}
	}
}

func TestRuling2_SimultaneousReveal(t *testing.T) {
	start := func() *golf.State {
		return newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	}
	st := start()
	checkToAct(t, st, 0, 1, 2)
	for seat := range 3 {
		checkLegal(t, st, seat, "reveal 0", "reveal 1", "reveal 2")
	}
	refuse(t, st, "0: draw stock", "every player must first turn up a column")
	refuse(t, st, "0: stop", "every player must first turn up a column")

	play(t, st, "1: reveal 2")
	checkToAct(t, st, 0, 2)
	checkLegal(t, st, 1)
	refuse(t, st, "1: reveal 0", "you have already chosen a column this hole")
	refuse(t, st, "1: reveal 2", "you have already chosen a column this hole")

	// Nobody else sees seat 1's choice; seat 1 sees its own.
	if v := view(st, 1); v.MyReveal != 2 || faceUp(v, 1) != 0 {
		t.Errorf("seat 1's own view: my_reveal %d, %d cards up", v.MyReveal, faceUp(v, 1))
	}
	other := start()
	play(t, other, "1: reveal 0")
	for _, seat := range []int{0, 2, game.Spectator} {
		v := view(st, seat)
		if v.MyReveal != -1 || faceUp(v, 1) != 0 || !reflect.DeepEqual(v.Chosen, []bool{false, true, false}) {
			t.Errorf("view %d: my_reveal %d, %d of seat 1's cards up, chosen %v", seat, v.MyReveal, faceUp(v, 1), v.Chosen)
		}
		if a, b := viewJSON(t, st, seat), viewJSON(t, other, seat); a != b {
			t.Errorf("view %d differs with seat 1's choice:\n%s\n%s", seat, a, b)
		}
	}

	// Any order; once all have chosen, the columns turn up together. Seat 2,
	// having chosen too, still sees nothing of seat 1's choice.
	play(t, st, "2: reveal 0")
	play(t, other, "2: reveal 0")
	checkToAct(t, st, 0)
	if v := view(st, 2); v.MyReveal != 0 {
		t.Errorf("seat 2's own view: my_reveal %d, want 0", v.MyReveal)
	}
	for _, seat := range []int{0, 2, game.Spectator} {
		if a, b := viewJSON(t, st, seat), viewJSON(t, other, seat); a != b {
			t.Errorf("view %d differs with seat 1's choice:\n%s\n%s", seat, a, b)
		}
	}
	if v := view(st, game.Spectator); faceUp(v, 2) != 0 || v.Phase != "reveal" {
		t.Errorf("seat 2's column shows before all chose: %v, phase %q", v.Layouts[2], v.Phase)
	}
	play(t, st, "0: reveal 1")
	v := view(st, game.Spectator)
	want := [][6]card.Card{cards("- 2S - - 5S -"), cards("- - 4H - - 7H"), cards("2D - - 5D - -")}
	if !reflect.DeepEqual(v.Layouts, want) || v.Phase != "play" {
		t.Errorf("after the reveal: %v, phase %q; want %v", v.Layouts, v.Phase, want)
	}
	checkToAct(t, st, 0)
	refuse(t, st, "0: reveal 0", "columns are turned up only at the start of a hole")
}

func TestRuling3_NoFlipAfterDiscard(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2", "0: draw stock")
	checkLegal(t, st, 0, "discard", "swap 0", "swap 1", "swap 2", "swap 3", "swap 4", "swap 5")
	before := st.Layout(0)
	play(t, st, "0: discard")
	v := view(st, 0)
	if st.Layout(0) != before || faceUp(v, 0) != 2 {
		t.Errorf("after the discard seat 0 has %v with %d cards up", st.Layout(0), faceUp(v, 0))
	}
	if v.Discard != card.MustParse("KS") || v.Discards != 2 || v.Holding {
		t.Errorf("discard pile top %v (%d cards), holding %v", v.Discard, v.Discards, v.Holding)
	}
	// The turn simply ends: nothing more for seat 0, seat 1 draws.
	checkToAct(t, st, 1)
	checkLegal(t, st, 0)
	checkLegal(t, st, 1, "draw discard", "draw stock")
	refuse(t, st, "0: reveal 1", "seat 0 may not act now")
}

func TestRuling4_DiscardOfPileCardRefused(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2", "0: draw stock", "0: discard", "1: draw discard")
	checkLegal(t, st, 1, "swap 0", "swap 1", "swap 2", "swap 3", "swap 4", "swap 5")
	refuse(t, st, "1: discard", "a card taken from the discard pile must be swapped into the layout")
	refuse(t, st, "1: draw stock", "you already hold a drawn card")
	refuse(t, st, "1: draw discard", "you already hold a drawn card")
	refuse(t, st, "1: stop", "stop is only for the final play")
	play(t, st, "1: swap 0")
	if got := st.Layout(1)[0]; got != card.MustParse("KS") {
		t.Errorf("seat 1 position 0 = %v, want KS", got)
	}
	if v := view(st, 2); v.Discard != card.MustParse("2H") || v.Layouts[1][0] != card.MustParse("KS") {
		t.Errorf("discard top %v, seat 1 position 0 shows %v", v.Discard, v.Layouts[1][0])
	}
}

func TestRuling5_SwapIntoFaceUpPosition(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2", "0: draw stock", "0: swap 3")
	v := view(st, 1)
	if v.Layouts[0] != cards("AS - - KS - -") || v.Discard != card.MustParse("4S") || v.Discards != 2 {
		t.Errorf("after swapping KS for the face-up 4S: %v, discard %v (%d)", v.Layouts[0], v.Discard, v.Discards)
	}
}

func TestRuling6_GoingOutEndsAtEndOfTurn(t *testing.T) {
	st := threeMatch(t) // seat 0 holds KD with five cards up
	v := view(st, game.Spectator)
	if faceUp(v, 0) != 5 || v.Out != -1 || v.Phase != "play" {
		t.Fatalf("before the last swap: %d up, out %d, phase %q", faceUp(v, 0), v.Out, v.Phase)
	}

	// Swapping into a face-up position leaves a card down: not out.
	notOut := st.Clone().(*golf.State)
	play(t, notOut, "0: swap 0")
	if v := view(notOut, game.Spectator); v.Out != -1 || v.Phase != "play" || faceUp(v, 0) != 5 {
		t.Errorf("after swapping into a face-up card: out %d, phase %q, %d up", v.Out, v.Phase, faceUp(v, 0))
	}
	checkToAct(t, notOut, 1)
	checkLegal(t, notOut, 1, "draw discard", "draw stock")

	// Turning the last card up: out at the end of the turn, final play next.
	play(t, st, "0: swap 5")
	v = view(st, game.Spectator)
	if v.Out != 0 || v.Phase != "final" || faceUp(v, 0) != 6 {
		t.Errorf("after the last card turned up: out %d, phase %q, %d up", v.Out, v.Phase, faceUp(v, 0))
	}
	checkToAct(t, st, 1)
	checkLegal(t, st, 0)
	play(t, st, "1: stop")
	checkToAct(t, st, 2)
	play(t, st, "2: stop")
	// She takes no further action: the hole is scored.
	checkToAct(t, st)
	checkResult(t, st, [][]int{{5, 27, 27}}, []int{5, 27, 27}, true, []int{0})
	refuse(t, st, "0: draw stock", "the match is over")
}

func TestRuling7_FinalPlay(t *testing.T) {
	// Seat 0 goes out with 5. Seat 1 (2H-7H, 27) has her final turn, then
	// seat 2 (2D-7D, 27). The stock holds JK then QC.
	tests := []struct {
		name    string
		moves   []string
		scores  []int
		discard string // the discard pile's top at the end
	}{
		// Seat 1 stops: 27. Seat 2 draws JK, puts it at 0: JK+5D = 3, 3D+6D = 9,
		// 4D+7D = 11: 23.
		{"stop", []string{"1: stop", "2: draw stock", "2: swap 0"}, []int{5, 27, 23}, "2D"},
		// Seat 1 draws JK, puts it at 5: 2H+5H = 7, 3H+6H = 9, 4H+JK = 2: 18.
		// Seat 2 draws QC and throws it away: 27.
		{"draw and swap", []string{"1: draw stock", "1: swap 5", "2: draw stock", "2: discard"}, []int{5, 18, 27}, "QC"},
		// Seat 1 draws JK and throws it away: 27. Seat 2 stops: 27.
		{"draw and discard", []string{"1: draw stock", "1: discard", "2: stop"}, []int{5, 27, 27}, "JK"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := threeMatch(t)
			play(t, st, "0: swap 5")
			// Seat 1's face-down cards turn up on her turn; seat 2's wait for hers.
			v := view(st, game.Spectator)
			if v.Layouts[1] != cards("2H 3H 4H 5H 6H 7H") || faceUp(v, 2) != 2 {
				t.Errorf("final play, seat 1 to act: seat 1 shows %v, seat 2 %v", v.Layouts[1], v.Layouts[2])
			}
			checkLegal(t, st, 1, "draw stock", "stop")
			refuse(t, st, "1: draw discard", "in the final play a card may be drawn only from the stock")
			refuse(t, st, "1: swap 0", "draw a card first")
			refuse(t, st, "1: discard", "draw a card first")
			refuse(t, st, "2: stop", "seat 2 may not act now")
			for i, line := range tt.moves {
				play(t, st, line)
				if line == "1: draw stock" {
					checkLegal(t, st, 1, "discard", "swap 0", "swap 1", "swap 2", "swap 3", "swap 4", "swap 5")
					refuse(t, st, "1: stop", "you have drawn a card: swap it into your layout or discard it")
					refuse(t, st, "1: draw stock", "you already hold a drawn card")
				}
				if i+1 < len(tt.moves) && strings.HasPrefix(tt.moves[i+1], "2:") && !strings.HasPrefix(line, "2:") {
					checkToAct(t, st, 2)
					if v := view(st, game.Spectator); faceUp(v, 2) != 6 {
						t.Errorf("seat 2's final turn: her cards show %v", v.Layouts[2])
					}
					checkLegal(t, st, 2, "draw stock", "stop")
					refuse(t, st, "2: draw discard", "in the final play a card may be drawn only from the stock")
				}
			}
			checkResult(t, st, [][]int{tt.scores}, tt.scores, true, []int{0})
			if v := view(st, game.Spectator); v.Discard != card.MustParse(tt.discard) || v.Phase != "over" {
				t.Errorf("at the end: discard top %v, phase %q; want %s, over", v.Discard, v.Phase, tt.discard)
			}
		})
	}
}

// pileCards returns the cards of the place named name.
func pileCards(st *golf.State, name string) []card.Card {
	var out []card.Card
	for _, p := range st.Places() {
		if p.Name == name {
			out = append(out, p.Cards...)
		}
	}
	return out
}

func TestRuling8_StockReshuffle(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 1}, 8, seedDeal)
	play(t, st, "0: reveal 0", "1: reveal 0")
	if v := view(st, game.Spectator); v.Stock != 95 || v.Discards != 1 {
		t.Fatalf("start: stock %d, discards %d; want 95, 1", v.Stock, v.Discards)
	}
	// Draw from the stock and throw away, turn after turn, until it is empty.
	for turn := 0; view(st, game.Spectator).Stock > 0; turn++ {
		seat := st.Turn()
		play(t, st, fmt.Sprintf("%d: draw stock", seat), fmt.Sprintf("%d: discard", seat))
		if turn > 100 {
			t.Fatal("the stock does not empty")
		}
	}
	v := view(st, game.Spectator)
	if v.Discards != 96 || v.Out != -1 {
		t.Fatalf("stock empty: %d discards, out %d; want 96, -1", v.Discards, v.Out)
	}
	seat := st.Turn()
	checkLegal(t, st, seat, "draw discard", "draw stock")
	pile := pileCards(st, "discard pile") // bottom first
	top, under := pile[len(pile)-1], pile[:len(pile)-1]

	play(t, st, fmt.Sprintf("%d: draw stock", seat))
	v = view(st, game.Spectator)
	if v.Stock != 94 || v.Discards != 1 || v.Discard != top {
		t.Errorf("after the reshuffle: stock %d, discards %d, top %v; want 94, 1, %v", v.Stock, v.Discards, v.Discard, top)
	}
	drawn := view(st, seat).Drawn
	stock := pileCards(st, "stock")
	if got, want := card.Count(stock, []card.Card{drawn}), card.Count(under); got != want {
		t.Errorf("the new stock and the drawn card are not the discards under the top:\n%s + %v\n%s",
			card.Join(stock), drawn, card.Join(under))
	}
	if slices.Equal(append(slices.Clone(stock), drawn), under) {
		t.Error("the new stock is the discard pile in order: not shuffled")
	}
	// Every card is still somewhere.
	var all [][]card.Card
	for _, p := range st.Places() {
		all = append(all, p.Cards)
	}
	if got := card.Count(all...); got != card.Count(card.Pack108()) {
		t.Errorf("the places hold %d cards, not the pack", got.Total())
	}
	play(t, st, fmt.Sprintf("%d: discard", seat))
	checkToAct(t, st, 1-seat)
}

func TestRuling9_CardValues(t *testing.T) {
	// Next to a card of another rank worth 0 (a king), a card scores its value.
	values := map[string]int{
		"AS": 1, "2H": 2, "3D": 3, "4C": 4, "5S": 5, "6H": 6, "7D": 7, "8C": 8, "9S": 9, "10H": 10,
		"JD": 11, "QC": 12, "JK": -2,
	}
	for c, want := range values {
		if got := golf.ColumnScore(card.MustParse(c), card.MustParse("KS")); got != want {
			t.Errorf("%s + KS = %d, want %d", c, got, want)
		}
	}
	if got := golf.ColumnScore(card.MustParse("KS"), card.MustParse("AH")); got != 1 {
		t.Errorf("KS + AH = %d, want 1 (K = 0)", got)
	}
}

func TestRuling10_PairsOnlyInColumns(t *testing.T) {
	tests := []struct {
		layout string
		want   int
	}{
		// A row pair does not pair: 9S+4D, 9H+4H, 3C+5S.
		{"9S 9H 3C 4D 4H 5S", 13 + 13 + 8},
		// Column pairs: 9C+9C = -1, 9C+9D = 0, QS+QH = 0.
		{"9C 9C QS 9C 9D QH", -1 + 0 + 0},
		// Three of a rank, two in one column.
		{"KH KH KH KH KS 2C", -1 + 0 + 2},
		// Jokers: a pair -4, a lone joker -2 (in a row with another: no pair).
		{"JK JK JK JK 5D 6C", -4 + 3 + 4},
	}
	for _, tt := range tests {
		if got := golf.LayoutScore(cards(tt.layout)); got != tt.want {
			t.Errorf("LayoutScore(%s) = %d, want %d", tt.layout, got, tt.want)
		}
	}
}

func TestRuling11_JokerSuitIrrelevant(t *testing.T) {
	// Every joker is the one card JK: a pair of them is the joker pair (-4),
	// never the same-suit pair (-1).
	for _, s := range []string{"JK", "jk", " Jk "} {
		if c := card.MustParse(s); c != card.Joker {
			t.Errorf("%q = %v, want the joker", s, c)
		}
	}
	if got := golf.ColumnScore(card.Joker, card.Joker); got != -4 {
		t.Errorf("JK + JK = %d, want -4", got)
	}
	if got := card.Count(card.Pack108())[card.Joker]; got != 4 {
		t.Errorf("the pack has %d jokers, want 4", got)
	}
}

// playHole plays the current hole out with a simple policy: every seat
// turns up column 0, draws from the stock and swaps into its first
// face-down position; in the final play it stops.
func playHole(t *testing.T, st *golf.State) {
	t.Helper()
	hole := st.Result().Deal
	for steps := 0; st.Result().Deal == hole && !st.Result().Over; steps++ {
		if steps > 1000 {
			t.Fatal("the hole does not end")
		}
		v := view(st, game.Spectator)
		switch v.Phase {
		case "reveal":
			play(t, st, fmt.Sprintf("%d: reveal 0", v.ToAct[0]))
		case "final":
			play(t, st, fmt.Sprintf("%d: stop", v.ToAct[0]))
		default:
			seat := st.Turn()
			p := slices.Index(v.Layouts[seat][:], card.None)
			play(t, st, fmt.Sprintf("%d: draw stock", seat), fmt.Sprintf("%d: swap %d", seat, p))
		}
	}
}

func TestRuling12_SharedWin(t *testing.T) {
	// Seat 0 builds KS KC KC / KH KD KD = 0 + 0 + 0 = 0 and goes out; seat 1
	// stops with QH JH 5H / QS JS 5S = 0 + 0 + 0 = 0: both win.
	deal := layout(`[["KS","2S","3S","KH","5S","6S"],["QH","JH","5H","QS","JS","5S"]]`, `"10D"`,
		`["KC","AC","KC","AC","KD","AD","KD"]`)
	st := newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 1}, 12, deal)
	play(t, st, "0: reveal 0", "1: reveal 0",
		"0: draw stock", "0: swap 1", "1: draw stock", "1: discard",
		"0: draw stock", "0: swap 2", "1: draw stock", "1: discard",
		"0: draw stock", "0: swap 4", "1: draw stock", "1: discard",
		"0: draw stock", "0: swap 5", "1: stop")
	checkResult(t, st, [][]int{{0, 0}}, []int{0, 0}, true, []int{0, 1})

	// Over several holes the totals decide, and every seat tied for the
	// lowest total wins.
	for seed := range uint64(20) {
		st := newMatch(t, map[string]any{"players": 3, "holes": 2}, seed)
		for !st.Result().Over {
			playHole(t, st)
		}
		r := st.Result()
		best := slices.Min(r.Totals)
		var want []int
		for i, total := range r.Totals {
			if total == best {
				want = append(want, i)
			}
			if total != r.DealScores[0][i]+r.DealScores[1][i] {
				t.Errorf("seed %d: seat %d total %d is not the sum of %v", seed, i, total, r.DealScores)
			}
		}
		if !slices.Equal(r.Winners, want) {
			t.Errorf("seed %d: totals %v, winners %v; want %v", seed, r.Totals, r.Winners, want)
		}
	}
}

func TestRuling13_DealerRotates(t *testing.T) {
	for _, tt := range []struct {
		opts map[string]any
		seed uint64
	}{
		{map[string]any{"players": 4}, 13},             // random first dealer, 9 holes
		{map[string]any{"players": 3, "dealer": 2}, 0}, // seat 0 first in hole 1
		{map[string]any{"players": 5, "holes": 6, "dealer": 0}, 5},
	} {
		st := newMatch(t, tt.opts, tt.seed)
		n := st.Players()
		first := view(st, game.Spectator).Dealer
		if d, ok := tt.opts["dealer"]; ok && first != d {
			t.Errorf("%v: first dealer %d", tt.opts, first)
		}
		holes := view(st, game.Spectator).Holes
		for k := range holes {
			v := view(st, game.Spectator)
			dealer := (first + k) % n
			if v.Hole != k+1 || v.Dealer != dealer || v.Phase != "reveal" {
				t.Fatalf("%v hole %d: hole %d, dealer %d, phase %q; want dealer %d", tt.opts, k+1, v.Hole, v.Dealer, v.Phase, dealer)
			}
			if len(v.ToAct) != n {
				t.Errorf("%v hole %d: to act %v at the reveal", tt.opts, k+1, v.ToAct)
			}
			for seat := range n {
				play(t, st, fmt.Sprintf("%d: reveal 1", seat))
			}
			if st.Turn() != (dealer+1)%n {
				t.Errorf("%v hole %d: dealer %d, seat %d plays first; want %d", tt.opts, k+1, dealer, st.Turn(), (dealer+1)%n)
			}
			checkToAct(t, st, (dealer+1)%n)
			playHole(t, st)
			if got := len(st.Result().DealScores); got != k+1 {
				t.Fatalf("%v: %d holes scored after hole %d", tt.opts, got, k+1)
			}
		}
		if !st.Result().Over {
			t.Errorf("%v: not over after %d holes", tt.opts, holes)
		}
	}
}

func TestRuling14_Information(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	// Before the reveal no layout card shows, not even to its owner.
	for _, seat := range []int{0, 1, 2, game.Spectator} {
		v := view(st, seat)
		for i := range 3 {
			if faceUp(v, i) != 0 {
				t.Errorf("view %d before the reveal shows seat %d's %v", seat, i, v.Layouts[i])
			}
		}
		if v.Discard != card.MustParse("KC") || v.Stock != 108-18-1 {
			t.Errorf("view %d: discard %v, stock %d", seat, v.Discard, v.Stock)
		}
	}
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2")
	want := [][6]card.Card{cards("AS - - 4S - -"), cards("- 3H - - 6H -"), cards("- - 4D - - 7D")}
	for _, seat := range []int{0, 1, 2, game.Spectator} {
		if v := view(st, seat); !reflect.DeepEqual(v.Layouts, want) {
			t.Errorf("view %d shows %v, want %v (face-down cards null, the owner's too)", seat, v.Layouts, want)
		}
		if js := viewJSON(t, st, seat); !strings.Contains(js, `"layouts":[["AS",null,null,"4S",null,null],`) {
			t.Errorf("view %d JSON: %s", seat, js)
		}
	}

	// A card drawn from the stock is seen by the drawer only.
	play(t, st, "0: draw stock") // KS
	for _, seat := range []int{0, 1, 2, game.Spectator} {
		v := view(st, seat)
		wantDrawn := card.None
		if seat == 0 {
			wantDrawn = card.MustParse("KS")
		}
		if v.Drawn != wantDrawn || !v.Holding || v.DrawnFrom != "stock" {
			t.Errorf("view %d: drawn %v (holding %v, from %q), want %v", seat, v.Drawn, v.Holding, v.DrawnFrom, wantDrawn)
		}
		if js := viewJSON(t, st, seat); strings.Contains(js, `"KS"`) != (seat == 0) {
			t.Errorf("view %d JSON shows KS: %v", seat, strings.Contains(js, `"KS"`))
		}
	}
	// Thrown away, it is public.
	play(t, st, "0: discard")
	for _, seat := range []int{1, 2, game.Spectator} {
		if v := view(st, seat); v.Discard != card.MustParse("KS") || v.Holding || v.Drawn != card.None {
			t.Errorf("view %d after the discard: top %v, holding %v, drawn %v", seat, v.Discard, v.Holding, v.Drawn)
		}
	}
	// A card drawn from the discard pile is seen by all.
	play(t, st, "1: draw discard")
	for _, seat := range []int{0, 1, 2, game.Spectator} {
		v := view(st, seat)
		if v.Drawn != card.MustParse("KS") || !v.Holding || v.DrawnFrom != "discard" || v.Discard != card.MustParse("KC") {
			t.Errorf("view %d: drawn %v from %q, top %v; want KS from discard, KC", seat, v.Drawn, v.DrawnFrom, v.Discard)
		}
	}
	// Swapped in, it lies face up; the card it replaces, face down till now,
	// is public on the discard pile.
	play(t, st, "1: swap 0")
	for _, seat := range []int{0, 1, 2, game.Spectator} {
		v := view(st, seat)
		if v.Layouts[1] != cards("KS 3H - - 6H -") || v.Discard != card.MustParse("2H") {
			t.Errorf("view %d after the swap: %v, top %v", seat, v.Layouts[1], v.Discard)
		}
	}
}

func TestLayoutsRefused(t *testing.T) {
	var stock96 []string
	for _, c := range card.Pack108()[:96] {
		stock96 = append(stock96, `"`+c.String()+`"`)
	}
	long := "[" + strings.Join(stock96, ",") + "]"
	two := `[["AS","2S","3S","4S","5S","6S"],["2H","3H","4H","5H","6H","7H"]]`
	tests := []struct {
		name   string
		deals  []game.Layout
		reason string
	}{
		{"no such card", []game.Layout{layout(`[["1S","2S","3S","4S","5S","6S"],null]`, "", "")}, `"1S" is not a card`},
		{"placed 3 times", []game.Layout{layout(`[["AS","AS","3S","4S","5S","6S"],null]`, `"AS"`, "")}, "AS is placed 3 times but the pack holds it 2 times"},
		{"across piles", []game.Layout{layout(two, `"AS"`, `["AS"]`)}, "AS is placed 3 times"},
		{"5 jokers", []game.Layout{layout(`[["JK","JK","JK","JK","JK","6S"],null]`, "", "")}, "JK is placed 5 times but the pack holds it 4 times"},
		{"5 cards", []game.Layout{layout(`[["AS","2S","3S","4S","5S"],null]`, "", "")}, "layouts[0] has 5 cards; a layout is 6 cards"},
		{"7 cards", []game.Layout{layout(`[null,["AS","2S","3S","4S","5S","6S","7S"]]`, "", "")}, "layouts[1] has 7 cards"},
		{"stock too long", []game.Layout{layout("", "", long)}, "the stock lists 96 cards; with 2 players it holds 95"},
		{"seat count", []game.Layout{layout(`[["AS","2S","3S","4S","5S","6S"]]`, "", "")}, `"layouts" has 1 entries for 2 seats`},
		{"bad discard", []game.Layout{layout("", `"ZZ"`, "")}, `"ZZ" is not a card`},
		{"two discards", []game.Layout{layout("", `["AS","KS"]`, "")}, `layout "discard" must be one card`},
		{"unknown key", []game.Layout{{"hands": json.RawMessage(`[]`)}}, `layout key "hands" is not used`},
		{"second deal", []game.Layout{layout(two, "", ""), layout(`[["AS","2S","3S","4S","5S"],null]`, "", "")}, "deal 2: layouts[0] has 5 cards"},
	}
	o, err := game.Resolve(golf.Game{}, map[string]any{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		_, err := golf.Game{}.New(o, 0, tt.deals)
		if !errors.Is(err, game.ErrBadLayout) || !strings.Contains(fmt.Sprint(err), tt.reason) {
			t.Errorf("%s: New error %v, want a bad layout saying %q", tt.name, err, tt.reason)
		}
	}
	// The longest stock is accepted, top first.
	st := newMatch(t, map[string]any{"players": 2, "dealer": 0}, 0,
		layout("", "", "["+strings.Join(stock96[:95], ",")+"]"))
	play(t, st, "0: reveal 0", "1: reveal 0", "1: draw stock")
	if got := view(st, 1).Drawn; got != card.Pack108()[0] {
		t.Errorf("first stock card drawn: %v, want %v", got, card.Pack108()[0])
	}
}

func TestBadMoveTexts(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 2}, 0)
	tests := []struct{ text, reason string }{
		{"swap 7", "no position 7 (positions are 0-5)"},
		{"swap -1", "no position -1 (positions are 0-5)"},
		{"swap x", "no position x (positions are 0-5)"},
		{"swap", `"swap" needs one position number (0-5)`},
		{"swap 1 2", `"swap" needs one position number (0-5)`},
		{"reveal 3", "no column 3 (columns are 0-2)"},
		{"fly", `"fly" is not a golf move`},
		{"", "empty move"},
		{"   ", "empty move"},
		{"draw", "draw from where?"},
		{"draw hand", "draw from where?"},
		{"discard 2", `"discard" takes nothing after it`},
		{"stop now", `"stop" takes nothing after it`},
	}
	for _, tt := range tests {
		_, err := st.ParseMove(0, tt.text)
		if !errors.Is(err, game.ErrBadMove) || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("ParseMove(%q) = %v, want a bad move saying %q", tt.text, err, tt.reason)
		}
	}
	if _, err := st.ParseMove(0, "swap 7"); err == nil || err.Error() != "no position 7 (positions are 0-5)" {
		t.Errorf("ParseMove(\"swap 7\") = %v", err)
	}
	// Every move's notation reads back; input is case-insensitive.
	for _, m := range golf.AllMoves() {
		text := st.FormatMove(m)
		for _, in := range []string{text, strings.ToUpper(text), "  " + strings.ReplaceAll(text, " ", "   ") + " "} {
			if got, err := st.ParseMove(1, in); err != nil || got != m {
				t.Errorf("ParseMove(%q) = %v, %v; want %v", in, got, err, m)
			}
		}
	}
	want := map[game.Move]string{
		golf.Reveal(2): "reveal 2", golf.Swap(5): "swap 5", golf.DrawStock: "draw stock",
		golf.DrawDiscard: "draw discard", golf.Discard: "discard", golf.Stop: "stop",
	}
	for m, text := range want {
		if got := st.FormatMove(m); got != text {
			t.Errorf("FormatMove(%d) = %q, want %q", m, got, text)
		}
	}
}

func TestApplyRefusalsChangeNothing(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "dealer": 2, "holes": 1}, 1, threeDeal)
	refuseMove(t, st, 3, golf.Reveal(0), "no seat 3 (seats are 0-2)")
	refuseMove(t, st, -1, golf.Reveal(0), "no seat -1")
	refuseMove(t, st, 0, golf.Swap(0), "every player must first turn up a column")
	play(t, st, "0: reveal 0", "1: reveal 1", "2: reveal 2")
	// Seat 0 to draw.
	refuse(t, st, "1: draw stock", "seat 1 may not act now")
	refuse(t, st, "0: swap 0", "draw a card first")
	refuse(t, st, "0: discard", "draw a card first")
	refuse(t, st, "0: stop", "stop is only for the final play")
	refuse(t, st, "0: reveal 1", "columns are turned up only at the start of a hole")
	refuseMove(t, st, 0, game.Move(99), "not a golf move")
	// Seat 0 holds a card from the stock.
	play(t, st, "0: draw stock")
	refuse(t, st, "0: draw discard", "you already hold a drawn card")
	refuse(t, st, "0: stop", "stop is only for the final play")
	refuse(t, st, "2: swap 0", "seat 2 may not act now")
	play(t, st, "0: swap 0")
	// Over.
	st = newMatch(t, map[string]any{"players": 2, "dealer": 1, "holes": 1}, 0, seedDeal)
	play(t, st, seedMoves...)
	play(t, st, "1: stop")
	for _, m := range golf.AllMoves() {
		refuseMove(t, st, 0, m, "the match is over")
		refuseMove(t, st, 1, m, "the match is over")
	}
}

// TestResultIsTheCallers checks that a Result's numbers are the caller's
// own: appending to a hole's row or changing it changes neither the next
// row, nor the totals, nor the state (Result shares one block among them).
func TestResultIsTheCallers(t *testing.T) {
	st := newMatch(t, map[string]any{"players": 3, "holes": 3}, 7)
	for range 2 {
		playHole(t, st)
	}
	want := st.Result()
	r := st.Result()
	if len(r.DealScores) != 2 {
		t.Fatalf("%d holes scored, want 2", len(r.DealScores))
	}
	r.DealScores[0] = append(r.DealScores[0], 99, 99, 99)
	r.DealScores[1][0] += 1000
	r.Totals = append(r.Totals, 99)
	r.Totals[0] += 1000
	if !reflect.DeepEqual(st.Result(), want) {
		t.Errorf("changing a result changed the state's: %+v, want %+v", st.Result(), want)
	}
	if r.DealScores[1][1] != want.DealScores[1][1] || r.Totals[1] != want.Totals[1] {
		t.Errorf("appending to hole 1's row wrote into the next row or the totals: %+v", r)
	}
}
