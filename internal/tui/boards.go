package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/card"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// others lists the seats other than the viewer, in turn order from the
// viewer's left (every seat for a spectator).
func others(viewer, players int) []int {
	var out []int
	start := max(viewer, 0)
	for i := 1; i <= players; i++ {
		s := (start + i) % players
		if s != viewer {
			out = append(out, s)
		}
	}
	return out
}

// dealerFact says who deals.
func dealerFact(d *drawer, seat int) string {
	if seat == d.viewer {
		return "you deal"
	}
	return "dealer " + d.name(seat)
}

// heading is the board's first line.
func heading(d *drawer, title string, facts ...string) string {
	var fs []string
	for _, f := range facts {
		if f != "" {
			fs = append(fs, f)
		}
	}
	return ansi.Wrap(d.st.title.Render(title)+d.st.muted.Render("  ·  "+strings.Join(fs, "  ·  ")), max(d.width, 20), " ")
}

// yourHand draws the viewer's hand under a heading.
func yourHand(d *drawer, hand []card.Card, note string) string {
	head := d.who(d.viewer)
	if note != "" {
		head += "  " + d.st.muted.Render(note)
	}
	if len(hand) == 0 {
		return head + "\n" + d.st.muted.Render("(no cards)")
	}
	return head + "\n" + d.fan(d.handSlots(hand), d.width)
}

// golfBoard: the other seats' layouts across the top, the stock, the
// discard pile and a drawn card in the middle, the viewer's layout at the
// bottom with its position numbers.
func golfBoard(s *snapshot, d *drawer) string {
	v := s.view.(golf.View)
	facts := []string{fmt.Sprintf("hole %d of %d", v.Hole, v.Holes), dealerFact(d, v.Dealer)}
	if v.Target > 0 {
		facts = append(facts, fmt.Sprintf("the match ends at %d", v.Target))
	}
	lines := []string{heading(d, "Golf", facts...), ""}
	sel := func(verb string, n int) bool {
		f := strings.Fields(d.selected)
		if len(f) == 2 && f[0] == verb {
			k, err := strconv.Atoi(f[1])
			return err == nil && k == n
		}
		return false
	}
	layout := func(seat int, mine bool) string {
		l := v.Layouts[seat]
		var rows []string
		for r := range 2 {
			var sl []slot
			for c := range 3 {
				pos := r*3 + c
				x := slot{c: l[pos], look: lookFace}
				if l[pos] == card.None {
					x.look = lookBack
				}
				if mine {
					x.caption = strconv.Itoa(pos)
					if sel("swap", pos) || sel("reveal", c) {
						x.look = lookSel
					}
				}
				sl = append(sl, x)
			}
			if d.compact && !mine {
				tight := *d
				tight.tight = true
				rows = append(rows, tight.fan(sl, 17))
			} else {
				rows = append(rows, d.fan(sl, 17))
			}
		}
		tag := fmt.Sprintf("total %d", v.Totals[seat])
		switch {
		case d.compact && v.Out == seat:
			tag += " out"
		case d.compact:
		case v.Phase == "reveal" && seat < len(v.Chosen) && v.Chosen[seat]:
			tag += " · has chosen"
		case v.Out == seat:
			tag += " · went out"
		}
		if d.compact && !mine {
			// Two lines: the name and the total beside the two rows.
			left := lipgloss.JoinVertical(lipgloss.Left, d.whoAs(seat, "", d.name(seat)), d.st.muted.Render(tag))
			return lipgloss.JoinHorizontal(lipgloss.Top, left, " ", strings.Join(rows, "\n"))
		}
		if d.compact {
			return d.who(seat) + "  " + d.st.muted.Render(tag) + "\n" + strings.Join(rows, "\n")
		}
		return d.who(seat) + "\n" + d.st.muted.Render(tag) + "\n" + strings.Join(rows, "\n")
	}
	var opp []string
	for _, seat := range others(s.seat, v.Players) {
		opp = append(opp, layout(seat, false))
	}
	gap := 4
	if d.compact {
		gap = 2
	}
	lines = append(lines, row(d.width, gap, opp...), "")

	stock := slot{look: lookBack}
	if v.Stock == 0 {
		stock.look = lookEmpty
	}
	if d.selected == "draw stock" {
		stock.look = lookSel
	}
	disc := slot{c: v.Discard, look: lookFace}
	if v.Discard == card.None {
		disc.look = lookEmpty
	}
	if d.selected == "draw discard" || d.selected == "discard" {
		disc.look = lookSel
	}
	middle := []string{
		d.pile("Stock", stock, plural(v.Stock, "card")),
		d.pile("Discard", disc, fmt.Sprintf("%d in the pile", v.Discards)),
	}
	if v.Holding && len(v.ToAct) > 0 {
		holder := v.ToAct[0]
		held := slot{c: v.Drawn, look: lookFace}
		if v.Drawn == card.None {
			held.look = lookBack
		}
		who := d.name(holder) + " holds"
		if holder == d.viewer {
			who = "You hold"
		}
		middle = append(middle, d.pile(who, held, "from the "+v.DrawnFrom))
	}
	lines = append(lines, row(d.width, 6, middle...), "")
	if s.seat >= 0 {
		lines = append(lines, layout(s.seat, true))
	}
	if v.Phase == "reveal" && v.MyReveal < 0 && s.seat >= 0 && len(s.legal) > 0 && !d.compact {
		lines = append(lines, d.st.muted.Render("Column k is positions k and k+3: reveal 0 turns up 0 and 3."))
	}
	return strings.Join(lines, "\n")
}

// parcellusBoard: the other seats with their hands face down and their
// captures, the parcel being built and the common deck, the viewer's hand.
func parcellusBoard(s *snapshot, d *drawer) string {
	v := s.view.(parcellus.View)
	lines := []string{heading(d, "Parcellus", fmt.Sprintf("deal %d", v.Deal), dealerFact(d, v.Dealer),
		"pass "+v.PassDirection, fmt.Sprintf("%d or more and the highest total wins", v.Target)), ""}
	var opp []string
	for _, seat := range others(s.seat, v.Players) {
		info := fmt.Sprintf("%s · %d pts · total %d", plural(v.ParcelCounts[seat], "parcel"), v.Points[seat], v.Totals[seat])
		if v.Phase == "pass" && seat < len(v.Chosen) {
			if v.Chosen[seat] {
				info += " · has chosen"
			} else {
				info += " · choosing"
			}
		}
		opp = append(opp, d.who(seat)+"\n"+d.st.muted.Render(info)+"\n"+d.backs(v.HandSizes[seat], 24))
	}
	lines = append(lines, row(d.width, 4, opp...), "")
	if v.Phase == "pass" {
		to := (max(s.seat, 0) + 1) % v.Players
		if v.PassDirection == "right" {
			to = (max(s.seat, 0) + v.Players - 1) % v.Players
		}
		lines = append(lines, d.st.bold.Render("The pass: ")+"everyone gives three cards to the "+v.PassDirection+
			" ("+d.name(to)+"), all at once.")
		if len(v.Passed) > 0 {
			lines = append(lines, "You pass:", d.fan(d.faceSlots(v.Passed), d.width))
		}
	} else {
		title := "The parcel"
		if v.Turner >= 0 {
			title += " (turned by " + d.say(v.Turner)
			if v.Contributor >= 0 {
				title += ", last card by " + d.say(v.Contributor)
			}
			title += ")"
		}
		parcel := d.st.muted.Render("(none)")
		if len(v.Parcel) > 0 {
			parcel = d.fan(d.faceSlots(v.Parcel), d.width-24)
		}
		next := ""
		if n := len(v.Parcel); n > 0 && v.Phase == "play" {
			top := v.Parcel[n-1]
			next = fmt.Sprintf("next: a %s %s", top.Colour(), nextRank(top.Rank()))
		}
		common := d.pile("Common deck", slot{look: lookBack}, plural(v.Common, "card"))
		if v.Common == 0 {
			common = d.pile("Common deck", slot{look: lookEmpty}, "empty")
		}
		lines = append(lines, d.st.bold.Render(title)+"  "+d.st.muted.Render(next+" · "+passesInARow(v.Passes)),
			row(d.width, 4, parcel, common))
		if n := len(v.Captured); n > 0 {
			last := v.Captured[n-1]
			var cs []string
			for _, c := range last.Cards {
				cs = append(cs, d.card(c))
			}
			lines = append(lines, d.st.muted.Render("Last parcel: "+d.name(last.Seat)+" captured ")+strings.Join(cs, " "))
		}
	}
	lines = append(lines, "")
	if v.Hand != nil {
		note := fmt.Sprintf("%s · %d pts · total %d", plural(v.ParcelCounts[s.seat], "parcel"), v.Points[s.seat], v.Totals[s.seat])
		slots := d.handSlots(v.Hand)
		for i := range slots {
			if i < len(v.Received) && v.Received[i] && v.Phase != "pass" {
				slots[i].caption = "new"
			}
		}
		lines = append(lines, d.who(s.seat)+"  "+d.st.muted.Render(note), d.fan(slots, d.width))
	}
	return strings.Join(lines, "\n")
}

// counterShapes are the counters' shapes by colour: they tell the colours
// apart without colour too (--no-colour).
var counterShapes = [...]string{"●", "▲", "■", "◆"}

// counter draws colour c's counter: its shape in its colour.
func (d *drawer) counter(c int) string {
	return d.st.seat[c%len(d.st.seat)].Render(counterShapes[c%len(counterShapes)])
}

// tractricBoard: the grid of scorecards with the counters on it, the
// trick with each seat's card, the seats' tricks and the viewer's hand.
func tractricBoard(s *snapshot, d *drawer) string {
	v := s.view.(tractric.View)
	trump := "trump not yet known"
	switch {
	case v.Trump == tractric.NoTrump:
		trump = "no trump"
	case v.Trump >= 0 && v.Trump < 4:
		su := card.Suit(v.Trump)
		trump = "trump " + su.Symbol() + " " + suitName(su.String())
	}
	lines := []string{heading(d, "Tractric", fmt.Sprintf("hand %d", v.Deal), fmt.Sprintf("game %d", v.Game),
		dealerFact(d, v.Dealer), trump), ""}
	info := tractric.Game{}.Info()
	colourOf := func(seat int) int { return info.Side(v.Players, seat) }
	// The grid: each cell a scorecard and the counter on it.
	cell := func(c tractric.Cell) string {
		if c < 0 {
			return d.st.muted.Render("·")
		}
		return d.counter(int(c))
	}
	var grid []string
	if d.compact {
		for r := range 3 {
			var cells []string
			for c := range 3 {
				i := r*3 + c
				cells = append(cells, lipgloss.PlaceHorizontal(2, lipgloss.Left, v.Grid[i])+cell(v.Board[i]))
			}
			grid = append(grid, strings.Join(cells, d.st.muted.Render(" │ ")))
		}
	} else {
		edge := func(l, m, r string) string {
			return d.st.muted.Render(l + strings.Repeat("─", 7) + m + strings.Repeat("─", 7) + m + strings.Repeat("─", 7) + r)
		}
		grid = append(grid, edge("┌", "┬", "┐"))
		for r := range 3 {
			line := d.st.muted.Render("│")
			for c := range 3 {
				i := r*3 + c
				line += " " + lipgloss.PlaceHorizontal(2, lipgloss.Left, v.Grid[i]) + "  " + cell(v.Board[i]) + " " + d.st.muted.Render("│")
			}
			grid = append(grid, line)
			if r < 2 {
				grid = append(grid, edge("├", "┼", "┤"))
			}
		}
		grid = append(grid, edge("└", "┴", "┘"))
	}
	// The key: each colour's counter, whose it is, how many are left.
	var key []string
	if sides := sides(info, v.Players); sides != nil {
		for c, seats := range sides {
			var names []string
			for _, seat := range seats {
				names = append(names, d.label(seat))
			}
			key = append(key, d.counter(c)+" "+strings.Join(names, " & "))
		}
	} else {
		for seat := 0; seat < v.Players; seat++ {
			key = append(key, d.counter(seat)+" "+d.label(seat))
		}
	}
	for i, n := range v.Reserve {
		if i < len(key) {
			key[i] += d.st.muted.Render(fmt.Sprintf(" · %s left", plural(n, "counter")))
		}
	}
	// The trick: each seat's card under its name, from the viewer's left
	// round to the viewer (a partner sits across, in the middle).
	order := append(others(s.seat, v.Players), s.seat)
	if s.seat < 0 {
		order = others(s.seat, v.Players)
	}
	started := !allNone(v.Trick)
	var trick []string
	for _, seat := range order {
		c := card.None
		if seat < len(v.Trick) {
			c = v.Trick[seat]
		}
		sl := slot{c: c, look: d.faceUp(c)}
		led := started && seat == v.Leader && c != card.None
		if led && !d.compact {
			sl.caption = "led"
		}
		name := d.whoAs(seat, d.counter(colourOf(seat)), d.name(seat))
		if v.Players == 4 && s.seat >= 0 && seat != s.seat && colourOf(seat) == colourOf(s.seat) {
			name += d.st.muted.Render(" (partner)")
		}
		facts := []string{plural(v.Tricks[seat], "trick")}
		if seat < len(v.Proposals) && v.Proposals[seat] != card.None {
			facts = append(facts, "proposed "+d.card(v.Proposals[seat]))
		} else if v.Phase == "propose" && seat < len(v.Proposed) && v.Proposed[seat] {
			facts = append(facts, "has proposed")
		}
		if d.compact {
			if led {
				facts = append([]string{"led"}, facts...)
			}
			trick = append(trick, name+" "+d.fan([]slot{sl}, 5)+" "+d.st.muted.Render(strings.Join(facts, " · ")))
		} else {
			trick = append(trick, name+"\n"+d.st.muted.Render(strings.Join(facts, "\n"))+"\n"+d.fan([]slot{sl}, 5))
		}
	}
	tricks := row(d.width, 3, trick...)
	if d.compact {
		tricks = strings.Join(trick, "\n")
	}
	lines = append(lines, row(d.width, 4, strings.Join(grid, "\n"), strings.Join(key, "\n")), "", tricks)
	if v.LastTaker >= 0 && len(v.LastTrick) > 0 && !allNone(v.LastTrick) {
		var cs []string
		for _, c := range v.LastTrick {
			if c != card.None {
				cs = append(cs, d.card(c))
			}
		}
		lines = append(lines, d.st.muted.Render("Last trick, to "+d.say(v.LastTaker)+": ")+strings.Join(cs, " "))
	}
	lines = append(lines, "")
	if v.Hand != nil {
		hand := tractricHand(v)
		slots := d.handSlots(hand)
		own := ownProposal(v)
		note := plural(v.Tricks[s.seat], "trick")
		for i := range slots {
			if hand[i] == own {
				slots[i].caption = "shown"
				note += " · your proposal " + d.card(own) + " stays shown until played"
			}
		}
		head := d.whoAs(s.seat, d.counter(colourOf(s.seat)), d.name(s.seat))
		lines = append(lines, head+"  "+d.st.muted.Render(note), d.fan(slots, d.width))
	}
	return strings.Join(lines, "\n")
}

func allNone(cs []card.Card) bool {
	for _, c := range cs {
		if c != card.None {
			return false
		}
	}
	return true
}

// damnBoard: the play pile and the central deck, the seats' hands,
// supports and random piles (counts), the viewer's hand.
func damnBoard(s *snapshot, d *drawer) string {
	v := s.view.(damn.View)
	lines := []string{heading(d, "Damn", fmt.Sprintf("turn %d of at most %d", v.Turns+1, v.MaxTurns), dealerFact(d, v.Dealer)), ""}
	var seats []string
	for _, seat := range others(s.seat, v.Players) {
		sv := v.Seats[seat]
		info := "out"
		if !sv.Out {
			info = fmt.Sprintf("hand %d · support %d · random %d", sv.Hand, sv.Support, sv.Random)
		}
		seats = append(seats, d.who(seat)+"\n"+d.st.muted.Render(info)+"\n"+d.backs(sv.Held, 24))
	}
	lines = append(lines, row(d.width, 4, seats...), "")
	top := slot{look: lookEmpty}
	count := "empty: any card starts it"
	if n := len(v.Pile); n > 0 {
		top = slot{c: v.Pile[n-1], look: d.faceUp(v.Pile[n-1])}
		count = plural(n, "card")
	}
	if d.selected == "pickup" {
		top.look = lookSel
	}
	central := slot{look: lookBack}
	if v.Central == 0 {
		central.look = lookEmpty
	}
	if d.selected == "turn" {
		central.look = lookSel
	}
	lines = append(lines, row(d.width, 6, d.pile("Play pile", top, count), d.pile("Central deck", central, plural(v.Central, "card"))))
	if len(v.PickedUp) > 0 {
		lines = append(lines, "", d.st.bold.Render("Picked up from the random pile (keep four):"), d.fan(d.handSlots(v.PickedUp), d.width))
	}
	if len(v.Out) > 0 {
		var names []string
		for _, o := range v.Out {
			names = append(names, d.say(o))
		}
		lines = append(lines, d.st.muted.Render("Out, in order: "+strings.Join(names, ", ")))
	}
	if v.Unresolved != "" {
		lines = append(lines, d.st.muted.Render("Ended unresolved: "+v.Unresolved))
	}
	lines = append(lines, "")
	if v.Hand != nil && s.seat >= 0 {
		sv := v.Seats[s.seat]
		note := fmt.Sprintf("support %d · random %d", sv.Support, sv.Random)
		if d.selected == "random" {
			note = d.st.sel.Render("play from your random pile") + " · " + note
		}
		lines = append(lines, yourHand(d, v.Hand, note))
	}
	return strings.Join(lines, "\n")
}

// courtBoard: Carroll's diagram — each other seat's cards of the trick in
// a row, the Lead in the middle, the viewer's row under it — then the
// viewer's hand and the seats' tricks and marks.
func courtBoard(s *snapshot, d *drawer) string {
	v := s.view.(courtcircular.View)
	facts := []string{v.Edition, fmt.Sprintf("deal %d", v.Deal), dealerFact(d, v.Dealer), "stock " + strconv.Itoa(v.Stock)}
	if v.Target > 0 {
		facts = append(facts, fmt.Sprintf("game to %d", v.Target))
	}
	lines := []string{heading(d, "Court Circular", facts...), ""}
	nameW := 6
	for seat := 0; seat < v.Players; seat++ {
		nameW = max(nameW, lipgloss.Width(d.label(seat))+4)
	}
	nameW = min(nameW, 18)
	rowOf := func(seat int) string {
		var sl []slot
		if seat < len(v.Played) {
			sl = d.faceSlots(v.Played[seat])
		}
		cards := d.st.muted.Render("—")
		if len(sl) > 0 {
			cards = d.fan(sl, d.width-nameW-24)
		}
		total := fmt.Sprintf("total %d", v.Totals[seat])
		if seat < len(v.Hits) {
			total = plural(v.Totals[seat], "point") + " · " + plural(v.Hits[seat], "Hit")
		}
		note := []string{fmt.Sprintf("%s · %s · %s", plural(v.HandSizes[seat], "card"), plural(v.Tricks[seat], "trick"), total)}
		for _, r := range v.Resigned {
			if r == seat {
				note = append(note, "resigned")
			}
		}
		if v.TrickWinner == seat {
			note = append(note, d.st.accent.Render("wins the trick"))
		}
		if seat < len(v.Lines) && v.Lines[seat] != "" {
			note = append(note, v.Lines[seat])
		}
		label := lipgloss.PlaceHorizontal(nameW, lipgloss.Left, d.who(seat))
		// The notes wrap in the room beside the cards: a wrap of the
		// whole row would break the cards' boxes.
		room := max(16, d.width-nameW-lipgloss.Width(cards)-2)
		notes := ansi.Wrap(d.st.muted.Render(strings.Join(note, " · ")), room, " ")
		align := lipgloss.Center
		if d.compact {
			align = lipgloss.Top
		}
		return lipgloss.JoinHorizontal(align, label, cards, "  ", notes)
	}
	for _, seat := range others(s.seat, v.Players) {
		lines = append(lines, rowOf(seat))
	}
	lead := slot{c: v.Lead, look: d.faceUp(v.Lead)}
	leadText := "the Lead"
	if v.Lead == card.None {
		leadText = "no Lead: the board is clear"
	}
	lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Center, lipgloss.PlaceHorizontal(nameW, lipgloss.Left, d.st.title.Render("LEAD")),
		d.fan([]slot{lead}, 5), "  ", d.st.muted.Render(leadText)))
	if s.seat >= 0 {
		lines = append(lines, rowOf(s.seat))
	}
	if len(v.Shared) > 0 {
		lines = append(lines, d.st.bold.Render("Shared face-up cards"), d.fan(d.faceSlots(v.Shared), d.width))
	}
	if len(v.ToAct) == 1 && v.ToAct[0] != s.seat {
		who := capitalise(d.say(v.ToAct[0]))
		switch v.Phase {
		case "lead":
			lines = append(lines, d.st.muted.Render(who+" chooses the next Lead."))
		case "take":
			lines = append(lines, d.st.muted.Render(fmt.Sprintf("%s takes %s from the table.", who, plural(v.Take, "card"))))
		}
	}
	lines = append(lines, "")
	if v.Hand != nil {
		note := ""
		if s.seat < len(v.Marks) {
			note = plural(v.Marks[s.seat], "mark")
		}
		if s.seat < len(v.Hits) {
			note = plural(v.Hits[s.seat], "Hit")
		}
		lines = append(lines, yourHand(d, v.Hand, note))
	}
	return strings.Join(lines, "\n")
}
