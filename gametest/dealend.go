package gametest

import (
	"encoding/json"
	"fmt"
	"strings"

	"parlour/card"
	"parlour/game"
)

// checkDealEnd checks the deal-end views (game.DealEndViewer) of s, a
// state a deal watcher is given, for every seat and a spectator: each
// marshals to JSON with nobody to act ("to_act" empty) and no prompt;
// numbers, in its "deal" or "hole" (where it has one), the deal that
// ended; and shows no card its seat may not see at that moment (Places),
// with the allowance the views have for a card shown in two roles. It
// returns "" or what is wrong.
func checkDealEnd(s game.State, pack card.Counts) string {
	if _, ok := s.(game.DealEndViewer); !ok {
		return ""
	}
	places := s.Places()
	ended := s.DealsPlayed()
	for seat := game.Spectator; seat < s.Players(); seat++ {
		view := game.DealEndView(s, seat)
		b, err := json.Marshal(view)
		if err != nil {
			return fmt.Sprintf("the deal-end view of %s does not marshal to JSON: %v", who(seat), err)
		}
		var v struct {
			Prompt *string `json:"prompt"`
			ToAct  []int   `json:"to_act"`
			Deal   *int    `json:"deal"`
			Hole   *int    `json:"hole"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Sprintf("the deal-end view of %s: %v", who(seat), err)
		}
		if v.Prompt != nil && strings.TrimSpace(*v.Prompt) != "" {
			return fmt.Sprintf("the deal-end view of %s has the prompt %q: nobody acts at a deal's end", who(seat), *v.Prompt)
		}
		if len(v.ToAct) > 0 {
			return fmt.Sprintf("the deal-end view of %s has to_act %v: nobody acts at a deal's end", who(seat), v.ToAct)
		}
		for _, n := range []*int{v.Deal, v.Hole} {
			if n != nil && *n != ended {
				return fmt.Sprintf("the deal-end view of %s numbers the deal %d, not %d (the deal that ended)", who(seat), *n, ended)
			}
		}
		shown, err := viewCards(view)
		if err != nil {
			return err.Error()
		}
		may := visibleTo(places, seat)
		for cd, n := range shown {
			if n > may[cd] && (may[cd] == 0 || may[cd] < pack[cd]) {
				return fmt.Sprintf("the deal-end view of %s shows %v %d times; it may see it %d times", who(seat), card.Card(cd), n, may[cd])
			}
		}
	}
	return ""
}
