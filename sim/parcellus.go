package sim

import (
	"fmt"

	"parlour/card"
	"parlour/game"
	"parlour/games/parcellus"
)

// parcellusFigures measures Parcellus: parcels each seat captures in a
// deal, who captures the J♥, and how often the parcel bonus is split.
type parcellusFigures struct{}

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
	r *Record

	parcelKeys, jackKeys []string
}

func (o *parcellusObserver) Start(s game.State, r *Record) { o.r = r }

func (o *parcellusObserver) Observe(game.State, int, game.Move) {}

// DealEnd reads the deal's parcels in place: who captured how many (the
// bonus split) and who captured the Jack of Hearts.
func (o *parcellusObserver) DealEnd(s game.State) {
	st := s.(*parcellus.State)
	counts := st.ParcelCounts()
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
	j := st.Captor(jackOfHearts)
	for i := range parcellus.Players {
		o.r.Add(o.jackKeys[i], b2i(i == j), 1)
	}
	o.r.Add("parcellus/jack/none", b2i(j < 0), 1)
}

func (o *parcellusObserver) Finish(game.State) {}
