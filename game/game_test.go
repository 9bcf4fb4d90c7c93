package game_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
)

type choiceGame struct{ golf.Game }

func (choiceGame) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Default: 2, Min: 2, Max: 6},
		{Name: "edition", Default: "1860", Choices: []string{"1860", "1862"}},
	}
}

func TestResolveDefaultsAndValues(t *testing.T) {
	g := golf.Game{}
	o, err := game.Resolve(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Players() != 4 || o.Int("holes") != 9 || o.Dealer() != game.DealerRandom {
		t.Fatalf("defaults: %v", o)
	}
	// JSON numbers, floats, ints and numeric strings all read as ints.
	var given map[string]any
	dec := json.NewDecoder(strings.NewReader(`{"players": 3, "dealer": 2}`))
	dec.UseNumber()
	if err := dec.Decode(&given); err != nil {
		t.Fatal(err)
	}
	given["holes"] = "5"
	o, err = game.Resolve(g, given)
	if err != nil {
		t.Fatal(err)
	}
	if o.Players() != 3 || o.Dealer() != 2 || o.Int("holes") != 5 {
		t.Fatalf("resolved %v", o)
	}
	o, err = game.Resolve(choiceGame{}, map[string]any{"edition": 1862.0})
	if err != nil || o.String("edition") != "1862" {
		t.Fatalf("choice from a number: %v, %v", o, err)
	}
}

func TestResolveRefusals(t *testing.T) {
	for _, c := range []struct {
		given map[string]any
		want  string
	}{
		{map[string]any{"players": 1.0}, `golf option "players": 1 is out of range (2 to 8)`},
		{map[string]any{"players": 9}, `9 is out of range`},
		{map[string]any{"players": 2.5}, `2.5 is not a whole number`},
		{map[string]any{"players": "many"}, `"many" is not a whole number`},
		{map[string]any{"players": true}, `true is not a whole number`},
		{map[string]any{"colour": "red"}, `golf option "colour": no such option (options: players, holes, target, dealer)`},
		{map[string]any{"dealer": 4.0}, `golf option "dealer": 4 is out of range (0 to 3)`},
		{map[string]any{"players": 2, "dealer": 2}, `4 is out of range|2 is out of range \(0 to 1\)`},
	} {
		_, err := game.Resolve(golf.Game{}, c.given)
		if !errors.Is(err, game.ErrBadOption) {
			t.Errorf("%v: error %v does not match ErrBadOption", c.given, err)
			continue
		}
		if !matchAny(err.Error(), c.want) {
			t.Errorf("%v: error %q, want %q", c.given, err, c.want)
		}
	}
	_, err := game.Resolve(choiceGame{}, map[string]any{"edition": "1861"})
	if !errors.Is(err, game.ErrBadOption) || !strings.Contains(err.Error(), `"1861" is not one of 1860, 1862`) {
		t.Errorf("bad choice: %v", err)
	}
}

func matchAny(s, alternatives string) bool {
	for _, a := range strings.Split(alternatives, "|") {
		a = strings.NewReplacer(`\(`, "(", `\)`, ")").Replace(a)
		if strings.Contains(s, a) {
			return true
		}
	}
	return false
}

func TestSeats(t *testing.T) {
	s := game.SeatsOf(0, 2, 5)
	if !s.Has(2) || s.Has(1) || s.Has(-1) || s.Has(16) || s.Len() != 3 || s.First() != 0 || s.Nth(2) != 5 || s.Nth(3) != -1 {
		t.Fatalf("seat set ops wrong on %v", s)
	}
	if got := s.Remove(0).Add(1).List(); len(got) != 3 || got[0] != 1 || got[2] != 5 {
		t.Fatalf("List = %v", got)
	}
	if game.AllSeats(4) != game.SeatsOf(0, 1, 2, 3) || game.Seats(0).First() != -1 {
		t.Fatal("AllSeats or empty First wrong")
	}
	if s.String() != "{0 2 5}" {
		t.Fatalf("String = %q", s.String())
	}
}

func TestLayoutReading(t *testing.T) {
	l := game.Layout{
		"hands":   json.RawMessage(`[["AS","10h"],null]`),
		"discard": json.RawMessage(`"Q♦"`),
		"stock":   json.RawMessage(`["2C","3C"]`),
		"grid":    json.RawMessage(`["A","Q"]`),
	}
	if err := l.Keys("hands", "discard", "stock", "grid"); err != nil {
		t.Fatal(err)
	}
	if err := l.Keys("hands"); !errors.Is(err, game.ErrBadLayout) || !strings.Contains(err.Error(), `layout key "discard" is not used by this game`) {
		t.Fatalf("Keys: %v", err)
	}
	hands, ok, err := l.SeatCards("hands", 2)
	if err != nil || !ok || card.Join(hands[0]) != "AS 10H" || hands[1] != nil {
		t.Fatalf("SeatCards: %v %v %v", hands, ok, err)
	}
	if _, _, err := l.SeatCards("hands", 3); err == nil || !strings.Contains(err.Error(), "2 entries for 3 seats") {
		t.Fatalf("SeatCards wrong count: %v", err)
	}
	if c, ok, err := l.Card("discard"); err != nil || !ok || c.String() != "QD" {
		t.Fatalf("Card: %v %v %v", c, ok, err)
	}
	if _, ok, err := l.Card("missing"); ok || err != nil {
		t.Fatalf("absent key: %v %v", ok, err)
	}
	if ss, _, err := l.Strings("grid"); err != nil || len(ss) != 2 {
		t.Fatalf("Strings: %v %v", ss, err)
	}
	bad := game.Layout{"stock": json.RawMessage(`["2C","1C"]`)}
	if _, _, err := bad.Cards("stock"); !errors.Is(err, game.ErrBadLayout) || !strings.Contains(err.Error(), `"1C" is not a card`) {
		t.Fatalf("bad card: %v", err)
	}
	if _, _, err := bad.Card("stock"); !errors.Is(err, game.ErrBadLayout) {
		t.Fatalf("list as one card: %v", err)
	}
}

func TestRemaining(t *testing.T) {
	pack := card.Pack24()
	rest, err := game.Remaining(pack, card.MustParseList("9S 10S"), card.MustParseList("AC"))
	if err != nil || len(rest) != 21 {
		t.Fatalf("Remaining: %d cards, %v", len(rest), err)
	}
	for _, c := range rest {
		if c.String() == "9S" || c.String() == "AC" {
			t.Fatalf("placed card %v left in the rest", c)
		}
	}
	if _, err := game.Remaining(pack, card.MustParseList("2S")); !errors.Is(err, game.ErrBadLayout) || err.Error() != "the pack has no 2S" {
		t.Fatalf("card not in pack: %v", err)
	}
	if _, err := game.Remaining(pack, card.MustParseList("9S 9S")); err == nil || err.Error() != "9S is placed 2 times but the pack holds it once" {
		t.Fatalf("card twice: %v", err)
	}
	if _, err := game.Remaining(card.Pack108(), card.MustParseList("9S 9S 9S")); err == nil || err.Error() != "9S is placed 3 times but the pack holds it 2 times" {
		t.Fatalf("card three times: %v", err)
	}
}

func TestRNG(t *testing.T) {
	a, b := game.NewRNG(7), game.NewRNG(7)
	for range 100 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed, different streams")
		}
	}
	c := a // copying the value forks the stream
	if a.IntN(1000) != c.IntN(1000) {
		t.Fatal("a copy does not continue the same stream")
	}
	// IntN stays in range and is roughly uniform.
	var counts [6]int
	for range 60000 {
		n := a.IntN(6)
		if n < 0 || n >= 6 {
			t.Fatalf("IntN(6) = %d", n)
		}
		counts[n]++
	}
	for i, k := range counts {
		if k < 9500 || k > 10500 {
			t.Fatalf("IntN(6) value %d drawn %d times of 60000", i, k)
		}
	}
	// Shuffle is a permutation, and every card reaches the top sometimes.
	top := map[card.Card]int{}
	for range 2400 {
		p := card.Pack24()
		game.Shuffle(&a, p)
		if card.Count(p) != card.Count(card.Pack24()) {
			t.Fatal("Shuffle lost or doubled a card")
		}
		top[p[0]]++
	}
	for c, k := range top {
		if k < 50 || k > 150 {
			t.Fatalf("%v on top %d times of 2400", c, k)
		}
	}
}

func TestErrors(t *testing.T) {
	opts, _ := game.Resolve(golf.Game{}, map[string]any{"players": 2, "dealer": 0})
	s, err := golf.Game{}.New(opts, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = game.Apply(s, 0, golf.DrawStock)
	var ie *game.IllegalMoveError
	if !errors.Is(err, game.ErrIllegalMove) || !errors.As(err, &ie) || ie.Seat != 0 || ie.Move != "draw stock" {
		t.Fatalf("refusal %#v", err)
	}
	if err := game.Apply(s, 5, golf.Reveal(0)); err == nil || err.Error() != "no seat 5 (seats are 0-1)" {
		t.Fatalf("bad seat: %v", err)
	}
	_, err = s.ParseMove(0, "jump")
	if !errors.Is(err, game.ErrBadMove) || errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("parse error %v", err)
	}
}

// TestResultRows checks the rows and totals ResultRows makes: the scores
// given, rows that cannot grow into each other, and zero totals.
func TestResultRows(t *testing.T) {
	scores := []int8{1, 2, 3, 4, 5, 6, 7} // two deals of three, and a spare
	rows, totals := game.ResultRows(scores, 2, 3)
	if !reflect.DeepEqual(rows, [][]int{{1, 2, 3}, {4, 5, 6}}) || !reflect.DeepEqual(totals, []int{0, 0, 0}) {
		t.Fatalf("rows %v, totals %v", rows, totals)
	}
	_ = append(rows[0], 99)
	totals[0] = 8
	if rows[1][0] != 4 || rows[1][2] != 6 {
		t.Errorf("a row or the totals wrote into another row: %v", rows)
	}
	if rows, totals := game.ResultRows([]int{}, 0, 2); rows == nil || len(rows) != 0 || len(totals) != 2 {
		t.Errorf("no deals: rows %#v, totals %v; want an empty list and two totals", rows, totals)
	}
}
