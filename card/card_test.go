package card_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"parlour/card"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want card.Card
	}{
		// Canonical forms.
		{"AS", card.New(card.Ace, card.Spades)},
		{"2H", card.New(card.Two, card.Hearts)},
		{"9D", card.New(card.Nine, card.Diamonds)},
		{"10H", card.New(card.Ten, card.Hearts)},
		{"JC", card.New(card.Jack, card.Clubs)},
		{"QD", card.New(card.Queen, card.Diamonds)},
		{"KS", card.New(card.King, card.Spades)},
		{"JK", card.Joker},
		// T for 10.
		{"TH", card.New(card.Ten, card.Hearts)},
		{"tc", card.New(card.Ten, card.Clubs)},
		// Lower and mixed case.
		{"as", card.New(card.Ace, card.Spades)},
		{"10d", card.New(card.Ten, card.Diamonds)},
		{"qS", card.New(card.Queen, card.Spades)},
		{"Kh", card.New(card.King, card.Hearts)},
		{"jk", card.Joker},
		{"Jk", card.Joker},
		// Suit symbols.
		{"A♠", card.New(card.Ace, card.Spades)},
		{"10♥", card.New(card.Ten, card.Hearts)},
		{"T♦", card.New(card.Ten, card.Diamonds)},
		{"q♣", card.New(card.Queen, card.Clubs)},
		{"7♣", card.New(card.Seven, card.Clubs)},
		// Surrounding spaces are trimmed.
		{" QD ", card.New(card.Queen, card.Diamonds)},
		{"\tJK\n", card.Joker},
	}
	for _, tt := range tests {
		got, err := card.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseRefused(t *testing.T) {
	tests := []struct {
		in     string
		reason string // part of the message
	}{
		{"", "it is empty"},
		{"   ", "it is empty"},
		{"1S", `"1" is not a rank`},
		{"11H", `"11" is not a rank`},
		{"KX", "does not end in a suit"},
		{"10", "does not end in a suit"},
		{"S", "it has no rank"},
		{"♠", "it has no rank"},
		{"JKS", `"JK" is not a rank`},
		{"ZZ", "does not end in a suit"},
		{"0H", `"0" is not a rank`},
		{"010H", `"010" is not a rank`},
		{"AS♠", `"AS" is not a rank`},
		{"A S", `"A " is not a rank`},
		{"JOKER", "does not end in a suit"},
		{"♠A", "does not end in a suit"},
		{"A♤", "does not end in a suit"},
		{"\xff", "does not end in a suit"},
		// Long s uppercases to S under Unicode rules; it is not a suit letter.
		{"Aſ", "does not end in a suit"},
		{"10ſ", "does not end in a suit"},
	}
	for _, tt := range tests {
		c, err := card.Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tt.in, c)
			continue
		}
		if c != card.None {
			t.Errorf("Parse(%q) returned %v with its error, want None", tt.in, c)
		}
		var pe *card.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T is not a *card.ParseError", tt.in, err)
			continue
		}
		if pe.Text != tt.in {
			t.Errorf("Parse(%q): ParseError.Text = %q", tt.in, pe.Text)
		}
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("%q", tt.in)) || !strings.Contains(msg, tt.reason) {
			t.Errorf("Parse(%q) error %q, want it to name the input and say %q", tt.in, msg, tt.reason)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse(\"1S\") did not panic")
		}
	}()
	card.MustParse("1S")
}

func TestStringRoundTrip(t *testing.T) {
	for _, c := range card.Pack108() {
		s := c.String()
		got, err := card.Parse(s)
		if err != nil || got != c {
			t.Errorf("Parse(%v.String() = %q) = %v, %v", c, s, got, err)
		}
		if got, err := card.Parse(strings.ToLower(s)); err != nil || got != c {
			t.Errorf("Parse(%q) = %v, %v; want %v", strings.ToLower(s), got, err, c)
		}
		if got, err := card.Parse(c.Pretty()); err != nil || got != c {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.Pretty(), got, err, c)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		c           card.Card
		str, pretty string
	}{
		{card.None, "-", "-"},
		{card.Joker, "JK", "JK"},
		{card.New(card.Ten, card.Hearts), "10H", "10♥"},
		{card.New(card.Queen, card.Spades), "QS", "Q♠"},
		{card.New(card.Ace, card.Diamonds), "AD", "A♦"},
		{card.New(card.Two, card.Clubs), "2C", "2♣"},
		{card.Card(3), "?", "?"},                          // rank 0, not a card
		{card.New(card.RankJoker, card.Hearts), "?", "?"}, // a joker with a suit is not the joker
		{card.Card(15 << 2), "?", "?"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.str {
			t.Errorf("Card(%d).String() = %q, want %q", uint8(tt.c), got, tt.str)
		}
		if got := tt.c.Pretty(); got != tt.pretty {
			t.Errorf("Card(%d).Pretty() = %q, want %q", uint8(tt.c), got, tt.pretty)
		}
	}
}

func TestValid(t *testing.T) {
	valid := 0
	for v := range 256 {
		c := card.Card(v)
		if c.Valid() {
			valid++
			if got, err := card.Parse(c.String()); err != nil || got != c {
				t.Errorf("valid Card(%d) %q does not parse back: %v, %v", v, c, got, err)
			}
		}
	}
	if valid != 53 {
		t.Errorf("%d valid card values, want 53 (52 cards and the joker)", valid)
	}
	if card.None.Valid() {
		t.Error("None is valid")
	}
}

func TestRankSuitAccessors(t *testing.T) {
	for _, s := range card.Suits {
		for r := card.Ace; r <= card.King; r++ {
			c := card.New(r, s)
			if c.Rank() != r || c.Suit() != s {
				t.Errorf("New(%v, %v) has rank %v, suit %v", r, s, c.Rank(), c.Suit())
			}
			if c == card.Joker {
				t.Errorf("%v is the joker", c)
			}
			if c == card.None || uint8(c) >= 64 {
				t.Errorf("New(%v, %v) = %d, outside 1-63", r, s, uint8(c))
			}
		}
	}
	if card.Joker.Rank() != card.RankJoker {
		t.Errorf("Joker: rank %v", card.Joker.Rank())
	}
	if uint8(card.Joker) >= 64 {
		t.Errorf("Joker = %d does not fit a Set", uint8(card.Joker))
	}
	ranks := map[card.Rank]string{
		card.Ace: "A", card.Two: "2", card.Nine: "9", card.Ten: "10", card.Jack: "J",
		card.Queen: "Q", card.King: "K", card.RankJoker: "JK", 0: "?", 15: "?",
	}
	for r, want := range ranks {
		if got := r.String(); got != want {
			t.Errorf("Rank(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
	suits := []struct {
		s           card.Suit
		str, symbol string
	}{
		{card.Spades, "S", "♠"}, {card.Hearts, "H", "♥"}, {card.Diamonds, "D", "♦"},
		{card.Clubs, "C", "♣"}, {card.Suit(4), "?", "?"},
	}
	for _, tt := range suits {
		if tt.s.String() != tt.str || tt.s.Symbol() != tt.symbol {
			t.Errorf("Suit(%d): %q %q, want %q %q", uint8(tt.s), tt.s.String(), tt.s.Symbol(), tt.str, tt.symbol)
		}
	}
}

func TestColours(t *testing.T) {
	want := map[card.Suit]card.Colour{
		card.Spades: card.Black, card.Hearts: card.Red, card.Diamonds: card.Red, card.Clubs: card.Black,
	}
	for s, col := range want {
		if s.Colour() != col {
			t.Errorf("%v.Colour() = %v, want %v", s, s.Colour(), col)
		}
		for r := card.Ace; r <= card.King; r++ {
			if c := card.New(r, s); c.Colour() != col {
				t.Errorf("%v.Colour() = %v, want %v", c, c.Colour(), col)
			}
		}
	}
	if card.Red.String() != "red" || card.Black.String() != "black" {
		t.Errorf("colour names %q %q", card.Red, card.Black)
	}
}

func TestPacks(t *testing.T) {
	ranks := func(rs ...card.Rank) map[card.Rank]bool {
		m := map[card.Rank]bool{}
		for _, r := range rs {
			m[r] = true
		}
		return m
	}
	all := ranks(card.Ace, card.Two, card.Three, card.Four, card.Five, card.Six, card.Seven,
		card.Eight, card.Nine, card.Ten, card.Jack, card.Queen, card.King)
	tests := []struct {
		name   string
		pack   card.Pack
		size   int
		ranks  map[card.Rank]bool // ranks present, in every suit
		copies int                // of each ranked card
		jokers int
	}{
		{"Pack24", card.Pack24(), 24, ranks(card.Nine, card.Ten, card.Jack, card.Queen, card.King, card.Ace), 1, 0},
		{"Pack36", card.Pack36(), 36, ranks(card.Six, card.Seven, card.Eight, card.Nine, card.Ten, card.Jack, card.Queen, card.King, card.Ace), 1, 0},
		{"Pack52", card.Pack52(), 52, all, 1, 0},
		{"Pack108", card.Pack108(), 108, all, 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.pack) != tt.size {
				t.Errorf("%d cards, want %d", len(tt.pack), tt.size)
			}
			counts := card.Count(tt.pack)
			if n := counts.Total(); n != tt.size {
				t.Errorf("Counts.Total() = %d, want %d", n, tt.size)
			}
			for v := range 64 {
				c := card.Card(v)
				want := 0
				switch {
				case c == card.Joker:
					want = tt.jokers
				case c.Valid() && tt.ranks[c.Rank()]:
					want = tt.copies
				}
				if int(counts[c]) != want {
					t.Errorf("%v appears %d times, want %d", c, counts[c], want)
				}
			}
		})
	}
	// Ranked keeps suit-by-suit order, ranks as given.
	p := card.Ranked(card.King, card.Ace)
	if got := card.Join(p); got != "KS AS KH AH KD AD KC AC" {
		t.Errorf("Ranked(K, A) = %s", got)
	}
	// Packs are fresh slices: changing one does not change the next.
	a := card.Pack52()
	a[0] = card.Joker
	if card.Pack52()[0] == card.Joker {
		t.Error("Pack52 returns a shared slice")
	}
}

func TestSet(t *testing.T) {
	as, kc, jk := card.MustParse("AS"), card.MustParse("KC"), card.Joker
	var s card.Set
	if s.Len() != 0 || len(s.Cards()) != 0 || s.Has(as) {
		t.Errorf("empty set: len %d, cards %v", s.Len(), s.Cards())
	}
	s = s.Add(kc).Add(jk).Add(as).Add(as)
	if s.Len() != 3 {
		t.Errorf("Len = %d, want 3", s.Len())
	}
	if got := card.Join(s.Cards()); got != "AS KC JK" {
		t.Errorf("Cards() = %s, want AS KC JK (ascending value)", got)
	}
	if !s.Has(as) || !s.Has(kc) || !s.Has(jk) || s.Has(card.MustParse("AH")) {
		t.Error("Has is wrong")
	}
	s = s.Remove(kc).Remove(card.MustParse("2D"))
	if s.Has(kc) || s.Len() != 2 {
		t.Errorf("after Remove(KC): %v", s.Cards())
	}
	if card.SetOf(as, jk) != s {
		t.Errorf("SetOf(AS, JK) = %v, want %v", card.SetOf(as, jk).Cards(), s.Cards())
	}
	full := card.SetOf(card.Pack108()...)
	if full.Len() != 53 {
		t.Errorf("Pack108 has %d distinct cards, want 53", full.Len())
	}
	if full != card.SetOf(card.Pack52()...).Add(card.Joker) {
		t.Error("Pack108's distinct cards are not Pack52 and the joker")
	}
	prev := card.None
	for i, c := range full.Cards() {
		if i > 0 && c <= prev {
			t.Errorf("Cards() not ascending: %v after %v", c, prev)
		}
		prev = c
	}
}

func TestCounts(t *testing.T) {
	c := card.Count(card.MustParseList("AS AS JK"), nil, card.MustParseList("KC, AS"))
	if c.Total() != 5 || c[card.MustParse("AS")] != 3 || c[card.Joker] != 1 || c[card.MustParse("KC")] != 1 {
		t.Errorf("Count = total %d, AS %d, JK %d, KC %d", c.Total(), c[card.MustParse("AS")], c[card.Joker], c[card.MustParse("KC")])
	}
	var empty card.Counts
	if empty.Total() != 0 {
		t.Errorf("empty Total = %d", empty.Total())
	}
}

func TestParseList(t *testing.T) {
	cs, err := card.ParseList(" AS, 10h\tJK,,t♣ ")
	if err != nil {
		t.Fatal(err)
	}
	if got := card.Join(cs); got != "AS 10H JK 10C" {
		t.Errorf("ParseList = %s", got)
	}
	if cs, err := card.ParseList(""); err != nil || cs == nil || len(cs) != 0 {
		t.Errorf("ParseList(\"\") = %#v, %v; want an empty list", cs, err)
	}
	_, err = card.ParseList("AS 1S")
	var pe *card.ParseError
	if !errors.As(err, &pe) || pe.Text != "1S" {
		t.Errorf("ParseList(\"AS 1S\") error = %v, want a ParseError for 1S", err)
	}
	if card.Join(nil) != "" {
		t.Error("Join(nil) is not empty")
	}
}

func TestJSON(t *testing.T) {
	type hand struct {
		Top   card.Card   `json:"top"`
		None  card.Card   `json:"none"`
		Cards []card.Card `json:"cards"`
	}
	h := hand{Top: card.MustParse("10H"), Cards: []card.Card{card.Joker, card.None, card.MustParse("QS")}}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"top":"10H","none":null,"cards":["JK",null,"QS"]}`; string(b) != want {
		t.Errorf("Marshal = %s, want %s", b, want)
	}
	var back hand
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Top != h.Top || back.None != card.None || card.Join(back.Cards) != "JK - QS" {
		t.Errorf("Unmarshal = %+v", back)
	}

	// Every card of the pack round-trips.
	pack := card.Pack108()
	b, err = json.Marshal(pack)
	if err != nil {
		t.Fatal(err)
	}
	var cs []card.Card
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	if card.Join(cs) != card.Join(pack) {
		t.Errorf("pack round trip: %s", card.Join(cs))
	}

	// Input notation is as lenient as Parse; null is None.
	good := map[string]card.Card{
		`"t♥"`: card.MustParse("10H"), `" jk "`: card.Joker, `null`: card.None, `"as"`: card.MustParse("AS"),
	}
	for in, want := range good {
		c := card.MustParse("2C")
		if err := json.Unmarshal([]byte(in), &c); err != nil || c != want {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", in, c, err, want)
		}
	}

	// Refusals.
	for _, in := range []string{`5`, `"1S"`, `""`, `["AS"]`, `{"c":"AS"}`, `true`} {
		var c card.Card
		if err := json.Unmarshal([]byte(in), &c); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", in, c)
		}
	}
	var c card.Card
	err = json.Unmarshal([]byte(`"ZZ"`), &c)
	var pe *card.ParseError
	if !errors.As(err, &pe) || pe.Text != "ZZ" {
		t.Errorf("Unmarshal(\"ZZ\") error = %v, want a *card.ParseError", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"AS", "10H", "TH", "qd", "JK", "jk", "A♠", "10♥", "T♦", "k♣", " QD ", "\tJK\n",
		"", " ", "1S", "11H", "KX", "10", "S", "JKS", "ZZ", "♠", "AS♠", "A S", "\xff", "\xe2\x99",
		"Aſ", "10ſ", "ıS", "KS", "\u00a0AS\u3000", "0H", "010H", "+1S", "JOKER",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := card.Parse(in)
		if err != nil {
			var pe *card.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error %T %v is not a *card.ParseError", in, err, err)
			}
			if pe.Text != in {
				t.Fatalf("Parse(%q): ParseError.Text = %q", in, pe.Text)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", in)) {
				t.Fatalf("Parse(%q) error %q does not name the input", in, err)
			}
			if c != card.None {
				t.Fatalf("Parse(%q) returned %v with an error", in, c)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) = invalid card %d", in, uint8(c))
		}
		back, err := card.Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %v, but Parse(%q) = %v, %v", in, c, c.String(), back, err)
		}
		// Accepted text is made of the notation only: ASCII letters and
		// digits or a suit symbol, inside surrounding white space.
		trimmed := strings.TrimSpace(in)
		if !utf8.ValidString(trimmed) {
			t.Fatalf("Parse(%q) = %v: accepted invalid UTF-8", in, c)
		}
		for _, r := range trimmed {
			if !strings.ContainsRune("AaTtJjQqKkSsHhDdCc0123456789♠♥♦♣", r) {
				t.Fatalf("Parse(%q) = %v: accepted %q, which is not in the notation", in, c, r)
			}
		}
	})
}

// TestParseCanonicalAllocates checks that reading a card already in
// canonical notation (as a server reads every move's) allocates nothing,
// and that the same card in other cases is still read.
func TestParseCanonicalAllocates(t *testing.T) {
	var c card.Card
	if n := testing.AllocsPerRun(100, func() { c, _ = card.Parse("10H") }); n != 0 {
		t.Errorf("Parse(10H): %v allocations, want 0", n)
	}
	for _, text := range []string{"10H", "10h", "th", "10♥"} {
		if got := card.MustParse(text); got != c || got != card.New(card.Ten, card.Hearts) {
			t.Errorf("Parse(%s) = %v, want 10H", text, got)
		}
	}
}
