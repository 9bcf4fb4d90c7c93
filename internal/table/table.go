// Package table runs live tables: seats, the actor goroutine that owns each
// game's state, bots and stand-ins, turn clocks, disconnects and the event
// log, with every move stored as it is made.
//
// A Table is an actor: one goroutine owns the game state and everything
// about the table, and every request (join, leave, attach, move, a bot's
// choice, a timer) reaches it through its inbox. Connections are Subs: the
// table pushes encoded frames into each Sub's bounded queue and drops a Sub
// whose queue is full rather than wait for it. The package knows nothing of
// HTTP or WebSockets; internal/server puts it on the network.
package table

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"parlour/bot"
	"parlour/game"
	"parlour/internal/store"
)

// Errors of table requests; match them with errors.Is.
var (
	// ErrNotFound marks a table that does not exist.
	ErrNotFound = errors.New("no such table")
	// ErrBadRequest marks a request the table cannot take (bad game,
	// options, seats, settings, names).
	ErrBadRequest = errors.New("bad request")
	// ErrSeatTaken marks a seat that is not open.
	ErrSeatTaken = errors.New("seat not open")
	// ErrBadToken marks a token that holds no seat of the table.
	ErrBadToken = errors.New("bad seat token")
	// ErrNotOver marks a request that needs a finished game.
	ErrNotOver = errors.New("the game is not over")
	// ErrOver marks a request that needs a game still to play.
	ErrOver = errors.New("the game is over")
	// ErrClosed marks a table that has stopped (server shutting down).
	ErrClosed = errors.New("table closed")
	// ErrUnavailable marks a store failure; nothing was changed.
	ErrUnavailable = errors.New("store unavailable")
	// ErrSlow is why a Sub whose queue filled up was dropped.
	ErrSlow = errors.New("too slow: the connection fell behind and was dropped")
	// ErrLeft is why a Sub was closed when its seat's player left.
	ErrLeft = errors.New("the seat was left")
)

// Settings are a table's own settings, beside the game's options.
type Settings struct {
	// ClockMS is the time a person has for each decision, in
	// milliseconds; when it runs out the stand-in bot moves. 0: no clock.
	ClockMS int64 `json:"clock_ms"`
	// GraceMS is how long a dropped player's seat waits, in milliseconds,
	// before the stand-in bot plays it.
	GraceMS int64 `json:"grace_ms"`
	// StandIn names the bot that stands in for absent players.
	StandIn string `json:"standin"`
	// ThinkMS is the time the table's search bots think per move, in
	// milliseconds; 0: each level's own iterations, cut short at
	// bot.LevelCap.
	ThinkMS int64 `json:"think_ms"`
}

// Info is a table as the lobby shows it.
type Info struct {
	ID         string         `json:"id"`
	Game       string         `json:"game"`
	Title      string         `json:"title"`
	Options    map[string]any `json:"options"`
	Clock      float64        `json:"clock"` // seconds per decision; 0: none
	Grace      float64        `json:"grace"` // seconds
	StandIn    string         `json:"standin"`
	Think      int64          `json:"think"` // ms a search bot thinks per move; 0: its level's own settings
	Status     string         `json:"status"`
	Seats      []SeatInfo     `json:"seats"`
	Open       []int          `json:"open"` // seats one may join
	Moves      int            `json:"moves"`
	Spectators int            `json:"spectators"`
	Result     *Result        `json:"result,omitempty"` // once over
	RematchOf  string         `json:"rematch_of,omitempty"`
	Rematch    string         `json:"rematch,omitempty"`
	CreatedAt  time.Time      `json:"created_at"`
}

// JoinResult is a seat taken at a table.
type JoinResult struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	// Token is the seat's secret: 128 random bits in hex. It is shown
	// once; every move and every reconnection needs it.
	Token string `json:"token"`
}

// Sub is one connection's subscription to a table: the frames the table
// sends it, each a JSON message ready to write.
type Sub struct {
	seat   int
	c      chan []byte
	closed bool  // by the actor
	err    error // why it was closed; read after C is closed
}

// Seat returns the sub's seat, or game.Spectator.
func (s *Sub) Seat() int { return s.seat }

// C returns the frames to send, in order. The table closes it when it
// drops the sub; Err then says why.
func (s *Sub) C() <-chan []byte { return s.c }

// Err says why C was closed: ErrSlow, ErrLeft, ErrClosed, or nil after
// Detach.
func (s *Sub) Err() error { return s.err }

type seat struct {
	n        int
	kind     string // store.KindHuman or store.KindBot
	botName  string
	b        bot.Bot
	name     string
	token    string // hex SHA-256 of the token; "" while open
	conns    int
	away     bool
	awayGen  int
	standin  bool
	job      int // bumped to void pending bot work
	thinking bool
	deadline time.Time
	clockGen int
}

// Table is one live table. Its methods are safe for concurrent use; all of
// them hand their work to the table's goroutine.
type Table struct {
	id    string
	g     game.Game
	opts  game.Options
	set   Settings
	m     *Manager
	stand bot.Bot

	// bots is the bots of the seats, external ones (bot.Seater) following
	// the match seat by seat.
	bots *bot.Table

	// Owned by the actor goroutine.
	st       game.State
	rec      *store.Table
	moves    int
	status   string
	seats    []*seat
	subs     map[*Sub]struct{}
	rng      *mrand.Rand
	idleGen  int
	stopping bool

	inbox    chan func()
	quit     chan struct{}
	quitOnce sync.Once
	done     chan struct{}
	info     atomic.Pointer[Info]
}

// ID returns the table's id.
func (t *Table) ID() string { return t.id }

// Info returns the table's lobby entry.
func (t *Table) Info() Info { return *t.info.Load() }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if len([]rune(name)) > 32 {
		return "", fmt.Errorf("%w: a name has at most 32 characters", ErrBadRequest)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", fmt.Errorf("%w: a name may not hold control characters", ErrBadRequest)
		}
	}
	return name, nil
}

// start runs the actor.
func (t *Table) start() {
	go t.run()
}

func (t *Table) run() {
	defer close(t.done)
	for {
		select {
		case f := <-t.inbox:
			t.safely(f)
			if t.stopping {
				t.closeSubs(ErrClosed)
				return
			}
		case <-t.quit:
			t.closeSubs(ErrClosed)
			return
		}
	}
}

// safely runs f; a panic (a bug in a game or here) stops this table only:
// its connections are closed, and the next request rebuilds it from the
// store, where every move made is kept.
func (t *Table) safely(f func()) {
	defer func() {
		if r := recover(); r != nil {
			t.log().Error("the table panicked; it is unloaded and will be rebuilt from the store", "panic", r)
			t.m.forget(t)
			t.stopping = true
		}
	}()
	f()
}

// stop ends the actor and waits for it.
func (t *Table) stop() {
	t.quitOnce.Do(func() { close(t.quit) })
	<-t.done
}

// call runs f on the actor and waits for it.
func (t *Table) call(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case t.inbox <- func() { f(); close(ran) }:
	case <-t.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ran:
		return nil
	case <-t.done:
		select {
		case <-ran:
			return nil
		default:
			return ErrClosed
		}
	}
}

// post hands f to the actor without waiting for it to run.
func (t *Table) post(f func()) {
	select {
	case t.inbox <- f:
	case <-t.done:
	}
}

// after runs f on the actor after d.
func (t *Table) after(d time.Duration, f func()) {
	time.AfterFunc(d, func() { t.post(f) })
}

func (t *Table) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

func (t *Table) log() *slog.Logger { return t.m.log.With("table", t.id) }

// --- requests ---

// Attach connects a client: with a seat token to play that seat, or as a
// spectator. The sub's first frames are a welcome and the current state.
func (t *Table) Attach(ctx context.Context, token string, spectate bool) (*Sub, error) {
	var sub *Sub
	var err error
	if e := t.call(ctx, func() { sub, err = t.attach(token, spectate) }); e != nil {
		return nil, e
	}
	return sub, err
}

// Detach disconnects a sub. It is safe to call more than once, and after
// the table dropped the sub.
func (t *Table) Detach(sub *Sub) {
	t.post(func() { t.detach(sub, nil) })
}

// Move submits a move in notation ("play 7S", or "2: play 7S") from sub.
// The answer comes as frames: a refusal to sub only, or the new state to
// everyone. id, if not empty, is echoed in a refusal.
func (t *Table) Move(ctx context.Context, sub *Sub, text string, seat *int, id string) error {
	return t.call(ctx, func() { t.humanMove(sub, text, seat, id) })
}

// Sync sends sub a fresh state frame.
func (t *Table) Sync(ctx context.Context, sub *Sub) error {
	return t.call(ctx, func() {
		if _, ok := t.subs[sub]; ok {
			t.send(sub, t.stateFrame(sub.seat, []Event{}))
		}
	})
}

// Refuse sends sub an error frame (the server's refusals of messages that
// never reach the game go through the table so frames stay in order).
func (t *Table) Refuse(sub *Sub, code, message, id string) {
	t.post(func() {
		if _, ok := t.subs[sub]; ok {
			t.refuse(sub, code, message, id, "")
		}
	})
}

// Join takes seat (or the first open seat when seat < 0) for a person
// called name and returns the seat's token.
func (t *Table) Join(ctx context.Context, seatNo int, name string) (JoinResult, error) {
	name, err := cleanName(name)
	if err != nil {
		return JoinResult{}, err
	}
	var res JoinResult
	if e := t.call(ctx, func() { res, err = t.join(seatNo, name) }); e != nil {
		return JoinResult{}, e
	}
	return res, err
}

// Leave gives up the seat token holds. In a running game the stand-in
// bot plays the seat from then on, and anyone may join it.
func (t *Table) Leave(ctx context.Context, token string) error {
	var err error
	if e := t.call(ctx, func() { err = t.leave(token) }); e != nil {
		return e
	}
	return err
}

// Public returns the spectators' view and the number of moves made.
func (t *Table) Public(ctx context.Context) (any, int, error) {
	var view any
	var seq int
	if err := t.call(ctx, func() {
		view, seq = t.st.View(game.Spectator), t.moves
		b, _ := json.Marshal(view) // a copy the caller may keep
		view = json.RawMessage(b)
	}); err != nil {
		return nil, 0, err
	}
	return view, seq, nil
}

// --- the actor's work ---

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
	sub := &Sub{seat: n, c: make(chan []byte, t.m.cfg.Queue)}
	t.subs[sub] = struct{}{}
	t.idleGen++
	t.send(sub, t.encode(Welcome{V: ProtocolVersion, Type: TypeWelcome, Table: t.id, Game: t.g.Name(),
		Title: t.g.Title(), Seat: n, Players: t.st.Players()}))
	var events []Event
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
			events = append(events, Event{Kind: EventBack, Seat: s.n, At: time.Now()})
		}
	}
	t.send(sub, t.stateFrame(n, []Event{}))
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
	if !sub.closed {
		sub.closed = true
		sub.err = why
		close(sub.c)
	}
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
	t.broadcastSeats([]Event{{Kind: EventAway, Seat: s.n, At: time.Now()}}, nil)
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
	t.broadcastSeats([]Event{{Kind: EventStandIn, Seat: s.n, At: time.Now()}}, nil)
	t.schedule()
	t.updateInfo()
}

func (t *Table) join(n int, name string) (JoinResult, error) {
	if t.status == store.StatusOver {
		return JoinResult{}, fmt.Errorf("%w: table %s", ErrOver, t.id)
	}
	if n < 0 {
		for _, s := range t.seats {
			if s.kind == store.KindHuman && s.token == "" {
				n = s.n
				break
			}
		}
		if n < 0 {
			return JoinResult{}, fmt.Errorf("%w: table %s has no open seat", ErrSeatTaken, t.id)
		}
	}
	if n >= len(t.seats) {
		return JoinResult{}, fmt.Errorf("%w: no seat %d (seats are 0-%d)", ErrBadRequest, n, len(t.seats)-1)
	}
	s := t.seats[n]
	if s.kind != store.KindHuman {
		return JoinResult{}, fmt.Errorf("%w: seat %d is a bot's", ErrSeatTaken, n)
	}
	if s.token != "" {
		return JoinResult{}, fmt.Errorf("%w: seat %d is taken", ErrSeatTaken, n)
	}
	token := newToken()
	s.token = hashToken(token)
	s.name = name
	if err := t.saveSeats(); err != nil {
		s.token, s.name = "", ""
		return JoinResult{}, err
	}
	if t.status == store.StatusPlaying {
		// The stand-in plays on until the new player connects.
		s.away, s.standin = true, true
		s.awayGen++
	}
	t.broadcastSeats([]Event{{Kind: EventJoin, Seat: n, At: time.Now()}}, nil)
	if t.status == store.StatusWaiting && t.openSeats() == 0 {
		t.begin()
	}
	t.updateInfo()
	return JoinResult{Table: t.id, Seat: n, Token: token}, nil
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
	ctx, cancel := t.storeCtx()
	if err := t.m.cfg.Store.UpdateTable(ctx, t.rec); err != nil {
		t.log().Error("storing the start", "err", err)
	}
	cancel()
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.conns == 0 {
			s.away = true
			s.awayGen++
			t.startGrace(s)
		}
	}
	t.broadcastState(func(int) []Event { return []Event{{Kind: EventStart, Seat: -1, At: time.Now()}} })
	t.schedule()
}

func (t *Table) leave(token string) error {
	s := t.findToken(token)
	if s == nil {
		return fmt.Errorf("%w: no seat of table %s has that token", ErrBadToken, t.id)
	}
	oldToken, oldName := s.token, s.name
	s.token, s.name = "", ""
	if err := t.saveSeats(); err != nil {
		s.token, s.name = oldToken, oldName
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
	t.broadcastSeats([]Event{{Kind: EventLeave, Seat: s.n, At: time.Now()}}, nil)
	t.schedule()
	t.updateInfo()
	return nil
}

func (t *Table) saveSeats() error {
	seats := make([]store.Seat, len(t.seats))
	for i, s := range t.seats {
		seats[i] = store.Seat{Kind: s.kind, Bot: s.botName, Name: s.name, TokenHash: s.token}
	}
	old := t.rec.Seats
	t.rec.Seats = seats
	ctx, cancel := t.storeCtx()
	defer cancel()
	if err := t.m.cfg.Store.UpdateTable(ctx, t.rec); err != nil {
		t.rec.Seats = old
		t.log().Error("storing seats", "err", err)
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

func (t *Table) refuse(sub *Sub, code, message, id, move string) {
	t.send(sub, t.encode(Error{V: ProtocolVersion, Type: TypeError, Code: code, Message: message, ID: id, Move: move}))
}

// humanMove handles a move a connection sent.
func (t *Table) humanMove(sub *Sub, text string, claimed *int, id string) {
	if _, ok := t.subs[sub]; !ok {
		return
	}
	if sub.seat < 0 {
		t.refuse(sub, CodeSpectator, "spectators may not move", id, text)
		return
	}
	if len(text) > maxMoveText {
		t.refuse(sub, CodeTooLarge, fmt.Sprintf("a move has at most %d bytes", maxMoveText), id, "")
		return
	}
	n, moveText, hasSeat, err := game.CutSeat(text)
	if err != nil {
		t.refuse(sub, CodeBadMove, err.Error(), id, text)
		return
	}
	if hasSeat {
		claimed = &n
	}
	if claimed != nil && *claimed != sub.seat {
		t.refuse(sub, CodeNotYourSeat, fmt.Sprintf("your token holds seat %d, not seat %d", sub.seat, *claimed), id, text)
		return
	}
	switch t.status {
	case store.StatusWaiting:
		t.refuse(sub, CodeNotStarted, fmt.Sprintf("the game has not started: seats %v are open", t.openList()), id, text)
		return
	case store.StatusOver:
		t.refuse(sub, CodeOver, "the game is over", id, text)
		return
	}
	m, err := t.st.ParseMove(sub.seat, moveText)
	if err != nil {
		t.refuse(sub, CodeBadMove, err.Error(), id, text)
		return
	}
	if !t.st.ToAct().Has(sub.seat) {
		err := game.Check(t.st, sub.seat, m)
		t.refuse(sub, CodeNotYourTurn, err.Error(), id, text)
		return
	}
	if err := t.apply(sub.seat, m, ""); err != nil {
		code := CodeIllegalMove
		if errors.Is(err, ErrUnavailable) {
			code = CodeUnavailable
		}
		t.refuse(sub, code, err.Error(), id, text)
		return
	}
	t.schedule()
}

const maxMoveText = 256

func (t *Table) openList() []int {
	out := []int{}
	for _, s := range t.seats {
		if s.kind == store.KindHuman && s.token == "" {
			out = append(out, s.n)
		}
	}
	return out
}

// apply makes a move, stores it and tells everyone. A refused move or a
// store failure changes nothing.
func (t *Table) apply(n int, m game.Move, by string) error {
	before := t.st.ToAct()
	prev := t.st.Clone()
	text := t.st.FormatMove(m)
	if err := game.Apply(t.st, n, m); err != nil {
		return err
	}
	rec := store.Move{N: t.moves, Seat: n, Text: text, By: by, At: time.Now().UTC()}
	ctx, cancel := t.storeCtx()
	err := t.m.cfg.Store.AppendMove(ctx, t.id, rec)
	cancel()
	if err != nil {
		t.st = prev
		t.log().Error("storing a move", "move", rec.N, "err", err)
		return fmt.Errorf("%w: the move was not made: %v", ErrUnavailable, err)
	}
	t.moves++
	t.m.moveCount.Add(1)
	t.bots.Moved(t.st, n, m, before.Len() > 1)
	s := t.seats[n]
	s.job++
	s.thinking = false
	s.deadline = time.Time{}
	s.clockGen++
	var overEvent []Event
	if t.st.ToAct() == 0 {
		t.finish()
		overEvent = []Event{{Kind: EventOver, Seat: -1, At: rec.At}}
	}
	t.broadcastMove(rec, before, overEvent)
	t.updateInfo()
	return nil
}

// finish records the end of the game.
func (t *Table) finish() {
	// External bots hear of the end (and stop) off the actor.
	go t.bots.End(t.st.Clone())
	t.status = store.StatusOver
	t.rec.Status = store.StatusOver
	res, _ := json.Marshal(resultOf(t.st.Result()))
	t.rec.Result = res
	for _, s := range t.seats {
		s.deadline = time.Time{}
		s.clockGen++
		s.job++
		s.thinking = false
	}
	ctx, cancel := t.storeCtx()
	defer cancel()
	if err := t.m.cfg.Store.UpdateTable(ctx, t.rec); err != nil {
		t.log().Error("storing the result", "err", err)
	}
	t.maybeIdle()
}

// botPlays reports whether a bot chooses the seat's moves now.
func (t *Table) botPlays(s *seat) bool {
	return t.status == store.StatusPlaying && (s.kind == store.KindBot || s.token == "" || s.standin)
}

// schedule starts bots and clocks for the seats to act.
func (t *Table) schedule() {
	if t.status != store.StatusPlaying {
		return
	}
	act := t.st.ToAct()
	now := time.Now()
	for _, s := range t.seats {
		if !act.Has(s.n) || t.botPlays(s) {
			if !s.deadline.IsZero() {
				s.deadline = time.Time{}
				s.clockGen++
			}
		}
		if !act.Has(s.n) {
			continue
		}
		if t.botPlays(s) {
			if !s.thinking {
				by := "bot"
				if s.kind == store.KindHuman {
					by = "standin"
				}
				t.think(s, by, t.botDelay())
			}
			continue
		}
		if t.set.ClockMS > 0 && s.deadline.IsZero() {
			d := time.Duration(t.set.ClockMS) * time.Millisecond
			s.deadline = now.Add(d)
			s.clockGen++
			gen := s.clockGen
			t.after(d, func() { t.clockRanOut(s, gen) })
		}
	}
}

func (t *Table) botDelay() time.Duration {
	d := t.m.cfg.BotDelay
	if d <= 0 {
		return 0
	}
	return time.Duration(float64(d) * (0.5 + t.rng.Float64()))
}

// clockRanOut has the stand-in make the move of a person out of time.
func (t *Table) clockRanOut(s *seat, gen int) {
	if gen != s.clockGen || t.status != store.StatusPlaying || !t.st.ToAct().Has(s.n) || t.botPlays(s) || s.thinking {
		return
	}
	t.think(s, "clock", 0)
}

// think has the seat's bot (or stand-in) choose a move on a copy of the
// state, off the actor, after delay; the choice comes back to the actor.
func (t *Table) think(s *seat, by string, delay time.Duration) {
	b := s.b
	if s.kind != store.KindBot {
		b = t.stand
	}
	s.job++
	s.thinking = true
	gen := s.job
	clone := t.st.Clone()
	seed := t.rng.Uint64()
	n := s.n
	go func() {
		if delay > 0 {
			timer := time.NewTimer(delay)
			select {
			case <-timer.C:
			case <-t.quit:
				timer.Stop()
				return
			}
		}
		var m game.Move
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil {
					t.m.log.Error("a bot panicked", "table", t.id, "bot", b.Name(), "panic", r)
				}
			}()
			m = b.Choose(clone, n, mrand.New(mrand.NewPCG(seed, uint64(gen))))
			return true
		}()
		t.post(func() { t.botMoved(s, gen, m, ok, by) })
	}()
}

func (t *Table) botMoved(s *seat, gen int, m game.Move, ok bool, by string) {
	if gen != s.job {
		return
	}
	s.thinking = false
	if t.status != store.StatusPlaying || !t.st.ToAct().Has(s.n) {
		return
	}
	if by == "clock" {
		if t.botPlays(s) {
			t.schedule()
			return
		}
	} else if !t.botPlays(s) {
		t.schedule()
		return
	}
	if !ok {
		m = bot.Random{}.Choose(t.st, s.n, t.rng)
	}
	if err := t.apply(s.n, m, by); err != nil {
		t.log().Error("a bot's move was refused", "seat", s.n, "err", err)
		if !errors.Is(err, ErrUnavailable) {
			// Play on with a legal move rather than stall the table.
			if err := t.apply(s.n, bot.Random{}.Choose(t.st, s.n, t.rng), by); err != nil {
				t.log().Error("a random move was refused", "seat", s.n, "err", err)
			}
		} else {
			// Try again after a pause: the store may come back.
			s.job++
			gen := s.job
			s.thinking = true
			t.after(time.Second, func() {
				if gen == s.job {
					s.thinking = false
					t.schedule()
				}
			})
			return
		}
	}
	t.schedule()
}

// --- frames ---

func (t *Table) encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		// Views are the games' JSON-marshalable structs; this is a bug.
		t.log().Error("encoding a frame", "err", err)
		b, _ = json.Marshal(Error{V: ProtocolVersion, Type: TypeError, Code: CodeUnavailable, Message: "internal error encoding a frame"})
	}
	return b
}

// send queues a frame for sub, dropping the sub if its queue is full.
func (t *Table) send(sub *Sub, frame []byte) {
	if sub.closed {
		return
	}
	select {
	case sub.c <- frame:
	default:
		t.log().Warn("dropping a slow connection", "seat", sub.seat)
		t.detach(sub, ErrSlow)
	}
}

func (t *Table) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(t.seats))
	for i, s := range t.seats {
		si := SeatInfo{Seat: s.n, Kind: s.kind, Bot: s.botName, Name: s.name}
		switch {
		case s.kind == store.KindBot:
			si.State = SeatBot
		case s.token == "":
			si.State = SeatOpen
		case s.standin:
			si.State = SeatStandIn
		case s.away || s.conns == 0:
			si.State = SeatAway
		default:
			si.State = SeatHere
		}
		out[i] = si
	}
	return out
}

func (t *Table) clocks() []Clock {
	out := []Clock{}
	now := time.Now()
	for _, s := range t.seats {
		if !s.deadline.IsZero() {
			out = append(out, Clock{Seat: s.n, RemainingMS: max(0, s.deadline.Sub(now).Milliseconds())})
		}
	}
	return out
}

// stateFrame encodes the state as seat n (or a spectator) sees it.
func (t *Table) stateFrame(n int, events []Event) []byte {
	msg := State{V: ProtocolVersion, Type: TypeState, Table: t.id, Seat: n, Seq: t.moves, Status: t.status,
		ToAct: []int{}, Legal: []string{}, View: t.st.View(n), Result: resultOf(t.st.Result()),
		Seats: t.seatInfos(), Clocks: t.clocks(), Events: events}
	if t.status == store.StatusPlaying {
		msg.ToAct = t.st.ToAct().List()
		if n >= 0 && t.st.ToAct().Has(n) {
			msg.Legal = game.LegalText(t.st, n)
		}
	}
	return t.encode(msg)
}

// broadcastState sends every sub its seat's state with the events
// events(seat) returns.
func (t *Table) broadcastState(events func(n int) []Event) {
	frames := make([][]byte, len(t.seats)+1)
	for sub := range t.subs {
		i := sub.seat + 1
		if frames[i] == nil {
			frames[i] = t.stateFrame(sub.seat, events(sub.seat))
		}
		t.send(sub, frames[i])
	}
}

// broadcastMove sends everyone the state after a move, with the move told
// as each receiver may know it (see visibility.go).
func (t *Table) broadcastMove(rec store.Move, before game.Seats, extra []Event) {
	if len(t.subs) == 0 {
		return
	}
	visible := game.VisibleSets(t.st.Places(), t.st.Players())
	cards := game.CardWords(rec.Text)
	simultaneous := before.Len() > 1
	t.broadcastState(func(n int) []Event {
		ev := Event{Kind: EventMove, N: rec.N + 1, Seat: rec.Seat, By: rec.By, At: rec.At}
		if game.MayReadMove(n, rec.Seat, simultaneous, cards, visible) {
			ev.Move = rec.Text
		} else {
			ev.Hidden = true
		}
		return append([]Event{ev}, extra...)
	})
}

// broadcastSeats tells every sub but skip who sits where now.
func (t *Table) broadcastSeats(events []Event, skip *Sub) {
	frame := t.encode(Seats{V: ProtocolVersion, Type: TypeSeats, Table: t.id, Seq: t.moves, Seats: t.seatInfos(), Events: events})
	for sub := range t.subs {
		if sub != skip {
			t.send(sub, frame)
		}
	}
}

func (t *Table) closeSubs(why error) {
	for sub := range t.subs {
		delete(t.subs, sub)
		if !sub.closed {
			sub.closed = true
			sub.err = why
			close(sub.c)
		}
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
	info := Info{
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
		r := resultOf(t.st.Result())
		info.Result = &r
	}
	t.info.Store(&info)
}
