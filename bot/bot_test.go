package bot_test

import (
	"math/rand/v2"
	"testing"

	"parlour/bot"
	"parlour/game"
	"parlour/games"
)

// TestRandomPlaysLegalMoves plays whole matches of every game with random
// bots through the validated path.
func TestRandomPlaysLegalMoves(t *testing.T) {
	for _, g := range games.Registry.All() {
		opts, err := game.Resolve(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(0); seed < 20; seed++ {
			s, err := g.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 2))
			for moves := 0; s.ToAct() != 0; moves++ {
				if moves > 100000 {
					t.Fatalf("%s seed %d: no end after %d moves", g.Name(), seed, moves)
				}
				seat := s.ToAct().First()
				m := bot.Random{}.Choose(s, seat, rng)
				if err := s.Apply(seat, m); err != nil {
					t.Fatalf("%s seed %d: random bot's move refused: %v", g.Name(), seed, err)
				}
			}
		}
	}
}

func TestByName(t *testing.T) {
	if b, ok := bot.ByName("random"); !ok || b.Name() != "random" {
		t.Fatalf("ByName(random) = %v, %v", b, ok)
	}
	if _, ok := bot.ByName("nonesuch"); ok {
		t.Fatal("ByName(nonesuch) found a bot")
	}
}
