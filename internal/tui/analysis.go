package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/analysis"
	"parlour/card"
)

// The end screen's analysis (../shared/spec/analysis.md): `a` asks the
// table's server for it (POST /api/tables/{id}/analysis), follows its
// progress (GET), and shows, per seat, the mean loss and the counts of
// inaccuracies, mistakes and blunders, and one seat's worst decisions
// with the better move the search found.

// analyser is a driver whose table a server can analyse.
type analyser interface {
	// analysisURL is the table's analysis endpoint.
	analysisURL() string
}

func (r *remote) analysisURL() string {
	return r.cfg.Invite.Base + "/api/tables/" + url.PathEscape(r.cfg.Invite.Table) + "/analysis"
}

// analysisPoll is how long the screen waits between two questions of how
// the analysis goes.
var analysisPoll = time.Second

// analysisClient asks the analysis endpoints; no question waits for ever.
var analysisClient = &http.Client{Timeout: 15 * time.Second}

// analysisMsg is an answer of the analysis endpoints, as the screen
// takes it.
type analysisMsg struct {
	phase    string // queued, running, done, failed, busy
	progress float64
	report   *analysis.Report
	retry    time.Duration // busy: when to ask again
	text     string        // failed: why; busy: the server's words
}

// analysisState is the end screen's analysis: where the work is, the
// report once done, and whose worst decisions are listed.
type analysisState struct {
	url      string
	shown    bool
	phase    string // asking, queued, running, busy, done, failed
	progress float64
	retry    time.Duration
	text     string
	report   *analysis.Report
	seat     int // whose decisions are listed (an index of report.Seats)
}

// analysisCall makes one request of the analysis endpoint and reads its
// answer.
func analysisCall(method, u string) analysisMsg {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var body io.Reader
	if method == http.MethodPost {
		body = bytes.NewReader([]byte("{}"))
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return analysisMsg{phase: "failed", text: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := analysisClient.Do(req)
	if err != nil {
		return analysisMsg{phase: "failed", text: "The server could not be reached: " + err.Error()}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return analysisMsg{phase: "failed", text: "Reading the server's answer: " + err.Error()}
	}
	var st struct {
		Status   string              `json:"status"`
		Progress float64             `json:"progress"`
		Report   *analysis.Report    `json:"report"`
		Error    json.RawMessage     `json:"error"`
		Decision []analysis.Decision `json:"decisions"` // a POST's 200: the report itself
	}
	json.Unmarshal(data, &st)
	why := func(fallback string) string {
		var e struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(st.Error, &e) == nil && e.Message != "":
			return sentence(clean(e.Message))
		case json.Unmarshal(st.Error, &s) == nil && s != "":
			return sentence(clean(s))
		}
		return fallback
	}
	switch code := resp.StatusCode; {
	case code == http.StatusServiceUnavailable:
		secs, _ := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After")))
		return analysisMsg{phase: "busy", retry: time.Duration(max(1, secs)) * time.Second, text: why("Every analyser is busy.")}
	case code == http.StatusConflict:
		return analysisMsg{phase: "failed", text: "The game is not over yet: it can be analysed once it ends."}
	case code/100 != 2:
		return analysisMsg{phase: "failed", text: why(fmt.Sprintf("The server answered %d.", code))}
	case st.Decision != nil:
		var r analysis.Report
		if err := json.Unmarshal(data, &r); err != nil {
			return analysisMsg{phase: "failed", text: "The report cannot be read: " + err.Error()}
		}
		return analysisMsg{phase: "done", report: &r}
	case st.Status == "done" && st.Report != nil:
		return analysisMsg{phase: "done", report: st.Report}
	case st.Status == "failed":
		if w := why(""); w != "" {
			return analysisMsg{phase: "failed", text: "The analysis failed: " + strings.ToLower(w[:1]) + w[1:]}
		}
		return analysisMsg{phase: "failed", text: "The analysis failed."}
	case st.Status == "queued" || st.Status == "running":
		return analysisMsg{phase: st.Status, progress: st.Progress}
	}
	return analysisMsg{phase: "failed", text: "The server's answer is not an analysis."}
}

// analysisAsk asks for the analysis after wait.
func analysisAsk(method, u string, wait time.Duration) tea.Cmd {
	return func() tea.Msg {
		if wait > 0 {
			time.Sleep(wait)
		}
		return analysisCall(method, u)
	}
}

// analyse answers `a` at the end of the match: the analysis shown, asked
// for the first time (or again after a failure).
func (m *Model) analyse() tea.Cmd {
	src, ok := m.drv.(analyser)
	if !ok {
		m.notice, m.bad = "A game is analysed at a server's table (parlour analyse reads a script).", false
		return nil
	}
	if m.an != nil && m.an.phase != "failed" {
		m.an.shown = true
		return nil
	}
	m.an = &analysisState{url: src.analysisURL(), shown: true, phase: "asking"}
	return analysisAsk(http.MethodPost, m.an.url, 0)
}

// analysisKey handles a key while the analysis is shown: ←/→ another
// seat's decisions, a or Esc back to the scores (a failed analysis: `a`
// asks again), t the final table. handled is false for the keys the
// screen handles as ever.
func (m *Model) analysisKey(s string) (cmd tea.Cmd, handled bool) {
	a := m.an
	switch s {
	case "left", "h", "up", "k", "right", "l", "down", "j":
		if a.report != nil && len(a.report.Seats) > 0 {
			d := 1
			if s == "left" || s == "h" || s == "up" || s == "k" {
				d = -1
			}
			n := len(a.report.Seats)
			a.seat = ((a.seat+d)%n + n) % n
		}
		return nil, true
	case "a":
		if a.phase == "failed" {
			a.shown = false
			return m.analyse(), true
		}
		a.shown = false
		return nil, true
	case "esc":
		a.shown = false
		return nil, true
	case "t":
		a.shown = false
		return nil, false
	}
	return nil, false
}

// analysisUpdate takes an answer of the server and asks what follows.
func (m *Model) analysisUpdate(msg analysisMsg) tea.Cmd {
	a := m.an
	if a == nil {
		return nil
	}
	a.phase, a.text = msg.phase, msg.text
	switch msg.phase {
	case "done":
		a.report, a.progress = msg.report, 1
		a.seat = 0
		for i, s := range a.report.Seats {
			if s.Seat == m.snap.seat {
				a.seat = i
			}
		}
	case "queued", "running":
		a.progress = msg.progress
		return analysisAsk(http.MethodGet, a.url, analysisPoll)
	case "busy":
		a.retry = msg.retry
		return analysisAsk(http.MethodPost, a.url, msg.retry)
	}
	return nil
}

// analysisView draws the analysis in width×height: how far it is, or the
// seats' sums and one seat's worst decisions.
func (m *Model) analysisView(width, height int) string {
	a := m.an
	r := a.report
	if r == nil {
		lines := []string{m.st.title.Render("Analysis of the game"), ""}
		switch a.phase {
		case "asking":
			lines = append(lines, "Asking the server for the analysis…")
		case "queued":
			lines = append(lines, "Waiting for a free analyser…")
		case "running":
			barW := max(10, min(40, width-20))
			full := int(a.progress*float64(barW) + 0.5)
			lines = append(lines, fmt.Sprintf("Analysing… %s %d%%", m.st.accent.Render(strings.Repeat("█", full))+m.st.muted.Render(strings.Repeat("░", barW-full)), int(a.progress*100+0.5)))
		case "busy":
			lines = append(lines, fmt.Sprintf("%s The server will be asked again in %s.", a.text, plural(int(a.retry/time.Second), "second")))
		case "failed":
			lines = append(lines, m.st.bad.Render(a.text), "", m.st.muted.Render("a asks again · Esc back to the scores"))
			return wrapLines(lines, width)
		}
		lines = append(lines, "", m.st.muted.Render("Esc back to the scores (the analysis goes on)"))
		return wrapLines(lines, width)
	}
	mode := "from what each seat knew"
	if r.Mode == "hindsight" {
		mode = m.st.bad.Render("in hindsight: every card open")
	}
	lines := []string{m.st.title.Render("Analysis") + " · " + mode + m.st.muted.Render(fmt.Sprintf(" · %d ms a decision", r.ThinkMS))}
	nameW := 16
	lines = append(lines, m.st.muted.Render(fmt.Sprintf("%-*s %9s %9s %12s %8s %8s", nameW, "", "decisions", "mean loss", "inaccuracies", "mistakes", "blunders")))
	for i, s := range r.Seats {
		name := m.analysisName(s.Seat)
		row := fmt.Sprintf("%-*s %9d %9.1f %12d %8d %8d", nameW, ansi.Truncate(name, nameW, "…"), s.Decisions, s.MeanLoss*100, s.Inaccuracies, s.Mistakes, s.Blunders)
		if i == a.seat {
			row = m.st.bold.Render(row)
		}
		lines = append(lines, row)
	}
	if len(r.Seats) == 0 {
		return wrapLines(append(lines, "No seat was analysed."), width)
	}
	s := r.Seats[a.seat]
	var worst []analysis.Decision
	for _, d := range r.Decisions {
		if d.Seat == s.Seat && !d.Forced && d.Label != "" && d.Label != "best" {
			worst = append(worst, d)
		}
	}
	slices.SortStableFunc(worst, func(x, y analysis.Decision) int {
		switch {
		case x.Loss > y.Loss:
			return -1
		case x.Loss < y.Loss:
			return 1
		}
		return x.N - y.N
	})
	whose := m.analysisName(s.Seat) + "'s"
	if s.Seat == m.snap.seat {
		whose = "Your"
	}
	more := ""
	if len(r.Seats) > 1 {
		more = m.st.muted.Render(" (←/→ another seat)")
	}
	lines = append(lines, "", m.st.bold.Render(whose+" costliest decisions")+more)
	if len(worst) == 0 {
		lines = append(lines, "  Every decision was the best the search found, or within 2 points of it.")
	}
	room := max(1, height-len(lines)-1)
	if len(worst) > room {
		worst = worst[:room]
	}
	d := m.drawer(0, true)
	for _, w := range worst {
		lines = append(lines, fmt.Sprintf("  move %-3d %s %3d%%  better %s %3d%%  %s",
			w.N, m.padMove(d, w.Move, 16), pct(w.Chance), m.padMove(d, w.Best, 16), pct(w.BestChance), m.labelStyle(w.Label)))
	}
	lines = append(lines, m.st.muted.Render("Chances of winning after each move; losses in points of 100. a/Esc: back."))
	return strings.Join(lines, "\n")
}

// sentence writes a server's reason as a sentence: a capital, a stop.
func sentence(s string) string {
	s = capitalise(strings.TrimSpace(s))
	if s != "" && !strings.ContainsAny(s[len(s)-1:], ".!?") {
		s += "."
	}
	return s
}

func pct(c float64) int { return int(c*100 + 0.5) }

func wrapLines(lines []string, width int) string {
	return ansi.Wrap(strings.Join(lines, "\n"), width, " ")
}

// analysisName is a seat's name in the analysis: "You" for the viewer.
func (m *Model) analysisName(seat int) string {
	if seat == m.snap.seat {
		return "You"
	}
	if seat >= 0 && seat < len(m.snap.labels) && m.snap.labels[seat] != "" {
		return m.snap.labels[seat]
	}
	return m.nameOf(seat)
}

// padMove writes a move in notation with its cards drawn as cards, padded
// to w columns.
func (m *Model) padMove(d *drawer, move string, w int) string {
	f := strings.Fields(move)
	for i, x := range f {
		if c, err := card.Parse(x); err == nil && c.String() == x {
			f[i] = d.card(c)
		}
	}
	s := strings.Join(f, " ")
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// labelStyle writes a label in a colour of its weight.
func (m *Model) labelStyle(label string) string {
	switch label {
	case "blunder", "mistake":
		return m.st.bad.Render(label)
	case "inaccuracy":
		return m.st.accent.Render(label)
	}
	return m.st.muted.Render(label)
}
