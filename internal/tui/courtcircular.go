package tui

import (
	"fmt"
	"strings"

	"parlour/card"
	"parlour/games/courtcircular"
)

// renderCourt draws the trick as Carroll's diagram: the Lead in the middle,
// each other player's cards in a row above it, the person's own row below it
// (towards the person), then hands, stock and marks.
func renderCourt(view any, p *Painter) string {
	v := view.(courtcircular.View)
	var b strings.Builder
	title := fmt.Sprintf("Court Circular (%s)  deal %d", v.Edition, v.Deal)
	if v.Target > 0 {
		title += fmt.Sprintf("  game to %d", v.Target)
	}
	fmt.Fprintf(&b, "%s  dealer: %s  stock: %d\n\n", p.Bold(title), p.Name(v.Dealer), v.Stock)
	row := func(seat int) string {
		var cs []string
		if seat < len(v.Played) {
			for _, c := range v.Played[seat] {
				if c == card.None {
					cs = append(cs, "[ ## ]")
				} else {
					cs = append(cs, "["+pad(p.Card(c))+"]")
				}
			}
		}
		for len(cs) < 3 {
			cs = append(cs, "  ..  ")
		}
		line := strings.Join(cs, " ")
		for _, r := range v.Resigned {
			if r == seat {
				line += "  (resigned)"
			}
		}
		if v.TrickWinner == seat {
			line += "  wins the trick"
		}
		if seat < len(v.Lines) && v.Lines[seat] != "" {
			line += "  (" + v.Lines[seat] + ")"
		}
		return line
	}
	for i := 1; i < v.Players; i++ {
		seat := (p.Seat + i) % v.Players
		fmt.Fprintf(&b, "  %-16s %s\n", p.Name(seat), row(seat))
	}
	lead := "(none: the board is clear)"
	if v.Lead != card.None {
		lead = "[" + pad(p.Card(v.Lead)) + "]"
	}
	fmt.Fprintf(&b, "  %-16s %s\n", "LEAD", p.Bold(lead))
	fmt.Fprintf(&b, "  %-16s %s\n", p.Name(p.Seat), row(p.Seat))
	if len(v.Shared) > 0 {
		var cs []string
		for _, c := range v.Shared {
			cs = append(cs, p.Card(c))
		}
		fmt.Fprintf(&b, "Shared face-up cards: %s\n", strings.Join(cs, " "))
	}
	if v.Hand != nil {
		var cs []string
		for _, c := range v.Hand {
			cs = append(cs, p.Card(c))
		}
		fmt.Fprintf(&b, "\nYour hand: %s\n", strings.Join(cs, " "))
	}
	b.WriteByte('\n')
	for seat := 0; seat < v.Players; seat++ {
		tag := ""
		for _, a := range v.ToAct {
			if a == seat {
				tag = " <- to act"
			}
		}
		extra := ""
		if seat < len(v.Marks) {
			extra = ", " + plural(v.Marks[seat], "mark")
		}
		if seat < len(v.Hits) {
			extra += ", " + plural(v.Hits[seat], "Hit")
		}
		fmt.Fprintf(&b, "%-16s %s in hand, %s%s, total %d%s\n",
			p.Name(seat), plural(v.HandSizes[seat], "card"), plural(v.Tricks[seat], "trick"), extra, v.Totals[seat], tag)
	}
	if len(v.ToAct) == 1 {
		who := p.Name(v.ToAct[0])
		if v.ToAct[0] == p.Seat {
			who = "You"
		}
		switch v.Phase {
		case "lead":
			fmt.Fprintf(&b, "%s %s the next Lead.\n", who, verbFor(who, "choose"))
		case "take":
			fmt.Fprintf(&b, "%s %s %s from the table.\n", who, verbFor(who, "take"), plural(v.Take, "card"))
		}
	}
	return b.String()
}
