package sim

import (
	"fmt"

	"parlour/game"
	"parlour/games/damn"
)

// damnFigures measures Damn: game length in turns, how often the turn cap
// ends a game, who loses, and how often the lead (fewest cards held)
// changes hands.
type damnFigures struct{}

func (damnFigures) Specs(o game.Options) []Spec {
	specs := []Spec{
		{Key: "damn/lead_changes", Group: "Tension", Label: "lead changes per game (fewest cards held, each round, until the first player goes out)",
			Kind: Mean, Seat: -1, Hist: true},
		{Key: "damn/turns", Group: "Damn", Label: "game length (turns)", Kind: Mean, Seat: -1, Hist: true},
		{Key: "damn/capped", Group: "Damn", Label: "the turn cap ends the game (unresolved)", Kind: Proportion, Seat: -1, Share: true},
	}
	for i := range o.Players() {
		specs = append(specs, Spec{Key: seatKey("damn/loser", i), Group: "Damn",
			Label: fmt.Sprintf("is the loser, seat %d", i), Kind: Proportion, Seat: i, Share: true})
	}
	return specs
}

func (damnFigures) NewObserver(o game.Options) Observer {
	return &damnObserver{n: o.Players(), loserKeys: seatKeyList("damn/loser", o.Players())}
}

type damnObserver struct {
	n       int
	r       *Record
	turns   int
	out     bool // somebody is out: the lead no longer counts
	sole    int
	changes int64

	loserKeys []string
}

func (o *damnObserver) Start(s game.State, r *Record) {
	o.r, o.turns, o.out, o.sole, o.changes = r, 0, false, -1, 0
}

// DealEnd has nothing to read: Finish reads the game's end.
func (o *damnObserver) DealEnd(game.State) {}

func (o *damnObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*damn.State)
	t := st.Turns()
	if t == o.turns || o.out {
		return
	}
	o.turns = t
	if t%o.n != 0 {
		return
	}
	best, sole := 1<<30, -1
	for i := range o.n {
		switch h := st.Held(i); {
		case h == 0:
			o.out = true
			return
		case h < best:
			best, sole = h, i
		case h == best:
			sole = -1
		}
	}
	if sole >= 0 && sole != o.sole {
		if o.sole >= 0 {
			o.changes++
		}
		o.sole = sole
	}
}

func (o *damnObserver) Finish(s game.State) {
	st := s.(*damn.State)
	o.r.Set("damn/turns", int64(st.Turns()), 1)
	o.r.Set("damn/capped", b2i(st.Capped()), 1)
	o.r.Set("damn/lead_changes", o.changes, 1)
	l := st.Loser()
	for i, k := range o.loserKeys {
		o.r.Set(k, b2i(i == l), 1)
	}
}
