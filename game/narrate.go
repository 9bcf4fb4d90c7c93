package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"parlour/card"
)

// Narrator is implemented by a state that can tell a move in plain words,
// for the live log of a table (browser and terminal alike).
//
// Narrate is called on the state before the move is applied, with a move
// that is legal for seat there; it does not change the state. The words
// are a template: {N} stands for seat N (the receiver writes its name, or
// "you" for its own seat) and [C] for a card in canonical notation ("[7H]",
// "[JK]"), which the receiver draws as it draws cards. Each game uses its
// own words ("{2} drew from the stock", "{0} took [7H] from the discard
// pile and put it in the top-left place", "{1} passed three cards to {0}").
//
// full is what a receiver reads when it may know the move's notation (the
// rule in this package's visibility.go); it names no card the notation
// does not name, except cards every seat and spectators may see once the
// move is made, saw before it, or see face up as it is made (Revealer).
// blind is what the others read: it names no card but those every seat and
// spectators may see once the move is made or see face up as it is made,
// and tells no more than the receiver may know (which seat acted and the
// kind of move, as the game's public view shows it). A card everyone sees
// is named in both: the blind words of a trick's last card, which the
// trick then gathers face down, say "{1} played [9C]", not "{1} played a
// card". full and blind may be the same.
//
// A move that ends a deal is told as far as the deal's last position (the
// one the deal watcher sees, see State.WatchDeals): a card that lies face
// up there, such as a Golf card swapped in on a hole's last turn, counts as
// one every seat may see once the move is made, although the next deal has
// already gathered it by the time Apply returns.
//
// The words are written to read well with "you" for a seat as with a name:
// verbs in the past tense or with a modal ("{0} drew", "{0} must give"),
// never "{0} is" or "{0}'s".
type Narrator interface {
	Narrate(seat int, m Move) (full, blind string)
}

// Revealer is implemented by a state whose moves show cards face up to
// everyone only for a moment, so that neither the position before the move
// nor the one after it shows them: a trick's last card, which the trick
// gathers face down at once; a card turned up from a blind pile that goes
// straight back into one. Revealed returns the cards seat's move m (legal
// for seat in the state, which it does not change) shows face up to every
// seat and spectators while it is made. A Narrator names them in both its
// texts; the conformance kit (gametest.Narration) checks that it does.
type Revealer interface {
	Revealed(seat int, m Move) card.Set
}

// ErrBadWords marks narration words that are not a well-formed template
// (see Narrator): a marker that is not a seat or a card in notation, a
// seat out of range, a card written without its brackets.
var ErrBadWords = errors.New("bad narration words")

// WordsError says what is wrong with narration words.
type WordsError struct {
	Words  string // the template
	Reason string
}

func (e *WordsError) Error() string { return fmt.Sprintf("%s in %q", e.Reason, e.Words) }

// Is makes errors.Is(err, ErrBadWords) true.
func (e *WordsError) Is(target error) bool { return target == ErrBadWords }

// SeatWord returns the marker for seat in narration words: "{2}".
func SeatWord(seat int) string { return "{" + strconv.Itoa(seat) + "}" }

// CardWord returns the marker for c in narration words: "[7H]".
func CardWord(c card.Card) string { return "[" + c.String() + "]" }

// CardListWords returns the markers of cs as an English list: "[9S]",
// "[9S] and [10S]", "[9S], [10S] and [JS]"; "" for no cards.
func CardListWords(cs []card.Card) string {
	var b strings.Builder
	for i, c := range cs {
		switch {
		case i == 0:
		case i == len(cs)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(CardWord(c))
	}
	return b.String()
}

var numberWords = [...]string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// CountWords returns n things in words: "no cards", "one card", "three
// cards", "13 cards". noun is the singular; the plural adds an s.
func CountWords(n int, noun string) string {
	num := strconv.Itoa(n)
	if n >= 0 && n < len(numberWords) {
		num = numberWords[n]
	}
	if n != 1 {
		noun += "s"
	}
	return num + " " + noun
}

// marker reads the marker that starts template[i:] (at a '{' or a '['): a
// seat (seat >= 0) or a card (c != None), and its length; n is 0 when
// there is no well-formed marker there.
func marker(template string, i int) (seat int, c card.Card, n int) {
	open := template[i]
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	j := strings.IndexByte(template[i+1:min(len(template), i+6)], closing)
	if j < 1 {
		return -1, card.None, 0
	}
	inner := template[i+1 : i+1+j]
	if open == '{' {
		if len(inner) > 2 || (len(inner) == 2 && inner[0] == '0') {
			return -1, card.None, 0
		}
		v, err := strconv.Atoi(inner)
		if err != nil || v < 0 {
			return -1, card.None, 0
		}
		return v, card.None, j + 2
	}
	x := canonicalCard(inner)
	if x == card.None {
		return -1, card.None, 0
	}
	return -1, x, j + 2
}

// canonicalCard reads a card in canonical notation only ("10H", "QS",
// "JK"; not "TH" or "qs"), without allocating; None if text is not one.
func canonicalCard(text string) card.Card {
	if text == "JK" {
		return card.Joker
	}
	if len(text) < 2 {
		return card.None
	}
	suit := strings.IndexByte("SHDC", text[len(text)-1])
	if suit < 0 {
		return card.None
	}
	var r card.Rank
	switch rank := text[:len(text)-1]; rank {
	case "A":
		r = card.Ace
	case "2", "3", "4", "5", "6", "7", "8", "9":
		r = card.Rank(rank[0] - '0')
	case "10":
		r = card.Ten
	case "J":
		r = card.Jack
	case "Q":
		r = card.Queen
	case "K":
		r = card.King
	default:
		return card.None
	}
	return card.New(r, card.Suit(suit))
}

// Words renders narration words for a reader: each seat marker {N} becomes
// name(N) (nil: "seat N"), each card marker [C] cardText(C) (nil: the
// card's notation). A marker that is not well formed (an unknown seat
// form, a card not in canonical notation) is left as it is. When the words
// start with a seat, the first letter of the result is made upper case, so
// "{0} drew" reads "You drew" as well as "Ann drew".
func Words(template string, name func(seat int) string, cardText func(card.Card) string) string {
	var b strings.Builder
	b.Grow(len(template) + 16)
	last, seatFirst := 0, false
	for i := 0; i < len(template); i++ {
		ch := template[i]
		if ch != '{' && ch != '[' {
			continue
		}
		seat, c, n := marker(template, i)
		if n == 0 {
			continue
		}
		b.WriteString(template[last:i])
		seatFirst = seatFirst || (i == 0 && seat >= 0)
		switch {
		case seat >= 0 && name != nil:
			b.WriteString(name(seat))
		case seat >= 0:
			b.WriteString("seat " + strconv.Itoa(seat))
		case cardText != nil:
			b.WriteString(cardText(c))
		default:
			b.WriteString(c.String())
		}
		i += n - 1
		last = i + 1
	}
	if last == 0 {
		return template
	}
	b.WriteString(template[last:])
	out := b.String()
	if seatFirst {
		if r, size := utf8.DecodeRuneInString(out); unicode.IsLower(r) {
			out = string(unicode.ToUpper(r)) + out[size:]
		}
	}
	return out
}

// WordsCards returns the cards that narration words name with [C]
// markers, in order. An error matching ErrBadWords names a '[' that opens
// no card in canonical notation ("[7h]", "[TH]", "[XX]").
func WordsCards(template string) ([]card.Card, error) {
	var out []card.Card
	for i := 0; i < len(template); i++ {
		if template[i] != '[' {
			continue
		}
		_, c, n := marker(template, i)
		if n == 0 {
			return out, &WordsError{Words: template, Reason: fmt.Sprintf("%q at byte %d is not a card marker like [7H]", snippet(template, i), i)}
		}
		out = append(out, c)
		i += n - 1
	}
	return out, nil
}

// WordsSeats returns the seats that narration words name with {N}
// markers, in order. An error matching ErrBadWords names a '{' that opens
// no seat marker.
func WordsSeats(template string) ([]int, error) {
	var out []int
	for i := 0; i < len(template); i++ {
		if template[i] != '{' {
			continue
		}
		seat, _, n := marker(template, i)
		if n == 0 {
			return out, &WordsError{Words: template, Reason: fmt.Sprintf("%q at byte %d is not a seat marker like {0}", snippet(template, i), i)}
		}
		out = append(out, seat)
		i += n - 1
	}
	return out, nil
}

// CheckWords checks narration words for a table of players seats: not
// empty, one line, every marker well formed, every seat below players, and
// no card written bare ("7H" for "[7H]": a reader would neither draw it nor
// know to hide it). An error matches ErrBadWords and says what is wrong.
func CheckWords(template string, players int) error {
	bad := func(format string, args ...any) error {
		return &WordsError{Words: template, Reason: fmt.Sprintf(format, args...)}
	}
	if strings.TrimSpace(template) == "" {
		return bad("no words")
	}
	if strings.ContainsAny(template, "\n\r") {
		return bad("more than one line")
	}
	if _, err := WordsCards(template); err != nil {
		return err
	}
	seats, err := WordsSeats(template)
	if err != nil {
		return err
	}
	for _, s := range seats {
		if s >= players {
			return bad("seat {%d} is out of range (seats 0-%d)", s, players-1)
		}
	}
	// Bare cards: the words left once the markers are taken out, split
	// at anything but a letter or a digit.
	var plain strings.Builder
	for i := 0; i < len(template); i++ {
		if ch := template[i]; ch == '{' || ch == '[' {
			if _, _, n := marker(template, i); n > 0 {
				plain.WriteByte(' ')
				i += n - 1
				continue
			}
		}
		plain.WriteByte(template[i])
	}
	notWord := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	for _, w := range strings.FieldsFunc(plain.String(), notWord) {
		if canonicalCard(w) != card.None {
			return bad("card %s is written without its brackets ([%s])", w, w)
		}
	}
	return nil
}

// snippet returns a few bytes of s from i, for an error.
func snippet(s string, i int) string {
	end := min(len(s), i+6)
	if j := strings.IndexAny(s[i+1:end], "}]"); j >= 0 {
		end = i + 2 + j
	}
	return s[i:end]
}

// Telling builds a move's two texts at once (see Narrator): Say adds words
// to both, Card and Cards name cards in full and put other words in their
// place in blind, Full and Blind add words to one text only. Formats are
// fmt's; seat markers are written "{%d}".
//
// A Telling is meant to live on its narrator's stack: the texts are
// written into its own room and the two strings Texts returns are a move's
// only allocations while they fit. The verbs %d (an int), %s (a string)
// and %v (an int, a string or a card) are written here; any other verb or
// argument goes through fmt, from there to the format's end.
type Telling struct{ full, blind text }

// tellingRoom is a text's room in a Telling: most moves' whole texts.
const tellingRoom = 240

// text is one of a Telling's texts: in room while it fits, else in more.
type text struct {
	room [tellingRoom]byte
	n    int
	more []byte
}

// write adds s.
func (x *text) write(s string) {
	if x.more == nil && x.n+len(s) <= len(x.room) {
		x.n += copy(x.room[x.n:], s)
		return
	}
	if x.more == nil {
		x.more = append(make([]byte, 0, 2*len(x.room)), x.room[:x.n]...)
	}
	x.more = append(x.more, s...)
}

// writeInt adds n in decimal.
func (x *text) writeInt(n int64) {
	var d [20]byte
	x.write(string(strconv.AppendInt(d[:0], n, 10)))
}

// is reports whether the text is s.
func (x *text) is(s string) bool {
	if x.more != nil {
		return string(x.more) == s
	}
	return string(x.room[:x.n]) == s
}

// String returns the text.
func (x *text) String() string {
	if x.more != nil {
		return string(x.more)
	}
	return string(x.room[:x.n])
}

// sayf adds format with args, as fmt.Sprintf writes it.
func (x *text) sayf(format string, args []any) {
	if len(args) == 0 {
		x.write(format)
		return
	}
	a := 0
	for format != "" {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			x.write(format)
			return
		}
		x.write(format[:i])
		if i+1 < len(format) && format[i+1] == '%' {
			x.write("%")
			format = format[i+2:]
			continue
		}
		if i+1 >= len(format) || a >= len(args) || !x.verb(format[i+1], args[a]) {
			// Anything else is fmt's to write, from here on.
			x.write(sprintf(format[i:], args[a:]))
			return
		}
		a++
		format = format[i+2:]
	}
	if a < len(args) {
		x.write(sprintf("", args[a:])) // fmt's note of the extra arguments
	}
}

// verb writes arg by the verb v if it is one sayf writes itself.
func (x *text) verb(v byte, arg any) bool {
	switch a := arg.(type) {
	case int:
		if v == 'd' || v == 'v' {
			x.writeInt(int64(a))
			return true
		}
	case string:
		if v == 's' || v == 'v' {
			x.write(a)
			return true
		}
	case card.Card:
		if v == 'v' {
			x.write(a.String())
			return true
		}
	}
	return false
}

// sprintf is fmt.Sprintf. A text is never handed to fmt (as a writer it
// would put its Telling on the heap): fmt's words are added to it after.
func sprintf(format string, args []any) string { return fmt.Sprintf(format, args...) }

// Say adds words to both texts.
func (t *Telling) Say(format string, args ...any) {
	t.full.sayf(format, args)
	t.blind.sayf(format, args)
}

// Full adds words to the full text only.
func (t *Telling) Full(format string, args ...any) { t.full.sayf(format, args) }

// Blind adds words to the blind text only.
func (t *Telling) Blind(format string, args ...any) { t.blind.sayf(format, args) }

// Card names c in the full text ("[7H]") and writes instead in the blind
// one (e.g. "a card").
func (t *Telling) Card(c card.Card, instead string) {
	t.full.write("[")
	t.full.write(c.String())
	t.full.write("]")
	t.blind.write(instead)
}

// Cards names cs in the full text as a list ("[9S], [10S] and [JS]") and
// writes instead in the blind one (e.g. "three cards").
func (t *Telling) Cards(cs []card.Card, instead string) {
	t.full.write(CardListWords(cs))
	t.blind.write(instead)
}

// Shown names c in both texts ("[7H]"): a card every seat and spectators
// see as the move is made or after it, which is never "a card".
func (t *Telling) Shown(c card.Card) {
	t.full.write("[")
	t.full.write(c.String())
	t.full.write("]")
	t.blind.write("[")
	t.blind.write(c.String())
	t.blind.write("]")
}

// ShownCards names cs in both texts as a list ("[9S], [10S] and [JS]"):
// cards everyone sees.
func (t *Telling) ShownCards(cs []card.Card) {
	for i, c := range cs {
		switch {
		case i == 0:
		case i == len(cs)-1:
			t.Say(" and ")
		default:
			t.Say(", ")
		}
		t.Shown(c)
	}
}

// Texts returns the full and the blind texts: one string for both when
// they are the same, as they are for a move that hides nothing.
func (t *Telling) Texts() (full, blind string) {
	full = t.full.String()
	if t.blind.is(full) {
		return full, full
	}
	return full, t.blind.String()
}
