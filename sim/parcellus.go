package sim

import (
	"fmt"
	"slices"

	"parlour/card"
	"parlour/game"
	"parlour/games/parcellus"
)

func init() { figures["parcellus"] = parcellusFigures{} }

// parcellusFigures measures Parcellus: parcels each seat captures in a
// deal, who captures the J♥, and how often the parcel bonus is split.
type parcellusFigures struct{}

func (parcellusFigures) LowWins(game.Options) bool    { return false }
func (parcellusFigures) SingleDeal(game.Options) bool { return false }

func (parcellusFigures) Specs(o game.Options) []Spec {
	var specs []Spec
	for i := range parcellus.Players {
		specs = append(specs, Spec{Key: seatKey("parcellus/parcels", i), Group: "Parcellus",
			Label: fmt.Sprintf("parcels captured per deal, seat %d", i), Kind: Rate, Seat: i, Hist: true})
	}
	for i := range parcellus.Players {
		specs = append(specs, Spec{Key: seatKey("parcellus/jack", i), Group: "Parcellus",
			Label: fmt.Sprintf("captures the J♥, seat %d (share of deals)", i), Kind: Rate, Seat: i, Share: true})
	}
	return append(specs,
		Spec{Key: "parcellus/jack/none", Group: "Parcellus", Label: "the J♥ is left in a hand (share of deals)", Kind: Rate, Seat: -1, Share: true},
		Spec{Key: "parcellus/bonus_split", Group: "Parcellus", Label: "the parcel bonus is split (share of deals)", Kind: Rate, Seat: -1, Share: true})
}

func (parcellusFigures) NewObserver(game.Options) Observer {
	return &parcellusObserver{parcelKeys: seatKeyList("parcellus/parcels", parcellus.Players),
		jackKeys: seatKeyList("parcellus/jack", parcellus.Players)}
}

var jackOfHearts = card.New(card.Jack, card.Hearts)

type parcellusObserver struct {
	r     *Record
	deals int
	prev  parcellus.State // the state before the move

	parcelKeys, jackKeys []string
}

func (o *parcellusObserver) Start(s game.State, r *Record) {
	o.r, o.deals = r, 0
	o.prev = *s.(*parcellus.State)
}

// Observe reads a deal's end from the state before its last move (the
// next deal is dealt at once): the parcels closed by the move go to the
// seat lastCaptor names.
func (o *parcellusObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*parcellus.State)
	if d := st.DealsPlayed(); d != o.deals {
		o.deals = d
		counts := o.prev.ParcelCounts()
		c := lastCaptor(&o.prev, seat, m)
		closed := parcellus.Parcels
		for _, k := range counts {
			closed -= k
		}
		counts[c] += closed
		best, tied := 0, 0
		for i, k := range counts {
			o.r.Add(o.parcelKeys[i], int64(k), 1)
			o.r.Observe(o.parcelKeys[i], int64(k))
			switch {
			case k > best:
				best, tied = k, 1
			case k == best:
				tied++
			}
		}
		o.r.Add("parcellus/bonus_split", b2i(tied > 1), 1)
		j := o.prev.Captor(jackOfHearts)
		if j < 0 {
			j = c
			if m != parcellus.Play(jackOfHearts) {
				for k := range parcellus.Players {
					if slices.Contains(o.prev.Hand(k), jackOfHearts) {
						j = -1
					}
				}
			}
		}
		for i := range parcellus.Players {
			o.r.Add(o.jackKeys[i], b2i(i == j), 1)
		}
		o.r.Add("parcellus/jack/none", b2i(j < 0), 1)
	}
	o.prev = *st
}

// lastCaptor returns who captures the parcel that seat's move m closes,
// from the state before the move: the seat that adds the last card (the
// mover, if m plays one), else the turner. Parcels closed after it in the
// same move (nobody has cards left) go to the same seat, who turns them.
func lastCaptor(prev *parcellus.State, seat int, m game.Move) int {
	if m != parcellus.Pass {
		return seat
	}
	if c := prev.Contributor(); c >= 0 {
		return c
	}
	return prev.Turner()
}

func (o *parcellusObserver) Finish(game.State) {}
