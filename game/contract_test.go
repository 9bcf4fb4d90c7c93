package game_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/golf"
)

func newGolf(t *testing.T, given map[string]any) game.State {
	t.Helper()
	o, err := game.Resolve(golf.Game{}, given)
	if err != nil {
		t.Fatal(err)
	}
	s, err := golf.Game{}.New(o, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plain hides a state's optional interfaces (Explainer, Guard) behind the
// bare contract.
type plain struct{ game.State }

// guarded refuses every legal move through Guard.
type guarded struct{ game.State }

var errGuard = errors.New("guarded")

func (guarded) Guard(int, game.Move) error { return errGuard }

func TestApplyRefusals(t *testing.T) {
	s := newGolf(t, map[string]any{"players": 2, "dealer": 1})
	before := s.Clone()
	for _, c := range []struct {
		st   game.State
		seat int
		move string
		want string
	}{
		{s, 2, "draw stock", "no seat 2 (seats are 0-1)"},
		{s, -1, "draw stock", "no seat -1"},
		{s, 0, "draw stock", "every player must first turn up a column"}, // the Explainer
		{plain{s}, 0, "draw stock", "draw stock is not legal now"},       // the generic reason
	} {
		m, err := s.ParseMove(0, c.move)
		if err != nil {
			t.Fatal(err)
		}
		err = game.Apply(c.st, c.seat, m)
		var ie *game.IllegalMoveError
		if !errors.Is(err, game.ErrIllegalMove) || !errors.As(err, &ie) {
			t.Fatalf("seat %d %q: error %v, want an IllegalMoveError", c.seat, c.move, err)
		}
		if !strings.Contains(ie.Reason, c.want) {
			t.Errorf("seat %d %q: reason %q, want %q in it", c.seat, c.move, ie.Reason, c.want)
		}
		if err2 := game.Check(c.st, c.seat, m); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Check gives %v, Apply %v", err2, err)
		}
		if !reflect.DeepEqual(s, before) {
			t.Fatalf("a refusal changed the state")
		}
	}
	// A seat that already chose: the game says so (Explainer), not to act.
	if err := game.Step(s, "0: reveal 1"); err != nil {
		t.Fatal(err)
	}
	err := game.Step(s, "0: reveal 2")
	if err == nil || !strings.Contains(err.Error(), "already chosen") {
		t.Errorf("a second reveal: %v", err)
	}
	err = game.Step(plain{s}, "0: reveal 2")
	if err == nil || !strings.Contains(err.Error(), "seat 0 may not act now (to act: {1})") {
		t.Errorf("a second reveal, no Explainer: %v", err)
	}
	// Guard refuses a legal move, changing nothing.
	snap := s.Clone()
	if err := game.Apply(guarded{s}, 1, golf.Reveal(0)); !errors.Is(err, errGuard) {
		t.Errorf("Guard: %v", err)
	}
	if !reflect.DeepEqual(s, snap) {
		t.Errorf("a guarded move changed the state")
	}
	// A legal move applies.
	if err := game.Apply(s, 1, golf.Reveal(0)); err != nil {
		t.Fatal(err)
	}
	// The match over: the generic reason.
	rng := game.NewRNG(1)
	game.Playout(s, &rng, nil)
	if err := game.Apply(plain{s}, 0, golf.DrawStock); err == nil || !strings.Contains(err.Error(), "the match is over") {
		t.Errorf("after the end: %v", err)
	}
}

func TestSeatMoveText(t *testing.T) {
	s := newGolf(t, map[string]any{"players": 3})
	for _, c := range []struct {
		line string
		seat int
		move string
		bad  string
	}{
		{"2: reveal 1", 2, "reveal 1", ""},
		{" 0 :REVEAL 2", 0, "reveal 2", ""},
		{"3: reveal 1", 0, "", `no seat "3" (seats are 0-2)`},
		{"x: reveal 1", 0, "", `"x" is not a seat`},
		{"-1: reveal 1", 0, "", `"-1" is not a seat`},
		{"reveal 1", 0, "", `not of the form "SEAT: MOVE"`},
		{"1: fly", 0, "", "fly"},
	} {
		seat, m, err := game.ParseSeatMove(s, c.line)
		if c.bad != "" {
			if !errors.Is(err, game.ErrBadMove) || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q: error %v, want ErrBadMove with %q", c.line, err, c.bad)
			}
			continue
		}
		if err != nil || seat != c.seat || s.FormatMove(m) != c.move {
			t.Errorf("%q: %d %q %v", c.line, seat, s.FormatMove(m), err)
			continue
		}
		line := game.FormatSeatMove(s, seat, m)
		if seat2, m2, err := game.ParseSeatMove(s, line); err != nil || seat2 != seat || m2 != m {
			t.Errorf("%q formats to %q, which reads back as %d %v %v", c.line, line, seat2, m2, err)
		}
	}
	if seat, move, ok, err := game.CutSeat("draw stock"); ok || err != nil || seat != 0 || move != "draw stock" {
		t.Errorf("CutSeat without a seat: %d %q %v %v", seat, move, ok, err)
	}
	got := game.LegalText(s, 1)
	if !slices.IsSorted(got) || !slices.Equal(got, []string{"reveal 0", "reveal 1", "reveal 2"}) {
		t.Errorf("LegalText = %v", got)
	}
	if got := game.LegalText(plain{s}, 7); len(got) != 0 {
		t.Errorf("LegalText of no seat = %v", got)
	}
}

// linked has an option that applies only with another: "extra" only when
// "mode" is "b", refused when given with "a" and dropped then.
type linked struct{ golf.Game }

func (linked) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Default: 2, Min: 2, Max: 4},
		{Name: "mode", Default: "a", Choices: []string{"a", "b"}},
		{Name: "extra", Default: 5, Min: 1, Max: 9},
	}
}

func (linked) CheckOptions(o game.Options, given game.Given) error {
	if o.String("mode") == "b" {
		return nil
	}
	if given("extra") {
		return &game.OptionError{Game: "linked", Option: "extra", Reason: "only with mode b"}
	}
	delete(o, "extra")
	return nil
}

func TestResolveWithChecker(t *testing.T) {
	g := linked{}
	for _, c := range []struct {
		given map[string]any
		want  string // the resolved options as JSON, or "" for a refusal
	}{
		{nil, `{"mode":"a","players":2}`},
		{map[string]any{"mode": "b"}, `{"extra":5,"mode":"b","players":2}`},
		{map[string]any{"mode": "b", "extra": 7, "dealer": 1}, `{"dealer":1,"extra":7,"mode":"b","players":2}`},
		{map[string]any{"extra": nil}, `{"mode":"a","players":2}`},
		{map[string]any{"dealer": nil}, `{"mode":"a","players":2}`},
		{map[string]any{"extra": 7}, ""},
		{map[string]any{"extra": 5}, ""}, // given, even at its default
	} {
		o, err := game.Resolve(g, c.given)
		if c.want == "" {
			var oe *game.OptionError
			if !errors.Is(err, game.ErrBadOption) || !errors.As(err, &oe) || oe.Option != "extra" {
				t.Errorf("%v: error %v, want an OptionError on extra", c.given, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.given, err)
		}
		b, _ := json.Marshal(o)
		if string(b) != c.want {
			t.Errorf("%v resolves to %s, want %s", c.given, b, c.want)
		}
		if _, ok := o["dealer"]; !ok && o.Dealer() != game.DealerRandom {
			t.Errorf("%v: no dealer, but Dealer() = %d", c.given, o.Dealer())
		}
		// Resolved options resolve to themselves, also through JSON as a
		// store keeps them.
		again, err := game.Resolve(g, o)
		if err != nil || !reflect.DeepEqual(again, o) {
			t.Errorf("%v: resolved %v resolve again to %v, %v", c.given, o, again, err)
		}
		var stored map[string]any
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.UseNumber()
		if err := dec.Decode(&stored); err != nil {
			t.Fatal(err)
		}
		if again, err := game.Resolve(g, stored); err != nil || !reflect.DeepEqual(again, o) {
			t.Errorf("%v: stored %s resolves to %v, %v", c.given, b, again, err)
		}
	}
}
