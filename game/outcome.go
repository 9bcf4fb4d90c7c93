package game

import (
	"reflect"
	"sync"
)

// Copier is implemented by a state that can copy itself into another
// state of its game. CopyTo makes dst what Clone would return, reusing
// dst's memory, so that a copy made again and again (OutcomeOf's, for
// every move a table tells) need not allocate. dst must be a state of the
// same game: from New, Clone or an earlier CopyTo. Like Clone, CopyTo
// does not carry the deal watcher over.
type Copier interface {
	CopyTo(dst State)
}

// An Outcome is the position a move leads to, for words that tell what
// the rules then do on their own (see Narrator).
type Outcome struct {
	// After is the state after the move or, when the move ended a deal,
	// the deal's last position (what WatchDeals sees, with the cards the
	// next deal gathers still in place).
	After State
	// DealEnded reports that the move ended a deal.
	DealEnded bool

	play, end State       // the states played on, kept for the next use
	watch     func(State) // copies a deal's last position into end
	pool      *sync.Pool  // where Done puts the outcome back
}

// outcomes keeps Outcomes for OutcomeOf to use again, a pool for each
// type of state (each game).
var outcomes sync.Map // reflect.Type → *sync.Pool of *Outcome

// OutcomeOf plays seat's move m (legal in s) on a copy of s and returns
// the position it leads to; s is not changed. The copy is made with
// s.CopyTo when s is a Copier, in memory an earlier outcome left
// (Done), and with Clone otherwise.
func OutcomeOf(s State, seat int, m Move) *Outcome {
	t := reflect.TypeOf(s)
	p, ok := outcomes.Load(t)
	if !ok {
		p, _ = outcomes.LoadOrStore(t, new(sync.Pool))
	}
	pool := p.(*sync.Pool)
	o, _ := pool.Get().(*Outcome)
	if o == nil {
		o = &Outcome{pool: pool}
		o.watch = func(x State) {
			o.DealEnded = true
			o.end = copyInto(o.end, x)
		}
	}
	o.DealEnded = false
	o.play = copyInto(o.play, s)
	o.play.WatchDeals(o.watch)
	o.play.ApplyFast(seat, m)
	o.play.WatchDeals(nil)
	o.After = o.play
	if o.DealEnded {
		o.After = o.end
	}
	return o
}

// Done gives the outcome's memory back for a later OutcomeOf; neither
// the outcome nor its After may be used after.
func (o *Outcome) Done() {
	o.After = nil
	o.pool.Put(o)
}

// copyInto returns a copy of s: dst made one, if s is a Copier and dst a
// state from an earlier copy, or else a clone.
func copyInto(dst, s State) State {
	if c, ok := s.(Copier); ok && dst != nil {
		c.CopyTo(dst)
		return dst
	}
	return s.Clone()
}
