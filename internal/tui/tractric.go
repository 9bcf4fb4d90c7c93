package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"parlour/card"
	"parlour/games/tractric"
)

// tractricHand returns the viewer's whole hand in a Tractric view: the
// view lists its trump proposal card among the proposals and not in the
// hand, but it is still the viewer's to play. The cards go by suit, black
// and red in turn (♠ ♥ ♣ ♦), and by rank within a suit, Ace high.
func tractricHand(view any) []card.Card {
	v, ok := view.(tractric.View)
	if !ok {
		return nil
	}
	cs := slices.Clone(v.Hand)
	if p := ownProposal(v); p != card.None {
		cs = append(cs, p)
	}
	sortBySuit(cs)
	return cs
}

// ownProposal returns the viewer's trump proposal card while it is still
// in hand, or card.None.
func ownProposal(v tractric.View) card.Card {
	if v.Seat >= 0 && v.Seat < len(v.Proposals) {
		return v.Proposals[v.Seat]
	}
	return card.None
}

// suitOrder is where each suit goes in a hand sorted by suit: black and
// red in turn.
var suitOrder = map[card.Suit]int{card.Spades: 0, card.Hearts: 1, card.Clubs: 2, card.Diamonds: 3}

// sortBySuit sorts cards by suit (suitOrder) and by rank within a suit,
// Ace high.
func sortBySuit(cs []card.Card) {
	key := func(c card.Card) int {
		r := int(c.Rank())
		if c.Rank() == card.Ace {
			r = 14
		}
		return suitOrder[c.Suit()]*16 + r
	}
	slices.SortFunc(cs, func(a, b card.Card) int { return key(a) - key(b) })
}

// renderTractric draws the 3x3 grid of scorecards with the owner of each
// counter, the trump, the trick, every seat's tricks and the person's hand.
func renderTractric(view any, p *Painter) string {
	v := view.(tractric.View)
	var b strings.Builder
	trump := "not yet known"
	if t, _ := json.Marshal(v.Trump); string(t) != "null" {
		trump = strings.Trim(string(t), `"`)
		if trump != "none" {
			trump = suitName(trump)
		}
	}
	fmt.Fprintf(&b, "%s  game %d  dealer: %s  trump: %s\n\n", p.Bold(fmt.Sprintf("Tractric hand %d", v.Deal)), v.Game, p.Name(v.Dealer), trump)
	sides := sides(tractric.Game{}.Info(), v.Players)
	owner := func(i int) string {
		raw, _ := json.Marshal(v.Board[i])
		if string(raw) == "null" {
			return "  .  "
		}
		var c int
		_ = json.Unmarshal(raw, &c)
		if sides != nil {
			return fmt.Sprintf("side%d", c)
		}
		return fmt.Sprintf("seat%d", c)
	}
	for row := range 3 {
		b.WriteString("   +-----------+-----------+-----------+\n   ")
		for col := range 3 {
			i := row*3 + col
			fmt.Fprintf(&b, "| %s %-6s", pad1(v.Grid[i]), owner(i))
		}
		b.WriteString("|\n")
	}
	b.WriteString("   +-----------+-----------+-----------+\n")
	if sides != nil {
		var parts []string
		for c, seats := range sides {
			var ns []string
			for _, seat := range seats {
				ns = append(ns, fmt.Sprint(seat))
			}
			parts = append(parts, fmt.Sprintf("side%d: seats %s", c, strings.Join(ns, " and ")))
		}
		fmt.Fprintf(&b, "   (%s)\n", strings.Join(parts, ", "))
	}
	b.WriteByte('\n')
	for seat := 0; seat < v.Players; seat++ {
		tag := ""
		switch {
		case v.Phase == "propose" && v.Proposed[seat]:
			tag = " (has proposed)"
		case v.Phase == "propose":
			tag = " (choosing a trump proposal)"
		case len(v.ToAct) == 1 && v.ToAct[0] == seat:
			tag = " <- to play"
		}
		played := "  "
		if v.Trick[seat] != card.None {
			played = p.Card(v.Trick[seat])
		}
		prop := ""
		if v.Proposals[seat] != card.None {
			prop = ", proposed " + p.Card(v.Proposals[seat])
		}
		fmt.Fprintf(&b, "%-16s trick: %-4s %s, %s, %s won%s%s\n",
			p.Name(seat), played, plural(v.HandSizes[seat], "card"), plural(v.Tricks[seat], "trick"), plural(v.GamesWon[seat], "game"), prop, tag)
	}
	if v.Hand != nil {
		var cs []string
		for _, c := range tractricHand(v) {
			cs = append(cs, p.Card(c))
		}
		fmt.Fprintf(&b, "\nYour hand: %s\n", strings.Join(cs, " "))
	}
	if v.Phase == "give" {
		b.WriteString("You already have 8 tricks: give this one to another player.\n")
	}
	return b.String()
}

func pad1(s string) string {
	if len(s) == 1 {
		return s + " "
	}
	return s
}

func suitName(s string) string {
	switch s {
	case "S":
		return "spades"
	case "H":
		return "hearts"
	case "D":
		return "diamonds"
	case "C":
		return "clubs"
	}
	return s
}
