package sim

import (
	"fmt"

	"parlour/game"
	"parlour/games/golf"
)

// golfFigures measures Golf: column pairs made and who goes out first.
type golfFigures struct{}

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
	pairs int64
	out   []int64

	outKeys []string
}

func (o *golfObserver) Start(s game.State, r *Record) {
	o.r, o.holes, o.pairs = r, 0, 0
	clear(o.out)
}

func (o *golfObserver) Observe(game.State, int, game.Move) {}

// DealEnd reads a hole's final layouts and who went out, in place: the
// next hole is not dealt yet.
func (o *golfObserver) DealEnd(s game.State) {
	st := s.(*golf.State)
	o.holes++
	for i := range o.n {
		lay := st.Layout(i)
		k := 0
		for c := range 3 {
			if lay[c].Rank() == lay[c+3].Rank() {
				k++
			}
		}
		o.pairs += int64(k)
		o.r.Observe("golf/pairs", int64(k))
	}
	o.out[st.Out()]++
}

func (o *golfObserver) Finish(game.State) {
	h := int64(o.holes)
	o.r.Add("golf/pairs", o.pairs, h*int64(o.n))
	for i, k := range o.out {
		o.r.Add(o.outKeys[i], k, h)
	}
}
