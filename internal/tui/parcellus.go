package tui

import (
	"fmt"
	"strings"

	"parlour/card"
	"parlour/games/parcellus"
)

// renderParcellus draws the parcel on the table, the person's hand, every
// seat's hand size and captures, and the pass while it is open.
func renderParcellus(view any, p *Painter) string {
	v := view.(parcellus.View)
	var b strings.Builder
	fmt.Fprintf(&b, "%s  dealer: %s  pass %s  %d or more and the highest total wins\n", p.Bold(fmt.Sprintf("Deal %d", v.Deal)), p.Name(v.Dealer), v.PassDirection, v.Target)
	cards := func(cs []card.Card) string {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = p.Card(c)
		}
		return strings.Join(parts, " ")
	}
	switch v.Phase {
	case "pass":
		to := (p.Seat + 1) % v.Players
		if v.PassDirection == "right" {
			to = (p.Seat + v.Players - 1) % v.Players
		}
		fmt.Fprintf(&b, "Pass: choose three cards to give to %s (all choose at once).\n", p.Name(to))
		if len(v.Passed) > 0 {
			fmt.Fprintf(&b, "You pass: %s\n", cards(v.Passed))
		}
	default:
		parcel := "(none)"
		if len(v.Parcel) > 0 {
			parcel = cards(v.Parcel)
		}
		fmt.Fprintf(&b, "Parcel: %s   turned by %s", parcel, p.Name(v.Turner))
		if v.Contributor >= 0 {
			fmt.Fprintf(&b, ", last card by %s", p.Name(v.Contributor))
		}
		fmt.Fprintf(&b, ", %s\n", passesInARow(v.Passes))
		if n := len(v.Parcel); n > 0 && v.Phase == "play" {
			top := v.Parcel[n-1]
			fmt.Fprintf(&b, "Next card: a %s %s\n", top.Colour(), nextRank(top.Rank()))
		}
		fmt.Fprintf(&b, "Common deck: %s face down\n", plural(v.Common, "card"))
	}
	if v.Hand != nil {
		var hand []string
		for i, c := range v.Hand {
			s := p.Card(c)
			if i < len(v.Received) && v.Received[i] {
				s += "*"
			}
			hand = append(hand, s)
		}
		fmt.Fprintf(&b, "\nYour hand: %s", strings.Join(hand, " "))
		if len(v.Received) > 0 && v.Phase != "pass" {
			b.WriteString("   (* received in the pass)")
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	for seat := 0; seat < v.Players; seat++ {
		tag := ""
		switch {
		case v.Phase == "pass" && v.Chosen[seat]:
			tag = " (has chosen)"
		case v.Phase == "pass":
			tag = " (choosing)"
		case v.Turn == seat:
			tag = " <- to play"
		}
		fmt.Fprintf(&b, "%-16s %s in hand, %s, %s this deal, total %d%s\n",
			p.Name(seat), plural(v.HandSizes[seat], "card"), plural(v.ParcelCounts[seat], "parcel"), plural(v.Points[seat], "point"), v.Totals[seat], tag)
	}
	if n := len(v.Captured); n > 0 {
		last := v.Captured[n-1]
		fmt.Fprintf(&b, "Last parcel: %s captured %s\n", p.Name(last.Seat), cards(last.Cards))
	}
	return b.String()
}

// passesInARow says how many passes in a row the parcel has had: three
// close it.
func passesInARow(n int) string {
	switch n {
	case 0:
		return "no pass yet"
	case 1:
		return "1 pass in a row"
	}
	return fmt.Sprintf("%d passes in a row", n)
}

// nextRank is the rank that follows r in Parcellus (9 10 J Q K A, then 9).
func nextRank(r card.Rank) card.Rank {
	switch r {
	case card.Ace:
		return card.Nine
	case card.King:
		return card.Ace
	}
	return r + 1
}
