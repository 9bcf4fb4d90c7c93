package table

import (
	"crypto/subtle"
	"fmt"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"time"
)

func (t *Table) findToken(token string) *seat {
	if token == "" {
		return nil
	}
	h := hashToken(token)
	var found *seat
	for _, s := range t.seats {
		if s.token != "" && subtle.ConstantTimeCompare([]byte(s.token), []byte(h)) == 1 {
			found = s
		}
	}
	return found
}

func (t *Table) attach(token string, spectate bool) (*Sub, error) {
	n := game.Spectator
	var s *seat
	if !spectate {
		if s = t.findToken(token); s == nil {
			return nil, fmt.Errorf("%w: no seat of table %s has that token", ErrBadToken, t.id)
		}
		n = s.n
	}
	sub := &Sub{seat: n}
	t.subs[sub] = struct{}{}
	t.idleGen++
	t.send(sub, t.encode(protocol.Welcome{V: protocol.Version, Type: protocol.TypeWelcome, Table: t.id, Game: t.g.Name(),
		Title: t.g.Title(), Seat: n, Players: t.st.Players()}))
	var events []protocol.Event
	if s != nil {
		s.conns++
		if s.away || s.standin {
			s.away = false
			s.awayGen++
			if s.standin {
				s.standin = false
				s.job++
				s.thinking = false
			}
			events = append(events, protocol.Event{Kind: protocol.EventBack, Seat: s.n, At: time.Now()})
		}
	}
	t.sendState(sub, n, []protocol.Event{})
	t.sendChatLog(sub)
	if len(events) > 0 {
		t.broadcastSeats(events, sub)
	}
	t.schedule()
	t.updateInfo()
	return sub, nil
}

func (t *Table) detach(sub *Sub, why error) {
	if _, ok := t.subs[sub]; !ok {
		return
	}
	delete(t.subs, sub)
	sub.drop(why)
	if sub.seat >= 0 {
		s := t.seats[sub.seat]
		s.conns--
		if s.conns == 0 && s.token != "" && why != ErrLeft {
			t.goneAway(s)
		}
	}
	t.maybeIdle()
	t.updateInfo()
}

// goneAway marks a seat whose last connection dropped; in a running game
// its stand-in takes over after the grace period.
func (t *Table) goneAway(s *seat) {
	if t.status == store.StatusOver || s.away {
		return
	}
	s.away = true
	s.awayGen++
	t.broadcastSeats([]protocol.Event{{Kind: protocol.EventAway, Seat: s.n, At: time.Now()}}, nil)
	if t.status == store.StatusPlaying {
		t.startGrace(s)
	}
}

func (t *Table) startGrace(s *seat) {
	gen := s.awayGen
	grace := time.Duration(t.set.GraceMS) * time.Millisecond
	if grace <= 0 {
		t.standIn(s, gen)
		return
	}
	t.after(grace, func() { t.standIn(s, gen) })
}

// standIn hands an away seat to the stand-in bot once its grace is over.
func (t *Table) standIn(s *seat, gen int) {
	if gen != s.awayGen || !s.away || s.standin || t.status != store.StatusPlaying {
		return
	}
	s.standin = true
	t.broadcastSeats([]protocol.Event{{Kind: protocol.EventStandIn, Seat: s.n, At: time.Now()}}, nil)
	t.schedule()
	t.updateInfo()
}

func (t *Table) join(n int, name string) (protocol.JoinResult, error) {
	if t.status == store.StatusOver {
		return protocol.JoinResult{}, fmt.Errorf("%w: table %s", ErrOver, t.id)
	}
	if n < 0 {
		for _, s := range t.seats {
			if s.kind == store.KindHuman && s.token == "" {
				n = s.n
				break
			}
		}
		if n < 0 {
			return protocol.JoinResult{}, fmt.Errorf("%w: table %s has no open seat", ErrSeatTaken, t.id)
		}
	}
	if n >= len(t.seats) {
		return protocol.JoinResult{}, fmt.Errorf("%w: no seat %d (seats are 0-%d)", ErrBadRequest, n, len(t.seats)-1)
	}
	s := t.seats[n]
	if s.kind != store.KindHuman {
		return protocol.JoinResult{}, fmt.Errorf("%w: seat %d is a bot's", ErrSeatTaken, n)
	}
	if s.token != "" {
		return protocol.JoinResult{}, fmt.Errorf("%w: seat %d is taken", ErrSeatTaken, n)
	}
	token := newToken()
	s.token = hashToken(token)
	s.name = name
	t.renameBots() // a person may take a bot's name: the bot takes another
	if err := t.saveSeats(); err != nil {
		s.token, s.name = "", ""
		t.renameBots()
		return protocol.JoinResult{}, err
	}
	if t.status == store.StatusPlaying {
		// The stand-in plays on until the new player connects.
		s.away, s.standin = true, true
		s.awayGen++
	}
	t.broadcastSeats([]protocol.Event{{Kind: protocol.EventJoin, Seat: n, At: time.Now()}}, nil)
	if t.status == store.StatusWaiting && t.openSeats() == 0 {
		t.begin()
	}
	t.updateInfo()
	return protocol.JoinResult{Table: t.id, Seat: n, Token: token}, nil
}

func (t *Table) openSeats() int {
	n := 0
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.token == "" {
			n++
		}
	}
	return n
}

// begin starts the game once every seat is taken.
func (t *Table) begin() {
	t.status = store.StatusPlaying
	t.rec.Status = store.StatusPlaying
	t.saveRecord("start")
	t.m.notify(noteLobby)
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.conns == 0 {
			s.away = true
			s.awayGen++
			t.startGrace(s)
		}
	}
	t.schedule()
	t.broadcastState(func(int) []protocol.Event {
		return []protocol.Event{{Kind: protocol.EventStart, Seat: -1, At: time.Now()}}
	})
}

func (t *Table) leave(token string) error {
	s := t.findToken(token)
	if s == nil {
		return fmt.Errorf("%w: no seat of table %s has that token", ErrBadToken, t.id)
	}
	oldToken, oldName := s.token, s.name
	s.token, s.name = "", ""
	t.renameBots()
	if err := t.saveSeats(); err != nil {
		s.token, s.name = oldToken, oldName
		t.renameBots()
		return err
	}
	for sub := range t.subs {
		if sub.seat == s.n {
			t.detach(sub, ErrLeft)
		}
	}
	s.away, s.standin = false, false
	s.awayGen++
	s.job++
	s.thinking = false
	t.broadcastSeats([]protocol.Event{{Kind: protocol.EventLeave, Seat: s.n, At: time.Now()}}, nil)
	t.schedule()
	t.updateInfo()
	return nil
}

func (t *Table) saveSeats() error {
	seats := t.storeSeats()
	old := t.rec.Seats
	t.rec.Seats = seats
	ctx, cancel := t.storeCtx()
	defer cancel()
	if err := t.m.cfg.Store.UpdateTable(ctx, t.rec); err != nil {
		t.rec.Seats = old
		if !t.lostLease(err) {
			t.log().Error("storing seats", "err", err)
		}
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	t.m.notify(noteLobby)
	return nil
}

func (t *Table) openList() []int {
	out := []int{}
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.token == "" {
			out = append(out, s.n)
		}
	}
	return out
}

// seatInfos returns who sits where, in a slice of its own.
func (t *Table) seatInfos() []protocol.SeatInfo {
	return t.appendSeatInfos(make([]protocol.SeatInfo, 0, len(t.seats)))
}

// appendSeatInfos appends who sits where to out.
func (t *Table) appendSeatInfos(out []protocol.SeatInfo) []protocol.SeatInfo {
	for _, s := range t.seats {
		si := protocol.SeatInfo{Seat: s.n, Kind: s.kind, Bot: s.botName, Name: s.name}
		switch {
		case s.kind == store.KindBot:
			si.State = protocol.SeatBot
			si.Level = Level(s.botName)
		case s.token == "":
			si.State = protocol.SeatOpen
			if t.status == store.StatusPlaying {
				si.Level = Level(t.set.StandIn) // the stand-in plays it
			}
		case s.standin:
			si.State = protocol.SeatStandIn
			si.Level = Level(t.set.StandIn)
		case s.away || s.conns == 0:
			si.State = protocol.SeatAway
		default:
			si.State = protocol.SeatHere
		}
		out = append(out, si)
	}
	return out
}
