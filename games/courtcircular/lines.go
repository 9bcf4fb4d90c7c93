package courtcircular

import (
	"math/bits"

	"parlour/card"
)

// Card strengths for comparing cards, one table per edition, indexed by
// card value; higher is better and no two cards are equal. (The tables
// below are filled in by the same init.)
//
// 1860: every Heart above every other card (A K Q ... 2 of Hearts); then
// rank, Ace high; between equal ranks Diamonds, Clubs, Spades.
// 1862: rank first, Ace high; between equal ranks Hearts, Diamonds, Clubs,
// Spades.
var strength60, strength62 [64]uint8

// Suit tie order, indexed by card.Suit (S H D C).
var suitTie = [4]uint8{0, 3, 2, 1}

func init() {
	for r := card.Ace; r <= card.King; r++ {
		hi := uint8(r)
		if r == card.Ace {
			hi = 14
		}
		for _, s := range card.Suits {
			c := card.New(r, s)
			strength62[c] = hi*4 + suitTie[s]
			strength60[c] = hi*4 + suitTie[s]
			if s == card.Hearts {
				strength60[c] += 64
			}
			rankLo[c], rankHi[c] = 1<<r, 1<<hi
			flags[c] = 1 << s
			if isCourt(c) {
				flags[c] |= fCourt
			}
		}
	}
}

// Kind is the kind of a Line. The numbers order kinds within a class
// (1860) or overall (1862): higher is better.
type Kind uint8

// The kinds of Line. 1860 classes A and B: Trio > Sequence > Sympathy >
// Court; 1860 class C: Pair > Valentine > Etiquette; 1862: Trio > Sequence >
// Suit.
const (
	NoLine Kind = 0

	Court    Kind = 1
	Sympathy Kind = 2
	Sequence Kind = 3
	Trio     Kind = 4

	Etiquette Kind = 1
	Valentine Kind = 2
	Pair      Kind = 3

	Suit       Kind = 1
	Sequence62 Kind = 2
	Trio62     Kind = 3
)

// The 1860 classes of Line; 0 is no line.
const (
	ClassC = 1 // two own cards, Lead excluded
	ClassB = 2 // three own cards, Lead excluded
	ClassA = 3 // two or three own cards with the Lead
)

// A line key packs a side's best line into one number that compares as the
// rules rank lines; the low seven bits are the strength of the best own
// card in the line (or, without a line, of the best own card played).
//
// 1860: class<<11 | kind<<8 | long<<7 | strength60
// 1862: kind<<8 | withLead<<7 | strength62
type lineKey uint32

func key60(class int, kind Kind, long bool, best uint8) lineKey {
	k := lineKey(class)<<11 | lineKey(kind)<<8 | lineKey(best)
	if long {
		k |= 1 << 7
	}
	return k
}

func key62(kind Kind, withLead bool, best uint8) lineKey {
	k := lineKey(kind)<<8 | lineKey(best)
	if withLead {
		k |= 1 << 7
	}
	return k
}

func isCourt(c card.Card) bool { r := c.Rank(); return r >= card.Jack && r <= card.King }

// Per-card bits for evaluating lines with a few masks: the rank as a bit
// with the Ace low (bit 1) and with the Ace high (bit 14), and flags: the
// suit as one bit (1<<suit) and fCourt for K, Q, J.
var (
	rankLo, rankHi [64]uint16
	flags          [64]uint8
)

const (
	fHeart = 1 << card.Hearts
	fCourt = 1 << 4
)

// run reports whether mask is m consecutive bits with lead (a single bit,
// or 0 for no Lead) at one end of them.
func run(mask uint16, m int, lead uint16) bool {
	lo := mask & -mask
	if mask != lo<<m-lo {
		return false
	}
	return lead == 0 || lead == lo || lead == lo<<(m-1)
}

// side is a group of m cards (the Lead included when it is part of it)
// summed up in bits: their ranks (Ace low and Ace high), the flags every
// card has, and the Lead's rank bits when it is in the group.
type side struct {
	lo, hi         uint16
	all            uint8
	m              int
	leadLo, leadHi uint16
}

// sequence: distinct consecutive ranks, the Ace either low (A 2 3) or high
// (Q K A), never in the middle; the Lead, if in the group, at one end.
func (g side) sequence() bool {
	return bits.OnesCount16(g.lo) == g.m && (run(g.lo, g.m, g.leadLo) || run(g.hi, g.m, g.leadHi))
}

// kind60 is the best kind of the 1860 classes A and B the group makes.
func kind60(g side) Kind {
	switch {
	case g.lo&(g.lo-1) == 0:
		return Trio
	case g.sequence():
		return Sequence
	case g.all&fHeart != 0:
		return Sympathy
	case g.all&fCourt != 0:
		return Court
	}
	return NoLine
}

// kindC is the class-C kind of two own cards with rank bits lo and common
// flags all.
func kindC(lo uint16, all uint8) Kind {
	switch {
	case lo&(lo-1) == 0:
		return Pair
	case all&fHeart != 0:
		return Valentine
	case all&fCourt != 0:
		return Etiquette
	}
	return NoLine
}

// kind62 is the 1862 kind of a group of three cards.
func (g side) kind62() Kind {
	switch {
	case g.lo&(g.lo-1) == 0:
		return Trio62
	case g.sequence():
		return Sequence62
	case g.all&0xf != 0:
		return Suit
	}
	return NoLine
}

// best60 returns the key of the best 1860 line a side makes: own holds the
// cards the player played in the trick (0 to 3), lead the Lead.
func best60(own []card.Card, lead card.Card) lineKey {
	n := len(own)
	var lo, hi [3]uint16
	var fl, st [3]uint8
	var top uint8
	for i, c := range own {
		lo[i], hi[i], fl[i], st[i] = rankLo[c], rankHi[c], flags[c], strength60[c]
		top = max(top, st[i])
	}
	best := lineKey(top) // no line: the best card played
	if n < 2 {
		return best
	}
	llo, lhi, lf := rankLo[lead], rankHi[lead], flags[lead]
	for p := 0; p < 3; p++ {
		i, j := pairs[p][0], pairs[p][1]
		if j >= n {
			break
		}
		plo, phi, pf, s := lo[i]|lo[j], hi[i]|hi[j], fl[i]&fl[j], max(st[i], st[j])
		if k := kind60(side{plo | llo, phi | lhi, pf & lf, 3, llo, lhi}); k != NoLine {
			best = max(best, key60(ClassA, k, false, s))
		} else if k := kindC(plo, pf); k != NoLine {
			best = max(best, key60(ClassC, k, false, s))
		}
	}
	if n == 3 {
		tlo, thi, tf := lo[0]|lo[1]|lo[2], hi[0]|hi[1]|hi[2], fl[0]&fl[1]&fl[2]
		if k := kind60(side{tlo | llo, thi | lhi, tf & lf, 4, llo, lhi}); k != NoLine {
			best = max(best, key60(ClassA, k, true, top))
		} else if k := kind60(side{tlo, thi, tf, 3, 0, 0}); k != NoLine {
			best = max(best, key60(ClassB, k, false, top))
		}
	}
	return best
}

// pairs are the index pairs of up to three own cards, the pair of the
// first two cards first.
var pairs = [3][2]int{{0, 1}, {0, 2}, {1, 2}}

// best62 returns the key of the best 1862 line a side makes: exactly three
// cards, either the three own cards or two own cards and the Lead.
func best62(own []card.Card, lead card.Card) lineKey {
	n := len(own)
	var lo, hi [3]uint16
	var fl, st [3]uint8
	var top uint8
	for i, c := range own {
		lo[i], hi[i], fl[i], st[i] = rankLo[c], rankHi[c], flags[c], strength62[c]
		top = max(top, st[i])
	}
	best := lineKey(top)
	if n < 2 {
		return best
	}
	llo, lhi, lf := rankLo[lead], rankHi[lead], flags[lead]
	if n == 3 {
		g := side{lo[0] | lo[1] | lo[2], hi[0] | hi[1] | hi[2], fl[0] & fl[1] & fl[2], 3, 0, 0}
		if k := g.kind62(); k != NoLine {
			best = key62(k, false, top)
		}
	}
	for p := 0; p < 3; p++ {
		i, j := pairs[p][0], pairs[p][1]
		if j >= n {
			break
		}
		g := side{lo[i] | lo[j] | llo, hi[i] | hi[j] | lhi, fl[i] & fl[j] & lf, 3, llo, lhi}
		if k := g.kind62(); k != NoLine {
			best = max(best, key62(k, true, max(st[i], st[j])))
		}
	}
	return best
}

// Line is a side's best Line, decoded for tests and views.
type Line struct {
	// Class is the 1860 class (ClassA, ClassB, ClassC) or, in 1862, 2 for
	// a line with the Lead and 1 for one without; 0 for no line.
	Class int
	Kind  Kind
	// Long marks an 1860 class-A line of four cards (the Lead and three
	// own cards).
	Long bool
	// Best is the best own card in the line; with no line, the best card
	// played (None when nothing was played).
	Best card.Card
}

// card60 and card62 map a strength back to its card, per edition.
var card60, card62 [128]card.Card

func init() {
	for c := card.Card(4); c < 56; c++ {
		card60[strength60[c]] = c
		card62[strength62[c]] = c
	}
}

func (k lineKey) line60() Line {
	return Line{Class: int(k >> 11), Kind: Kind(k >> 8 & 7), Long: k&(1<<7) != 0, Best: card60[k&127]}
}

func (k lineKey) line62() Line {
	l := Line{Kind: Kind(k >> 8 & 7), Best: card62[k&127]}
	if l.Kind != NoLine {
		l.Class = 1
		if k&(1<<7) != 0 {
			l.Class = 2
		}
	}
	return l
}

// BestLine returns the best Line a player makes with her own played cards
// (up to three) and the Lead, by the rules of the edition ("1860" or
// "1862").
func BestLine(edition string, own []card.Card, lead card.Card) Line {
	if edition == Edition1862 {
		return best62(own, lead).line62()
	}
	return best60(own, lead).line60()
}

var kindNames60 = [4][5]string{
	ClassA: {"", "Court", "Sympathy", "Sequence", "Trio"},
	ClassB: {"", "Court", "Sympathy", "Sequence", "Trio"},
	ClassC: {"", "Etiquette", "Valentine", "Pair", ""},
}

var kindNames62 = [4]string{"", "Suit", "Sequence", "Trio"}

// Describe names the line in the words of the edition's rules, e.g.
// "Sequence of 4 with the Lead", "Pair", "Trio without the Lead"; "no line".
func (l Line) Describe(edition string) string {
	if l.Kind == NoLine {
		return "no line"
	}
	if edition == Edition1862 {
		if l.Class == 2 {
			return kindNames62[l.Kind] + " with the Lead"
		}
		return kindNames62[l.Kind] + " without the Lead"
	}
	name := kindNames60[l.Class][l.Kind]
	switch {
	case l.Class == ClassA && l.Long && l.Kind == Court:
		return "Court Circular (Court of 4 with the Lead)"
	case l.Class == ClassA && l.Long:
		return name + " of 4 with the Lead"
	case l.Class == ClassA:
		return name + " with the Lead"
	}
	return name
}
