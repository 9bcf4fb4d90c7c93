package arena_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"parlour/analysis"
	"parlour/bot"
	"parlour/internal/arena"
)

// TestAnalyse: with Config.Analyse each bot's standing has its decisions
// analysed, mean loss and mistakes per game; with a fixed number of
// iterations the figures are the same whatever the workers; the random
// bot loses more per decision than the heuristic; and without Analyse
// the JSON leaves them out.
func TestAnalyse(t *testing.T) {
	cfg := config(t, "golf", map[string]any{"players": 2, "holes": 2}, bot.Heuristic{}, bot.Random{})
	cfg.Matches, cfg.Analyse, cfg.Analysis = 8, 5, analysis.Options{Iterations: 300}
	var reps []arena.Report
	for _, w := range []int{1, 2} {
		cfg.Workers = w
		rep, err := arena.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	h, r := reps[0].Bots[0], reps[0].Bots[1]
	for _, st := range []arena.Standing{h, r} {
		if st.Analysed != 8*5 || st.MeanLoss == nil || st.MistakesPerGame == nil {
			t.Fatalf("%s: %d analysed, mean loss %v, mistakes %v; want 40 and figures", st.Name, st.Analysed, st.MeanLoss, st.MistakesPerGame)
		}
	}
	if *r.MeanLoss <= *h.MeanLoss || *r.MistakesPerGame <= *h.MistakesPerGame {
		t.Errorf("random lost %.4f a decision (%.2f mistakes a game), the heuristic %.4f (%.2f)", *r.MeanLoss, *r.MistakesPerGame, *h.MeanLoss, *h.MistakesPerGame)
	}
	for k := range reps[0].Bots {
		a, b := reps[0].Bots[k], reps[1].Bots[k]
		if *a.MeanLoss != *b.MeanLoss || *a.MistakesPerGame != *b.MistakesPerGame || a.Analysed != b.Analysed {
			t.Errorf("%s: %v %v with 1 worker, %v %v with 2", a.Name, *a.MeanLoss, *a.MistakesPerGame, *b.MeanLoss, *b.MistakesPerGame)
		}
	}
	b, _ := json.Marshal(reps[0])
	for _, key := range []string{`"analysed":40`, `"mean_loss":`, `"mistakes_per_game":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("the JSON lacks %s: %s", key, b)
		}
	}
	cfg.Analyse = 0
	plain, err := arena.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(plain)
	if strings.Contains(string(b), "mean_loss") || strings.Contains(string(b), "analysed") {
		t.Errorf("without analysis the JSON has its fields: %s", b)
	}
	// Analysis changes nothing of the matches.
	got, want := plain.Bots[0], reps[0].Bots[0]
	want.Analysed, want.MeanLoss, want.MistakesPerGame = 0, nil, nil
	got.MsPerMove, want.MsPerMove, got.ThinkMsMean, want.ThinkMsMean, got.ThinkMsMax, want.ThinkMsMax = 0, 0, 0, 0, 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with analysis %+v, without %+v", want, got)
	}
}
