package courtcircular_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"parlour/card"
	cc "parlour/games/courtcircular"
)

func cards(s string) []card.Card { return card.MustParseList(s) }

// TestLines1860Table checks one side's best line for lines of every class
// and kind (Rulings 3, 7, 8 and 9 among them).
func TestLines1860Table(t *testing.T) {
	A, B, C := cc.ClassA, cc.ClassB, cc.ClassC
	tests := []struct {
		name, own, lead string
		class           int
		kind            cc.Kind
		long            bool
		best            string
	}{
		// Class A: the Lead and two or three own cards.
		{"A Trio of 3", "9D 9S 2H", "9C", A, cc.Trio, false, "9D"},
		{"A Trio of 4", "9D 9S 9H", "9C", A, cc.Trio, true, "9H"},
		{"A Sequence of 3, Lead low", "6D 7S KC", "5H", A, cc.Sequence, false, "7S"},
		{"A Sequence of 3, Lead high (T003-1)", "AS 7C 6D", "5H", A, cc.Sequence, false, "7C"},
		{"A Sequence of 4", "10C JD QS", "9C", A, cc.Sequence, true, "QS"},
		{"A Sequence J Q K A (Ruling 7)", "JS QS KD", "AC", A, cc.Sequence, true, "KD"},
		{"A Sequence A 2 3 4 (Ruling 7)", "2S 3D 4C", "AC", A, cc.Sequence, true, "4C"},
		{"A Sequence Ace high, Lead low", "KS AD 2C", "QC", A, cc.Sequence, false, "AD"},
		{"A Sympathy of 3", "2H 9H KS", "5H", A, cc.Sympathy, false, "9H"},
		{"A Sympathy of 4", "2H 9H JH", "5H", A, cc.Sympathy, true, "JH"},
		{"A Court of 3", "JS KD 4C", "QC", A, cc.Court, false, "KD"},
		{"A Court Circular (4)", "JS KD QD", "QC", A, cc.Court, true, "KD"},
		// Class B: three own cards, without the Lead.
		{"B Trio", "4D 4S 4C", "9H", B, cc.Trio, false, "4D"},
		{"B Sequence", "4D 5S 6C", "9H", B, cc.Sequence, false, "6C"},
		{"B Sequence Q K A", "QD KS AC", "9H", B, cc.Sequence, false, "AC"},
		{"B Sympathy", "4H 9H KH", "2S", B, cc.Sympathy, false, "KH"},
		{"B Court", "JD KS KC", "2S", B, cc.Court, false, "KC"},
		// Class C: two own cards, without the Lead.
		{"C Pair", "7D 7C 2S", "10H", C, cc.Pair, false, "7D"},
		{"C Valentine", "7H 2H 9S", "4C", C, cc.Valentine, false, "7H"},
		{"C Etiquette", "JS KC 4D", "9D", C, cc.Etiquette, false, "KC"},
		// No line: the best card played.
		{"no line (T003-2)", "6S 8D KC", "7H", 0, cc.NoLine, false, "KC"},
		{"Lead in the middle (Ruling 8)", "8S 10D 2C", "9H", 0, cc.NoLine, false, "10D"},
		{"Lead at the end (Ruling 8)", "10S JD 2C", "9H", A, cc.Sequence, false, "JD"},
		{"Ace never in the middle: K A 2", "KS 2D 7C", "AH", 0, cc.NoLine, false, "KS"},
		{"Ace never in the middle: Q K A 2 (Ruling 7)", "QS KD 2C", "AH", A, cc.Sequence, false, "KD"},
		{"Aces are not court cards (Ruling 9)", "AS KD 3C", "JC", 0, cc.NoLine, false, "AS"},
		{"two Aces and a King are no Court", "AS AD 3C", "KC", C, cc.Pair, false, "AD"},
		{"one card makes no line", "AH", "AS", 0, cc.NoLine, false, "AH"},
		{"nothing played", "", "AS", 0, cc.NoLine, false, ""},
		// The best line over all subsets.
		{"Class A beats Class B", "4D 5S 6C", "6H", A, cc.Sequence, false, "5S"},
		{"Class B Trio beats Class A? no: A Court beats B Trio", "JD JS JC", "QH", A, cc.Court, true, "JD"},
		{"the Trio is taken over the longer Sequence", "9S 10D 9D", "9C", A, cc.Trio, false, "9D"},
		{"two pairs of a kind: the better own card", "7H 7D 2S", "QC", C, cc.Pair, false, "7H"},
		{"Pair beats Valentine", "7H 7S 2H", "QC", C, cc.Pair, false, "7H"},
		{"Sympathy with the Lead beats Sequence without", "2H 3H 4H", "9H", A, cc.Sympathy, true, "4H"},
		{"Sequence of 3 with the Lead over Sympathy of 4", "2H 3H 9H", "4H", A, cc.Sequence, false, "3H"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := cc.Line{Class: tc.class, Kind: tc.kind, Long: tc.long}
			if tc.best != "" {
				want.Best = card.MustParse(tc.best)
			}
			got := cc.BestLine(cc.Edition1860, cards(tc.own), card.MustParse(tc.lead))
			if got != want {
				t.Errorf("own %s lead %s: got %+v (%s), want %+v (%s)", tc.own, tc.lead,
					got, got.Describe(cc.Edition1860), want, want.Describe(cc.Edition1860))
			}
		})
	}
}

// TestLines1862Table checks one side's best 1862 line (Rulings 4 and 7).
func TestLines1862Table(t *testing.T) {
	with, without := 2, 1
	tests := []struct {
		name, own, lead string
		class           int
		kind            cc.Kind
		best            string
	}{
		{"Trio with the Lead", "9D 9S 2H", "9C", with, cc.Trio62, "9D"},
		{"Trio without the Lead", "5S 5D 5C", "9C", without, cc.Trio62, "5D"},
		{"Trio with the Lead over Trio without", "9D 9S 9H", "9C", with, cc.Trio62, "9H"},
		{"Sequence with the Lead (T003-1)", "AS 7C 6D", "5H", with, cc.Sequence62, "7C"},
		{"Sequence without the Lead", "4S 5D 6C", "KH", without, cc.Sequence62, "6C"},
		{"Lead not in the middle", "4S 6D JC", "5H", 0, cc.NoLine, "JC"},
		{"Ace low, ranked high", "AS 2D 9C", "3H", with, cc.Sequence62, "AS"},
		{"Ace high", "KS AD 9C", "QH", with, cc.Sequence62, "AD"},
		{"K A 2 is no Sequence", "KS 2D 9C", "AH", 0, cc.NoLine, "KS"},
		{"Suit with the Lead", "2S 9S KD", "5S", with, cc.Suit, "9S"},
		{"Suit without the Lead", "2D 9D KD", "5S", without, cc.Suit, "KD"},
		{"Sequence without the Lead beats Suit with it", "2S 3D 4S", "9S", without, cc.Sequence62, "4S"},
		{"no line: best card, rank first", "AS 7D 3C", "KH", 0, cc.NoLine, "AS"},
		{"equal ranks: Hearts first", "9H 9S 3C", "KD", 0, cc.NoLine, "9H"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := cc.Line{Class: tc.class, Kind: tc.kind, Best: card.MustParse(tc.best)}
			got := cc.BestLine(cc.Edition1862, cards(tc.own), card.MustParse(tc.lead))
			if got != want {
				t.Errorf("own %s lead %s: got %+v (%s), want %+v (%s)", tc.own, tc.lead,
					got, got.Describe(cc.Edition1862), want, want.Describe(cc.Edition1862))
			}
		})
	}
}

// TestT003_5_CardOrderDiffers: with no lines, A♠ against K♥: K♥ in 1860
// (Hearts first), A♠ in 1862 (rank first).
func TestT003_5_CardOrderDiffers(t *testing.T) {
	as, kh := card.MustParse("AS"), card.MustParse("KH")
	if !cc.Better(cc.Edition1860, kh, as) {
		t.Error("1860: KH should beat AS")
	}
	if !cc.Better(cc.Edition1862, as, kh) {
		t.Error("1862: AS should beat KH")
	}
	// T003-4: A♦ beats A♣ (1860 tie order D, C, S).
	if !cc.Better(cc.Edition1860, card.MustParse("AD"), card.MustParse("AC")) ||
		!cc.Better(cc.Edition1860, card.MustParse("AC"), card.MustParse("AS")) {
		t.Error("1860: AD > AC > AS")
	}
}

// ---- An independent evaluator, written from the rules text ----

// bfOrder ranks the 52 cards best first, spelled out as the rules list them.
func bfOrder(edition string) map[card.Card]int {
	ranks := []string{"A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"}
	var names []string
	if edition == cc.Edition1860 {
		for _, r := range ranks {
			names = append(names, r+"H")
		}
		for _, r := range ranks {
			names = append(names, r+"D", r+"C", r+"S")
		}
	} else {
		for _, r := range ranks {
			names = append(names, r+"H", r+"D", r+"C", r+"S")
		}
	}
	out := map[card.Card]int{}
	for i, n := range names {
		out[card.MustParse(n)] = 52 - i // higher is better
	}
	return out
}

var bfOrder60, bfOrder62 = bfOrder(cc.Edition1860), bfOrder(cc.Edition1862)

// bfSequence: the ranks of cs (plus the Lead when not None) are exactly a
// window of the row A 2 3 ... K A, with the Lead at one end of the window.
func bfSequence(cs []card.Card, lead card.Card) bool {
	row := []card.Rank{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1}
	var ranks []int
	for _, c := range cs {
		ranks = append(ranks, int(c.Rank()))
	}
	if lead != card.None {
		ranks = append(ranks, int(lead.Rank()))
	}
	slices.Sort(ranks)
	m := len(ranks)
	for start := 0; start+m <= len(row); start++ {
		win := row[start : start+m]
		var w []int
		for _, r := range win {
			w = append(w, int(r))
		}
		slices.Sort(w)
		if !slices.Equal(w, ranks) {
			continue
		}
		if lead == card.None || lead.Rank() == win[0] || lead.Rank() == win[m-1] {
			return true
		}
	}
	return false
}

func every(cs []card.Card, f func(card.Card) bool) bool {
	for _, c := range cs {
		if !f(c) {
			return false
		}
	}
	return true
}

func sameRank(cs []card.Card) bool {
	return every(cs, func(c card.Card) bool { return c.Rank() == cs[0].Rank() })
}
func allHearts(cs []card.Card) bool {
	return every(cs, func(c card.Card) bool { return c.Suit() == card.Hearts })
}
func allCourt(cs []card.Card) bool {
	return every(cs, func(c card.Card) bool { r := c.Rank(); return r == 11 || r == 12 || r == 13 })
}
func sameSuit(cs []card.Card) bool {
	return every(cs, func(c card.Card) bool { return c.Suit() == cs[0].Suit() })
}

func bestCard(cs []card.Card, order map[card.Card]int) card.Card {
	b := card.None
	for _, c := range cs {
		if b == card.None || order[c] > order[b] {
			b = c
		}
	}
	return b
}

// subsets returns every subset of cs.
func subsets(cs []card.Card) [][]card.Card {
	var out [][]card.Card
	for mask := 0; mask < 1<<len(cs); mask++ {
		var s []card.Card
		for i, c := range cs {
			if mask&(1<<i) != 0 {
				s = append(s, c)
			}
		}
		out = append(out, s)
	}
	return out
}

// bfBetter60 compares by class, kind, length, best own card (Ruling 3).
func bfBetter60(a, b cc.Line) bool {
	if a.Class != b.Class {
		return a.Class > b.Class
	}
	if a.Kind != b.Kind {
		return a.Kind > b.Kind
	}
	if a.Long != b.Long {
		return a.Long
	}
	return bfOrder60[a.Best] > bfOrder60[b.Best]
}

// bfLine60 lists every line the side makes and keeps the best.
func bfLine60(own []card.Card, lead card.Card) cc.Line {
	best := cc.Line{Best: bestCard(own, bfOrder60)}
	consider := func(l cc.Line) {
		if bfBetter60(l, best) {
			best = l
		}
	}
	for _, s := range subsets(own) {
		if len(s) < 2 {
			continue
		}
		hi := bestCard(s, bfOrder60)
		if len(s) == 3 {
			if sameRank(s) {
				consider(cc.Line{Class: cc.ClassB, Kind: cc.Trio, Best: hi})
			}
			if bfSequence(s, card.None) {
				consider(cc.Line{Class: cc.ClassB, Kind: cc.Sequence, Best: hi})
			}
			if allHearts(s) {
				consider(cc.Line{Class: cc.ClassB, Kind: cc.Sympathy, Best: hi})
			}
			if allCourt(s) {
				consider(cc.Line{Class: cc.ClassB, Kind: cc.Court, Best: hi})
			}
		} else {
			if sameRank(s) {
				consider(cc.Line{Class: cc.ClassC, Kind: cc.Pair, Best: hi})
			}
			if allHearts(s) {
				consider(cc.Line{Class: cc.ClassC, Kind: cc.Valentine, Best: hi})
			}
			if allCourt(s) {
				consider(cc.Line{Class: cc.ClassC, Kind: cc.Etiquette, Best: hi})
			}
		}
		withLead := append(slices.Clone(s), lead)
		long := len(s) == 3
		if sameRank(withLead) {
			consider(cc.Line{Class: cc.ClassA, Kind: cc.Trio, Long: long, Best: hi})
		}
		if bfSequence(s, lead) {
			consider(cc.Line{Class: cc.ClassA, Kind: cc.Sequence, Long: long, Best: hi})
		}
		if allHearts(withLead) {
			consider(cc.Line{Class: cc.ClassA, Kind: cc.Sympathy, Long: long, Best: hi})
		}
		if allCourt(withLead) {
			consider(cc.Line{Class: cc.ClassA, Kind: cc.Court, Long: long, Best: hi})
		}
	}
	return best
}

// bfBetter62 compares by kind, then with the Lead, then best own card
// (Ruling 4).
func bfBetter62(a, b cc.Line) bool {
	if a.Kind != b.Kind {
		return a.Kind > b.Kind
	}
	if a.Class != b.Class {
		return a.Class > b.Class
	}
	return bfOrder62[a.Best] > bfOrder62[b.Best]
}

// bfLine62: every group of exactly three cards of the side, the Lead in it
// or not.
func bfLine62(own []card.Card, lead card.Card) cc.Line {
	best := cc.Line{Best: bestCard(own, bfOrder62)}
	for _, s := range subsets(own) {
		var group []card.Card
		class := 0
		switch len(s) {
		case 3:
			group, class = s, 1
		case 2:
			group, class = append(slices.Clone(s), lead), 2
		default:
			continue
		}
		hi := bestCard(s, bfOrder62)
		ld := card.None
		if class == 2 {
			ld = lead
		}
		for _, l := range []cc.Line{
			{Class: class, Kind: cc.Trio62, Best: hi},
			{Class: class, Kind: cc.Sequence62, Best: hi},
			{Class: class, Kind: cc.Suit, Best: hi},
		} {
			ok := (l.Kind == cc.Trio62 && sameRank(group)) ||
				(l.Kind == cc.Sequence62 && bfSequence(s, ld)) ||
				(l.Kind == cc.Suit && sameSuit(group))
			if ok && bfBetter62(l, best) {
				best = l
			}
		}
	}
	return best
}

// dealer draws distinct cards, most of them from a narrow theme (a few
// ranks or suits, Hearts, court cards) so that every kind of line turns up.
type dealer struct {
	rng  *rand.Rand
	used card.Set
	pool []card.Card
}

func newDealer(rng *rand.Rand) *dealer {
	d := &dealer{rng: rng}
	var ranks []card.Rank
	switch rng.IntN(4) {
	case 0: // a run of five ranks, the Ace at either end
		start := rng.IntN(10) + 1
		for r := start; r < start+5; r++ {
			ranks = append(ranks, card.Rank((r-1)%13+1))
		}
	case 1: // court cards and Aces
		ranks = []card.Rank{1, 11, 12, 13}
	case 2: // three ranks
		for range 3 {
			ranks = append(ranks, card.Rank(rng.IntN(13)+1))
		}
	default: // anything
		for r := 1; r <= 13; r++ {
			ranks = append(ranks, card.Rank(r))
		}
	}
	suits := card.Suits[:]
	if rng.IntN(2) == 0 {
		suits = []card.Suit{card.Hearts, card.Suits[rng.IntN(4)]}
	}
	for _, r := range ranks {
		for _, s := range suits {
			d.pool = append(d.pool, card.New(r, s))
		}
	}
	return d
}

func (d *dealer) draw() card.Card {
	for {
		var c card.Card
		if d.rng.IntN(5) > 0 {
			c = d.pool[d.rng.IntN(len(d.pool))]
		} else {
			c = card.New(card.Rank(d.rng.IntN(13)+1), card.Suits[d.rng.IntN(4)])
		}
		if !d.used.Has(c) {
			d.used = d.used.Add(c)
			return c
		}
	}
}

func (d *dealer) drawN(n int) []card.Card {
	out := make([]card.Card, n)
	for i := range out {
		out[i] = d.draw()
	}
	return out
}

// TestLinesBruteForce checks the evaluator against the independent one over
// random sides, and that every class and kind turned up (fewer sides under
// -short, and each class and kind fewer times).
func TestLinesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1860, 1862))
	seen60, seen62 := map[cc.Line]int{}, map[cc.Line]int{}
	kinds := func(l cc.Line) cc.Line { return cc.Line{Class: l.Class, Kind: l.Kind, Long: l.Long} }
	sides, least := 200000, 50
	if testing.Short() {
		sides, least = 40000, 10
	}
	for i := 0; i < sides; i++ {
		d := newDealer(rng)
		lead := d.draw()
		own := d.drawN(rng.IntN(4))
		if i%4 != 0 {
			own = append(own[:0], d.drawN(3)...)
		}
		want := bfLine60(own, lead)
		if got := cc.BestLine(cc.Edition1860, own, lead); got != want {
			t.Fatalf("1860 own %s lead %v: got %+v, want %+v", card.Join(own), lead, got, want)
		}
		seen60[kinds(want)]++
		if len(own) == 3 {
			want := bfLine62(own, lead)
			if got := cc.BestLine(cc.Edition1862, own, lead); got != want {
				t.Fatalf("1862 own %s lead %v: got %+v, want %+v", card.Join(own), lead, got, want)
			}
			seen62[kinds(want)]++
		}
	}
	for class := cc.ClassC; class <= cc.ClassA; class++ {
		for kind := cc.Kind(1); kind <= 4; kind++ {
			for _, long := range []bool{false, true} {
				if (class == cc.ClassC && kind == 4) || (long && class != cc.ClassA) {
					continue
				}
				if l := (cc.Line{Class: class, Kind: kind, Long: long}); seen60[l] < least {
					t.Errorf("1860 %s: only %d random sides", l.Describe(cc.Edition1860), seen60[l])
				}
			}
		}
	}
	for class := 1; class <= 2; class++ {
		for kind := cc.Kind(1); kind <= 3; kind++ {
			if l := (cc.Line{Class: class, Kind: kind}); seen62[l] < least {
				t.Errorf("1862 %s: only %d random sides", l.Describe(cc.Edition1862), seen62[l])
			}
		}
	}
	t.Logf("1860 lines seen: %v", seen60)
	t.Logf("1862 lines seen: %v", seen62)
}
