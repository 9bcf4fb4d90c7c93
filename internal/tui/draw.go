package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/card"
)

// look is how a card is drawn on the full-screen table.
type look int

const (
	lookFace   look = iota // face up
	lookDim                // face up, not playable now
	lookSel                // the card (or place) of the chosen move
	lookPicked             // picked for a move of several cards
	lookBack               // face down
	lookEmpty              // an empty place
)

// slot is one card place to draw: a card and how it looks, with an
// optional caption under it (a position number, a mark).
type slot struct {
	c       card.Card
	look    look
	caption string
}

// styles are the colours of the full-screen table.
type styles struct {
	red, black, joker, dim, sel, picked, back, empty lipgloss.Style
	bold, title, accent, muted, bad, good, key       lipgloss.Style
	seat                                             []lipgloss.Style // a colour per seat (Tractric's counters)
}

func newStyles() styles {
	c := lipgloss.Color
	s := styles{
		red:    lipgloss.NewStyle().Foreground(c("1")),
		black:  lipgloss.NewStyle(),
		joker:  lipgloss.NewStyle().Foreground(c("5")),
		dim:    lipgloss.NewStyle().Foreground(c("8")),
		sel:    lipgloss.NewStyle().Foreground(c("3")).Bold(true),
		picked: lipgloss.NewStyle().Foreground(c("2")).Bold(true),
		back:   lipgloss.NewStyle().Foreground(c("4")),
		empty:  lipgloss.NewStyle().Foreground(c("8")),
		bold:   lipgloss.NewStyle().Bold(true),
		title:  lipgloss.NewStyle().Bold(true).Foreground(c("6")),
		accent: lipgloss.NewStyle().Foreground(c("6")).Bold(true),
		muted:  lipgloss.NewStyle().Foreground(c("8")),
		bad:    lipgloss.NewStyle().Foreground(c("1")).Bold(true),
		good:   lipgloss.NewStyle().Foreground(c("2")),
		key:    lipgloss.NewStyle().Bold(true).Foreground(c("3")),
	}
	for _, col := range []string{"6", "5", "3", "2", "4", "1", "7", "9"} {
		s.seat = append(s.seat, lipgloss.NewStyle().Foreground(c(col)).Bold(true))
	}
	return s
}

// borders by look: top-left, horizontal, top-right, vertical, bottom-left,
// bottom-right.
var borders = map[look][6]string{
	lookFace:   {"╭", "─", "╮", "│", "╰", "╯"},
	lookDim:    {"╭", "─", "╮", "│", "╰", "╯"},
	lookSel:    {"┏", "━", "┓", "┃", "┗", "┛"},
	lookPicked: {"╔", "═", "╗", "║", "╚", "╝"},
	lookBack:   {"╭", "─", "╮", "│", "╰", "╯"},
	lookEmpty:  {"┌", "╌", "┐", "╎", "└", "┘"},
}

// cardText is a card's label, 3 cells wide: "7♥ ", "10♠", "JK ".
func cardText(c card.Card) string {
	p := c.Pretty()
	if c == card.Joker {
		p = "JK"
	}
	for ansi.StringWidth(p) < 3 {
		p += " "
	}
	return p
}

// suitStyle is the colour of a card's face: red suits red.
func (d *drawer) suitStyle(c card.Card) lipgloss.Style {
	switch {
	case c == card.Joker:
		return d.st.joker
	case c.Valid() && (c.Suit() == card.Hearts || c.Suit() == card.Diamonds):
		return d.st.red
	}
	return d.st.black
}

// box draws one card as three lines, each cut to the first width cells
// (5: the whole card; 4: the card under the next one of a fan).
func (d *drawer) box(s slot, width int) [3]string {
	b := borders[s.look]
	var frame lipgloss.Style
	face := strings.Repeat(" ", 3)
	faceStyle := d.st.black
	switch s.look {
	case lookFace:
		frame, face, faceStyle = d.st.black, cardText(s.c), d.suitStyle(s.c)
	case lookDim:
		frame, face, faceStyle = d.st.dim, cardText(s.c), d.st.dim
	case lookSel:
		frame, face, faceStyle = d.st.sel, cardText(s.c), d.suitStyle(s.c).Bold(true)
	case lookPicked:
		frame, face, faceStyle = d.st.picked, cardText(s.c), d.suitStyle(s.c).Bold(true)
	case lookBack:
		frame, face, faceStyle = d.st.back, "▒▒▒", d.st.back
	case lookEmpty:
		frame = d.st.empty
	}
	if s.look == lookSel && s.c == card.None {
		face, faceStyle = "▒▒▒", d.st.sel // a place face down, or a pile
	}
	h := strings.Repeat(b[1], 3)
	right := width >= 5
	top, mid, bot := b[0]+h, face, b[4]+h
	var out [3]string
	if right {
		out[0] = frame.Render(top + b[2])
		out[1] = frame.Render(b[3]) + faceStyle.Render(mid) + frame.Render(b[3])
		out[2] = frame.Render(bot + b[5])
	} else {
		out[0] = frame.Render(top)
		out[1] = frame.Render(b[3]) + faceStyle.Render(mid)
		out[2] = frame.Render(bot)
	}
	return out
}

// inline draws one card on one line: [7♥], [▒▒] face down, [  ] empty.
func (d *drawer) inline(s slot) string {
	switch s.look {
	case lookBack:
		return d.st.back.Render("[▒▒]")
	case lookEmpty:
		return d.st.empty.Render("[  ]")
	}
	label := strings.TrimRight(cardText(s.c), " ")
	if s.c == card.None {
		label = "▒▒" // a place face down, or a pile
	}
	switch s.look {
	case lookDim:
		return d.st.dim.Render("[" + label + "]")
	case lookSel:
		return d.st.sel.Render("▸") + d.suitStyle(s.c).Bold(true).Underline(true).Render(label) + d.st.sel.Render("◂")
	case lookPicked:
		return d.st.picked.Render("{") + d.suitStyle(s.c).Bold(true).Render(label) + d.st.picked.Render("}")
	}
	return "[" + d.suitStyle(s.c).Render(label) + "]"
}

// Card returns one card as text on one line, for the log.
func (d *drawer) card(c card.Card) string {
	return d.suitStyle(c).Render(strings.TrimRight(cardText(c), " "))
}

// fan draws cards side by side in at most width cells: spaced, touching,
// or overlapping (each card showing its label), on several rows if need
// be; captions go under their cards. In compact mode each card is one
// line.
func (d *drawer) fan(slots []slot, width int) string {
	if len(slots) == 0 {
		return ""
	}
	if d.compact {
		return d.inlineFan(slots, width)
	}
	n := len(slots)
	step := 0
	for _, st := range []int{6, 5, 4} {
		if n*st-(st-5)*boolInt(st > 5) <= width {
			step = st
			break
		}
	}
	if step == 0 {
		// Several rows, as many cards a row as fit overlapping.
		per := max(1, (width-1)/4)
		var rows []string
		for i := 0; i < n; i += per {
			rows = append(rows, d.fan(slots[i:min(n, i+per)], width))
		}
		return strings.Join(rows, "\n")
	}
	var lines [3]strings.Builder
	var caption strings.Builder
	hasCaption := false
	for i, s := range slots {
		w := 5
		if step == 4 && i < n-1 {
			w = 4
		}
		bx := d.box(s, w)
		for k := range 3 {
			lines[k].WriteString(bx[k])
			if step == 6 && i < n-1 {
				lines[k].WriteByte(' ')
			}
		}
		cw := step
		if i == n-1 {
			cw = 5
		}
		if s.caption != "" {
			hasCaption = true
		}
		caption.WriteString(d.captionCell(s.caption, cw))
	}
	out := lines[0].String() + "\n" + lines[1].String() + "\n" + lines[2].String()
	if hasCaption {
		out += "\n" + caption.String()
	}
	return out
}

func (d *drawer) inlineFan(slots []slot, width int) string {
	sep := " "
	if d.tight {
		sep = ""
	}
	var rows []string
	var row strings.Builder
	w := 0
	caps := false
	var capRow strings.Builder
	var capRows []string
	for _, s := range slots {
		cell := d.inline(s)
		cw := ansi.StringWidth(cell)
		if w > 0 && w+len(sep)+cw > width {
			rows, capRows = append(rows, row.String()), append(capRows, capRow.String())
			row.Reset()
			capRow.Reset()
			w = 0
		}
		if w > 0 {
			row.WriteString(sep)
			capRow.WriteString(sep)
			w += len(sep)
		}
		row.WriteString(cell)
		if s.caption != "" {
			caps = true
		}
		capRow.WriteString(d.captionCell(s.caption, cw))
		w += cw
	}
	rows, capRows = append(rows, row.String()), append(capRows, capRow.String())
	if !caps {
		return strings.Join(rows, "\n")
	}
	var out []string
	for i := range rows {
		out = append(out, rows[i], capRows[i])
	}
	return strings.Join(out, "\n")
}

// captionCell is a card's caption centred in the card's w cells: blank
// cells for none, so that the captions after it stay under their cards.
func (d *drawer) captionCell(caption string, w int) string {
	if caption == "" {
		return strings.Repeat(" ", w)
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, d.st.muted.Render(ansi.Truncate(caption, w, "")))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pile draws a stack of cards as its top card with a count beside it.
func (d *drawer) pile(label string, top slot, count string) string {
	card := d.fan([]slot{top}, 5)
	text := d.st.bold.Render(label)
	if count != "" {
		text += "\n" + d.st.muted.Render(count)
	}
	if d.compact {
		line := d.st.bold.Render(label) + " " + card
		if count != "" {
			line += " " + d.st.muted.Render(count)
		}
		return line
	}
	return lipgloss.JoinHorizontal(lipgloss.Center, card, " ", text)
}

// row lays blocks side by side with gap cells between, wrapping onto
// further rows so that no row is wider than width.
func row(width, gap int, blocks ...string) string {
	var rows []string
	var cur []string
	w := 0
	for _, b := range blocks {
		if b == "" {
			continue
		}
		bw := lipgloss.Width(b)
		if len(cur) > 0 && w+gap+bw > width {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cur...))
			cur, w = nil, 0
		}
		if len(cur) > 0 {
			cur = append(cur, strings.Repeat(" ", gap))
			w += gap
		}
		cur = append(cur, b)
		w += bw
	}
	if len(cur) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cur...))
	}
	return strings.Join(rows, "\n")
}

// plural writes n things as "1 card" or "3 cards" (-1 as "-1 points";
// a thing is a noun whose plural adds an s).
func plural(n int, thing string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// seatList writes seat numbers as "seat 2" or "seats 1, 2 and 4".
func seatList(seats []string) string {
	switch len(seats) {
	case 0:
		return "no seat"
	case 1:
		return "seat " + seats[0]
	}
	return "seats " + strings.Join(seats[:len(seats)-1], ", ") + " and " + seats[len(seats)-1]
}

// verbFor conjugates verb for a subject: "You choose", "Ada chooses".
func verbFor(subject, verb string) string {
	if subject == "You" || subject == "you" {
		return verb
	}
	if strings.HasSuffix(verb, "s") || strings.HasSuffix(verb, "sh") || strings.HasSuffix(verb, "ch") {
		return verb + "es"
	}
	return verb + "s"
}

// drawer draws one seat's view of a table on the full screen: the
// colours, the room there is, and what to light up (the chosen move's
// cards and places, the cards picked, the cards that may be played).
type drawer struct {
	st       styles
	width    int
	compact  bool     // one-line cards, for a small terminal
	tight    bool     // one-line cards without a space between them
	viewer   int      // the seat drawn from; game.Spectator for a spectator
	names    []string // short names by seat, for sentences
	labels   []string // names with bots' levels by seat, for headings
	states   []string // seat states by seat: here, away, standin, open, bot
	toAct    []int
	selected string             // the chosen move ("" none)
	selCards map[card.Card]bool // the cards the chosen move names
	picked   map[card.Card]bool // cards picked for a move of several cards
	playable map[card.Card]bool // cards some legal move names; nil: light every card
}

// name returns seat's display name ("You" for the viewer).
func (d *drawer) name(seat int) string {
	if seat == d.viewer && seat >= 0 {
		return "You"
	}
	if seat >= 0 && seat < len(d.names) && d.names[seat] != "" {
		return d.names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// acting reports whether seat is to act.
func (d *drawer) acting(seat int) bool {
	for _, s := range d.toAct {
		if s == seat {
			return true
		}
	}
	return false
}

// say returns seat's name inside a sentence: "you" for the viewer.
func (d *drawer) say(seat int) string {
	if seat == d.viewer && seat >= 0 {
		return "you"
	}
	return d.name(seat)
}

// label returns seat's name for a heading, with a bot's level.
func (d *drawer) label(seat int) string {
	if seat != d.viewer && seat >= 0 && seat < len(d.labels) && d.labels[seat] != "" {
		return d.labels[seat]
	}
	return d.name(seat)
}

// who writes seat's name for a heading: marked when the seat is to act,
// with its state when its player is away.
func (d *drawer) who(seat int) string { return d.whoAs(seat, "", d.label(seat)) }

// whoAs is who with mark (a counter, a symbol) before the name, after the
// turn's ▶, and name for the seat's name.
func (d *drawer) whoAs(seat int, mark, name string) string {
	tag := ""
	if seat >= 0 && seat < len(d.states) {
		switch d.states[seat] {
		case "away":
			tag = d.st.muted.Render(" (away)")
		case "standin":
			tag = d.st.muted.Render(" (away: a bot plays)")
		case "open":
			tag = d.st.muted.Render(" (open seat)")
		}
	}
	if mark != "" {
		mark += " "
	}
	if d.acting(seat) {
		return d.st.accent.Render("▶ ") + mark + d.st.accent.Render(name) + tag
	}
	return mark + d.st.bold.Render(name) + tag
}

// hand returns how a card of the viewer's hand looks.
func (d *drawer) hand(c card.Card) look {
	switch {
	case d.picked[c]:
		return lookPicked
	case d.selCards[c]:
		return lookSel
	case d.playable != nil && !d.playable[c]:
		return lookDim
	}
	return lookFace
}

// faceUp returns how a face-up card on the table looks: marked when it is
// picked for a move of several cards (Court Circular's take), lit when the
// chosen move names it or the cursor is on it.
func (d *drawer) faceUp(c card.Card) look {
	switch {
	case c == card.None:
		return lookEmpty
	case d.picked[c]:
		return lookPicked
	case d.selCards[c]:
		return lookSel
	}
	return lookFace
}

// handSlots makes slots of a hand.
func (d *drawer) handSlots(cs []card.Card) []slot {
	out := make([]slot, len(cs))
	for i, c := range cs {
		out[i] = slot{c: c, look: d.hand(c)}
	}
	return out
}

// faceSlots makes slots of face-up cards on the table (None: face down).
func (d *drawer) faceSlots(cs []card.Card) []slot {
	out := make([]slot, len(cs))
	for i, c := range cs {
		if c == card.None {
			out[i] = slot{look: lookBack}
		} else {
			out[i] = slot{c: c, look: d.faceUp(c)}
		}
	}
	return out
}

// backs draws n face-down cards as a small fan with a count, or as a
// count alone when there is no room.
func (d *drawer) backs(n int, width int) string {
	if n == 0 {
		return d.st.muted.Render("no cards")
	}
	shown := min(n, 5)
	s := make([]slot, shown)
	for i := range s {
		s[i] = slot{look: lookBack}
	}
	if d.compact {
		return d.st.back.Render("▒") + fmt.Sprintf(" %s", plural(n, "card"))
	}
	return lipgloss.JoinHorizontal(lipgloss.Center, d.fan(s, min(width, 4*shown+1)), " "+plural(n, "card"))
}
