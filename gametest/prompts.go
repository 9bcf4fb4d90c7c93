package gametest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"parlour/game"
)

// PromptRule checks the prompt of a seat to act against its legal moves
// (in notation, game.LegalText's order): it returns "" or what is wrong,
// such as a prompt that offers a move the rules forbid there.
type PromptRule func(prompt string, legal []string) string

// Prompts plays cfg.Matches seeded random matches of g (default 50; Deep
// and Pack are not used) and checks, for every seat to act in every
// position, its view's "prompt" against its legal moves with rule. It
// fails t at the first fault, naming the seed, the seat, the prompt and
// the moves.
func Prompts(t testing.TB, g game.Game, cfg Config, rule PromptRule) {
	t.Helper()
	if cfg.Matches == 0 {
		cfg.Matches = 50
	}
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = 1000000
	}
	opts, err := game.Resolve(g, cfg.Options)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	for i := range cfg.Matches {
		seed := cfg.Seed + uint64(i)
		if msg := promptMatch(g, opts, seed, cfg.MaxMoves, rule); msg != "" {
			t.Fatalf("%s %v seed %d: %s", g.Name(), cfg.Options, seed, msg)
		}
	}
}

// promptMatch plays one match, checking the prompts of the seats to act at
// every position; it returns what is wrong, or "".
func promptMatch(g game.Game, opts game.Options, seed uint64, maxMoves int, rule PromptRule) string {
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return fmt.Sprintf("New: %v", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x70726f6d))
	var buf []game.Move
	for moves := 0; s.ToAct() != 0; moves++ {
		if moves > maxMoves {
			return fmt.Sprintf("the match has not ended after %d moves", maxMoves)
		}
		acts := s.ToAct()
		for _, seat := range acts.List() {
			var v struct {
				Prompt string `json:"prompt"`
			}
			b, err := json.Marshal(s.View(seat))
			if err == nil {
				err = json.Unmarshal(b, &v)
			}
			if err != nil {
				return fmt.Sprintf("the view of seat %d: %v", seat, err)
			}
			legal := game.LegalText(s, seat)
			if msg := rule(v.Prompt, legal); msg != "" {
				return fmt.Sprintf("after %d moves, seat %d's prompt %q with the legal moves %q: %s", moves, seat, v.Prompt, legal, msg)
			}
		}
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = s.Legal(seat, buf[:0])
		s.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
	return ""
}
