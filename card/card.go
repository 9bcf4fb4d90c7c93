// Package card defines playing cards, packs and their canonical notation.
//
// A Card is one byte: its rank in the high bits and its suit in the low two
// bits, so every card value is below 64 and a set of distinct cards fits in a
// Set (a 64-bit mask). The two copies of a card in a doubled pack are the same
// value; code that needs them apart counts them.
package card

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Suit is one of the four suits, in the tie order the notation uses: S H D C.
type Suit uint8

// The suits.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

// Suits lists the four suits in notation order.
var Suits = [4]Suit{Spades, Hearts, Diamonds, Clubs}

// String returns the suit letter: S, H, D or C.
func (s Suit) String() string {
	if s > Clubs {
		return "?"
	}
	return "SHDC"[s : s+1]
}

// Symbol returns the suit symbol: ♠ ♥ ♦ ♣.
func (s Suit) Symbol() string {
	switch s {
	case Spades:
		return "♠"
	case Hearts:
		return "♥"
	case Diamonds:
		return "♦"
	case Clubs:
		return "♣"
	}
	return "?"
}

// Colour is red or black.
type Colour uint8

// The colours.
const (
	Black Colour = iota
	Red
)

// String returns "black" or "red".
func (c Colour) String() string {
	if c == Red {
		return "red"
	}
	return "black"
}

// Colour returns the suit's colour: hearts and diamonds are red.
func (s Suit) Colour() Colour {
	if s == Hearts || s == Diamonds {
		return Red
	}
	return Black
}

// Rank is a card's rank: Ace is 1, Jack 11, Queen 12, King 13. RankJoker marks
// the joker. How ranks order within a game is the game's business.
type Rank uint8

// The ranks.
const (
	Ace   Rank = 1
	Two   Rank = 2
	Three Rank = 3
	Four  Rank = 4
	Five  Rank = 5
	Six   Rank = 6
	Seven Rank = 7
	Eight Rank = 8
	Nine  Rank = 9
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
	// RankJoker is the rank of the joker.
	RankJoker Rank = 14
)

// String returns the rank in notation: A 2 ... 10 J Q K, or JK for the joker.
func (r Rank) String() string {
	switch {
	case r == Ace:
		return "A"
	case r >= Two && r <= Ten:
		return numerals[r-Two]
	case r == Jack:
		return "J"
	case r == Queen:
		return "Q"
	case r == King:
		return "K"
	case r == RankJoker:
		return "JK"
	}
	return "?"
}

// numerals are the ranks Two to Ten in notation.
var numerals = [...]string{"2", "3", "4", "5", "6", "7", "8", "9", "10"}

// Card is a playing card. The zero value is None, no card.
type Card uint8

// None is the absence of a card.
const None Card = 0

// Joker is the joker. Its suit is meaningless.
const Joker Card = Card(RankJoker) << 2

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card(r)<<2 | Card(s) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit. It is meaningless for the joker.
func (c Card) Suit() Suit { return Suit(c & 3) }

// Colour returns the card's colour.
func (c Card) Colour() Colour { return c.Suit().Colour() }

// Valid reports whether c is a real card: a ranked card of a suit, or the joker.
func (c Card) Valid() bool {
	r := c.Rank()
	return (r >= Ace && r <= King) || c == Joker
}

// String returns the canonical notation: 10H, QS, AD, JK; "-" for None.
func (c Card) String() string {
	if c == None {
		return "-"
	}
	if !c.Valid() {
		return "?"
	}
	if c == Joker {
		return "JK"
	}
	return names[c]
}

// names are the cards' notations, worked out once: String is called for
// every card of every move told and every view sent.
var names = func() (out [256]string) {
	for c := range out {
		if card := Card(c); card.Valid() && card != Joker {
			out[c] = card.Rank().String() + card.Suit().String()
		}
	}
	return out
}()

// Pretty returns the card with its suit symbol: 10♥, Q♠, JK.
func (c Card) Pretty() string {
	if c == None || !c.Valid() || c == Joker {
		return c.String()
	}
	return c.Rank().String() + c.Suit().Symbol()
}

// MarshalJSON writes the card in canonical notation, or null for None.
func (c Card) MarshalJSON() ([]byte, error) {
	return cardJSON[c], nil
}

// AppendJSON appends the card's JSON, as MarshalJSON writes it.
func (c Card) AppendJSON(b []byte) []byte { return append(b, cardJSON[c]...) }

// cardJSON is every card value's JSON, made once: views carry dozens of
// cards, and a table server encodes a view after every move. (Card
// notation needs no escaping.)
var cardJSON = func() (t [256][]byte) {
	for i := range t {
		c := Card(i)
		if c == None {
			t[i] = []byte("null")
			continue
		}
		t[i] = []byte(`"` + c.String() + `"`)
	}
	return t
}()

// UnmarshalJSON reads a card in any accepted notation, or null for None.
func (c *Card) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = None
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a card must be a string like \"10H\", got %s", b)
	}
	p, err := Parse(s)
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// ParseError is the error Parse returns for text that is not a card.
type ParseError struct {
	Text   string // the text as given
	Reason string // what is wrong with it
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%q is not a card: %s", e.Text, e.Reason)
}

// Parse reads a card in notation: rank A 2-10 J Q K (or T for 10) then suit
// S H D C (or ♠ ♥ ♦ ♣), in any case; JK is the joker. Surrounding spaces are
// ignored. Anything else is refused with a *ParseError.
func Parse(text string) (Card, error) {
	s := upperASCII(strings.TrimSpace(text))
	fail := func(reason string) (Card, error) {
		return None, &ParseError{Text: text, Reason: reason}
	}
	if s == "" {
		return fail("it is empty")
	}
	if s == "JK" {
		return Joker, nil
	}
	var suit Suit
	var rankText string
	switch {
	case strings.HasSuffix(s, "♠"):
		suit, rankText = Spades, strings.TrimSuffix(s, "♠")
	case strings.HasSuffix(s, "♥"):
		suit, rankText = Hearts, strings.TrimSuffix(s, "♥")
	case strings.HasSuffix(s, "♦"):
		suit, rankText = Diamonds, strings.TrimSuffix(s, "♦")
	case strings.HasSuffix(s, "♣"):
		suit, rankText = Clubs, strings.TrimSuffix(s, "♣")
	default:
		i := strings.IndexByte("SHDC", s[len(s)-1])
		if i < 0 {
			return fail("it does not end in a suit (S H D C or ♠ ♥ ♦ ♣)")
		}
		suit, rankText = Suit(i), s[:len(s)-1]
	}
	var r Rank
	switch rankText {
	case "A":
		r = Ace
	case "2", "3", "4", "5", "6", "7", "8", "9":
		r = Rank(rankText[0] - '0')
	case "10", "T":
		r = Ten
	case "J":
		r = Jack
	case "Q":
		r = Queen
	case "K":
		r = King
	case "":
		return fail("it has no rank")
	default:
		return fail(fmt.Sprintf("%q is not a rank (A 2-10 J Q K, or T)", rankText))
	}
	return New(r, suit), nil
}

// upperASCII upper-cases the ASCII letters of s and leaves every other byte
// alone. The notation is ASCII apart from the suit symbols, which have no
// case; Unicode case mapping would turn other letters into notation letters
// (strings.ToUpper("ſ"), the long s, is "S").
func upperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'a' <= c && c <= 'z' {
					b[j] = c - ('a' - 'A')
				}
			}
			return string(b)
		}
	}
	return s // already upper case, as canonical notation is: no copy
}

// MustParse is Parse that panics on error, for tests and tables.
func MustParse(text string) Card {
	c, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards separated by spaces or commas.
func ParseList(text string) ([]Card, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	out := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParseList is ParseList that panics on error, for tests and tables.
func MustParseList(text string) []Card {
	cs, err := ParseList(text)
	if err != nil {
		panic(err)
	}
	return cs
}

// Join formats cards in canonical notation separated by single spaces.
func Join(cards []Card) string {
	var b strings.Builder
	for i, c := range cards {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}
