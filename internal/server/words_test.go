package server_test

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

// moveState reads cl's frames up to the next state with a move event.
func moveState(t *testing.T, cl *client) msg {
	t.Helper()
	return cl.waitFor("a move", 10*time.Second, func(m msg) bool {
		return m.Type == protocol.TypeState && len(m.Events) > 0 && m.Events[0].Kind == protocol.EventMove
	})
}

// moveEvent reads cl's frames up to the next move event.
func moveEvent(t *testing.T, cl *client) protocol.Event {
	t.Helper()
	return moveState(t, cl).Events[0]
}

// TestMoveWords plays the opening of a hole of Golf: the mover reads its
// choice of column in words, the other seat and the spectator read only
// that a column was chosen (no card, no column: the choices are made
// together); the last choice, and the draw after it, everyone reads in
// full, the card taken named as [C].
func TestMoveWords(t *testing.T) {
	e := newEnv(t, envConfig{})
	info, _, _, a, b, w := twoPlayers(t, e)

	a.move("reveal 0")
	if ev := moveEvent(t, a); ev.Move != "reveal 0" || ev.Text != "{0} chose to turn up the left column" {
		t.Errorf("Ann's own choice: %+v", ev)
	}
	for _, cl := range []*client{b, w} {
		ev := moveEvent(t, cl)
		if !ev.Hidden || ev.Move != "" || ev.Text != "{0} chose a column to turn up" {
			t.Errorf("%s reads Ann's hidden choice as %+v", cl.name, ev)
		}
	}

	b.move("reveal 2")
	var st msg
	for _, cl := range []*client{a, b, w} {
		st = moveState(t, cl)
		ev := st.Events[0]
		if ev.Hidden || ev.Move != "reveal 2" || !strings.HasPrefix(ev.Text, "{1} chose to turn up the right column; ") {
			t.Errorf("%s reads Bob's last choice as %+v", cl.name, ev)
		}
	}

	// The first turn takes the discard.
	mover := a
	if !slices.Contains(st.ToAct, 0) {
		mover = b
	}
	mover.move("draw discard")
	var texts []string
	for _, cl := range []*client{a, b, w} {
		ev := moveEvent(t, cl)
		if ev.Hidden || ev.Move != "draw discard" {
			t.Errorf("%s reads the draw as %+v", cl.name, ev)
		}
		texts = append(texts, ev.Text)
	}
	if texts[0] != texts[1] || texts[1] != texts[2] || !strings.Contains(texts[0], " took [") || !strings.HasSuffix(texts[0], "] from the discard pile") {
		t.Errorf("the draw's words: %q", texts)
	}
	h := e.history(info.ID)
	for _, cl := range []*client{a, b, w} {
		checkFrames(t, h, cl)
	}
}

// TestDealEvents watches a two-hole match of a person and a bot: each
// hole's last move is followed in its frame by the hole's scores, the
// last one's by the end of the match.
func TestDealEvents(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := golfTable(e, []string{"open", "heuristic"}, map[string]any{"options": map[string]any{"holes": 2, "players": 2}})
	w := e.dial(info.ID, "", "spectator")
	j := e.join(info.ID, 0, "Ann")
	a := e.dial(info.ID, j.Token, "Ann")
	if refused := a.play(rand.New(rand.NewPCG(5, 6)), 60*time.Second, nil); len(refused) > 0 {
		t.Errorf("refused: %s", describe(refused))
	}
	var deals []msg
	last := w.waitFor("the end", 60*time.Second, func(m msg) bool {
		for _, ev := range m.Events {
			if ev.Kind == protocol.EventDeal {
				deals = append(deals, m)
			}
		}
		return m.Status == store.StatusOver
	})
	if len(deals) != 2 {
		t.Fatalf("%d deal events in a match of two holes", len(deals))
	}
	for i, m := range deals {
		evs := m.Events
		kinds := []string{}
		for _, ev := range evs {
			kinds = append(kinds, ev.Kind)
		}
		want := []string{protocol.EventMove, protocol.EventDeal}
		if i == 1 {
			want = append(want, protocol.EventOver)
		}
		if !slices.Equal(kinds, want) {
			t.Errorf("hole %d's last frame: events %v, want %v", i+1, kinds, want)
		}
		if d := evs[1]; d.Deal != i+1 || !slices.Equal(d.Scores, last.Result.DealScores[i]) || d.Seat != -1 {
			t.Errorf("hole %d's deal event %+v; the match's hole scores %v", i+1, d, last.Result.DealScores)
		}
	}
	if strings.Count(string(deals[0].raw), `"kind":"deal"`) != 1 {
		t.Errorf("the frame: %s", deals[0].raw)
	}
	h := e.history(info.ID)
	checkFrames(t, h, w)
	checkFrames(t, h, a)
}

// TestBotNames creates a table with bots of every level: each has a
// friendly name by its seat and its level, in the lobby and in the
// table's frames. A person joining as a bot's name keeps it, and that bot
// goes by another.
func TestBotNames(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := e.create(map[string]any{"game": "golf", "seats": []string{"open", "random", "heuristic", "easy", "medium", "hard"}})
	check := func(seats []protocol.SeatInfo, names []string, what string) {
		t.Helper()
		levels := []string{"", "beginner", "casual", "easy", "medium", "hard"}
		bots := []string{"", "random", "heuristic", "easy", "medium", "hard"}
		for i, s := range seats {
			if s.Name != names[i] || s.Level != levels[i] || s.Bot != bots[i] {
				t.Errorf("%s: seat %d is %+v, want %q (%s)", what, i, s, names[i], levels[i])
			}
		}
	}
	check(info.Seats, []string{"", "Ben", "Cleo", "Dev", "Eve", "Finn"}, "a new table")
	var got protocol.TableInfo
	if code := e.do("GET", "/api/tables/"+info.ID, nil, &got); code != http.StatusOK {
		t.Fatalf("GET the table: %d", code)
	}
	check(got.Seats, []string{"", "Ben", "Cleo", "Dev", "Eve", "Finn"}, "the lobby")

	j := e.join(info.ID, 0, "eve")
	cl := e.dial(info.ID, j.Token, "eve")
	st := cl.waitFor("the state", 10*time.Second, func(m msg) bool { return m.Type == protocol.TypeState })
	check(st.Seats, []string{"eve", "Ben", "Cleo", "Dev", "Gus", "Finn"}, "the state after eve joined")
}
