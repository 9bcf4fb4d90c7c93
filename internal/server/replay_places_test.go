package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// TestReplayStepPlaces checks that a replay step lists where every card is
// (the page's replay shows all cards, face-down ones included), the same
// as the game itself after those moves, for every game (Court Circular's
// 1862 edition too), and that a step past the end is refused.
func TestReplayStepPlaces(t *testing.T) {
	e := newEnv(t, envConfig{})
	type tc struct {
		game string
		opts map[string]any
		n    int
	}
	var cases []tc
	for _, g := range games.Registry.All() {
		cases = append(cases, tc{g.Name(), shortFor(g), playersFor(g)})
	}
	cases = append(cases, tc{"court-circular", map[string]any{"edition": "1862"}, 2})
	for i, c := range cases {
		t.Run(fmt.Sprint(c.game, c.opts), func(t *testing.T) {
			info := e.create(map[string]any{"game": c.game, "options": c.opts, "seats": seatsFor(c.n, 0, "random"), "seed": 21 + i})
			watcher := e.dial(info.ID, "", "spectator")
			watcher.waitFor("the end", 60*time.Second, func(m msg) bool { return m.Status == store.StatusOver })
			watcher.close()
			h := e.history(info.ID)
			for _, k := range []int{0, 1, len(h.moves) / 2, len(h.moves)} {
				var step struct {
					K      int                  `json:"k"`
					Views  []map[string]any     `json:"views"`
					Places []protocol.PlaceInfo `json:"places"`
				}
				if code := e.do("GET", fmt.Sprintf("/api/tables/%s/replay/%d", info.ID, k), nil, &step); code != http.StatusOK {
					t.Fatalf("replay step %d: %d", k, code)
				}
				want := h.states[k].Places()
				if step.K != k || len(step.Views) != c.n || len(step.Places) != len(want) {
					t.Fatalf("replay step %d: k %d, %d views, %d places (want %d)", k, step.K, len(step.Views), len(step.Places), len(want))
				}
				total, hidden := 0, 0
				for i, p := range step.Places {
					w := want[i]
					seats := w.Visible.List()
					if p.Name != w.Name || !slices.Equal(p.Cards, w.Cards) || len(p.Seats)+len(seats) > 0 && !slices.Equal(p.Seats, seats) || p.Public != w.Public {
						t.Errorf("replay step %d, place %d: %+v, want %+v", k, i, p, w)
					}
					total += len(p.Cards)
					if !p.Public {
						hidden += len(p.Cards)
					}
				}
				if c.game == "golf" && total != 108 {
					t.Errorf("replay step %d: %d cards in the places, want Golf's 108", k, total)
				}
				if k == 0 && hidden == 0 {
					t.Errorf("replay step 0 shows no card out of sight")
				}
			}
			var bad map[string]any
			if code := e.do("GET", fmt.Sprintf("/api/tables/%s/replay/%d", info.ID, len(h.moves)+1), nil, &bad); code != http.StatusBadRequest {
				t.Errorf("a step past the end: %d %v", code, bad)
			}
		})
	}
}
