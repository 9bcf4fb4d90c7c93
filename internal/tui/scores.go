package tui

import (
	"fmt"
	"strings"

	"parlour/game"
	"parlour/games"
	"parlour/games/courtcircular"
	"parlour/games/parcellus"
)

// scoreRow is a row of a score table: its label and a number per seat.
type scoreRow struct {
	label  string
	values []int
}

// scoreTerms says what game name's score table counts, so that its rows
// and its total never seem to contradict each other: a sentence on what
// the rows count and how the match is won, the label of the totals, and
// rows to add after them (Court Circular 1862's Hits, read from view).
func scoreTerms(name string, view any) (about, total string, extra []scoreRow) {
	switch name {
	case "golf":
		return "Each hole's row: the points of each layout. The lowest total wins.", "total", nil
	case "parcellus":
		target := 30
		if v, ok := view.(parcellus.View); ok {
			target = v.Target
		}
		return fmt.Sprintf("Each deal's row: card points and the parcel bonus. %d or more and the highest total wins.", target), "total", nil
	case "tractric":
		return "Each hand's row: the tricks each player took. Games are won with three counters in a row; two games in a row or three in all win the match.", "games won", nil
	case "damn":
		return "The cards each player still held at the end: the last one holding cards loses.", "cards held", nil
	case "court-circular":
		if v, ok := view.(courtcircular.View); ok && v.Edition == courtcircular.Edition1862 {
			return "Each deal's row: the points it scored. Five points take a Hit and both go back to 0; two Hits win the Rubber.",
				"toward a Hit", []scoreRow{{"Hits", v.Hits}}
		}
		target := "the target"
		if v, ok := view.(courtcircular.View); ok && v.Target > 0 {
			target = fmt.Sprint(v.Target)
		}
		return "Each deal's row: the points it scored (marks above the lowest). At " + target + " or more, the highest total wins.", "total", nil
	}
	return "", "total", nil
}

// scoreTable writes a result as a table, a column per seat (names by
// seat), the rows' labels in the game's words, in width columns (0: any),
// with at most keep rows of deals, the last ones (0: all; a line says how
// many earlier ones are left out); bold styles the totals.
func scoreTable(name string, view any, r game.Result, names func(int) string, bold func(string) string, width, keep int) string {
	about, total, extra := scoreTerms(name, view)
	var rows []scoreRow
	deals := r.DealScores
	if name == "damn" {
		deals = nil // one game: its row is the totals'
	}
	skipped := 0
	if keep > 0 && len(deals) > keep {
		skipped = len(deals) - keep + 1 // a line says so
	}
	for k, row := range deals[skipped:] {
		rows = append(rows, scoreRow{fmt.Sprintf("%s %d", dealWord(name), skipped+k+1), row})
	}
	rows = append(rows, scoreRow{total, r.Totals})
	rows = append(rows, extra...)
	labelW := 6
	for _, row := range rows {
		labelW = max(labelW, len(row.label)+2)
	}
	colW := 12
	if n := len(r.Totals); width > 0 && n > 0 {
		colW = max(5, min(colW, (width-labelW)/n))
	}
	var b strings.Builder
	if about != "" {
		b.WriteString(wrapText(about, width) + "\n")
	}
	fmt.Fprintf(&b, "%-*s", labelW, "")
	for i := range r.Totals {
		fmt.Fprintf(&b, "%*s", colW, truncate(names(i), colW-1))
	}
	b.WriteByte('\n')
	if skipped > 0 {
		fmt.Fprintf(&b, "(%s 1 to %d are left out: the terminal is not tall enough)\n", pluralWord(name), skipped)
	}
	for i, row := range rows {
		line := fmt.Sprintf("%-*s", labelW, row.label)
		for _, v := range row.values {
			line += fmt.Sprintf("%*d", colW, v)
		}
		if i >= len(deals)-skipped {
			line = bold(line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// pluralWord is what game name calls its deals, capitalised: "Holes".
func pluralWord(name string) string {
	if g, err := games.Lookup(name); err == nil && g.Info().Deals != "" {
		return capitalise(g.Info().Deals)
	}
	return "Deals"
}

// wrapText wraps plain text to width (0: not at all).
func wrapText(s string, width int) string {
	if width <= 0 {
		return s
	}
	return wrapTo(s, width)
}

// truncate cuts s to n runes with "…".
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
