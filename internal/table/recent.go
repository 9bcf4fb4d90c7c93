package table

import (
	"context"
	"fmt"
	"time"

	"parlour/card"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// The log of a table's recent past. A connection that comes mid-game (a
// reload, a spectator, a terminal reconnecting) gets, after its welcome,
// its state and the kept chat, one protocol.Log: the events of the table's
// last protocol.LogMoves moves as its seat (or a spectator) was told them
// live, so that its live log does not start empty.
//
// The table keeps no history in memory: the log is worked out per
// connection, from the seed and the stored moves (as a restart rebuilds a
// table), by the connection's own goroutine in Attach, never by the
// table's. Meanwhile the table holds the frames for that connection back
// (Sub.held), so the log comes before them and nothing is told twice or
// out of order. A table nobody connects to does none of this, and a move
// costs nothing more.

// recent is what the actor knows, as a sub is attached, of the log the sub
// is to get: the table's moves up to seq, told as seat sees them.
type recent struct {
	seat int
	seq  int
	seed uint64
}

// recentFor starts the log of the recent past for sub, just attached (on
// the actor): with no move made it is sent at once; otherwise the sub's
// frames are held back until sendRecent has worked it out.
func (t *Table) recentFor(sub *Sub) recent {
	r := recent{seat: sub.seat, seq: t.moves, seed: t.rec.Seed}
	if t.moves == 0 {
		var events []protocol.Event
		if t.status != store.StatusWaiting {
			events = []protocol.Event{{Kind: protocol.EventStart, Seat: -1, At: time.Now().UTC()}}
		}
		t.send(sub, t.logFrame(0, events))
		return r
	}
	sub.holding = true
	return r
}

// logFrame encodes a protocol.Log of the moves up to seq.
func (t *Table) logFrame(seq int, events []protocol.Event) *Frame {
	if events == nil {
		events = []protocol.Event{}
	}
	return t.encode(protocol.Log{V: protocol.Version, Type: protocol.TypeLog, Table: t.id, Seq: seq, Events: events})
}

// sendRecent works out sub's log of the recent past (off the actor) and
// has the actor queue it, then the frames held back meanwhile. If the log
// cannot be worked out (the store failed), the held frames go without it.
func (t *Table) sendRecent(ctx context.Context, sub *Sub, r recent) {
	events, err := t.recentEvents(ctx, r)
	var frame *Frame
	if err != nil {
		t.log().Error("the log of the recent past for a connection; it gets none", "seat", r.seat, "err", err)
	} else {
		frame = t.logFrame(r.seq, events)
	}
	t.post(func() { t.release(sub, frame) })
}

// release queues frame (if not nil) and the frames held back for sub, in
// order, and sends sub's frames straight on from then on.
func (t *Table) release(sub *Sub, frame *Frame) {
	held := sub.held
	sub.held, sub.holding = nil, false
	// The held frames' holds pass to the queue (send takes its own).
	defer func() {
		for _, f := range held {
			f.Release()
		}
	}()
	if _, ok := t.subs[sub]; !ok || sub.closed {
		return
	}
	if frame != nil {
		t.send(sub, frame)
	}
	for _, f := range held {
		t.send(sub, f) // a no-op once the sub is dropped as too slow
	}
}

// recentEvents replays the table from its seed and stored moves and tells
// the last protocol.LogMoves moves before r.seq as seat r.seat was told
// them, with the deal ends, the start and the end of the match where they
// came. It runs off the actor: it reads only what never changes (the
// game, its options) and what r holds.
func (t *Table) recentEvents(ctx context.Context, r recent) ([]protocol.Event, error) {
	select {
	case t.m.recentSlots <- struct{}{}:
		defer func() { <-t.m.recentSlots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ctx, cancel := t.m.storeCtx(ctx)
	moves, err := t.m.cfg.Store.Moves(ctx, t.id)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("reading the moves: %w", err)
	}
	if len(moves) < r.seq {
		return nil, fmt.Errorf("%d moves stored, %d made", len(moves), r.seq)
	}
	moves = moves[:r.seq]
	st, err := t.g.New(t.opts, r.seed, nil)
	if err != nil {
		return nil, err
	}
	first := max(0, r.seq-protocol.LogMoves)
	for _, mv := range moves[:first] {
		if err := replayMove(st, mv); err != nil {
			return nil, err
		}
	}
	events := make([]protocol.Event, 0, len(moves)-first+4)
	if first == 0 {
		// The start itself is not kept: it is told with the first
		// move's time.
		events = append(events, protocol.Event{Kind: protocol.EventStart, Seat: -1, At: moves[0].At})
	}
	narrator, _ := st.(game.Narrator)
	var visible []card.Set
	for _, mv := range moves[first:] {
		m, err := st.ParseMove(mv.Seat, mv.Text)
		if err != nil {
			return nil, fmt.Errorf("stored move %d (seat %d: %s) does not replay: %w", mv.N+1, mv.Seat, mv.Text, err)
		}
		// As apply does: the words and the deals played before the move,
		// what the receiver sees after it.
		simultaneous := st.ToAct().Len() > 1
		full, blind := t.narrateWith(narrator, mv.Seat, m)
		deals := st.DealsPlayed()
		if err := game.Apply(st, mv.Seat, m); err != nil {
			return nil, fmt.Errorf("stored move %d (seat %d: %s) does not replay: %w", mv.N+1, mv.Seat, mv.Text, err)
		}
		visible = visible[:0]
		if needsVisible(r.seat, mv.Seat, simultaneous) {
			visible = game.Visible(visible, st)
		}
		events = append(events, moveEvent(mv, r.seat, simultaneous, game.CardWords(mv.Text), visible, full, blind))
		events = append(events, aftermath(st, deals, st.ToAct() == 0, mv.At)...)
	}
	return events, nil
}
