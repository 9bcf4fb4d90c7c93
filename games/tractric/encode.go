package tractric

import (
	"math/bits"

	"parlour/card"
	"parlour/game"
)

// The observation vector and the action space for learning programs
// (game.Encoder).
//
// Cards are indexed within the pack in play: index = suit*R + rank order,
// suits S H D C, rank order from the lowest rank (6 with 3 players, 2 with 4)
// up to the ace, R ranks a suit (9 or 13). Seats are relative to the
// observer: block 0 is the observer, block 1 the seat on its left (the next
// seat clockwise), and so on. Colours are relative too: colour 0 is the
// observer's own (its seat with 3 players, its partnership with 4), colour 1
// the next seat's, and so on.

var _ game.Encoder = (*State)(nil)

// The observation's fields, in order.
const (
	fHand = iota
	fProposals
	fProposed
	fTrick
	fLastTrick
	fPlayed
	fVoid
	fHandSizes
	fTricks
	fTrump
	fPhase
	fToAct
	fLeader
	fDealer
	fLastTaker
	fTrickNo
	fDeal
	fGame
	fGrid
	fBoard
	fBoardAge
	fReserve
	fGamesWon
	fLastWinner
	fMatchWinner
	numFields
)

// ranksFor returns the ranks a suit has and the trick-taking power of the
// lowest one, for n players.
func ranksFor(n int) (ranks, low int) {
	if n == 4 {
		return 13, 2
	}
	return 9, 6
}

// encodings holds the layout for each player count, built once.
var encodings = func() (e [MaxPlayers + 1]game.Encoding) {
	for n := 3; n <= MaxPlayers; n++ {
		e[n] = newEncoding(n)
	}
	return e
}()

func newEncoding(n int) game.Encoding {
	ranks, _ := ranksFor(n)
	p := 4 * ranks
	colours := 3
	if n == 4 {
		colours = 2
	}
	f := make([]game.Field, numFields)
	f[fHand] = game.Field{Name: "hand", Size: p, Doc: "the observer's hand, one entry per card of the pack (its proposal card included)"}
	f[fProposals] = game.Field{Name: "proposals", Size: n * p, Doc: "per relative seat, its trump-proposal card: while proposing only the observer's own; after the reveal every seat's, until the next deal"}
	f[fProposed] = game.Field{Name: "proposed", Size: n, Doc: "per relative seat, 1 if it has chosen its proposal (proposal phase only)"}
	f[fTrick] = game.Field{Name: "trick", Size: n * p, Doc: "per relative seat, the card it has played to the current trick"}
	f[fLastTrick] = game.Field{Name: "last_trick", Size: n * p, Doc: "per relative seat, the card it played to the last completed trick of this hand"}
	f[fPlayed] = game.Field{Name: "played", Size: p, Doc: "the cards of the completed tricks of this hand"}
	f[fVoid] = game.Field{Name: "void", Size: n * 4, Doc: "per relative seat, the suits (S H D C) it has shown out of this hand"}
	f[fHandSizes] = game.Field{Name: "hand_sizes", Size: n, Doc: "per relative seat, the number of cards it holds"}
	f[fTricks] = game.Field{Name: "tricks", Size: n, Doc: "per relative seat, the tricks it has counted this hand (gifts included): the current deal's score"}
	f[fTrump] = game.Field{Name: "trump", Size: 6, Doc: "one-hot trump: not yet fixed, S, H, D, C, no trump"}
	f[fPhase] = game.Field{Name: "phase", Size: 4, Doc: "one-hot phase: propose, play, give, over"}
	f[fToAct] = game.Field{Name: "to_act", Size: n, Doc: "per relative seat, 1 if it may act now"}
	f[fLeader] = game.Field{Name: "leader", Size: n, Doc: "one-hot relative seat that leads (led) the current trick"}
	f[fDealer] = game.Field{Name: "dealer", Size: n, Doc: "one-hot relative seat of the dealer"}
	f[fLastTaker] = game.Field{Name: "last_taker", Size: n, Doc: "one-hot relative seat that won the last completed trick (before any gift); none before the first"}
	f[fTrickNo] = game.Field{Name: "trick_number", Size: 1, Doc: "tricks completed this hand"}
	f[fDeal] = game.Field{Name: "deal", Size: 1, Doc: "the 1-based hand number across the match"}
	f[fGame] = game.Field{Name: "game", Size: 1, Doc: "the 1-based game number"}
	f[fGrid] = game.Field{Name: "grid", Size: 9 * 9, Doc: "per cell row-major, one-hot scorecard value Q(0) A(1) 2 ... 8"}
	f[fBoard] = game.Field{Name: "board", Size: 9 * colours, Doc: "per cell row-major, one-hot relative colour of the counter on it (all 0: empty)"}
	f[fBoardAge] = game.Field{Name: "board_age", Size: 9, Doc: "per cell, the age rank of its counter among its colour's (1 = oldest, moved first when the supply runs out); 0 empty"}
	f[fReserve] = game.Field{Name: "reserve", Size: colours, Doc: "per relative colour, its counters off the board"}
	f[fGamesWon] = game.Field{Name: "games_won", Size: colours, Doc: "per relative colour, the games it has won: the match totals"}
	f[fLastWinner] = game.Field{Name: "last_game_winner", Size: colours, Doc: "one-hot relative colour that won the last game (a second win in a row wins the match)"}
	f[fMatchWinner] = game.Field{Name: "match_winner", Size: colours, Doc: "one-hot relative colour that has won the match"}
	e := game.NewEncoding(f...)
	e.Actions = 2*p + n - 1
	e.ActionDoc = "propose C: card index of C (0 to P-1); play C: P + card index; give S: 2P + (S - seat mod players) - 1; card index = suit(S H D C)*R + rank order (lowest rank 0 up to the ace), P = 4R the pack size (R = 9 with 3 players, 13 with 4)"
	return e
}

// Encoding describes the observation vector and the action space for the
// match's number of players.
func (s *State) Encoding() game.Encoding { return encodings[s.n].Clone() }

// cardIndex returns c's index in the pack of an n-player match.
func cardIndex(c card.Card, ranks, low int) int {
	return int(c.Suit())*ranks + power(c) - low
}

// Observe writes seat's observation into obs (Encoding().Size entries).
// For game.Spectator it writes the public information, relative to seat 0.
func (s *State) Observe(seat int, obs []float32) {
	e := &encodings[s.n]
	obs = obs[:e.Size]
	clear(obs)
	n := s.n
	own := seat >= 0 && seat < n
	base := seat
	if !own {
		base = 0
	}
	ranks, low := ranksFor(n)
	p := 4 * ranks
	field := func(i int) []float32 {
		f := &e.Fields[i]
		return obs[f.Offset : f.Offset+f.Size]
	}
	rel := func(i int) int { // relative block of seat i
		r := i - base
		if r < 0 {
			r += n
		}
		return r
	}
	relColour := func(c int) int {
		r := c - s.colour(base)
		if r < 0 {
			r += s.colours
		}
		return r
	}
	setCards := func(dst []float32, set card.Set) {
		for ; set != 0; set &= set - 1 {
			dst[cardIndex(card.Card(bits.TrailingZeros64(uint64(set))), ranks, low)] = 1
		}
	}

	if own {
		setCards(field(fHand), s.hands[seat])
	}
	proposals, proposed := field(fProposals), field(fProposed)
	trick, last := field(fTrick), field(fLastTrick)
	void, sizes, tricks := field(fVoid), field(fHandSizes), field(fTricks)
	toAct, acting := field(fToAct), s.ToAct()
	for i := 0; i < n; i++ {
		r := rel(i)
		if c := s.proposal[i]; c != card.None {
			switch {
			case s.phase != phasePropose:
				proposals[r*p+cardIndex(c, ranks, low)] = 1
			case own && i == seat && s.chosen.Has(i):
				proposals[r*p+cardIndex(c, ranks, low)] = 1
			}
		}
		if s.phase == phasePropose && s.chosen.Has(i) {
			proposed[r] = 1
		}
		if c := s.trick[i]; c != card.None {
			trick[r*p+cardIndex(c, ranks, low)] = 1
		}
		if c := s.lastTrick[i]; c != card.None {
			last[r*p+cardIndex(c, ranks, low)] = 1
		}
		for su := range 4 {
			if s.void[i]&(1<<su) != 0 {
				void[r*4+su] = 1
			}
		}
		sizes[r] = float32(s.hands[i].Len())
		tricks[r] = float32(s.tricks[i])
		if acting.Has(i) {
			toAct[r] = 1
		}
	}
	setCards(field(fPlayed), s.played)
	if s.trump == Unset {
		field(fTrump)[0] = 1
	} else {
		field(fTrump)[1+int(s.trump)] = 1
	}
	field(fPhase)[s.phase] = 1
	field(fLeader)[rel(s.leader)] = 1
	field(fDealer)[rel(s.dealer)] = 1
	if s.lastTaker >= 0 {
		field(fLastTaker)[rel(s.lastTaker)] = 1
	}
	field(fTrickNo)[0] = float32(s.trickNo)
	field(fDeal)[0] = float32(s.deal + 1)
	field(fGame)[0] = float32(s.gameNo + 1)

	grid, board, age, reserve := field(fGrid), field(fBoard), field(fBoardAge), field(fReserve)
	for c := range s.colours {
		reserve[relColour(c)] = Counters
	}
	for i, v := range s.grid {
		grid[i*9+int(v)] = 1
		b := s.board[i]
		if b < 0 {
			continue
		}
		rc := relColour(int(b))
		board[i*s.colours+rc] = 1
		reserve[rc]--
		older := 1
		for j, o := range s.board {
			if o == b && s.since[j] < s.since[i] {
				older++
			}
		}
		age[i] = float32(older)
	}
	won := field(fGamesWon)
	for c := range s.colours {
		won[relColour(c)] = float32(s.won[c])
	}
	if s.lastWinner >= 0 {
		field(fLastWinner)[relColour(s.lastWinner)] = 1
	}
	if s.matchWinner >= 0 {
		field(fMatchWinner)[relColour(s.matchWinner)] = 1
	}
}

// ActionID returns m's index in the action space (see Encoding().ActionDoc):
// a propose move the card's index, a play move the pack size plus the
// card's index, a give move twice the pack size plus the receiver's place
// to the left of seat, less one. It returns -1 for a move that is not a
// Tractric move.
func (s *State) ActionID(seat int, m game.Move) int {
	ranks, low := ranksFor(s.n)
	p := 4 * ranks
	switch {
	case isPropose(m):
		return cardIndex(moveCard(m), ranks, low)
	case isPlay(m):
		return p + cardIndex(moveCard(m), ranks, low)
	case isGive(m):
		r := int(m-mGive) - seat
		if r <= 0 {
			r += s.n
		}
		return 2*p + r - 1
	}
	return -1
}
