package golf_test

import (
	"slices"
	"testing"

	"parlour/game"
	"parlour/games/golf"
)

// TestOptionTarget_EndsMatchEarly checks the designer's option "target":
// the match ends after the first hole in which some total reaches the
// target, and the lowest total wins as usual.
func TestOptionTarget_EndsMatchEarly(t *testing.T) {
	const target = 40
	early := 0
	for seed := range uint64(30) {
		st := newMatch(t, map[string]any{"players": 3, "holes": 99, "target": target}, seed)
		for !st.Result().Over {
			r := st.Result()
			if slices.Max(r.Totals) >= target {
				t.Fatalf("seed %d: totals %v reach %d but the match goes on", seed, r.Totals, target)
			}
			playHole(t, st)
		}
		r := st.Result()
		if slices.Max(r.Totals) < target && len(r.DealScores) != 99 {
			t.Errorf("seed %d: over after %d holes with totals %v below %d", seed, len(r.DealScores), r.Totals, target)
		}
		if r.Deal != len(r.DealScores) || st.DealsPlayed() != len(r.DealScores) {
			t.Errorf("seed %d: Deal %d, DealsPlayed %d, %d holes scored", seed, r.Deal, st.DealsPlayed(), len(r.DealScores))
		}
		if len(r.DealScores) < 99 {
			early++
		}
		best := slices.Min(r.Totals)
		var want []int
		for i, total := range r.Totals {
			if total == best {
				want = append(want, i)
			}
		}
		if !slices.Equal(r.Winners, want) {
			t.Errorf("seed %d: totals %v, winners %v; want %v", seed, r.Totals, r.Winners, want)
		}
		if v := view(st, game.Spectator); v.Target != target || v.Hole != len(r.DealScores) {
			t.Errorf("seed %d: view shows target %d, hole %d", seed, v.Target, v.Hole)
		}
	}
	if early == 0 {
		t.Error("no match ended early on the target")
	}
}

// TestOptionTarget_OffByDefault checks that without the option every hole
// is played, whatever the totals.
func TestOptionTarget_OffByDefault(t *testing.T) {
	o, err := game.Resolve(golf.Game{}, nil)
	if err != nil || o.Int("target") != 0 {
		t.Fatalf("default target: %v, %v; want 0", o["target"], err)
	}
	st := newMatch(t, map[string]any{"players": 2, "holes": 12}, 3)
	for !st.Result().Over {
		playHole(t, st)
	}
	if r := st.Result(); len(r.DealScores) != 12 || r.Deal != 12 {
		t.Errorf("%d holes scored, Deal %d; want 12 (totals %v)", len(r.DealScores), r.Deal, r.Totals)
	}
}
