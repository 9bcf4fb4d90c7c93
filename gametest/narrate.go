package gametest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"parlour/card"
	"parlour/game"
)

// narratedPerSeat bounds how many of a seat's legal moves are told at one
// position (a Damn keep after a big pick-up has thousands): beyond it, a
// random sample.
const narratedPerSeat = 48

// Narration checks g's words for its moves (game.Narrator) in cfg.Matches
// seeded random matches (default 100; Deep and Pack are not used). At every
// position, for the legal moves of every seat to act (at most 48 a seat, a
// random sample beyond), it checks that:
//   - the full and the blind words are well-formed templates for the
//     table (game.CheckWords: not empty, one line, markers well formed,
//     seats in range, no card written without its brackets);
//   - the blind words name only cards everyone, spectators included, sees:
//     once the move is made (a Public place after it, or in the deal's last
//     position when the move ends a deal: the deal watcher's), or face up
//     as it is made (game.Revealer);
//   - every card the full words name is named by the move's notation
//     (game.CardWords of FormatMove), or is one everyone sees so, or saw
//     before the move;
//   - the full words name every card the move shows face up (Revealer), and
//     the blind words every card the full words name that everyone sees:
//     a card lying face up is never "a card";
//   - telling moves does not change the state.
//
// It fails t at the first fault, naming the seed, the move and the words.
func Narration(t testing.TB, g game.Game, cfg Config) Stats {
	t.Helper()
	if cfg.Matches == 0 {
		cfg.Matches = 100
	}
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = 1000000
	}
	opts, err := game.Resolve(g, cfg.Options)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	var st Stats
	for i := range cfg.Matches {
		seed := cfg.Seed + uint64(i)
		n, msg := narrateMatch(g, opts, seed, cfg.MaxMoves)
		st.Matches++
		st.Moves += n
		if msg != "" {
			t.Errorf("%s %v seed %d after %d moves: %s", g.Name(), cfg.Options, seed, n, msg)
			return st
		}
	}
	t.Logf("%s %v: the words of every move told in %d matches, %d moves", g.Name(), cfg.Options, st.Matches, st.Moves)
	return st
}

// narrateMatch plays one match, telling the moves at every position; it
// returns the number of moves and what is wrong, or "".
func narrateMatch(g game.Game, opts game.Options, seed uint64, maxMoves int) (int, string) {
	s, err := g.New(opts, seed, nil)
	if err != nil {
		return 0, fmt.Sprintf("New: %v", err)
	}
	nar, ok := s.(game.Narrator)
	if !ok {
		return 0, fmt.Sprintf("the state (%T) does not tell its moves: it does not implement game.Narrator", s)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e617272))
	var buf, sample []game.Move
	for moves := 0; ; moves++ {
		acts := s.ToAct()
		if acts == 0 {
			return moves, ""
		}
		if moves > maxMoves {
			return moves, fmt.Sprintf("the match has not ended after %d moves", maxMoves)
		}
		snap := s.Clone()
		for _, seat := range acts.List() {
			buf = s.Legal(seat, buf[:0])
			sample = append(sample[:0], buf...)
			if len(sample) > narratedPerSeat {
				rng.Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
				sample = sample[:narratedPerSeat]
			}
			for _, m := range sample {
				if msg := checkTold(s, nar, seat, m); msg != "" {
					return moves, fmt.Sprintf("seat %d move %q: %s", seat, s.FormatMove(m), msg)
				}
			}
		}
		if !reflect.DeepEqual(s, snap) {
			return moves, "telling the moves (Narrate) changed the state"
		}
		seat := acts.Nth(rng.IntN(acts.Len()))
		buf = s.Legal(seat, buf[:0])
		s.ApplyFast(seat, buf[rng.IntN(len(buf))])
	}
}

// checkTold checks the words for one legal move; it returns "" or what is
// wrong.
func checkTold(s game.State, nar game.Narrator, seat int, m game.Move) string {
	full, blind := nar.Narrate(seat, m)
	for _, w := range []struct{ which, words string }{{"full", full}, {"blind", blind}} {
		if err := game.CheckWords(w.words, s.Players()); err != nil {
			return fmt.Sprintf("the %s words: %v", w.which, err)
		}
	}
	text := s.FormatMove(m)
	// seen: what everyone sees once the move is made or while it is made.
	seen := publicAfter(s, seat, m)
	var revealed card.Set
	if r, ok := s.(game.Revealer); ok {
		revealed = r.Revealed(seat, m)
		seen |= revealed
	}
	fullCards, _ := game.WordsCards(full)
	blindCards, _ := game.WordsCards(blind)
	told, toldBlind := card.SetOf(fullCards...), card.SetOf(blindCards...)
	for _, c := range blindCards {
		if !seen.Has(c) {
			return fmt.Sprintf("the blind words %q name %v, which not everyone sees as the move is made or after it: blind words name no card a receiver may not know", blind, c)
		}
	}
	named := card.SetOf(game.CardWords(text)...)
	before := game.VisibleSets(s.Places(), 0)[0]
	for _, c := range fullCards {
		if !named.Has(c) && !seen.Has(c) && !before.Has(c) {
			return fmt.Sprintf("the full words %q name %v, which the notation %q does not name and not everyone may see once the move is made", full, c, text)
		}
	}
	if miss := revealed &^ told; miss != 0 {
		return fmt.Sprintf("the move shows %v face up to everyone (game.Revealer), but the full words %q do not name it", miss.Cards()[0], full)
	}
	if miss := told & seen &^ toldBlind; miss != 0 {
		return fmt.Sprintf("the blind words %q leave out %v, which everyone sees as the move is made or after it: name it as the full words %q do", blind, miss.Cards()[0], full)
	}
	return ""
}

// publicAfter returns the cards every seat and spectators may see once seat
// has made m in s: in the position after it, and in the last position of
// a deal it ends. s does not change.
func publicAfter(s game.State, seat int, m game.Move) card.Set {
	c := s.Clone()
	var pub card.Set
	c.WatchDeals(func(x game.State) { pub |= game.VisibleSets(x.Places(), 0)[0] })
	c.ApplyFast(seat, m)
	c.WatchDeals(nil)
	return pub | game.VisibleSets(c.Places(), 0)[0]
}
