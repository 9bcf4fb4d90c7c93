package game

// DealEndViewer is implemented by a state that shows each deal's end as
// the rules leave it, for the front ends to show before the next deal:
// a table sends it with the move that ends a deal, since by the time the
// move returns the next deal is already dealt.
//
// DealEndView returns what seat (or Spectator) sees of the deal that has
// just ended, as View's value does for a position. It is asked only of
// the state a deal watcher is given (see State.WatchDeals), inside the
// move that ends the deal, and does not change it. The view is the deal's
// last position with:
//   - every card the rules turn up at the deal's end face up (Golf's
//     layouts), and the deal's last trick or parcel still on the table
//     where the rules gather it as the deal ends (Court Circular's);
//   - the deal numbered as the deal that ended (DealsPlayed), where the
//     view numbers deals;
//   - nobody to act and no prompt: "to_act" empty and "prompt" "";
//   - no card the seat may not see then (Places, at that moment): the
//     rules' hidden information as at the end of the deal.
//
// Its scores (the deal's row, the totals) are the state's Result at that
// moment. The conformance kit checks every point but the first, which
// each game's tests check. Every game of the registry implements it.
type DealEndViewer interface {
	DealEndView(seat int) any
}

// DealEndView returns seat's view of the deal that s, given to a deal
// watcher, has just ended: s's DealEndView when s is a DealEndViewer,
// else its View.
func DealEndView(s State, seat int) any {
	if d, ok := s.(DealEndViewer); ok {
		return d.DealEndView(seat)
	}
	return s.View(seat)
}
