package table

import (
	"encoding/json"
	"parlour/card"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"sync"
)

func (t *Table) encode(v any) *Frame {
	b, err := json.Marshal(v)
	if err != nil {
		return t.badFrame(err)
	}
	return &Frame{Data: b}
}

// badFrame is the frame sent in place of one that could not be encoded.
func (t *Table) badFrame(err error) *Frame {
	// Views are the games' JSON-marshalable structs; this is a bug.
	t.log().Error("encoding a frame", "err", err)
	return &Frame{Data: protocol.Refusal(protocol.CodeUnavailable, "internal error encoding a frame", "").JSON()}
}

// encodePooled encodes the state msg as encode does, into a pooled
// buffer: the frame is the caller's to Release once it has queued it.
func (t *Table) encodePooled(msg *protocol.State) *Frame {
	f := framePool.Get().(*Frame)
	f.buf.Reset()
	// The same bytes as json.Marshal's, without its reflection.
	data, err := protocol.AppendState(f.buf.AvailableBuffer(), msg)
	if err != nil {
		framePool.Put(f)
		return t.badFrame(err)
	}
	f.buf.Write(data)
	f.Data = f.buf.Bytes()
	f.refs.Store(1)
	return f
}

// send queues a frame for sub, dropping the sub if its queue is full.
func (t *Table) send(sub *Sub, frame *Frame) {
	if sub.closed {
		return
	}
	if sub.pending() >= t.m.cfg.Queue {
		t.log().Warn("dropping a slow connection", "seat", sub.seat)
		t.detach(sub, ErrSlow)
		return
	}
	frame.hold()
	if sub.holding {
		// Held back behind the log of the recent past, within the
		// queue's size all the same.
		sub.held = append(sub.held, frame)
		return
	}
	sub.push(frame)
	sub.notify()
}

// sendState sends sub the state as seat n (or a spectator) sees it, with
// events: a connection's first state, or a fresh one it asked for. Like a
// move's, the frame is pooled, from a pooled scratch.
func (t *Table) sendState(sub *Sub, n int, events []protocol.Event) {
	sc := scratches.Get().(*scratch)
	defer sc.done()
	sc.seats = t.appendSeatInfos(sc.seats[:0])
	t.fillState(sc, n, events)
	f := t.encodePooled(&sc.state)
	t.send(sub, f)
	f.Release() // this maker's hold; the queue has its own
}

// stateView is seat's view of st, written only when its message is
// encoded (protocol.AppendState calls AppendJSON).
type stateView struct {
	st   game.ViewAppender
	seat int
}

// AppendJSON appends the view's JSON.
func (v *stateView) AppendJSON(b []byte) []byte { return v.st.AppendView(b, v.seat) }

// MarshalJSON returns the view's JSON (for encoding/json).
func (v *stateView) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// viewFor returns seat n's view of the state: sv, filled in, when the
// state appends its views itself, else the game's View.
func (t *Table) viewFor(n int, sv *stateView) any {
	if va, ok := t.st.(game.ViewAppender); ok {
		*sv = stateView{st: va, seat: n}
		return sv
	}
	return t.st.View(n)
}

// fillState fills sc.state in as the state seat n (or a spectator) sees,
// with events and sc.seats, in sc's room (see viewFor for the view); it is
// to be encoded before the state changes.
func (t *Table) fillState(sc *scratch, n int, events []protocol.Event) {
	msg := &sc.state
	*msg = protocol.State{V: protocol.Version, Type: protocol.TypeState, Table: t.id, Seat: n, Seq: t.moves, Status: t.status,
		ToAct: msg.ToAct[:0], Legal: msg.Legal[:0], View: t.viewFor(n, &sc.view), Result: t.resultIn(&sc.result),
		Seats: sc.seats, Clocks: t.clocks(), Events: events}
	if k := n + 1; k >= 0 && k < len(t.dealEnds) && t.dealEnds[k].View != nil {
		msg.DealEnd = &t.dealEnds[k]
	}
	if msg.ToAct == nil {
		msg.ToAct = []int{}
	}
	if msg.Legal == nil {
		msg.Legal = []string{}
	}
	if t.status == store.StatusPlaying {
		act := t.st.ToAct()
		msg.ToAct = act.AppendList(msg.ToAct)
		if n >= 0 && act.Has(n) {
			msg.Legal, sc.moves = game.AppendLegalText(msg.Legal, t.st, n, sc.moves)
		}
	}
}

// resultIn returns the state's result for a frame, made in r's memory
// (game.FillResult).
func (t *Table) resultIn(r *game.Result) protocol.Result {
	game.FillResult(t.st, r)
	return protocol.ResultOf(*r)
}

// scratch is the room a broadcast builds its state messages in, each
// encoded before the next is made, so a move allocates little but its
// frames; scratches are pooled, not kept by each table.
type scratch struct {
	state  protocol.State
	view   stateView
	result game.Result
	moves  []game.Move // the legal moves
	seats  []protocol.SeatInfo
	events []protocol.Event
	// visible is what each receiver sees after a move (game.Visible).
	visible []card.Set
	// cards are the cards a move's notation names (game.AppendCardWords).
	cards []card.Card
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// done gives sc back to the pool, keeping its slices' room but not what
// they pointed to.
func (sc *scratch) done() {
	clear(sc.state.Legal)
	sc.state = protocol.State{ToAct: sc.state.ToAct[:0], Legal: sc.state.Legal[:0]}
	sc.view = stateView{}
	clear(sc.seats)
	clear(sc.events)
	scratches.Put(sc)
}

// dealWatcher returns the table's deal watcher (game.State.WatchDeals),
// made once: it keeps, in t.dealEnds, the end of the deal the move being
// made ends, as each receiver sees it (index seat+1, a spectator first),
// for the frames that tell the move.
func (t *Table) dealWatcher() func(game.State) {
	if t.dealWatch == nil {
		t.dealWatch = t.keepDealEnd
	}
	return t.dealWatch
}

// keepDealEnd keeps the view of the deal s has just ended
// (game.DealEndView), with its scores, of every receiver a sub is told as
// (see dealWatcher); the others' are left empty, for nobody reads them.
func (t *Table) keepDealEnd(s game.State) {
	r := s.Result()
	d := s.DealsPlayed()
	var scores []int
	if d >= 1 && d <= len(r.DealScores) {
		scores = r.DealScores[d-1]
	}
	var told uint64 // bit seat+1: a sub is told as seat
	for sub := range t.subs {
		told |= 1 << (sub.seat + 1)
	}
	ends := t.dealEnds[:0]
	for seat := game.Spectator; seat < s.Players(); seat++ {
		if told&(1<<(seat+1)) == 0 {
			ends = append(ends, protocol.DealEnd{})
			continue
		}
		view, err := json.Marshal(game.DealEndView(s, seat))
		if err != nil {
			// Views are the games' JSON-marshalable structs; this is a bug,
			// and the move is told without its deal's end.
			t.log().Error("encoding a deal's end", "seat", seat, "err", err)
			t.dealEnds = ends[:0]
			return
		}
		ends = append(ends, protocol.DealEnd{Deal: d, Scores: scores, Totals: r.Totals, View: view})
	}
	t.dealEnds = ends
}

// broadcastState sends every sub its seat's state with the events
// events(seat) returns (used before the next call).
func (t *Table) broadcastState(events func(n int) []protocol.Event) {
	var few [9]*Frame
	frames := few[:0]
	if n := len(t.seats) + 1; n <= len(few) {
		frames = few[:n]
	} else {
		frames = make([]*Frame, n)
	}
	sc := scratches.Get().(*scratch)
	defer sc.done()
	sc.seats = t.appendSeatInfos(sc.seats[:0])
	for sub := range t.subs {
		i := sub.seat + 1
		if frames[i] == nil {
			t.fillState(sc, sub.seat, events(sub.seat))
			frames[i] = t.encodePooled(&sc.state)
		}
		t.send(sub, frames[i])
	}
	for _, f := range frames {
		if f != nil {
			f.Release()
		}
	}
}

// broadcastMove sends everyone the state after a move, with the move told
// as each receiver may know it (see game/visibility.go): its notation and
// the words full, or only that the seat moved and the words blind. extra
// follows the move in every receiver's events.
func (t *Table) broadcastMove(rec store.Move, before game.Seats, full, blind string, extra []protocol.Event) {
	if len(t.subs) == 0 {
		return
	}
	// Who may see which cards, worked out only if someone but the mover
	// is told the move.
	var visible []card.Set
	sc := scratches.Get().(*scratch)
	defer sc.done()
	sc.cards = game.AppendCardWords(sc.cards[:0], rec.Text)
	cards := sc.cards
	simultaneous := before.Len() > 1
	t.broadcastState(func(n int) []protocol.Event {
		if visible == nil && len(cards) > 0 && needsVisible(n, rec.Seat, simultaneous) {
			sc.visible = game.Visible(sc.visible[:0], t.st)
			visible = sc.visible
		}
		ev := moveEvent(rec, n, simultaneous, cards, visible, full, blind)
		sc.events = append(append(sc.events[:0], ev), extra...)
		return sc.events
	})
}

// needsVisible reports whether telling receiver n of mover's move needs
// to know what each receiver sees after it (moveEvent's visible).
func needsVisible(n, mover int, simultaneous bool) bool {
	return n != mover && !simultaneous
}

// moveEvent is the move rec as receiver n (a seat, or game.Spectator) is
// told it, by game.MayReadMove: its notation and the full words, or only
// that the seat moved and the blind words. simultaneous says several
// seats were to act before it, cards are the cards its notation names
// (game.CardWords), and visible is what each receiver sees after it
// (game.Visible; nil unless needsVisible). The live frames and the
// log sent on connecting (recent.go) both tell moves with it.
func moveEvent(rec store.Move, n int, simultaneous bool, cards []card.Card, visible []card.Set, full, blind string) protocol.Event {
	ev := protocol.Event{Kind: protocol.EventMove, N: rec.N + 1, Seat: rec.Seat, By: rec.By, At: rec.At}
	if game.MayReadMove(n, rec.Seat, simultaneous, cards, visible) {
		ev.Move, ev.Text = rec.Text, full
	} else {
		ev.Hidden, ev.Text = true, blind
	}
	return ev
}

// broadcastSeats tells every sub but skip who sits where now.
func (t *Table) broadcastSeats(events []protocol.Event, skip *Sub) {
	frame := t.encode(protocol.Seats{V: protocol.Version, Type: protocol.TypeSeats, Table: t.id, Seq: t.moves, Seats: t.seatInfos(), Events: events})
	for sub := range t.subs {
		if sub != skip {
			t.send(sub, frame)
		}
	}
}

func (t *Table) closeSubs(why error) {
	for sub := range t.subs {
		delete(t.subs, sub)
		sub.drop(why)
	}
}

// maybeIdle unloads a finished table nobody watches after a while.
func (t *Table) maybeIdle() {
	if t.status != store.StatusOver || len(t.subs) > 0 || t.m.cfg.Unload <= 0 {
		return
	}
	t.idleGen++
	gen := t.idleGen
	t.after(t.m.cfg.Unload, func() {
		if gen == t.idleGen && len(t.subs) == 0 {
			t.m.forget(t)
			t.stopping = true
		}
	})
}

func (t *Table) updateInfo() {
	info := protocol.TableInfo{
		ID: t.id, Game: t.g.Name(), Title: t.g.Title(), Options: t.opts,
		Clock: float64(t.set.ClockMS) / 1000, Grace: float64(t.set.GraceMS) / 1000, StandIn: t.set.StandIn, Think: t.set.ThinkMS,
		Status: t.status, Seats: t.seatInfos(), Open: t.openList(), Moves: t.moves,
		RematchOf: t.rec.RematchOf, Rematch: t.rec.Rematch, CreatedAt: t.rec.CreatedAt,
	}
	for sub := range t.subs {
		if sub.seat < 0 {
			info.Spectators++
		}
	}
	if t.status == store.StatusOver {
		r := protocol.ResultOf(t.st.Result())
		info.Result = &r
	}
	t.info.Store(&info)
	t.infoMoves.Store(int64(t.moves))
}
