package tui

import (
	"fmt"
	"strings"

	"parlour/games/damn"
)

// renderDamn draws the play pile's top, the central deck, every seat's hand,
// support and random counts, and the person's own hand.
func renderDamn(view any, p *Painter) string {
	v := view.(damn.View)
	var b strings.Builder
	fmt.Fprintf(&b, "%s  turn %d of at most %d\n", p.Bold("Damn"), v.Turns+1, v.MaxTurns)
	top := "(empty: any card may start it)"
	if n := len(v.Pile); n > 0 {
		top = fmt.Sprintf("[%s] (%s)", p.Card(v.Pile[n-1]), plural(n, "card"))
	}
	fmt.Fprintf(&b, "Play pile: %s   Central deck: %s\n", top, plural(v.Central, "card"))
	if len(v.PickedUp) > 0 {
		var cs []string
		for _, c := range v.PickedUp {
			cs = append(cs, p.Card(c))
		}
		fmt.Fprintf(&b, "Picked up from the random pile: %s (keep four)\n", strings.Join(cs, " "))
	}
	b.WriteByte('\n')
	for seat, sv := range v.Seats {
		tag := ""
		if v.Turn == seat && !v.Over {
			tag = " <- to play"
		}
		fmt.Fprintf(&b, "%-16s %s%s\n", p.Name(seat), seatLine(sv), tag)
	}
	if v.Hand != nil {
		var cs []string
		for _, c := range v.Hand {
			cs = append(cs, p.Card(c))
		}
		fmt.Fprintf(&b, "\nYour hand: %s\n", strings.Join(cs, " "))
	}
	if len(v.Out) > 0 {
		var names []string
		for _, s := range v.Out {
			names = append(names, p.Name(s))
		}
		fmt.Fprintf(&b, "Out, in order: %s\n", strings.Join(names, ", "))
	}
	if v.Unresolved != "" {
		fmt.Fprintf(&b, "Ended unresolved: %s\n", v.Unresolved)
	}
	return b.String()
}

func seatLine(sv damn.SeatView) string {
	if sv.Out {
		return "out"
	}
	return fmt.Sprintf("hand %d, support %d, random %d (holds %d)", sv.Hand, sv.Support, sv.Random, sv.Held)
}
