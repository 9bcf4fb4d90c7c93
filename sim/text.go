package sim

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// num formats a figure's value: a percentage for a share, else three
// significant digits (more for large numbers).
func num(v float64, share bool) string {
	if share {
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	}
	a := math.Abs(v)
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// diffNum formats a difference, signed: percentage points for shares.
func diffNum(v float64, share bool) string {
	s := num(v, false)
	if share {
		s = strconv.FormatFloat(100*v, 'f', 1, 64) + " pp"
	}
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// Value formats an estimate as "12.3 [12.1, 12.5]" ("—" without one).
func Value(e *Estimate, share bool) string {
	if e == nil {
		return "—"
	}
	s := num(e.Value, share)
	if e.CI95 != nil {
		s += " [" + strings.TrimSuffix(num(e.CI95[0], share), "%") + ", " + num(e.CI95[1], share) + "]"
	}
	return s
}

// Diff formats a difference A-B as "+1.2 [+0.4, +2.0]".
func Diff(e *Estimate, share bool) string {
	if e == nil {
		return "—"
	}
	s := diffNum(e.Value, share)
	if e.CI95 != nil {
		s += " [" + strings.TrimSuffix(diffNum(e.CI95[0], share), " pp") + ", " + diffNum(e.CI95[1], share) + "]"
	}
	return s
}

// Significant reports whether a difference's interval excludes 0.
func Significant(e *Estimate) bool {
	return e != nil && e.CI95 != nil && (e.CI95[0] > 0 || e.CI95[1] < 0)
}

// WriteText writes the report as a plain table, one figure a line.
func WriteText(w io.Writer, rep *Report) error {
	fmt.Fprintf(w, "%s, %d matches, seed %d. Figures with 95%% confidence intervals.\n", rep.Title, rep.Matches, rep.Seed)
	fmt.Fprintf(w, "A: %s\n", describe(rep.A))
	if rep.B != nil {
		fmt.Fprintf(w, "B: %s\n", describe(*rep.B))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	group := ""
	for _, f := range rep.Figures {
		if f.A == nil && f.B == nil {
			continue
		}
		if f.Group != group {
			group = f.Group
			if rep.B != nil {
				fmt.Fprintf(tw, "\n%s\tA\tB\tA-B\t\n", group)
			} else {
				fmt.Fprintf(tw, "\n%s\t\t\n", group)
			}
		}
		if rep.B != nil {
			mark := ""
			if Significant(f.Diff) {
				mark = " *"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s%s\t\n", f.Label, Value(f.A, f.Share), Value(f.B, f.Share), Diff(f.Diff, f.Share), mark)
		} else {
			fmt.Fprintf(tw, "  %s\t%s\t\n", f.Label, Value(f.A, f.Share))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rep.B != nil {
		_, err := fmt.Fprintln(w, "\n* the interval of A-B excludes 0.")
		return err
	}
	return nil
}

// describe says what a variant is: its label, players and bots.
func describe(v VariantInfo) string {
	bots := v.Bots[0] + " on every seat"
	for _, b := range v.Bots[1:] {
		if b != v.Bots[0] {
			bots = "bots " + strings.Join(v.Bots, ", ") + " (seat 0 first)"
			break
		}
	}
	return fmt.Sprintf("%s; %d players; %s; %s", v.Label, v.Players, bots, dealerText(v.Options))
}

func dealerText(o map[string]any) string {
	if d, ok := o["dealer"].(int); ok && d >= 0 {
		return fmt.Sprintf("seat %d deals first", d)
	}
	return "the first dealer drawn at random"
}
