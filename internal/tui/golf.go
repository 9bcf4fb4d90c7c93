package tui

import (
	"fmt"
	"strings"

	"parlour/card"
	"parlour/games/golf"
)

// renderGolf draws the discard, the stock, and every layout as two rows of
// three (face-down cards as ##), the person's own first.
func renderGolf(view any, p *Painter) string {
	v := view.(golf.View)
	var b strings.Builder
	fmt.Fprintf(&b, "%s  dealer: %s\n", p.Bold(fmt.Sprintf("Hole %d of %d", v.Hole, v.Holes)), p.Name(v.Dealer))
	disc := "(empty)"
	if v.Discard != card.None {
		disc = "[" + pad(p.Card(v.Discard)) + "]"
	}
	fmt.Fprintf(&b, "Discard pile: %s (%d)   Stock: %d cards\n", disc, v.Discards, v.Stock)
	if v.Holding {
		what := "a card"
		if v.Drawn != card.None {
			what = "[" + pad(p.Card(v.Drawn)) + "]"
		}
		holder := p.Name(v.ToAct[0]) + " holds"
		if v.ToAct[0] == p.Seat {
			holder = "You hold"
		}
		fmt.Fprintf(&b, "%s %s drawn from the %s.\n", holder, what, v.DrawnFrom)
	}
	order := []int{p.Seat}
	for i := 1; i < v.Players; i++ {
		order = append(order, (p.Seat+i)%v.Players)
	}
	for _, seat := range order {
		l := v.Layouts[seat]
		tag := ""
		switch {
		case v.Phase == "reveal" && v.Chosen[seat]:
			tag = " (has chosen a column)"
		case v.Phase == "reveal":
			tag = " (choosing a column)"
		case v.Out == seat:
			tag = " (went out)"
		case len(v.ToAct) == 1 && v.ToAct[0] == seat && v.Phase != "over":
			tag = " <- to play"
		}
		fmt.Fprintf(&b, "\n%s  total %d%s\n", p.Bold(p.Name(seat)), v.Totals[seat], tag)
		for row := range 2 {
			b.WriteString("   ")
			for col := range 3 {
				pos := row*3 + col
				if l[pos] == card.None {
					b.WriteString("[ ## ]")
				} else {
					b.WriteString("[" + pad(p.Card(l[pos])) + "]")
				}
				if seat == p.Seat {
					fmt.Fprintf(&b, "%d ", pos)
				} else {
					b.WriteString("  ")
				}
			}
			b.WriteByte('\n')
		}
	}
	if v.Phase == "reveal" && v.MyReveal < 0 {
		b.WriteString("\nTurn up one column of your layout: column k is positions k and k+3.\n")
	}
	return b.String()
}

// pad centres a card label in four columns (labels are 2 or 3 wide).
func pad(s string) string {
	w := len([]rune(stripANSI(s)))
	switch w {
	case 2:
		return " " + s + " "
	case 3:
		return " " + s
	}
	return s
}

func stripANSI(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '\x1b':
			in = true
		case in && r == 'm':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
