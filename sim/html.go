package sim

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

// The colours of the variants in the charts.
const (
	colourA = "#2f6ea7"
	colourB = "#d9822b"
)

// WriteHTML writes the report as one self-contained HTML page: no scripts,
// no fonts or pictures to fetch, the charts drawn in inline SVG.
func WriteHTML(w io.Writer, rep *Report) error {
	p := &page{Report: rep, ADesc: describe(rep.A)}
	if rep.B != nil {
		p.BDesc = describe(*rep.B)
	}
	byKey := map[string]*Figure{}
	for i := range rep.Figures {
		byKey[rep.Figures[i].Key] = &rep.Figures[i]
	}
	// Seat advantage: wins per seat.
	var wins, scores []*Figure
	for i := range maxSeats(rep) {
		if f := byKey[winKeys[i]]; f != nil {
			wins = append(wins, f)
		}
		if f := byKey[scoreKeys[i]]; f != nil {
			scores = append(scores, f)
		}
	}
	fair := 1 / float64(rep.A.Players)
	p.SeatChart = barChart("seat-advantage", "Matches won, by seat", wins,
		func(f *Figure) string { return "seat " + strconv.Itoa(*f.Seat) }, true, fair, rep.B != nil)
	p.Seats = p.rows(wins, scores, []*Figure{byKey["unresolved"]})
	for _, f := range scores {
		if f.Hist != nil {
			p.ScoreCharts = append(p.ScoreCharts, histChart("Final score, seat "+strconv.Itoa(*f.Seat), f, rep))
		}
	}
	for _, key := range []string{"moves", "deals", "deal_moves"} {
		if f := byKey[key]; f != nil && f.Hist != nil {
			p.LengthCharts = append(p.LengthCharts, histChart(capital(shortLabel(f.Label)), f, rep))
		}
	}
	p.Length = p.rows(figuresOf(rep, "Length"))
	for _, f := range figuresOf(rep, "Tension") {
		if f.Hist != nil {
			p.TensionCharts = append(p.TensionCharts, histChart(capital(shortLabel(f.Label)), f, rep))
		}
	}
	p.Tension = p.rows(figuresOf(rep, "Tension"))
	for _, g := range groups(rep) {
		if g == "Seats" || g == "Length" || g == "Tension" {
			continue
		}
		fs := figuresOf(rep, g)
		sec := section{Title: g, Rows: p.rows(fs)}
		var shares []*Figure
		for _, f := range fs {
			if f.Share && (nonZero(f.A) || nonZero(f.B)) {
				shares = append(shares, f)
			}
		}
		if len(shares) > 1 {
			sec.Charts = append(sec.Charts, shareChart(g, shares, rep.B != nil))
		}
		for _, f := range fs {
			if f.Hist != nil {
				sec.Charts = append(sec.Charts, histChart(capital(shortLabel(f.Label)), f, rep))
			}
		}
		p.Games = append(p.Games, sec)
	}
	p.All = p.rows(ptrs(rep.Figures))
	return pageTemplate.Execute(w, p)
}

type page struct {
	*Report
	ADesc, BDesc  string
	SeatChart     template.HTML
	Seats         []row
	ScoreCharts   []template.HTML
	LengthCharts  []template.HTML
	Length        []row
	TensionCharts []template.HTML
	Tension       []row
	Games         []section
	All           []row
}

type section struct {
	Title  string
	Rows   []row
	Charts []template.HTML
}

type row struct {
	HasB         bool
	Group, Label string
	A, B, Diff   string
	SD           string
	Significant  bool
}

func (p *page) rows(fs ...[]*Figure) []row {
	var out []row
	for _, list := range fs {
		for _, f := range list {
			if f == nil || (!nonZero(f.A) && !nonZero(f.B) && f.Share) {
				continue
			}
			r := row{HasB: p.B != nil, Group: f.Group, Label: f.Label, A: Value(f.A, f.Share), B: Value(f.B, f.Share),
				Diff: Diff(f.Diff, f.Share), Significant: Significant(f.Diff)}
			if f.A != nil && f.A.SD != nil {
				r.SD = num(*f.A.SD, false)
				if f.B != nil && f.B.SD != nil {
					r.SD += " / " + num(*f.B.SD, false)
				}
			}
			out = append(out, r)
		}
	}
	return out
}

func nonZero(e *Estimate) bool {
	return e != nil && (e.Value != 0 || (e.CI95 != nil && e.CI95[1] > 0.0005))
}

func ptrs(fs []Figure) []*Figure {
	out := make([]*Figure, len(fs))
	for i := range fs {
		out[i] = &fs[i]
	}
	return out
}

func figuresOf(rep *Report, group string) []*Figure {
	var out []*Figure
	for i := range rep.Figures {
		if rep.Figures[i].Group == group {
			out = append(out, &rep.Figures[i])
		}
	}
	return out
}

func groups(rep *Report) []string {
	var gs []string
	for _, f := range rep.Figures {
		if len(gs) == 0 || gs[len(gs)-1] != f.Group {
			gs = append(gs, f.Group)
		}
	}
	return gs
}

func maxSeats(rep *Report) int {
	n := rep.A.Players
	if rep.B != nil {
		n = max(n, rep.B.Players)
	}
	return n
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// shortLabel drops a label's parenthesised tail: "captures the J♥, seat 0".
func shortLabel(s string) string {
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[:i]
	}
	return s
}

// svg geometry shared by the charts.
const (
	chartW = 540
	padL   = 56
	padR   = 24
	padT   = 30
	padB   = 46
)

// barChart draws one bar per figure (two, A and B, with a B) with its 95%
// interval as a whisker; ref, unless NaN, is drawn as a dashed line.
func barChart(class, title string, fs []*Figure, name func(*Figure) string, share bool, ref float64, hasB bool) template.HTML {
	if len(fs) == 0 {
		return ""
	}
	top := 0.0
	for _, f := range fs {
		for _, e := range []*Estimate{f.A, f.B} {
			if e != nil {
				top = max(top, e.Value)
				if e.CI95 != nil {
					top = max(top, e.CI95[1])
				}
			}
		}
	}
	if !math.IsNaN(ref) {
		top = max(top, ref)
	}
	top = niceCeil(top * 1.1)
	if top <= 0 {
		top = 1
	}
	labelH := 0
	for _, f := range fs {
		labelH = max(labelH, len([]rune(name(f))))
	}
	rotate := len(fs) > 4 && labelH > 8
	bottom := padB
	if rotate {
		bottom = min(40+labelH*6, 260)
	}
	plotH := 220
	h := padT + plotH + bottom
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart %s" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		class, chartW, h, chartW, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="18" class="t">%s</text>`, padL, html.EscapeString(title))
	y := func(v float64) float64 { return float64(padT) + float64(plotH)*(1-v/top) }
	axisY(&b, top, share, y, plotH)
	slot := float64(chartW-padL-padR) / float64(len(fs))
	barW := slot * 0.6
	if hasB {
		barW = slot * 0.35
	}
	for i, f := range fs {
		x0 := float64(padL) + slot*float64(i) + slot*0.2
		if hasB {
			x0 = float64(padL) + slot*float64(i) + slot*0.13
		}
		for k, e := range []*Estimate{f.A, f.B} {
			if k == 1 && !hasB {
				break
			}
			x := x0 + float64(k)*(barW+slot*0.04)
			colour := colourA
			if k == 1 {
				colour = colourB
			}
			if e == nil {
				continue
			}
			v := max(e.Value, 0)
			fmt.Fprintf(&b, `<rect class="bar %s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				[]string{"a", "b"}[k], x, y(v), barW, y(0)-y(v), colour, []string{"A", "B"}[k], html.EscapeString(name(f)), html.EscapeString(Value(e, share)))
			if e.CI95 != nil {
				cx := x + barW/2
				lo, hi := y(max(e.CI95[0], 0)), y(min(e.CI95[1], top))
				fmt.Fprintf(&b, `<path class="ci" d="M%.1f %.1fV%.1fM%.1f %.1fh%.1fM%.1f %.1fh%.1f" stroke="#222" stroke-width="1.4" fill="none"/>`,
					cx, lo, hi, cx-4, lo, 8.0, cx-4, hi, 8.0)
			}
		}
		lx := float64(padL) + slot*(float64(i)+0.5)
		if rotate {
			fmt.Fprintf(&b, `<text class="xl" x="%.1f" y="%d" transform="rotate(-40 %.1f %d)" text-anchor="end">%s</text>`,
				lx, padT+plotH+14, lx, padT+plotH+14, html.EscapeString(name(f)))
		} else {
			fmt.Fprintf(&b, `<text class="xl" x="%.1f" y="%d" text-anchor="middle">%s</text>`, lx, padT+plotH+16, html.EscapeString(name(f)))
		}
	}
	if !math.IsNaN(ref) {
		fmt.Fprintf(&b, `<line class="ref" x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#777" stroke-dasharray="5 4"/>`,
			padL, chartW-padR, y(ref), y(ref))
	}
	legend(&b, hasB, h-8)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// shareChart draws shares as horizontal bars, one row per figure (two
// bars with a B), each with its 95% interval as a whisker.
func shareChart(title string, fs []*Figure, hasB bool) template.HTML {
	const labelW, rowH = 250, 26
	top := 0.0
	for _, f := range fs {
		for _, e := range []*Estimate{f.A, f.B} {
			if e != nil && e.CI95 != nil {
				top = max(top, e.CI95[1])
			} else if e != nil {
				top = max(top, e.Value)
			}
		}
	}
	top = niceCeil(top * 1.05)
	if top <= 0 {
		top = 1
	}
	plotW := float64(chartW - labelW - padR)
	h := padT + rowH*len(fs) + 34
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart shares" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		chartW, h, chartW, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title><text x="8" y="18" class="t">%s</text>`, html.EscapeString(title), html.EscapeString(title))
	x := func(v float64) float64 { return labelW + plotW*v/top }
	bottom := padT + rowH*len(fs)
	for k := 0; k <= 4; k++ {
		v := top * float64(k) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#e4e4e4"/>`, x(v), x(v), padT, bottom)
		fmt.Fprintf(&b, `<text class="yl" x="%.1f" y="%d" text-anchor="middle">%s%%</text>`, x(v), bottom+14, strconv.FormatFloat(100*v, 'g', 3, 64))
	}
	for i, f := range fs {
		y0 := float64(padT + rowH*i)
		fmt.Fprintf(&b, `<text class="xl" x="%d" y="%.1f" text-anchor="end">%s</text>`, labelW-8, y0+rowH/2+4, html.EscapeString(shortLabel(f.Label)))
		barH := float64(rowH) - 8
		if hasB {
			barH = (float64(rowH) - 8) / 2
		}
		for k, e := range []*Estimate{f.A, f.B} {
			if e == nil || (k == 1 && !hasB) {
				continue
			}
			colour := []string{colourA, colourB}[k]
			y := y0 + 4 + float64(k)*barH
			fmt.Fprintf(&b, `<rect class="bar %s" x="%d" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				[]string{"a", "b"}[k], labelW, y, x(max(e.Value, 0))-labelW, barH-1, colour, []string{"A", "B"}[k],
				html.EscapeString(shortLabel(f.Label)), html.EscapeString(Value(e, true)))
			if e.CI95 != nil {
				cy := y + (barH-1)/2
				lo, hi := x(max(e.CI95[0], 0)), x(min(e.CI95[1], top))
				fmt.Fprintf(&b, `<path class="ci" d="M%.1f %.1fH%.1fM%.1f %.1fv6M%.1f %.1fv6" stroke="#222" stroke-width="1.2" fill="none"/>`,
					lo, cy, hi, lo, cy-3, hi, cy-3)
			}
		}
	}
	legend(&b, hasB, h-6)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// histChart draws a figure's distribution: the share of matches (or units)
// in each bin, A filled, B outlined over it.
func histChart(title string, f *Figure, rep *Report) template.HTML {
	hg := f.Hist
	hasB := len(hg.B) > 0
	tot := func(c []int64) float64 {
		t := int64(0)
		for _, v := range c {
			t += v
		}
		return float64(max(t, 1))
	}
	ta, tb := tot(hg.A), tot(hg.B)
	top := 0.0
	for i := range hg.Lo {
		top = max(top, float64(hg.A[i])/ta)
		if hasB {
			top = max(top, float64(hg.B[i])/tb)
		}
	}
	top = niceCeil(top * 1.08)
	if top <= 0 {
		top = 1
	}
	plotH := 150
	h := padT + plotH + padB
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart histogram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		chartW, h, chartW, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="18" class="t">%s</text>`, padL, html.EscapeString(title))
	y := func(v float64) float64 { return float64(padT) + float64(plotH)*(1-v/top) }
	axisY(&b, top, true, y, plotH)
	n := len(hg.Lo)
	slot := float64(chartW-padL-padR) / float64(n)
	binName := func(i int) string {
		if hg.Width == 1 {
			return strconv.FormatInt(hg.Lo[i], 10)
		}
		return fmt.Sprintf("%d–%d", hg.Lo[i], hg.Lo[i]+hg.Width-1)
	}
	for i := range n {
		x := float64(padL) + slot*float64(i)
		va := float64(hg.A[i]) / ta
		fmt.Fprintf(&b, `<rect class="bin a" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.75"><title>%s: A %.1f%%</title></rect>`,
			x+0.5, y(va), max(slot-1, 0.5), y(0)-y(va), colourA, binName(i), 100*va)
		if hasB {
			vb := float64(hg.B[i]) / tb
			fmt.Fprintf(&b, `<rect class="bin b" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="%s" stroke-width="2"><title>%s: B %.1f%%</title></rect>`,
				x+1.5, y(vb), max(slot-3, 0.5), y(0)-y(vb), colourB, binName(i), 100*vb)
		}
	}
	// Label about eight bins along the x axis.
	step := max(1, (n+7)/8)
	for i := 0; i < n; i += step {
		x := float64(padL) + slot*(float64(i)+0.5)
		fmt.Fprintf(&b, `<text class="xl" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x, padT+plotH+15, html.EscapeString(binName(i)))
	}
	if f.A != nil {
		meanLine(&b, f.A, hg, slot, y, colourA, true)
	}
	if hasB && f.B != nil {
		meanLine(&b, f.B, hg, slot, y, colourB, false)
	}
	legend(&b, hasB, h-8)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// meanLine marks the mean on a histogram's x axis.
func meanLine(b *strings.Builder, e *Estimate, hg *Histogram, slot float64, y func(float64) float64, colour string, a bool) {
	pos := (e.Value - float64(hg.Lo[0])) / float64(hg.Width) // in bins, from the first bin's left edge
	if hg.Width == 1 {
		pos += 0.5 // integer values sit mid-bin
	}
	x := float64(padL) + slot*pos
	dash := ""
	if !a {
		dash = ` stroke-dasharray="4 3"`
	}
	fmt.Fprintf(b, `<line class="mean" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s><title>mean %s</title></line>`,
		x, x, y(0), float64(padT), colour, dash, num(e.Value, false))
}

func axisY(b *strings.Builder, top float64, share bool, y func(float64) float64, plotH int) {
	fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#999"/>`, padL, chartW-padR, padT+plotH, padT+plotH)
	for k := 0; k <= 4; k++ {
		v := top * float64(k) / 4
		label := num(v, share)
		if share {
			label = strconv.FormatFloat(100*v, 'f', -1, 64)
			if len(label) > 5 {
				label = strconv.FormatFloat(100*v, 'f', 1, 64)
			}
			label += "%"
		}
		fmt.Fprintf(b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e4e4e4"/>`, padL, chartW-padR, y(v), y(v))
		fmt.Fprintf(b, `<text class="yl" x="%d" y="%.1f" text-anchor="end">%s</text>`, padL-6, y(v)+4, label)
	}
}

func legend(b *strings.Builder, hasB bool, y int) {
	if !hasB {
		return
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text class="lg" x="%d" y="%d">A</text>`, chartW-80, y-9, colourA, chartW-66, y)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text class="lg" x="%d" y="%d">B</text>`, chartW-44, y-9, colourB, chartW-30, y)
}

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}: parlour sim report</title>
<style>
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1d; margin: 0 auto; max-width: 1180px; padding: 18px 24px 40px; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 20px; margin: 30px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
p.note { color: #555; margin: 4px 0 10px; }
table { border-collapse: collapse; margin: 8px 0 14px; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 12px 3px 0; border-bottom: 1px solid #eee; vertical-align: top; }
th { font-weight: 600; color: #444; }
td.n { white-space: nowrap; }
tr.sig td.d { font-weight: 700; color: #8a3b00; }
.charts { display: flex; flex-wrap: wrap; gap: 8px 18px; }
svg.chart { background: #fff; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg text.t { font-size: 13px; font-weight: 600; }
.key-a { color: #2f6ea7; font-weight: 700; }
.key-b { color: #d9822b; font-weight: 700; }
footer { margin-top: 36px; color: #777; font-size: 13px; }
</style>
</head>
<body>
<header>
<h1>{{.Title}}: what the rules do</h1>
<p class="note">{{.Matches}} matches{{if .B}} for each variant, on the same seeded deals{{end}}, seed {{.Seed}}. Every figure comes with its 95% confidence interval, in brackets.</p>
<table class="variants">
<tr><th class="key-a">A</th><td>{{.ADesc}}</td></tr>
{{if .B}}<tr><th class="key-b">B</th><td>{{.BDesc}}</td></tr>{{end}}
</table>
</header>

<section id="seats">
<h2>Seat advantage</h2>
<p class="note">Shares of matches won, with 95% intervals as whiskers; the dashed line is an equal share. A win shared by k seats counts 1/k.</p>
<div class="charts">{{.SeatChart}}</div>
{{template "rows" .Seats}}
</section>

<section id="scores">
<h2>Scores</h2>
<div class="charts">{{range .ScoreCharts}}{{.}}{{end}}</div>
</section>

<section id="length">
<h2>Length</h2>
<div class="charts">{{range .LengthCharts}}{{.}}{{end}}</div>
{{template "rows" .Length}}
</section>

{{if .Tension}}<section id="tension">
<h2>Tension</h2>
<div class="charts">{{range .TensionCharts}}{{.}}{{end}}</div>
{{template "rows" .Tension}}
</section>{{end}}

{{range .Games}}<section class="game">
<h2>{{.Title}}</h2>
<div class="charts">{{range .Charts}}{{.}}{{end}}</div>
{{template "rows" .Rows}}
</section>
{{end}}

<section id="{{if .B}}ab{{else}}all{{end}}">
<h2>{{if .B}}A/B: every figure, and the difference{{else}}Every figure{{end}}</h2>
{{if .B}}<p class="note">A&minus;B is the paired difference over the same deals; in bold where its interval excludes 0. Shares differ in percentage points (pp).</p>{{end}}
<table id="{{if .B}}ab-table{{else}}all-table{{end}}">
<thead><tr><th>group</th><th>figure</th><th>A</th>{{if .B}}<th>B</th><th>A&minus;B</th>{{end}}</tr></thead>
<tbody>
{{$b := .B}}{{range .All}}<tr{{if .Significant}} class="sig"{{end}}><td>{{.Group}}</td><td>{{.Label}}</td><td class="n">{{.A}}</td>{{if $b}}<td class="n">{{.B}}</td><td class="n d">{{.Diff}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
</section>

<footer>Made by <code>parlour sim</code>. Intervals: Wilson for shares of matches; Student t over matches (as clusters, by the delta method) for means and rates; the paired t interval for differences.</footer>
</body>
</html>
{{define "rows"}}{{if .}}<table class="figures">
<thead><tr><th>figure</th><th>A</th>{{if (index . 0).HasB}}<th>B</th><th>A&minus;B</th>{{end}}<th>spread (sd)</th></tr></thead>
<tbody>
{{range .}}<tr{{if .Significant}} class="sig"{{end}}><td>{{.Label}}</td><td class="n">{{.A}}</td>{{if .HasB}}<td class="n">{{.B}}</td><td class="n d">{{.Diff}}</td>{{end}}<td class="n">{{.SD}}</td></tr>
{{end}}</tbody>
</table>{{end}}{{end}}
`))
