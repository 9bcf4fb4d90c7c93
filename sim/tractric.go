package sim

import (
	"parlour/game"
	"parlour/games/tractric"
)

// tractricFigures measures Tractric: hands at no trump, tricks given away,
// games per match and hands per game.
type tractricFigures struct{}

func (tractricFigures) Specs(game.Options) []Spec {
	return []Spec{
		{Key: "tractric/no_trump", Group: "Tractric", Label: "hands played at no trump (share of hands)", Kind: Rate, Seat: -1, Share: true},
		{Key: "tractric/given", Group: "Tractric", Label: "tricks given away per hand", Kind: Rate, Seat: -1, Hist: true},
		{Key: "tractric/games", Group: "Tractric", Label: "games per match", Kind: Mean, Seat: -1, Hist: true},
		{Key: "tractric/hands_per_game", Group: "Tractric", Label: "hands per game", Kind: Rate, Seat: -1},
	}
}

func (tractricFigures) NewObserver(o game.Options) Observer {
	return &tractricObserver{n: o.Players()}
}

type tractricObserver struct {
	n       int
	r       *Record
	trump   int
	deals   int
	given   int64 // this hand
	ended   bool  // the hand ended in the move being observed
	hands   int64
	noTrump int64
}

func (o *tractricObserver) Start(s game.State, r *Record) {
	o.r, o.trump, o.deals, o.given, o.hands, o.noTrump, o.ended = r, tractric.Unset, 0, 0, 0, 0, false
}

func (o *tractricObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*tractric.State)
	if t := st.TrumpSuit(); t != o.trump {
		o.trump = t
		if t != tractric.Unset {
			o.hands++
			o.noTrump += b2i(t == tractric.NoTrump)
		}
	}
	if _, ok := tractric.GiveTo(m); ok {
		o.given++
	}
	if o.ended {
		// The hand ended in this move (DealEnd), gift included.
		o.ended = false
		o.r.Add("tractric/given", o.given, 1)
		o.r.Observe("tractric/given", o.given)
		o.given = 0
	}
}

// DealEnd notes the hand's end; Observe, which follows it for the same
// move, records the hand's gifts.
func (o *tractricObserver) DealEnd(game.State) {
	o.deals++
	o.ended = true
}

func (o *tractricObserver) Finish(s game.State) {
	t := s.Result().Totals // games won by each seat's side
	games := 0
	if o.n == 4 {
		games = t[0] + t[1]
	} else {
		for _, g := range t {
			games += g
		}
	}
	o.r.Add("tractric/no_trump", o.noTrump, o.hands)
	o.r.Set("tractric/games", int64(games), 1)
	o.r.Add("tractric/hands_per_game", int64(o.deals), int64(games))
}
