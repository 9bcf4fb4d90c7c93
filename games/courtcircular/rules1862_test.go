package courtcircular_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"parlour/card"
	"parlour/game"
	cc "parlour/games/courtcircular"
)

var e62 = map[string]any{"edition": "1862", "dealer": 1} // seat 0 is first-hand

// trick62 plays one 1862 trick: a0 b0 a1 b1 a2 b2, seat 0 first.
func trick62(m *match, own0, own1 string) {
	m.t.Helper()
	a, b := strings.Fields(own0), strings.Fields(own1)
	for i := range 3 {
		m.do("0: play "+a[i], "1: play "+b[i])
	}
}

// TestT003_8_Taking checks Rule IV's card counts and who chooses the Lead.
func TestT003_8_Taking(t *testing.T) {
	for _, tc := range []struct {
		name, own0, own1, lead string
		winner, take, chooser  int
		lines                  []string
	}{
		{"Trio v Sequence: 1 + 3", "9S 9D 9C", "4H 5S 6D", "KC", 0, 4, 0,
			[]string{"Trio without the Lead", "Sequence without the Lead"}},
		{"Suit v no line: 3, the loser chooses", "2H 7H JH", "3C 8D KS", "5S", 0, 3, 1,
			[]string{"Suit without the Lead", "no line"}},
		{"Trio with the Lead v Trio without: 1 + 5", "9D 9H 2S", "5S 5D 5C", "9C", 0, 6, 0,
			[]string{"Trio with the Lead", "Trio without the Lead"}},
		{"equal lines: 1, won on cards", "2D 7D JD", "3S 8S QS", "5H", 1, 1, 1,
			[]string{"Suit without the Lead", "Suit without the Lead"}},
		{"no lines: 1, won on cards", "AS 4D 9C", "KH 6C 2D", "7S", 0, 1, 0,
			[]string{"no line", "no line"}},
		{"Sequence with the Lead v Sequence without: 2 + 3", "6S 7D 2C", "JS QD KC", "5H", 0, 5, 0,
			[]string{"Sequence with the Lead", "Sequence without the Lead"}},
		{"Suit with the Lead v Suit without: 3 + 1", "2S 7S 4D", "3C 8C QC", "5S", 0, 4, 0,
			[]string{"Suit with the Lead", "Suit without the Lead"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fillers(tc.own0, tc.own1, tc.lead)
			m := newMatch(t, e62, layout2(tc.own0+" "+f[0], tc.own1+" "+f[1], tc.lead))
			trick62(m, tc.own0, tc.own1)
			v := m.view()
			if v.TrickWinner != tc.winner || v.Take != tc.take || !slices.Equal(v.Lines, tc.lines) {
				t.Fatalf("winner %d take %d lines %q, want %d, %d, %q", v.TrickWinner, v.Take, v.Lines, tc.winner, tc.take, tc.lines)
			}
			m.wantToAct(tc.winner)
			if n := len(m.legal(tc.winner)); n != binom(7, tc.take) {
				t.Errorf("%d ways to take %d of 7 cards, want %d", n, tc.take, binom(7, tc.take))
			}
			// Take the first listed choice, then the chooser picks the Lead.
			pick := m.legal(tc.winner)[0]
			m.do(string(rune('0'+tc.winner)) + ": " + pick)
			m.wantToAct(tc.chooser)
			if n := len(m.legal(tc.chooser)); n != 7-tc.take {
				t.Errorf("%d Lead choices, want %d", n, 7-tc.take)
			}
		})
	}
}

// fillers returns two sets of three cards not among the given ones, to
// fill the hands beyond the cards a test plays.
func fillers(used ...string) [2]string {
	taken := card.SetOf(card.MustParseList(strings.Join(used, " "))...)
	var free []string
	for _, c := range card.Pack52() {
		if !taken.Has(c) && len(free) < 6 {
			free = append(free, c.String())
		}
	}
	return [2]string{strings.Join(free[:3], " "), strings.Join(free[3:], " ")}
}

func binom(n, k int) int {
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// TestT003_8_TakeRefusals: the winner takes exactly the cards due, from the
// table.
func TestT003_8_TakeRefusals(t *testing.T) {
	m := newMatch(t, e62, layout2("9S 9D 9C 10S 4C 6C", "4H 5S 6D 10D 10C 7C", "KC"))
	trick62(m, "9S 9D 9C", "4H 5S 6D")
	m.refuse("0: take 9S 9D 9C", "take exactly 4 (Trio without the Lead beat Sequence without the Lead: 1 + 3)")
	m.refuse("0: take 9S 9D 9C 10S", "10S is not on the table")
	m.refuse("0: lead 9S", "the trick is over: seat 0 first takes 4")
	m.refuse("1: take 9S 9D 9C KC", "seat 1 may not act now")
	m.do("0: take 9S 9D 9C KC") // the old Lead among them
	// public.lead is still the old Lead while the next is chosen, even
	// once it has been taken (shared/spec/script.md).
	if v := m.view(); v.Lead != card.MustParse("KC") || len(v.WonUp[0]) != 4 || v.Phase != "lead" {
		t.Errorf("after taking the old Lead: lead %v, won %v, phase %s; want KC shown, 4 won, lead", v.Lead, v.WonUp[0], v.Phase)
	}
	m.wantLegal(0, "lead 4H", "lead 5S", "lead 6D")
	m.do("0: lead 5S")
	v := m.view()
	if v.Lead != card.MustParse("5S") || names(v.SetAside) != "4H 6D" {
		t.Errorf("lead %v set aside %v, want 5S and 4H 6D", v.Lead, v.SetAside)
	}
}

// TestFurther1862_OldLeadChosenAgain: an old Lead the winner did not take
// may be chosen again.
func TestFurther1862_OldLeadChosenAgain(t *testing.T) {
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	trick62(m, "AS 4D 9C", "KH 6C 2D")
	m.do("0: take AS")
	m.wantToAct(0)
	if !slices.Contains(m.legal(0), "lead 7S") {
		t.Errorf("legal %q: the old Lead 7S may be chosen again", m.legal(0))
	}
	m.do("0: lead 7S")
	if v := m.view(); v.Lead != card.MustParse("7S") {
		t.Errorf("lead %v, want 7S", v.Lead)
	}
}

// TestRule1_No5FaceDown: first-hand's third card lies face down, seen by
// her only, until No. 6 is played.
func TestRule1_No5FaceDown(t *testing.T) {
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	m.do("0: play AS", "1: play KH", "0: play 4D", "1: play 6C", "0: play 9C")
	for seat := game.Spectator; seat < 2; seat++ {
		v := m.st.View(seat).(cc.View)
		want := card.None
		if seat == 0 {
			want = card.MustParse("9C")
		}
		if len(v.Played[0]) != 3 || v.Played[0][2] != want {
			t.Errorf("%d sees first-hand's cards as %v, want No. 5 as %v", seat, v.Played[0], want)
		}
		b, _ := json.Marshal(v)
		if seat != 0 && strings.Contains(string(b), "9C") {
			t.Errorf("seat %d's view shows the face-down 9C: %s", seat, b)
		}
	}
	m.do("1: play 2D")
	for seat := game.Spectator; seat < 2; seat++ {
		if v := m.st.View(seat).(cc.View); v.Played[0][2] != card.MustParse("9C") {
			t.Errorf("after No. 6, seat %d sees No. 5 as %v", seat, v.Played[0][2])
		}
	}
}

// TestFurther1862_LoserDealsWinnerFirst: after each trick the loser deals
// three cards to each, the winner first.
func TestFurther1862_LoserDealsWinnerFirst(t *testing.T) {
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S",
		"2H", "3H", "4H", "5H", "6H", "7H"))
	trick62(m, "AS 4D 9C", "KH 6C 2D") // seat 0 wins on cards (AS)
	m.do("0: take AS", "0: lead 7S")
	s := m.st.(*cc.State)
	if h := names(s.Hand(0)); h != "2H 3H 4H 4C 5C 10S" {
		t.Errorf("winner's hand %s, want the stock's first three 2H 3H 4H with 4C 5C 10S", h)
	}
	if h := names(s.Hand(1)); h != "5H 6H 7H 7C 10D 10C" {
		t.Errorf("loser's hand %s, want 5H 6H 7H with 7C 10D 10C", h)
	}
	if v := m.view(); v.FirstHand != 0 || v.Stock != 33 {
		t.Errorf("first-hand %d stock %d, want 0 and 33", v.FirstHand, v.Stock)
	}
}

// TestRule5_SharedCardsAndEightTricks plays whole 1862 deals: eight tricks,
// the three shared cards turned up after the seventh trick's Lead, used
// only in the eighth, no Lead after it, and the loser of the last trick
// deals the next deal.
func TestRule5_SharedCardsAndEightTricks(t *testing.T) {
	for seed := range 10 {
		m := newMatch(t, map[string]any{"edition": "1862", "dealer": seed % 2}, "")
		for s := seed; s > 0; s-- {
			seat := m.st.ToAct().First()
			l := m.legal(seat)
			m.do(string(rune('0'+seat)) + ": " + l[s%len(l)])
		}
		tricks, sharedSeen, swapped := 0, false, false
		var lastWinner int
		for m.st.Result().Deal == 1 {
			v := m.view()
			seat := m.st.ToAct().First()
			tricks = v.Tricks[0] + v.Tricks[1]
			if v.Phase == "take" {
				lastWinner = v.TrickWinner
			}
			if v.Shared != nil && !sharedSeen {
				sharedSeen = true
				if tricks != 7 || v.Stock != 0 || v.Leader >= 0 {
					t.Errorf("seed %d: shared cards up after %d tricks (stock %d)", seed, tricks, v.Stock)
				}
			}
			if v.Phase == "play" && v.Shared == nil && tricks < 7 {
				for _, mv := range m.legal(seat) {
					if strings.Contains(mv, " for ") {
						t.Fatalf("seed %d trick %d: %q offered before the last trick", seed, tricks+1, mv)
					}
				}
				if h := m.st.(*cc.State).Hand(seat); len(h) > 1 {
					m.refuse(string(rune('0'+seat))+": play "+h[0].String()+" for "+h[1].String(), "turned up only for the last trick")
				}
			}
			if v.Phase == "play" && v.Shared != nil {
				// Take a shared card whenever one is offered.
				for _, mv := range m.legal(seat) {
					if strings.Contains(mv, " for ") {
						m.do(string(rune('0'+seat)) + ": " + mv)
						swapped = true
						goto next
					}
				}
			}
			if v.Phase == "lead" && tricks == 8 {
				t.Fatalf("seed %d: a Lead is chosen after the eighth trick", seed)
			}
			m.playFirst()
		next:
		}
		if tricks != 8 || !sharedSeen || !swapped {
			t.Errorf("seed %d: %d tricks, shared %v, swapped %v; want 8 tricks with the shared cards", seed, tricks, sharedSeen, swapped)
		}
		v := m.view()
		if v.Dealer != 1-lastWinner || v.FirstHand != lastWinner {
			t.Errorf("seed %d: deal 2 dealer %d first-hand %d; the last trick's winner was %d", seed, v.Dealer, v.FirstHand, lastWinner)
		}
		if len(v.Hits) != 2 {
			t.Errorf("seed %d: public hits %v", seed, v.Hits)
		}
	}
}

// TestRule5_SharedRowSwap: "play C for D" plays the shared card C and puts
// hand card D in its place, which either player may then take.
func TestRule5_SharedRowSwap(t *testing.T) {
	m := newMatch(t, map[string]any{"edition": "1862", "dealer": 1}, "")
	for m.view().Shared == nil {
		m.playFirst()
	}
	v := m.view()
	fh := v.FirstHand
	hand := m.st.(*cc.State).Hand(fh)
	c, d := v.Shared[1], hand[0]
	m.do(string(rune('0'+fh)) + ": play " + c.String() + " for " + d.String())
	v = m.view()
	if v.Shared[1] != d || v.Played[fh][0] != c || slices.Contains(m.st.(*cc.State).Hand(fh), d) {
		t.Fatalf("after play %v for %v: shared %v played %v", c, d, v.Shared, v.Played[fh])
	}
	other := 1 - fh
	oh := m.st.(*cc.State).Hand(other)
	m.refuse(string(rune('0'+other))+": play "+c.String()+" for "+oh[0].String(), "is not one of the shared cards")
	m.do(string(rune('0'+other)) + ": play " + d.String() + " for " + oh[0].String()) // the card just put there
	if v := m.view(); v.Played[other][0] != d || v.Shared[1] != oh[0] {
		t.Errorf("shared %v played %v", v.Shared, v.Played[other])
	}
}

// TestFurther1862_NoResign: there is no resigning in 1862.
func TestFurther1862_NoResign(t *testing.T) {
	m := newMatch(t, e62, layout2("AS 4D 9C 10S 4C 5C", "KH 6C 2D 10D 10C 7C", "7S"))
	m.do("0: play AS")
	m.refuse("1: resign", "no resigning in the 1862 edition")
}

// TestFurther1862_AceHighestEvenLow: an Ace in A 2 3 is still the best card
// of the line for comparing equal lines.
func TestFurther1862_AceHighestEvenLow(t *testing.T) {
	// Both make a Sequence without the Lead: A 2 3 against 10 J Q.
	m := newMatch(t, e62, layout2("AD 2S 3C 10S 4C 5C", "10D JC QS 4D 6C 7C", "8H"))
	trick62(m, "AD 2S 3C", "10D JC QS")
	if v := m.view(); v.TrickWinner != 0 || v.Take != 1 {
		t.Errorf("winner %d take %d, want 0 on cards (the Ace)", v.TrickWinner, v.Take)
	}
}
