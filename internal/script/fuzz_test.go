package script_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/internal/script"
)

// FuzzRun fuzzes the script reader and runner on arbitrary input: nothing
// panics; a script it cannot run is refused as unusable (exit 2) with a
// one-line reason; otherwise the report is well formed and the same input
// gives the same report again.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		`{"game":"golf","options":{"players":2,"dealer":1},"moves":["0: reveal 1","1: reveal 0","0: draw stock"]}`,
		`{"game":"golf","layout":{"discard":"QD"},"deals":[null],"moves":[]}`,
		`{"game":"parcellus","seed":18446744073709551615,"moves":["0: pass 9S 10S JS"]}`,
		`{"game":"tractric","options":{"players":4},"moves":["9: play 2S"]}`,
		`{"game":"damn","options":{"players":3,"max_turns":1},"moves":["0: turn"]}`,
		`{"game":"court-circular","options":{"edition":"1862","target":50}}`,
		`{"game":"court-circular","options":{"target":1},"moves":["1: play 2C"]}`,
		`{"game":"chess"}`, `{"game":"golf","extra":1}`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	// The spec's examples, where shared/ stands beside the repository.
	if files, _ := filepath.Glob("../../../shared/spec/examples/*/*.json"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && !bytes.Contains([]byte(p), []byte(".expect.")) {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return // a bound on the work per input
		}
		rep, err := script.Run(games.Lookup, bytes.NewReader(data))
		if errors.Is(err, script.ErrUnusable) {
			if rep != nil || err.Error() == "" || bytes.ContainsRune([]byte(err.Error()), '\n') {
				t.Fatalf("unusable: report %v, reason %q", rep, err)
			}
			return
		}
		if rep == nil {
			t.Fatalf("no report and error %v (not unusable)", err)
		}
		refused := errors.Is(err, game.ErrIllegalMove) || errors.Is(err, game.ErrBadMove)
		if err != nil && !refused {
			t.Fatalf("error %v is neither a refusal nor unusable", err)
		}
		if (rep.Error != nil) != refused {
			t.Fatalf("report error %v, run error %v", rep.Error, err)
		}
		if !slices.IsSorted(rep.ToAct) || len(rep.Legal) != len(rep.ToAct) {
			t.Fatalf("to_act %v, legal %v", rep.ToAct, rep.Legal)
		}
		for _, seat := range rep.ToAct {
			moves, ok := rep.Legal[strconv.Itoa(seat)]
			if !ok || len(moves) == 0 || !slices.IsSorted(moves) {
				t.Fatalf("seat %d to act, legal %v", seat, moves)
			}
		}
		if rep.Over != (len(rep.ToAct) == 0) || len(rep.Totals) == 0 {
			t.Fatalf("over %v with to_act %v, totals %v", rep.Over, rep.ToAct, rep.Totals)
		}
		again, err2 := script.Run(games.Lookup, bytes.NewReader(data))
		a, _ := json.Marshal(rep)
		b, _ := json.Marshal(again)
		if !bytes.Equal(a, b) || (err == nil) != (err2 == nil) {
			t.Fatalf("the same script gave two reports:\n%s\n%s", a, b)
		}
	})
}
