package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/card"
	"parlour/games/courtcircular"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// dealEndFor is how long the end of a deal stays on the screen unless a
// key goes on sooner.
const dealEndFor = 8 * time.Second

// dealEnd is the end of a deal, shown until the player goes on: the table
// as the deal left it (its last position, every card the rules turned up)
// and the deal's scores. The next deal is already dealt behind it.
type dealEnd struct {
	snap snapshot // the viewer's view of the deal's last position
	deal int      // the deal's number
	id   int      // which end this is, for its timer
}

// dealEndDone ends the showing of deal end id, when its time is up.
type dealEndDone struct{ id int }

// showDealEnd shows the end of deal number deal, whose last position snap
// is, until a key or the model's dealEndWait (none: until a key).
func (m *Model) showDealEnd(snap snapshot, deal int) tea.Cmd {
	m.dealEnds++
	id := m.dealEnds
	snap.legal, snap.toAct, snap.clocks = nil, nil, nil
	m.dealEnd = &dealEnd{snap: snap, deal: deal, id: id}
	if m.dealEndWait <= 0 {
		return nil // until a key
	}
	return tea.Tick(m.dealEndWait, func(time.Time) tea.Msg { return dealEndDone{id} })
}

// dealEndView draws the end of a deal: what it scored and how, then the
// table as the deal left it.
func (m *Model) dealEndView(width, height int) string {
	e := m.dealEnd
	r := e.snap.result
	title := fmt.Sprintf("End of %s %d", dealWord(e.snap.name), e.deal)
	lines := []string{m.st.title.Render(title) + m.st.muted.Render("  ·  any key goes on")}
	if e.deal-1 < len(r.DealScores) {
		label, format := "Scores: ", "%s %+d"
		if e.snap.name == "tractric" {
			label, format = "Tricks taken: ", "%s %d" // a hand scores tricks, not points
		}
		var parts []string
		for seat, v := range r.DealScores[e.deal-1] {
			parts = append(parts, fmt.Sprintf(format, m.sayName(seat), v))
		}
		lines = append(lines, wrapTo(label+strings.Join(parts, " · "), width))
	}
	for _, l := range dealHow(e.snap.view, m.sayName) {
		lines = append(lines, wrapTo(m.st.muted.Render(l), width))
	}
	if len(r.Totals) > 0 {
		_, what, _ := scoreTerms(e.snap.name, e.snap.view)
		var parts []string
		for seat, v := range r.Totals {
			parts = append(parts, fmt.Sprintf("%s %d", m.sayName(seat), v))
		}
		lines = append(lines, wrapTo(m.st.bold.Render(capitalise(what)+": ")+strings.Join(parts, " · "), width))
	}
	head := strings.Join(lines, "\n")
	board := m.boardOf(&e.snap, width, max(3, height-strings.Count(head, "\n")-2))
	return head + "\n\n" + board
}

// wrapTo wraps a line to width, keeping its styles.
func wrapTo(s string, width int) string { return strings.Join(wrapAll([]string{s}, width), "\n") }

// sayName is a seat's name in a sentence: "you" for the viewer,
// capitalised where it starts one by the caller.
func (m *Model) sayName(seat int) string {
	if seat == m.snap.seat {
		return "you"
	}
	return m.nameOf(seat)
}

// dealHow says how a deal's scores were made, from the view of its last
// position: a line per seat, in each game's terms.
func dealHow(view any, say func(int) string) []string {
	var out []string
	switch v := view.(type) {
	case golf.View:
		for seat, l := range v.Layouts {
			var cols []string
			for k := range 3 {
				cols = append(cols, fmt.Sprint(golf.ColumnScore(l[k], l[k+3])))
			}
			out = append(out, fmt.Sprintf("%s: columns %s = %d", capitalise(say(seat)), strings.Join(cols, " + "), golf.LayoutScore(l)))
		}
	case parcellus.View:
		var points, parcels [parcellus.Players]int
		copy(points[:], v.Points)
		copy(parcels[:], v.ParcelCounts)
		scores := parcellus.DealScores(points, parcels)
		for seat := range v.Points {
			out = append(out, fmt.Sprintf("%s: %s in %s, bonus %d: %d", capitalise(say(seat)),
				plural(v.Points[seat], "point"), plural(v.ParcelCounts[seat], "parcel"), scores[seat]-v.Points[seat], scores[seat]))
		}
	case tractric.View:
		for seat, n := range v.Tricks {
			out = append(out, fmt.Sprintf("%s took %s: scorecard %s", capitalise(say(seat)), plural(n, "trick"), scorecard(n)))
		}
	case courtcircular.View:
		for seat := range v.WonUp {
			won := len(v.WonUp[seat]) + len(v.WonDown[seat])
			line := fmt.Sprintf("%s won %s and %s", capitalise(say(seat)), plural(v.Tricks[seat], "trick"), plural(won, "card"))
			if seat < len(v.Marks) {
				line += fmt.Sprintf(": %s", plural(v.Marks[seat], "mark"))
			} else {
				court := 0
				for _, c := range v.WonUp[seat] {
					if r := c.Rank(); r == card.Ace || r >= card.Jack {
						court++
					}
				}
				line += fmt.Sprintf(", %d of them court cards or Aces", court)
			}
			out = append(out, line)
		}
	}
	return out
}

// scorecard names Tractric's scorecard for n tricks: Q for none, A for
// one, the number up to 8.
func scorecard(n int) string {
	switch n {
	case 0:
		return "Q"
	case 1:
		return "A"
	}
	return fmt.Sprint(n)
}
