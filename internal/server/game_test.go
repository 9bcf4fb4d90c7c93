package server_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// TestFullGamesWithoutLeaks plays a whole short match of every registered
// game over real WebSockets: two people (clients playing random legal
// moves), bots in the other seats, and a spectator. Every frame each
// connection got is then checked against the stored game: it shows no card
// the seat (or a spectator) may not see at that moment, by the game's own
// Places; its view, to_act and legal moves are the game's. The store holds
// every move, and the replay API serves the finished game.
func TestFullGamesWithoutLeaks(t *testing.T) {
	e := newEnv(t, envConfig{})
	for i, g := range games.Registry.All() {
		for j, cfg := range configsFor(g) {
			n := cfg["players"].(int)
			t.Run(fmt.Sprintf("%s/%v", g.Name(), cfg), func(t *testing.T) {
				e.t = t
				playFullGame(t, e, g, cfg, n, uint64(100*i+j))
			})
		}
	}
}

// configsFor returns short matches of g to play: the fewest and the most
// players, and each other choice of a choice option (with the fewest).
func configsFor(g game.Game) []map[string]any {
	lo, hi := g.Players()
	var out []map[string]any
	for _, n := range []int{lo, hi}[:min(2, hi-lo+1)] {
		cfg := shortFor(g)
		cfg["players"] = n
		out = append(out, cfg)
	}
	for _, o := range g.Options() {
		for _, c := range o.Choices {
			if c == o.Default {
				continue
			}
			// Only the choice: short options may not go with it.
			cfg := map[string]any{"players": lo, o.Name: c}
			if !slices.ContainsFunc(out, func(x map[string]any) bool { return fmt.Sprint(x) == fmt.Sprint(cfg) || x[o.Name] == c }) {
				out = append(out, cfg)
			}
		}
	}
	return out
}

func playFullGame(t *testing.T, e *env, g game.Game, opts map[string]any, n int, seed uint64) {
	humans := min(2, n-1)
	info := e.create(map[string]any{"game": g.Name(), "options": opts, "seats": seatsFor(n, humans, "random"), "seed": seed})
	if info.Status != store.StatusWaiting || len(info.Open) != humans {
		t.Fatalf("new table: %+v", info)
	}
	spectator := e.dial(info.ID, "", "spectator")
	var people []*client
	for s := range humans {
		j := e.join(info.ID, s, fmt.Sprintf("Player%d", s))
		people = append(people, e.dial(info.ID, j.Token, fmt.Sprintf("Player%d", s)))
	}
	var wg sync.WaitGroup
	for k, p := range people {
		wg.Go(func() {
			if refused := p.play(rand.New(rand.NewPCG(seed, uint64(k))), 90*time.Second, nil); len(refused) > 0 {
				t.Errorf("%s: legal moves refused: %s", p.name, describe(refused))
			}
		})
	}
	wg.Wait()
	last := spectator.waitFor("the end", 30*time.Second, func(m msg) bool { return m.Status == store.StatusOver })
	if !last.Result.Over {
		t.Errorf("over, but the result says not: %+v", last.Result)
	}
	h := e.history(info.ID)
	if len(h.moves) != last.Seq {
		t.Errorf("%d moves stored, the last frame says %d", len(h.moves), last.Seq)
	}
	final := h.states[len(h.states)-1]
	if final.ToAct() != 0 || !final.Result().Over {
		t.Errorf("the stored moves do not replay to the end")
	}
	bySeat := map[string]int{}
	hidden := 0
	for _, mv := range h.moves {
		bySeat[fmt.Sprintf("%d%s", mv.Seat, mv.By)]++
	}
	for _, m := range spectator.all() {
		for _, ev := range m.Events {
			if ev.Hidden {
				hidden++
			}
		}
	}
	for s := range n {
		if s < humans && bySeat[fmt.Sprint(s)] == 0 || s >= humans && bySeat[fmt.Sprint(s, "bot")] == 0 {
			t.Errorf("seat %d made no move: %v", s, bySeat)
		}
	}
	for _, cl := range append(people, spectator) {
		checkFrames(t, h, cl)
		cl.close()
	}
	t.Logf("%d moves, %d frames to the spectator, %d moves hidden from it", len(h.moves), len(spectator.all()), hidden)

	// The finished game is a replay: its moves, and every step with all
	// seats' views.
	var rep protocol.Replay
	if code := e.do("GET", "/api/tables/"+info.ID+"/replay", nil, &rep); code != http.StatusOK {
		t.Fatalf("replay: %d", code)
	}
	if len(rep.Moves) != len(h.moves) || rep.Seed != fmt.Sprint(seed) || !rep.Result.Over {
		t.Errorf("replay: %d moves, seed %s, result %+v", len(rep.Moves), rep.Seed, rep.Result)
	}
	// Each move is told in the game's words, its seat named (every game
	// here has words).
	for _, mv := range rep.Moves {
		if !strings.Contains(mv.Text, fmt.Sprintf("{%d}", mv.Seat)) {
			t.Errorf("replay move %d (%s) is told as %q", mv.N, mv.Move, mv.Text)
			break
		}
	}
	k := len(h.moves) / 2
	var step protocol.ReplayStep
	if code := e.do("GET", fmt.Sprintf("/api/tables/%s/replay/%d", info.ID, k), nil, &step); code != http.StatusOK {
		t.Fatalf("replay step: %d", code)
	}
	if step.K != k || len(step.Views) != n || step.Last == nil || step.Last.N != k || step.Last.Move != h.moves[k-1].Text {
		t.Errorf("replay step %d: %+v", k, step)
	}
	want, got := normalJSON(t, h.states[k].View(1)), normalJSON(t, step.Views[1])
	if want != got {
		t.Errorf("replay step %d: seat 1's view %s, want %s", k, got, want)
	}
}

// TestLeakCheckerCatchesLeaks makes sure the frame checker the tests rely
// on does flag a frame showing another seat's hidden card, and the text of
// another seat's simultaneous choice.
func TestLeakCheckerCatchesLeaks(t *testing.T) {
	e := newEnv(t, envConfig{})
	g, err := games.Lookup("parcellus")
	if err != nil {
		t.Skip("parcellus is not registered")
	}
	info := e.create(map[string]any{"game": g.Name(), "options": map[string]any{"target": 5}, "seats": []string{"random", "random", "random"}, "seed": 7})
	watcher := e.dial(info.ID, "", "spectator")
	watcher.waitFor("the end", 30*time.Second, func(m msg) bool { return m.Status == store.StatusOver })
	h := e.history(info.ID)
	if p := frameProblems(h, "spectator", -1, watcher.all()); len(p) > 0 {
		t.Fatalf("honest frames flagged: %v", p)
	}
	// Seat 1's hand at the start, shown to seat 0.
	var hidden string
	for _, p := range h.states[0].Places() {
		if !p.Public && p.Visible.Has(1) && !p.Visible.Has(0) && len(p.Cards) > 0 {
			hidden = p.Cards[0].String()
			break
		}
	}
	if hidden == "" {
		t.Fatal("no card hidden from seat 0 at the start")
	}
	leak := msg{Type: protocol.TypeState, Seq: 0, raw: []byte(`{"type":"state","seq":0,"view":{"note":"` + hidden + `"}}`)}
	if p := frameProblems(h, "seat 0", 0, []msg{leak}); len(p) == 0 {
		t.Errorf("a frame showing %s to seat 0 was not flagged", hidden)
	}
	// A deal's end showing seat 0 a card it might not see as the deal
	// ended; and a deal's end left out of the frame of its move.
	planted := false
	for k, places := range h.dealEnds {
		var hid string
		for _, p := range places {
			if !p.Public && !p.Visible.Has(0) && len(p.Cards) > 0 {
				hid = p.Cards[0].String()
				break
			}
		}
		if hid == "" {
			continue
		}
		raw := fmt.Sprintf(`{"type":"state","seq":%d,"view":null,"deal_end":{"deal":1,"scores":[],"totals":[],"view":{"note":%q}}}`, k+1, hid)
		if p := frameProblems(h, "seat 0", 0, []msg{{Type: protocol.TypeState, Seq: k + 1, raw: []byte(raw)}}); !strings.Contains(strings.Join(p, "\n"), "might not see as the deal ended") {
			t.Errorf("a deal_end showing %s to seat 0 was not flagged: %v", hid, p)
		}
		raw = fmt.Sprintf(`{"type":"state","seq":%d,"view":null,"events":[{"kind":"deal","seat":-1,"deal":1,"scores":[1,2,3]}]}`, k+1)
		if p := frameProblems(h, "seat 0", 0, []msg{{Type: protocol.TypeState, Seq: k + 1, raw: []byte(raw)}}); !strings.Contains(strings.Join(p, "\n"), "no deal_end") {
			t.Errorf("a deal's frame without its deal_end was not flagged: %v", p)
		}
		planted = true
		break
	}
	if !planted {
		t.Error("no deal ended with a card hidden from seat 0")
	}
	// The first simultaneous choice, told to another seat.
	for k, mv := range h.moves {
		if h.states[k].ToAct().Len() > 1 {
			other := (mv.Seat + 1) % 3
			raw := fmt.Sprintf(`{"type":"seats","seq":%d,"events":[{"kind":"move","n":%d,"seat":%d,"move":%q}]}`, k+1, k+1, mv.Seat, mv.Text)
			if p := frameProblems(h, "other", other, []msg{{Type: protocol.TypeSeats, Seq: k + 1, raw: []byte(raw)}}); len(p) == 0 {
				t.Errorf("seat %d told seat %d's choice %q: not flagged", other, mv.Seat, mv.Text)
			}
			break
		}
	}
}

// normalJSON marshals v with its object keys sorted.
func normalJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(tree)
	return string(b)
}
