package gametest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"parlour/game"
)

var update = flag.Bool("update", false, "rewrite golden playthrough files")

// Golden plays one seeded random match of g and compares every move and
// every view (each seat's and the spectator's) after it with the golden file
// at path, one JSON line per step; "go test -update" rewrites the file.
func Golden(t testing.TB, g game.Game, options map[string]any, seed uint64, path string) {
	t.Helper()
	got, err := Playthrough(g, options, seed)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s differs at line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// Playthrough plays one seeded random match and returns it as JSON lines: a
// header, then after each move the seat, the move and every view.
func Playthrough(g game.Game, options map[string]any, seed uint64) ([]byte, error) {
	opts, err := game.Resolve(g, options)
	if err != nil {
		return nil, err
	}
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x601de7))
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	views := func() map[string]any {
		v := map[string]any{"spectator": s.View(game.Spectator)}
		for i := 0; i < s.Players(); i++ {
			v[strconv.Itoa(i)] = s.View(i)
		}
		return v
	}
	if err := enc.Encode(map[string]any{"game": g.Name(), "options": opts, "seed": seed, "views": views()}); err != nil {
		return nil, err
	}
	for n := 1; s.ToAct() != 0; n++ {
		acts := s.ToAct()
		seat := acts.Nth(rng.IntN(acts.Len()))
		legal := s.Legal(seat, nil)
		m := legal[rng.IntN(len(legal))]
		text := s.FormatMove(m)
		if err := game.Apply(s, seat, m); err != nil {
			return nil, fmt.Errorf("move %d %q: %v", n, text, err)
		}
		if err := enc.Encode(map[string]any{"n": n, "move": fmt.Sprintf("%d: %s", seat, text), "result": s.Result(), "views": views()}); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}
