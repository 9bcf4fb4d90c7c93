package table

import (
	"encoding/json"
	"errors"
	"fmt"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"time"
)

// refuse sends sub alone the refusal of its message (protocol.Refusal):
// code, why, the message's id and the refused move's text, if any.
func (t *Table) refuse(sub *Sub, code, message, id, move string) {
	t.m.stats.Refusal(code)
	e := protocol.Refusal(code, message, id)
	e.Move = move
	t.send(sub, &Frame{Data: e.JSON()})
}

// humanMove handles a move a connection sent; made says it was made.
func (t *Table) humanMove(sub *Sub, text string, claimed *int, id string) (made bool) {
	if _, ok := t.subs[sub]; !ok {
		return false
	}
	if sub.seat < 0 {
		t.refuse(sub, protocol.CodeSpectator, "spectators may not move", id, text)
		return false
	}
	if len(text) > maxMoveText {
		t.refuse(sub, protocol.CodeTooLarge, fmt.Sprintf("a move has at most %d bytes", maxMoveText), id, "")
		return false
	}
	n, moveText, hasSeat, err := game.CutSeat(text)
	if err != nil {
		t.refuse(sub, protocol.CodeBadMove, err.Error(), id, text)
		return false
	}
	if hasSeat {
		claimed = &n
	}
	if claimed != nil && *claimed != sub.seat {
		t.refuse(sub, protocol.CodeNotYourSeat, fmt.Sprintf("your token holds seat %d, not seat %d", sub.seat, *claimed), id, text)
		return false
	}
	switch t.status {
	case store.StatusWaiting:
		t.refuse(sub, protocol.CodeNotStarted, fmt.Sprintf("the game has not started: seats %v are open", t.openList()), id, text)
		return false
	case store.StatusOver:
		t.refuse(sub, protocol.CodeOver, "the game is over", id, text)
		return false
	}
	m, err := t.st.ParseMove(sub.seat, moveText)
	if err != nil {
		t.refuse(sub, protocol.CodeBadMove, err.Error(), id, text)
		return false
	}
	if !t.st.ToAct().Has(sub.seat) {
		err := game.Check(t.st, sub.seat, m)
		t.refuse(sub, protocol.CodeNotYourTurn, err.Error(), id, text)
		return false
	}
	if err := t.apply(sub.seat, m, ""); err != nil {
		code := protocol.CodeIllegalMove
		if errors.Is(err, ErrUnavailable) {
			code = protocol.CodeUnavailable
		}
		t.refuse(sub, code, err.Error(), id, text)
		return false
	}
	t.schedule()
	return true
}

const maxMoveText = 256

// apply makes a move, stores it and tells everyone. A refused move or a
// store failure changes nothing.
func (t *Table) apply(n int, m game.Move, by string) error {
	// Vetted, stored, then made: a refused move or a store failure
	// changes nothing, with no copy of the state to fall back on.
	before := t.st.ToAct()
	if err := game.Vet(t.st, n, m); err != nil {
		return err
	}
	if t.m.storeDown() {
		return fmt.Errorf("%w: the move was not made: %v", ErrUnavailable, errStoreDown)
	}
	if t.doubt {
		if err := t.resolveDoubt(); err != nil {
			return err
		}
	}
	text := t.st.FormatMove(m)
	// The time as the stores keep it (to the microsecond), so that the log
	// sent on connecting, read from the store, tells it as it was told.
	rec := store.Move{N: t.moves, Seat: n, Text: text, By: by, At: time.Now().UTC().Truncate(time.Microsecond), Lease: t.rec.Lease.Epoch}
	t.moveCtx.at = time.Now().Add(t.m.cfg.StoreTimeout)
	err := t.m.cfg.Store.AppendMove(&t.moveCtx, t.id, rec)
	t.m.stats.StoreCommit(time.Since(rec.At))
	if err != nil {
		if t.lostLease(err) {
			return fmt.Errorf("%w: the move was not made: %v", ErrUnavailable, ErrMoved)
		}
		// The store may hold the move all the same (a commit that ended
		// after the deadline): the next move first reads back how many
		// the store has.
		t.doubt = true
		switch {
		case timedOut(err):
			t.m.storeFailed(err)
		case errors.Is(err, store.ErrFull), errors.Is(err, store.ErrReadOnly):
			// The store logs these itself, once and then now and then.
		default:
			t.log().Error("storing a move", "move", rec.N, "err", err)
		}
		return fmt.Errorf("%w: the move was not made: %w", ErrUnavailable, err)
	}
	// The words for the live log, from the state before the move, and
	// the deals played: only when someone is told (a table nobody
	// watches pays nothing).
	told := len(t.subs) > 0
	var full, blind string
	var deals int
	if told {
		full, blind = t.narrate(n, m)
		deals = t.st.DealsPlayed()
	}
	if told {
		// The deal's end, if the move ends one, is seen before the
		// next deal is dealt.
		t.st.WatchDeals(t.dealWatcher())
	}
	t.st.ApplyFast(n, m)
	if told {
		t.st.WatchDeals(nil)
	}
	t.moves++
	t.m.moveCount.Add(1)
	t.m.stats.Move(t.g.Name())
	t.bots.Moved(t.st, n, m, before.Len() > 1)
	s := t.seats[n]
	s.job++
	s.thinking = false
	s.deadline = time.Time{}
	s.clockGen++
	over := t.st.ToAct() == 0
	if over {
		t.finish()
	}
	var after []protocol.Event // the move's aftermath: a deal's end, the match's
	if told {
		after = aftermath(t.st, deals, over, rec.At)
	}
	// Bots and clocks first, so the frame that starts a decision shows
	// its clock.
	t.schedule()
	t.broadcastMove(rec, before, full, blind, after)
	clear(t.dealEnds)
	t.dealEnds = t.dealEnds[:0]
	if over {
		t.updateInfo()
	} else {
		t.infoMoves.Store(int64(t.moves)) // the rest of the lobby entry is as it was
	}
	return nil
}

// resolveDoubt reads back how many moves the store holds of the table,
// after a move whose store call failed. If the failed move was stored all
// the same, the table is unloaded: its clients reconnect and it is
// rebuilt from the store, with that move made. The error, if not nil,
// refuses the move being made.
func (t *Table) resolveDoubt() error {
	ctx, cancel := t.storeCtx()
	rec, err := t.m.cfg.Store.Table(ctx, t.id)
	cancel()
	if err != nil {
		if timedOut(err) {
			t.m.storeFailed(err)
		}
		return fmt.Errorf("%w: the move was not made: %v", ErrUnavailable, err)
	}
	t.doubt = false
	if rec.Moves == t.moves {
		return nil
	}
	t.log().Warn("the store holds a move whose commit failed; rebuilding the table from the store", "stored", rec.Moves, "made", t.moves)
	t.unload(ErrMoved)
	return fmt.Errorf("%w: the move was not made: the table is being rebuilt; reconnect", ErrUnavailable)
}

// saveRecord stores the table's record (its status, result, seats and
// links), after what changed it. A failure other than a lost lease is
// tried again every second until the record is stored: the record must
// catch up with the moves, which were stored.
func (t *Table) saveRecord(what string) {
	ctx, cancel := t.storeCtx()
	err := t.m.cfg.Store.UpdateTable(ctx, t.rec)
	cancel()
	if err == nil || t.lostLease(err) {
		t.recFailing = false
		return
	}
	if timedOut(err) {
		t.m.storeFailed(err)
	}
	if !t.recFailing {
		t.log().Error("storing the table's "+what+"; trying again every second", "err", err)
	}
	t.recFailing = true
	if t.recRetry {
		return
	}
	t.recRetry = true
	t.after(time.Second, func() {
		t.recRetry = false
		if t.recFailing && !t.stopping {
			t.saveRecord(what)
		}
	})
}

// aftermath returns the events that follow a move made at at in st (now
// after it): a deal event for each deal it ended (deals were played
// before it), and the end of the match if it is over.
func aftermath(st game.State, deals int, over bool, at time.Time) []protocol.Event {
	var out []protocol.Event
	if played := st.DealsPlayed(); played > deals {
		res := st.Result()
		for d := deals + 1; d <= played && d <= len(res.DealScores); d++ {
			out = append(out, protocol.Event{Kind: protocol.EventDeal, Seat: -1, Deal: d, Scores: res.DealScores[d-1], At: at})
		}
	}
	if over {
		out = append(out, protocol.Event{Kind: protocol.EventOver, Seat: -1, At: at})
	}
	return out
}

// narrate returns the game's words for seat n's move m, which is about to
// be made: none if the game has none, or if telling it failed (a bug in
// the game's words must not stop the table: the move is already stored).
func (t *Table) narrate(n int, m game.Move) (full, blind string) {
	return t.narrateWith(t.narrator, n, m)
}

// narrateWith returns narrator's words for seat n's move m (see narrate):
// none if narrator is nil or panics (which the table's log is told of).
func (t *Table) narrateWith(narrator game.Narrator, n int, m game.Move) (full, blind string) {
	if narrator == nil {
		return "", ""
	}
	defer func() {
		if r := recover(); r != nil {
			t.log().Error("the game's words for a move panicked; the move is told without them", "seat", n, "panic", r)
			full, blind = "", ""
		}
	}()
	return narrator.Narrate(n, m)
}

// finish records the end of the game.
func (t *Table) finish() {
	// External bots hear of the end (and stop) off the actor.
	go t.bots.End(t.st.Clone())
	t.status = store.StatusOver
	t.rec.Status = store.StatusOver
	res, _ := json.Marshal(protocol.ResultOf(t.st.Result()))
	t.rec.Result = res
	for _, s := range t.seats {
		s.deadline = time.Time{}
		s.clockGen++
		s.job++
		s.thinking = false
	}
	t.saveRecord("result")
	t.m.notify(noteLobby)
	t.maybeIdle()
}
