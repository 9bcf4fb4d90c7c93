package table

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"parlour/card"
	"parlour/games/golf"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// twoHolesWatched plays a two-hole Golf match of three bots before a
// spectator, in the test's bubble (synctest), and returns the frames the
// spectator was sent, up to the match's end.
func twoHolesWatched(t *testing.T) []anyFrame {
	t.Helper()
	m, _ := bubbleManager(t, Config{BotDelay: time.Second})
	info := golfTable(t, m, CreateRequest{Seats: []string{"random", "heuristic", "random"}, Options: map[string]any{"holes": 2}})
	_, spec, err := m.Attach(context.Background(), info.ID, "", true)
	if err != nil {
		t.Fatal(err)
	}
	var frames []anyFrame
	for range 1000 {
		step(time.Second)
		frames = append(frames, drain(t, spec)...)
		if n := len(frames); n > 0 && frames[n-1].Status == store.StatusOver {
			break
		}
	}
	return frames
}

// TestDealEnd plays a two-hole Golf match of bots before a spectator: the
// frame of the move that ends each hole carries the hole's end (its
// number, its scores and the totals then, and the layouts as the hole
// left them, every card face up, nobody to act), while the next hole is
// already dealt in its view; no other frame carries one.
func TestDealEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		frames := twoHolesWatched(t)
		ends := 0
		for _, f := range frames {
			var msg struct {
				View    golf.View         `json:"view"`
				DealEnd *protocol.DealEnd `json:"deal_end"`
			}
			if err := json.Unmarshal([]byte(f.raw), &msg); err != nil {
				t.Fatal(err)
			}
			var deal *protocol.Event
			for i, ev := range f.Events {
				if ev.Kind == protocol.EventDeal {
					deal = &f.Events[i]
				}
			}
			e := msg.DealEnd
			if (deal == nil) != (e == nil) {
				t.Fatalf("a frame with deal event %v has deal_end %v: %s", deal, e, f.raw)
			}
			if e == nil {
				continue
			}
			ends++
			if e.Deal != deal.Deal || !slices.Equal(e.Scores, deal.Scores) || !slices.Equal(e.Totals, f.Result.Totals) {
				t.Errorf("hole %d's end: deal %d, scores %v, totals %v; the deal event %+v, the totals %v", ends, e.Deal, e.Scores, e.Totals, deal, f.Result.Totals)
			}
			var v golf.View
			if err := json.Unmarshal(e.View, &v); err != nil {
				t.Fatalf("deal_end view %s: %v", e.View, err)
			}
			if v.Hole != e.Deal || len(v.ToAct) != 0 || v.Prompt != "" || len(v.Layouts) != 3 {
				t.Errorf("hole %d's end: hole %d, to_act %v, prompt %q, %d layouts", e.Deal, v.Hole, v.ToAct, v.Prompt, len(v.Layouts))
			}
			for seat, l := range v.Layouts {
				for p, c := range l {
					if c == card.None {
						t.Errorf("hole %d's end: seat %d's card %d is face down", e.Deal, seat, p)
					}
				}
				if total := golf.LayoutScore(l); total != e.Scores[seat] {
					t.Errorf("hole %d's end: seat %d's layout scores %d, the hole %d", e.Deal, seat, total, e.Scores[seat])
				}
			}
			if f.Status == store.StatusPlaying && msg.View.Hole != e.Deal+1 {
				t.Errorf("the frame that ends hole %d shows hole %d, not the next", e.Deal, msg.View.Hole)
			}
		}
		if ends != 2 {
			t.Fatalf("%d frames carry a hole's end in a two-hole match", ends)
		}
	})
}
