package game_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
)

func TestWordsRendersMarkers(t *testing.T) {
	names := []string{"Ann", "you", "Cleo"}
	name := func(s int) string { return names[s] }
	pretty := func(c card.Card) string { return c.Pretty() }
	for _, c := range []struct{ in, want string }{
		{"{0} took [7H] from the discard pile", "Ann took 7♥ from the discard pile"},
		{"{1} passed three cards to {2}", "You passed three cards to Cleo"},
		{"{2} passed [9S], [10S] and [JS] to {1}", "Cleo passed 9♠, 10♠ and J♠ to you"},
		{"{0} turned [JK]", "Ann turned JK"},
		{"the parcel went to {1}", "the parcel went to you"},
		// Malformed or unknown markers stay as they are.
		{"{x} and {} and {007} and [7h] and [TH] and [XX] and [", "{x} and {} and {007} and [7h] and [TH] and [XX] and ["},
		{"no markers at all", "no markers at all"},
		{"", ""},
		{"[QS]{0}", "Q♠Ann"},
	} {
		if got := game.Words(c.in, name, pretty); got != c.want {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Without functions: "seat N" and the notation.
	if got := game.Words("{1} played [10D]", nil, nil); got != "Seat 1 played 10D" {
		t.Errorf("Words with nil functions = %q", got)
	}
}

func TestWordsAllocatesLittle(t *testing.T) {
	name := func(int) string { return "Ann" }
	text := func(card.Card) string { return "seven of hearts" }
	allocs := testing.AllocsPerRun(100, func() {
		game.Words("{0} took [7H] from the discard pile and put it in the top-left place", name, text)
	})
	if allocs > 1 {
		t.Errorf("Words allocates %.0f times; want at most one (the result)", allocs)
	}
}

func TestWordsCardsAndSeats(t *testing.T) {
	cs, err := game.WordsCards("{0} passed [9S], [10S] and [JK] to {12}")
	if err != nil || !slices.Equal(cs, card.MustParseList("9S 10S JK")) {
		t.Errorf("WordsCards = %v, %v", cs, err)
	}
	seats, err := game.WordsSeats("{0} passed [9S], [10S] and [JK] to {12}")
	if err != nil || !slices.Equal(seats, []int{0, 12}) {
		t.Errorf("WordsSeats = %v, %v", seats, err)
	}
	for _, bad := range []string{"[7h]", "[TH]", "a [bracket", "[XX] x"} {
		if _, err := game.WordsCards(bad); !errors.Is(err, game.ErrBadWords) {
			t.Errorf("WordsCards(%q) error %v, want ErrBadWords", bad, err)
		}
	}
	for _, bad := range []string{"{x}", "{}", "{007}", "{1", "{-1}"} {
		if _, err := game.WordsSeats(bad); !errors.Is(err, game.ErrBadWords) {
			t.Errorf("WordsSeats(%q) error %v, want ErrBadWords", bad, err)
		}
	}
}

func TestCheckWords(t *testing.T) {
	for _, ok := range []string{"{0} drew from the stock", "{2} led [AS]", "{1} took the parcel (three cards)"} {
		if err := game.CheckWords(ok, 3); err != nil {
			t.Errorf("CheckWords(%q): %v", ok, err)
		}
	}
	for _, c := range []struct{ words, want string }{
		{"", "no words"},
		{"  ", "no words"},
		{"{0} drew\n{1} drew", "one line"},
		{"{3} drew", "out of range"},
		{"{0} played 7H", "without its brackets"},
		{"{0} played [7H] and QS.", "without its brackets"},
		{"{0} played [7h]", "not a card marker"},
		{"{zero} played", "not a seat marker"},
	} {
		err := game.CheckWords(c.words, 3)
		if !errors.Is(err, game.ErrBadWords) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckWords(%q) = %v, want ErrBadWords saying %q", c.words, err, c.want)
		}
	}
}

func TestListAndCountWords(t *testing.T) {
	for n, want := range []string{"", "[9S]", "[9S] and [10S]", "[9S], [10S] and [JS]"} {
		if got := game.CardListWords(card.MustParseList("9S 10S JS")[:n]); got != want {
			t.Errorf("CardListWords of %d = %q, want %q", n, got, want)
		}
	}
	for _, c := range []struct {
		n    int
		want string
	}{{0, "no cards"}, {1, "one card"}, {3, "three cards"}, {12, "twelve cards"}, {13, "13 cards"}} {
		if got := game.CountWords(c.n, "card"); got != c.want {
			t.Errorf("CountWords(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestTelling(t *testing.T) {
	var w game.Telling
	w.Say("{%d} passed ", 1)
	w.Cards(card.MustParseList("9S 10S JS"), "three cards")
	w.Say(" to {%d}", 2)
	w.Full(" (full)")
	w.Blind(" (blind)")
	w.Say("; {0} turned up ")
	w.Card(card.MustParse("AH"), "the next card")
	full, blind := w.Texts()
	if want := "{1} passed [9S], [10S] and [JS] to {2} (full); {0} turned up [AH]"; full != want {
		t.Errorf("full = %q, want %q", full, want)
	}
	if want := "{1} passed three cards to {2} (blind); {0} turned up the next card"; blind != want {
		t.Errorf("blind = %q, want %q", blind, want)
	}
}

// TestTellingFormats checks that a Telling writes every format as
// fmt.Sprintf does: the verbs it writes itself, the ones it leaves to fmt,
// from the first of those on, missing and extra arguments, and texts that
// outgrow its room.
func TestTellingFormats(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"{%d} drew", []any{3}},
		{"{%d} gave the trick to {%d}", []any{0, 1234567}},
		{"%d and %v", []any{-5, -6}},
		{"in the %s place and %v", []any{"top-left", "more"}},
		{"took [%v] and [%v]", []any{card.MustParse("7H"), card.Joker}},
		{"100%% sure, %d%%", []any{7}},
		{"%2d|%-3s|%q after %d", []any{5, "ab", "q", 9}},
		{"%d %x %d", []any{1, 255, 2}},
		{"%s then %d", []any{7, "x"}},
		{"%d missing %s", []any{1}},
		{"extra %d", []any{1, 2, "three"}},
		{"ends with %", []any{1}},
		{"%v", []any{int8(4)}},
		{long + "%d " + long, []any{42}},
		{"%s", []any{long + long}},
	} {
		want := fmt.Sprintf(c.format, c.args...)
		var w game.Telling
		w.Say("<")
		w.Full(c.format, c.args...)
		w.Blind(c.format, c.args...)
		w.Say(c.format, c.args...)
		full, blind := w.Texts()
		if full != "<"+want+want || blind != "<"+want+want {
			t.Errorf("%q %v:\n full %q\nblind %q\n want %q twice", c.format, c.args, full, blind, want)
		}
	}
}

// TestTellingAllocates checks that a move told in words that fit a
// Telling's room costs its two texts only.
func TestTellingAllocates(t *testing.T) {
	c := card.MustParse("QS")
	var full, blind string
	n := testing.AllocsPerRun(100, func() {
		var w game.Telling
		w.Say("{%d} ", 2)
		w.Say("put ")
		w.Card(c, "the card drawn")
		w.Full(" in the top-left place (%d%%)", 50)
		w.Say("; the face-down cards of {%d} were turned up", 3)
		full, blind = w.Texts()
	})
	if n != 2 {
		t.Errorf("%v allocations, want 2 (the texts)", n)
	}
	if want := "{2} put [QS] in the top-left place (50%); the face-down cards of {3} were turned up"; full != want {
		t.Errorf("full = %q, want %q", full, want)
	}
	if want := "{2} put the card drawn; the face-down cards of {3} were turned up"; blind != want {
		t.Errorf("blind = %q, want %q", blind, want)
	}
}

// TestTellingSharesSameTexts checks that a move whose two texts are the
// same (it hides nothing) costs one string, not two, and that texts that
// differ only past the room, or only in their last byte, stay two.
func TestTellingSharesSameTexts(t *testing.T) {
	c := card.MustParse("QS")
	var full, blind string
	n := testing.AllocsPerRun(100, func() {
		var w game.Telling
		w.Say("{%d} took ", 2)
		w.Shown(c)
		w.Say(" from the discard pile")
		full, blind = w.Texts()
	})
	if n != 1 {
		t.Errorf("%v allocations, want 1 (one text for both)", n)
	}
	if want := "{2} took [QS] from the discard pile"; full != want || blind != want {
		t.Errorf("texts %q and %q, want %q for both", full, blind, want)
	}
	long := strings.Repeat("word ", 60)
	for _, c := range []struct{ full, blind string }{
		{"{1} drew.", "{1} drew!"},
		{long + "a", long + "b"},
		{long, long + "more"},
	} {
		var w game.Telling
		w.Full("%s", c.full)
		w.Blind("%s", c.blind)
		full, blind := w.Texts()
		if full != c.full || blind != c.blind {
			t.Errorf("texts %q and %q, want %q and %q", full, blind, c.full, c.blind)
		}
	}
}

// TestAppendCardWords checks that AppendCardWords appends to what it is
// given, in order, as CardWords lists them.
func TestAppendCardWords(t *testing.T) {
	held := []card.Card{card.Joker}
	got := game.AppendCardWords(held, "swap 7H for [QS] and JK, not qs")
	want := append([]card.Card{card.Joker}, game.CardWords("swap 7H for [QS] and JK, not qs")...)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("AppendCardWords = %v, want %v", got, want)
	}
	if fmt.Sprint(game.CardWords("7H JK 10S x QS")) != "[7H JK 10S QS]" {
		t.Errorf("CardWords = %v", game.CardWords("7H JK 10S x QS"))
	}
}
