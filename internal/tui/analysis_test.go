package tui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlour/analysis"
	"parlour/game"
	"parlour/games"
	"parlour/internal/tui/client"
)

// analysisServer answers the analysis endpoints of table abc123 as
// ../shared/spec/analysis.md says: the first POST is refused as busy
// (503, Retry-After), the next queued (202); GETs say it runs, then that
// it is done with report.
type analysisServer struct {
	mu     sync.Mutex
	posts  int
	gets   int
	report string
}

func (s *analysisServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/api/tables/abc123/analysis" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":"not_found","message":"no such table"}}`)
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.posts++
		if s.posts == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"error":{"code":"busy","message":"Every analyser is busy."}}`)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprint(w, `{"status":"queued"}`)
	case http.MethodGet:
		s.gets++
		if s.gets == 1 {
			fmt.Fprint(w, `{"status":"running","progress":0.4}`)
			return
		}
		fmt.Fprintf(w, `{"status":"done","progress":1,"report":%s}`, s.report)
	}
}

// golfReport is a report of a two-seat Golf hole in the spec's format.
func golfReport(mode string) string {
	r := map[string]any{
		"game": "golf", "players": 2, "mode": mode, "think_ms": 200,
		"decisions": []map[string]any{
			{"n": 1, "seat": 0, "move": "reveal 0", "chance": 0.5, "best": "reveal 0", "best_chance": 0.5, "loss": 0, "label": "best", "iterations": 900},
			{"n": 3, "seat": 0, "move": "draw stock", "forced": true},
			{"n": 4, "seat": 0, "move": "swap 3", "chance": 0.41, "best": "swap 0", "best_chance": 0.62, "loss": 0.21, "label": "blunder", "iterations": 5120},
			{"n": 5, "seat": 1, "move": "draw discard", "chance": 0.52, "best": "draw stock", "best_chance": 0.60, "loss": 0.08, "label": "inaccuracy", "iterations": 4000},
			{"n": 6, "seat": 0, "move": "discard", "chance": 0.30, "best": "swap 5", "best_chance": 0.42, "loss": 0.12, "label": "mistake", "iterations": 4800},
		},
		"seats": []map[string]any{
			{"seat": 0, "decisions": 3, "mean_loss": 0.11, "inaccuracies": 0, "mistakes": 1, "blunders": 1},
			{"seat": 1, "decisions": 1, "mean_loss": 0.08, "inaccuracies": 1, "mistakes": 0, "blunders": 0},
		},
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// overModel is the full-screen table of seat 0 at a finished Golf game of
// the server at base, on an 80×24 terminal.
func overModel(t *testing.T, base string) *Model {
	t.Helper()
	m := newRemoteModel(JoinConfig{Invite: client.Invite{Base: base, Table: "abc123"}, Seat: client.Seat{Seat: 0, Name: "Ann"}})
	m.w, m.h = 80, 24
	g, _ := games.Lookup("golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2, "holes": 1})
	s, err := g.New(opts, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := json.Marshal(s.View(0))
	send(m, client.Frame{Type: "welcome", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
	send(m, client.Frame{Type: "state", Seat: 0, Seq: 9, Status: "over", View: view,
		Result: client.Result{Deal: 1, DealScores: [][]int{{12, 7}}, Totals: []int{12, 7}, Over: true, Winners: []int{1}},
		Seats:  []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "bot", Bot: "hard", Level: "hard", Name: "Ada", State: "bot"}}})
	return m
}

// TestEndScreenAnalysis: at the end of a server's game, `a` asks for the
// analysis, waits out a busy server, follows its progress, and shows each
// seat's sums and the viewer's costliest decisions with the better moves,
// on an 80×24 terminal; ←/→ shows the other seat's, Esc goes back.
func TestEndScreenAnalysis(t *testing.T) {
	old := analysisPoll
	analysisPoll = time.Millisecond
	defer func() { analysisPoll = old }()
	as := &analysisServer{report: golfReport("information")}
	srv := httptest.NewServer(as)
	defer srv.Close()
	m := overModel(t, srv.URL)

	out := screen(m)
	if !strings.Contains(out, "a analysis") {
		t.Errorf("the end screen does not offer the analysis:\n%s", out)
	}
	press(m, "a")
	if as.posts != 2 || as.gets != 2 {
		t.Errorf("asked %d times and followed %d times; want 2 asks (one refused as busy) and 2 follows", as.posts, as.gets)
	}
	out = screen(m)
	lines := strings.Split(out, "\n")
	if len(lines) > 24 {
		t.Errorf("the analysis takes %d lines of a 24-line terminal", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d columns wide: %q", i, w, l)
		}
	}
	for _, want := range []string{
		"from what each seat knew",
		"mean loss", "inaccuracies", "mistakes", "blunders",
		"You                      3      11.0            0        1        1",
		"Ada (hard)               1       8.0            1        0        0",
		"Your costliest decisions",
		"move 4   swap 3            41%  better swap 0            62%  blunder",
		"move 6   discard           30%  better swap 5            42%  mistake",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, out)
		}
	}
	// The worst first; the best and the forced moves are not listed.
	if i, j := strings.Index(out, "move 4 "), strings.Index(out, "move 6 "); i > j {
		t.Errorf("the blunder of move 4 is not listed before the mistake of move 6:\n%s", out)
	}
	if strings.Contains(out, "reveal 0") || strings.Contains(out, "draw stock  ") {
		t.Errorf("a best or forced move is listed among the costly ones:\n%s", out)
	}
	if strings.Contains(out, "draw discard") {
		t.Errorf("Ada's decision is listed among the viewer's:\n%s", out)
	}

	press(m, "right")
	out = screen(m)
	for _, want := range []string{"Ada (hard)'s costliest decisions", "move 5   draw discard      52%  better draw stock        60%  inaccuracy"} {
		if !strings.Contains(out, want) {
			t.Errorf("after →, the analysis lacks %q:\n%s", want, out)
		}
	}
	press(m, "esc")
	if out = screen(m); !strings.Contains(out, "The match is over") || strings.Contains(out, "costliest") {
		t.Errorf("Esc does not go back to the scores:\n%s", out)
	}
	// Shown again, it is not asked for again.
	press(m, "a")
	if out = screen(m); !strings.Contains(out, "costliest") || as.posts != 2 {
		t.Errorf("a second `a` (asks %d):\n%s", as.posts, out)
	}
}

// TestEndScreenAnalysisStates: the progress, a hindsight report labelled
// as such, and a refusal, as the end screen shows them.
func TestEndScreenAnalysisStates(t *testing.T) {
	m := overModel(t, "http://127.0.0.1:9")
	m.an = &analysisState{url: "http://127.0.0.1:9/api/tables/abc123/analysis", shown: true, phase: "asking"}
	m.Update(analysisMsg{phase: "running", progress: 0.4})
	if out := screen(m); !strings.Contains(out, "Analysing…") || !strings.Contains(out, "40%") {
		t.Errorf("the progress is not shown:\n%s", out)
	}
	m.Update(analysisMsg{phase: "busy", retry: 5 * time.Second, text: "Every analyser is busy."})
	if out := screen(m); !strings.Contains(out, "Every analyser is busy. The server will be asked again in 5 seconds.") {
		t.Errorf("a busy server is not told:\n%s", out)
	}
	var r analysis.Report
	if err := json.Unmarshal([]byte(golfReport("hindsight")), &r); err != nil {
		t.Fatal(err)
	}
	m.Update(analysisMsg{phase: "done", report: &r})
	if out := screen(m); !strings.Contains(out, "in hindsight: every card open") {
		t.Errorf("a hindsight report is not labelled so:\n%s", out)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusConflict)
		fmt.Fprint(w, `{"error":{"code":"not_over","message":"the game is not over"}}`)
	}))
	defer srv.Close()
	m = overModel(t, srv.URL)
	press(m, "a")
	if out := screen(m); !strings.Contains(out, "The game is not over yet") {
		t.Errorf("a refusal is not told:\n%s", out)
	}
}
