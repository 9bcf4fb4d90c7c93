package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/games"
	"parlour/internal/tui/client"
)

// TestDecodeViews: a view as a server sends it (JSON) reads back into the
// game's view type without losing anything, for every game and seat,
// along random matches.
func TestDecodeViews(t *testing.T) {
	for _, name := range games.Registry.Names() {
		g, err := games.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := renderers[name]; !ok {
			t.Errorf("%s: no decoder: a server's table of it would be drawn as JSON", name)
			continue
		}
		lo, _ := g.Players()
		opts, err := game.Resolve(g, map[string]any{"players": max(lo, 3)})
		if err != nil {
			opts, err = game.Resolve(g, map[string]any{})
		}
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.New(opts, 9, nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var buf []game.Move
		for step := 0; step < 200 && s.ToAct() != 0; step++ {
			for seat := game.Spectator; seat < s.Players(); seat++ {
				want, _ := json.Marshal(s.View(seat))
				v, err := decodeView(name, want)
				if err != nil {
					t.Fatalf("%s step %d seat %d: %v\n%s", name, step, seat, err, want)
				}
				got, _ := json.Marshal(v)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s step %d seat %d: the view changed in decoding\nsent %s\nread %s", name, step, seat, want, got)
				}
			}
			seat := s.ToAct().First()
			buf = s.Legal(seat, buf[:0])
			s.ApplyFast(seat, buf[rng.IntN(len(buf))])
		}
	}
}

// remoteTestModel is the full-screen table of seat 0 at a golf table of
// a server, fed frames by hand (no connection: the commands that would
// read one are not run).
func remoteTestModel(t *testing.T) *Model {
	t.Helper()
	inv := client.Invite{Base: "http://127.0.0.1:9", Table: "abc123"}
	m := newRemoteModel(JoinConfig{Invite: inv, Seat: client.Seat{Seat: 0, Name: "Ann"}})
	m.w, m.h = 130, 40
	g, _ := games.Lookup("golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2, "holes": 3})
	s, err := g.New(opts, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := json.Marshal(s.View(0))
	send(m, client.Frame{Type: "welcome", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
	send(m, client.Frame{Type: "state", Seat: 0, Seq: 3, Status: "playing", ToAct: []int{0}, Legal: game.LegalText(s, 0), View: view,
		Result: client.Result{Deal: 2, DealScores: [][]int{{3, -1}}, Totals: []int{3, -1}},
		Seats:  []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "bot", Bot: "hard", Level: "hard", Name: "Ada", State: "bot"}},
		Events: []client.Event{
			{Kind: "move", N: 3, Seat: 1, Move: "draw discard", Text: "{1} took [7H] from the discard pile and put it in the top-left place"},
			{Kind: "deal", Deal: 1, Scores: []int{3, -1}},
		}})
	return m
}

func send(m *Model, f client.Frame) {
	m.Update(remoteMsg{client.Message{Frame: &f}})
}

// TestRemoteScreen: the server's views, seats, event words, deal ends,
// chat and refusals as the full-screen table shows them.
func TestRemoteScreen(t *testing.T) {
	m := remoteTestModel(t)
	send(m, client.Frame{Type: "chat", Seat: 1, Name: "Ada", Text: "<b>good luck</b> \x1b[31m", Old: true})
	log := ansi.Strip(strings.Join(m.log, "\n"))
	for _, want := range []string{"Ada took 7♥ from the discard pile and put it in the top-left place", "End of hole 1: you +3, Ada -1."} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	out := screen(m)
	for _, want := range []string{
		"Ada took 7♥ from the discard pile",
		"End of hole 1: you +3, Ada -1.",
		"Ada (hard)",
		"Ada: <b>good luck</b>",
		"you are Ann (seat 0)",
		"Your move:",
		"Chat",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(m.View().Content, "\x1b[31m ") {
		t.Error("an escape sequence in a chat message reached the terminal")
	}

	// A refusal shows as one line; the table is unchanged.
	seq := m.snap.seq
	send(m, client.Frame{Type: "error", Code: "illegal_move", Message: "no column 7", Move: "reveal 7"})
	if !m.bad || m.notice != `Refused "reveal 7": no column 7` || m.snap.seq != seq {
		t.Errorf("a refusal: notice %q, seq %d → %d", m.notice, seq, m.snap.seq)
	}

	// Chat: c opens the input, Enter sends (a command to the connection)
	// and empties it; Esc goes back to the table.
	press(m, "c")
	if m.focus != focusChat {
		t.Fatal("c does not open the chat input")
	}
	typeText(m, "hello")
	_, cmd := m.Update(keyMsg("enter"))
	if cmd == nil || m.chatIn.Value() != "" {
		t.Errorf("Enter in the chat: command %v, input left %q", cmd != nil, m.chatIn.Value())
	}
	typeText(m, strings.Repeat("x", 501))
	if n := len(m.chatIn.Value()); n != 500 {
		t.Errorf("the chat input holds %d characters, want at most 500", n)
	}
	m.chatIn.Reset()
	press(m, "esc")
	if m.focus != focusTable {
		t.Error("Esc does not leave the chat")
	}
	press(m, "tab")
	if m.focus != focusChat {
		t.Error("Tab does not go to the chat")
	}
	press(m, "tab")
	if m.focus != focusTable {
		t.Error("Tab does not leave the chat")
	}

	// Seats and the connection.
	send(m, client.Frame{Type: "seats", Seats: []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "human", Name: "Cleo", State: "away"}},
		Events: []client.Event{{Kind: "away", Seat: 1}}})
	if out := screen(m); !strings.Contains(out, "Cleo is away.") || !strings.Contains(out, "Cleo (away)") {
		t.Errorf("an away seat does not show:\n%s", out)
	}
	m.Update(remoteMsg{client.Message{Status: &client.Status{State: client.Reconnecting, Err: errors.New("EOF"), Retry: time.Second}}})
	if out := screen(m); !strings.Contains(out, "connection lost: reconnecting…") || strings.Contains(out, "Your move") {
		t.Errorf("a dropped connection does not show, or the screen still offers moves:\n%s", out)
	}
	m.Update(remoteMsg{client.Message{Status: &client.Status{State: client.Connected}}})
	if out := screen(m); !strings.Contains(out, "reconnected: waiting for the table…") || strings.Contains(out, "Your move") {
		t.Errorf("reconnected, before the state: the screen\n%s", out)
	}
	// The chat kept by the table comes again on connecting: not twice.
	send(m, client.Frame{Type: "welcome", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
	send(m, client.Frame{Type: "chat", Seat: 1, Name: "Ada", Text: "<b>good luck</b>", Old: true})
	if n := strings.Count(ansi.Strip(strings.Join(m.chats, "\n")), "good luck"); n != 1 {
		t.Errorf("the kept chat shows %d times after reconnecting", n)
	}

	// A turn clock shows as it runs.
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m.now = func() time.Time { return now }
	g, _ := games.Lookup("golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2})
	s, _ := g.New(opts, 4, nil)
	view, _ := json.Marshal(s.View(0))
	send(m, client.Frame{Type: "state", Seat: 0, Seq: 4, Status: "playing", ToAct: []int{0}, Legal: game.LegalText(s, 0), View: view,
		Result: client.Result{Totals: []int{0, 0}}, Clocks: []client.Clock{{Seat: 0, RemainingMS: 23400}},
		Seats: []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "human", Name: "Cleo", State: "here"}}})
	if out := screen(m); !strings.Contains(out, "Your move ⏱ 23s:") {
		t.Errorf("the turn clock does not show:\n%s", out)
	}
	now = now.Add(20 * time.Second)
	if out := screen(m); !strings.Contains(out, "Your move ⏱ 3s:") {
		t.Errorf("the turn clock does not run:\n%s", out)
	}

	// Quitting asks first, and says the seat stays.
	press(m, "q")
	if !strings.Contains(screen(m), "Your seat stays yours: parlour play --join http://127.0.0.1:9/#/t/abc123") {
		t.Errorf("leaving does not say how to come back:\n%s", screen(m))
	}
}

// TestRemoteRecentLog: the log of the recent past a server sends on
// connecting fills the full-screen table's log in the game's words (the
// seat's own moves as "you", hidden ones blind, a hole's end), replacing
// what it held: after a reconnect the same past shows once, with the move
// made meanwhile. The line mode's feed tells each line once: all of the
// past on the first connection, only what it missed after a reconnect.
func TestRemoteRecentLog(t *testing.T) {
	m := remoteTestModel(t)
	past := client.Frame{Type: "log", Table: "abc123", Seq: 3, Events: []client.Event{
		{Kind: "move", N: 1, Seat: 0, Move: "swap 2", Text: "{0} put [5S] in the top-right place and discarded [KD]"},
		{Kind: "move", N: 2, Seat: 1, Move: "stop", Text: "{1} drew nothing", By: "bot"},
		{Kind: "deal", Seat: -1, Deal: 1, Scores: []int{3, -1}},
		{Kind: "move", N: 3, Seat: 1, Hidden: true, Text: "{1} chose a column to turn up", By: "bot"},
	}}
	send(m, past)
	want := []string{
		"You put 5♠ in the top-right place and discarded K♦",
		"Ada drew nothing",
		"End of hole 1: you +3, Ada -1.",
		"Ada chose a column to turn up",
	}
	check := func(what string, want []string) {
		t.Helper()
		log := ansi.Strip(strings.Join(m.log, "\n"))
		if len(m.log) != len(want) {
			t.Errorf("%s: the log has %d lines, want %d:\n%s", what, len(m.log), len(want), log)
		}
		for _, w := range want {
			if strings.Count(log, w) != 1 {
				t.Errorf("%s: the log tells %q %d times:\n%s", what, w, strings.Count(log, w), log)
			}
		}
		if out := screen(m); !strings.Contains(out, want[len(want)-1]) {
			t.Errorf("%s: the screen lacks %q:\n%s", what, want[len(want)-1], out)
		}
	}
	// The state on connecting told move 3 and the hole's end already: the
	// past replaces them.
	check("the past", want)

	// A reconnect: the past again, with the move made meanwhile.
	send(m, client.Frame{Type: "welcome", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
	past.Seq = 4
	past.Events = append(past.Events, client.Event{Kind: "move", N: 4, Seat: 0, Move: "reveal 1", Text: "{0} chose to turn up the middle column"})
	send(m, past)
	check("after a reconnect", append(want, "You chose to turn up the middle column"))

	// The line mode's feed: every line the first time, then only the new.
	f := &feed{viewer: 0}
	f.frame(&client.Frame{Type: "welcome", Game: "golf", Seat: 0, Players: 2}, time.Now())
	f.frame(&client.Frame{Type: "state", Seq: 3, Status: "playing", Result: client.Result{DealScores: [][]int{{3, -1}}},
		Seats: []client.SeatInfo{{Seat: 0, Name: "Ann"}, {Seat: 1, Name: "Ada", Kind: "bot"}}, View: json.RawMessage("null")}, time.Now())
	past.Seq, past.Events = 3, past.Events[:4]
	if out := f.frame(&past, time.Now()); len(out.log) != 4 || len(out.past) != 4 || out.log[2].kind != "deal" {
		t.Errorf("the first log: lines %v, past %v", out.log, out.past)
	}
	past.Seq, past.Events = 4, append(past.Events, client.Event{Kind: "move", N: 4, Seat: 0, Move: "reveal 1", Text: "{0} chose to turn up the middle column"})
	if out := f.frame(&past, time.Now()); len(out.log) != 1 || out.log[0].text != "You chose to turn up the middle column" || len(out.past) != 5 {
		t.Errorf("the log after a reconnect: lines %v, past %v", out.log, out.past)
	}
}

// TestRemoteDealEnd: the state of a move that ends a hole carries the
// hole's end (deal_end), and the full-screen table at a server's table
// shows it as a local match does: the layouts as the hole left them, all
// face up, the hole's scores and how they were made, until a key goes on
// to the next hole, which the state already holds.
func TestRemoteDealEnd(t *testing.T) {
	inv := client.Invite{Base: "http://127.0.0.1:9", Table: "abc123"}
	m := newRemoteModel(JoinConfig{Invite: inv, Seat: client.Seat{Seat: 0, Name: "Ann"}})
	m.w, m.h = 130, 40
	m.dealEndWait = 0 // until a key: no timers in tests
	g, _ := games.Lookup("golf")
	opts, _ := game.Resolve(g, map[string]any{"players": 2, "holes": 2})
	s, err := g.New(opts, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	var end *client.DealEnd
	s.WatchDeals(func(st game.State) {
		view, _ := json.Marshal(game.DealEndView(st, 0))
		r := st.Result()
		end = &client.DealEnd{Deal: len(r.DealScores), Scores: r.DealScores[len(r.DealScores)-1], Totals: r.Totals, View: view}
	})
	seats := []client.SeatInfo{{Seat: 0, Kind: "human", Name: "Ann", State: "here"}, {Seat: 1, Kind: "bot", Bot: "random", Name: "Ada", State: "bot"}}
	state := func(seq int, events []client.Event) client.Frame {
		view, _ := json.Marshal(s.View(0))
		r := s.Result()
		status := "playing"
		if r.Over {
			status = "over"
		}
		return client.Frame{Type: "state", Seat: 0, Seq: seq, Status: status, ToAct: s.ToAct().List(), Legal: game.LegalText(s, 0), View: view,
			Result: client.Result{Deal: r.Deal, DealScores: r.DealScores, Totals: r.Totals, Over: r.Over, Winners: r.Winners}, Seats: seats, Events: events}
	}
	send(m, client.Frame{Type: "welcome", Game: "golf", Title: "Golf", Seat: 0, Players: 2})
	send(m, state(0, nil))
	rng := rand.New(rand.NewPCG(8, 1))
	var buf []game.Move
	for seq := 1; s.ToAct() != 0; seq++ {
		acts := s.ToAct()
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = s.Legal(seat, buf[:0])
		mv := buf[rng.IntN(len(buf))]
		events := []client.Event{{Kind: "move", N: seq, Seat: seat, Move: s.FormatMove(mv)}}
		end = nil
		s.ApplyFast(seat, mv)
		f := state(seq, events)
		if end != nil {
			f.Events = append(f.Events, client.Event{Kind: "deal", Seat: -1, Deal: end.Deal, Scores: end.Scores})
			f.DealEnd = end
		}
		send(m, f)
		if end == nil {
			if m.dealEnd != nil {
				t.Fatalf("move %d ended no hole, but a hole's end shows", seq)
			}
			continue
		}
		if s.Result().Over {
			if m.dealEnd != nil || !m.over() {
				t.Errorf("the last hole's end: the match's end does not show instead:\n%s", screen(m))
			}
			return
		}
		if m.dealEnd == nil {
			t.Fatalf("the frame that ends hole %d does not show its end", end.Deal)
		}
		checkFirstHoleEnd(t, m)
	}
	t.Fatal("the match ended without a hole's end")
}
