package gametest_test

import (
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
)

// toldToy is the toy game (kit_test.go) with words for its moves; its bug
// field plants one fault in them that Narration must find.
type toldToy struct {
	toy
	bug string
}

func (g toldToy) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	s, err := g.toy.New(opts, seed, deals)
	if err != nil {
		return nil, err
	}
	return &toldState{toyState: s.(*toyState), bug: g.bug}, nil
}

type toldState struct {
	*toyState
	bug string
}

func (s *toldState) Clone() game.State {
	return &toldState{toyState: s.toyState.Clone().(*toyState), bug: s.bug}
}

// Narrate tells a play: "{0} played [3S]" to everyone, as the card lies
// face up.
func (s *toldState) Narrate(seat int, m game.Move) (full, blind string) {
	c := card.Card(m)
	full = game.SeatWord(seat) + " played " + game.CardWord(c)
	blind = full
	switch s.bug {
	case "a-card": // the blind words hide a card that lies face up
		blind = game.SeatWord(seat) + " played a card"
	case "blind-leak": // the blind words name a card still in the mover's hand
		for _, x := range s.hands[seat] {
			if x != c {
				blind += " and kept " + game.CardWord(x)
				break
			}
		}
	case "hidden": // the full words name a card still in the mover's hand
		for _, x := range s.hands[seat] {
			if x != c {
				full += " and kept " + game.CardWord(x)
				break
			}
		}
	case "unnamed": // the words do not name the card the move shows
		full, blind = game.SeatWord(seat)+" played a card", game.SeatWord(seat)+" played a card"
	case "empty":
		if len(s.played) == 3 {
			blind = ""
		}
	case "seat": // a seat the table does not have
		full = "{2} played " + game.CardWord(c)
	case "bare": // a card without its brackets
		full = game.SeatWord(seat) + " played " + c.String()
	case "mutate": // telling changes the state
		s.score[seat]++
	}
	return full, blind
}

// Revealed is the card played (game.Revealer): it lies face up.
func (s *toldState) Revealed(seat int, m game.Move) card.Set { return card.SetOf(card.Card(m)) }

func runNarration(t *testing.T, g game.Game) []string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		gametest.Narration(rec, g, gametest.Config{Matches: 50})
	}()
	<-done
	return rec.errors
}

func TestNarrationPassesSoundWords(t *testing.T) {
	if errs := runNarration(t, toldToy{}); len(errs) > 0 {
		t.Fatalf("Narration failed sound words: %v", errs)
	}
}

// TestNarrationCatchesFaults plants one fault at a time in the words and
// checks that Narration reports it with the right diagnosis.
func TestNarrationCatchesFaults(t *testing.T) {
	for _, c := range []struct {
		g    game.Game
		want string
	}{
		{toy{}, "does not implement game.Narrator"},
		{toldToy{bug: "a-card"}, "the blind words \"{0} played a card\" leave out"},
		{toldToy{bug: "blind-leak"}, "blind words name no card a receiver may not know"},
		{toldToy{bug: "unnamed"}, "do not name it"},
		{toldToy{bug: "hidden"}, "does not name and not everyone may see"},
		{toldToy{bug: "empty"}, "the blind words: no words"},
		{toldToy{bug: "seat"}, "seat {2} is out of range"},
		{toldToy{bug: "bare"}, "without its brackets"},
		{toldToy{bug: "mutate"}, "changed the state"},
	} {
		name := "no-narrator"
		if tt, ok := c.g.(toldToy); ok {
			name = tt.bug
		}
		t.Run(name, func(t *testing.T) {
			errs := runNarration(t, c.g)
			if len(errs) == 0 {
				t.Fatalf("Narration missed the fault %q", name)
			}
			if !strings.Contains(strings.Join(errs, "\n"), c.want) {
				t.Fatalf("fault %q reported as %v, want a message with %q", name, errs, c.want)
			}
		})
	}
}
