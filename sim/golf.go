package sim

import (
	"fmt"

	"parlour/card"
	"parlour/game"
	"parlour/games/golf"
)

func init() { figures["golf"] = golfFigures{} }

// golfFigures measures Golf: column pairs made and who goes out first.
type golfFigures struct{}

func (golfFigures) LowWins(game.Options) bool    { return true }
func (golfFigures) SingleDeal(game.Options) bool { return false }

func (golfFigures) Specs(o game.Options) []Spec {
	specs := []Spec{{Key: "golf/pairs", Group: "Golf", Label: "column pairs per player per hole (at scoring)",
		Kind: Rate, Seat: -1, Hist: true}}
	for i := range o.Players() {
		specs = append(specs, Spec{Key: seatKey("golf/out", i), Group: "Golf",
			Label: fmt.Sprintf("goes out first, seat %d (share of holes)", i), Kind: Rate, Seat: i, Share: true})
	}
	return specs
}

func (golfFigures) NewObserver(o game.Options) Observer {
	return &golfObserver{n: o.Players(), out: make([]int64, o.Players()), outKeys: seatKeyList("golf/out", o.Players())}
}

type golfObserver struct {
	n     int
	r     *Record
	holes int
	prev  golf.State // the state before the move, kept during final play
	kept  bool
	pairs int64
	out   []int64

	outKeys []string
}

func (o *golfObserver) Start(s game.State, r *Record) {
	o.r, o.holes, o.kept, o.pairs = r, 0, false, 0
	clear(o.out)
}

// Observe reads a hole's end from the state before its last move: the
// next hole is dealt at once, so the final layouts are the ones before
// the move, with the mover's swap applied.
func (o *golfObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*golf.State)
	if d := st.DealsPlayed(); d != o.holes {
		o.holes = d
		if !o.kept {
			panic("sim: a golf hole ended outside the final play")
		}
		lay := finalLayouts(&o.prev, o.n, seat, m)
		for i := range o.n {
			k := 0
			for c := range 3 {
				if lay[i][c].Rank() == lay[i][c+3].Rank() {
					k++
				}
			}
			o.pairs += int64(k)
			o.r.Observe("golf/pairs", int64(k))
		}
		o.out[o.prev.Out()]++
	}
	o.kept = st.Out() >= 0
	if o.kept {
		o.prev = *st
	}
}

// finalLayouts returns the layouts at the end of a hole that seat's move m
// ended, from the state before the move.
func finalLayouts(prev *golf.State, n, seat int, m game.Move) (lay [golf.MaxPlayers][6]card.Card) {
	for i := range n {
		lay[i] = prev.Layout(i)
	}
	for p := range 6 {
		if m == golf.Swap(p) {
			lay[seat][p] = prev.Drawn()
		}
	}
	return lay
}

func (o *golfObserver) Finish(game.State) {
	h := int64(o.holes)
	o.r.Add("golf/pairs", o.pairs, h*int64(o.n))
	for i, k := range o.out {
		o.r.Add(o.outKeys[i], k, h)
	}
}
