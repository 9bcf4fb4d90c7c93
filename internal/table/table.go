// Package table runs live tables: seats, the actor goroutine that owns each
// game's state, bots and stand-ins, turn clocks, disconnects and the event
// log, with every move stored as it is made.
//
// A Table is an actor: one goroutine owns the game state and everything
// about the table, and every request (join, leave, attach, move, a bot's
// choice, a timer) reaches it through its inbox, and one of the manager's
// long-lived actor goroutines runs it only while there is work (an idle
// table holds none; actors.go). Connections are Subs: the
// table pushes encoded frames into each Sub's bounded queue and drops a Sub
// whose queue is full rather than wait for it. The package knows nothing of
// HTTP or WebSockets; internal/server puts it on the network.
package table

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"parlour/bot"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
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
	// ErrUnavailable marks a store failure, or a table too busy to take
	// a request (ErrBusy); nothing was changed.
	ErrUnavailable = errors.New("store unavailable")
	// ErrSlow is why a Sub whose queue filled up was dropped.
	ErrSlow = errors.New("too slow: the connection fell behind and was dropped")
	// ErrLeft is why a Sub was closed when its seat's player left.
	ErrLeft = errors.New("the seat was left")
	// ErrBusy marks a request refused because its table has Config.Inbox
	// pieces of work waiting; nothing was changed. It is an
	// ErrUnavailable too, so that a caller that knows only that one
	// answers "try again later".
	ErrBusy = fmt.Errorf("%w: the table is busy (too much work waiting for it); try again", ErrUnavailable)
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

// Frame is one message for a connection, encoded: the same Frame goes to
// every connection that gets it (one encoding per seat per move), so it
// must not be changed. A queue holds pointers to frames: a connection's
// queue of 256 costs 2 KiB, not 6.
//
// The frames of moves are encoded into pooled buffers (a busy server
// sends thousands a second, and garbage collection is most of what slows
// its tail): such a frame counts the queues it is in, and the buffer goes
// back to the pool once every connection has written it and called
// Release. A frame never released (a test's, a dropped connection's) is
// left to the garbage collector like any other.
type Frame struct {
	Data []byte // a JSON message ready to write
	// buf is the buffer Data is in, nil for a frame not pooled: a pooled
	// frame and its buffer are used again together once released. refs
	// counts the holders still to release it (the table, until it has
	// queued it, and each queue it is in).
	buf  *bytes.Buffer
	refs atomic.Int32
}

// Release says that whoever took f from a Sub's queue is done with its
// Data: the connection's writer calls it once the frame is written (or
// given up). Neither f nor its Data may be read after.
func (f *Frame) Release() {
	if f.buf == nil || f.refs.Add(-1) != 0 {
		return
	}
	f.Data = nil
	if f.buf.Cap() <= maxPooledFrame {
		framePool.Put(f)
	}
}

// hold counts one more holder of a pooled frame.
func (f *Frame) hold() {
	if f.buf != nil {
		f.refs.Add(1)
	}
}

// maxPooledFrame is the largest buffer kept for reuse (a state frame is
// one or two KiB; a rare big one is not kept).
const maxPooledFrame = 64 << 10

// framePool holds released frames, each with its buffer.
var framePool = sync.Pool{New: func() any { return &Frame{buf: new(bytes.Buffer)} }}

// Sub is one connection's subscription to a table: the frames the table
// sends it, each a JSON message ready to write.
type Sub struct {
	seat   int
	closed bool  // by the actor
	err    error // why it was closed; read once Next says so
	// holding says the frames for the sub wait in held (by the actor)
	// while the log of the table's recent past, which goes first, is
	// worked out (recent.go).
	holding bool
	held    []*Frame
	wake    atomic.Pointer[func()]

	// The connection's message being read (Handle), one at a time: its
	// bytes, when it was received, the work that reads it on the actor,
	// made once, the signal that it was read, and whether that signal is
	// still to come (the connection's goroutine's alone). When outCode is
	// set the item is not a message but a refusal to send (Refuse, or a
	// message refused for a full inbox), with its message and id.
	in                     []byte
	start                  time.Time
	handle                 func()
	handled                chan struct{}
	reading                bool
	outCode, outMsg, outID string

	// owed and detachOwed (under the table's mu) say that the sub's item,
	// and its Detach, wait in the table's owed list rather than in its
	// full inbox (owe).
	owed, detachOwed bool

	// mu guards the queue, which the actor adds to and the writer takes
	// from. It grows as frames wait and is used again once empty, so an
	// idle connection holds a few words (a channel of the queue's whole
	// size would be 2 KiB of pointers for the collector to scan).
	mu    sync.Mutex
	queue []*Frame // frames to send, oldest first from head
	head  int
	ended bool // no frame follows those queued
}

// maxKeptQueue is the most frames an emptied queue keeps room for; a
// queue that grew past it in a burst gives its memory back.
const maxKeptQueue = 32

// push queues f (by the actor).
func (s *Sub) push(f *Frame) {
	s.mu.Lock()
	s.queue = append(s.queue, f)
	s.mu.Unlock()
}

// shut marks the queue ended (by the actor): Next reports it once the
// frames queued before are taken.
func (s *Sub) shut() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
}

// queued is the number of frames waiting to be taken.
func (s *Sub) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue) - s.head
}

// pending is the number of frames for the sub not yet taken: queued, or
// held back (by the actor).
func (s *Sub) pending() int { return s.queued() + len(s.held) }

// drop ends the sub for why (by the actor): its held frames are let go,
// and Next reports the end once the queued ones are taken.
func (s *Sub) drop(why error) {
	if s.closed {
		return
	}
	s.closed = true
	s.held = nil
	s.err = why
	s.shut()
	s.notify()
}

// SetWake has the table call wake after each frame it queues and when it
// ends the queue, so a writer need not wait: it can take frames with Next
// when woken and stop while none is queued. SetWake calls wake once
// itself, for the frames queued before it.
func (s *Sub) SetWake(wake func()) {
	s.wake.Store(&wake)
	wake()
}

// notify tells the sub's writer there is something to take with Next.
func (s *Sub) notify() {
	if w := s.wake.Load(); w != nil {
		(*w)()
	}
}

// Seat returns the sub's seat, or game.Spectator.
func (s *Sub) Seat() int { return s.seat }

// Next takes the oldest frame queued for the sub, to send and then
// Release. It returns (frame, true); (nil, true) while nothing is queued;
// and (nil, false) once the table has dropped the sub and every frame
// queued before was taken (Err then says why).
func (s *Sub) Next() (*Frame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head == len(s.queue) {
		if cap(s.queue) > maxKeptQueue {
			s.queue = nil
		}
		s.queue, s.head = s.queue[:0], 0
		return nil, !s.ended
	}
	f := s.queue[s.head]
	s.queue[s.head] = nil
	s.head++
	return f, true
}

// Err says why the table dropped the sub: ErrSlow, ErrLeft, ErrClosed,
// or nil after Detach.
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
	chatRate chatRate
	// The bot's think under way (job): who moves (by), the seed of its
	// choice, and how often it has waited for a slow connection; and the
	// generator a quick bot chooses with, seeded anew for each move.
	thinkBy     string
	thinkSeed   uint64
	thinkWaited int
	pcg         mrand.PCG
	rnd         *mrand.Rand
	// The think armed to start (arm): for which job (0: none; a think's
	// job is never 0) and when; the seat's timer, and the work its fire
	// posts to the actor.
	armedJob int
	armedAt  time.Time
	timer    *time.Timer
	fire     func()
	// searchDue is when the search pool's choice for the think under way
	// is due, at the bot's think limit (zero: none awaited); past it the
	// heuristic moves instead (the seat's timer wakes the seat then).
	searchDue time.Time
	// The seat's clock's timer, set again for each deadline; woken says
	// fire is in the inbox (one at a time: wake); answer is the choice
	// of the seat's newest think made off the actor, until the actor
	// takes it (under answerMu).
	clock    *time.Timer
	woken    atomic.Bool
	answerMu sync.Mutex
	answer   *choice
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
	stopWhy  error // why the subs are closed when stopping; nil: ErrClosed
	// doubt is set when a move's store call failed: the store may hold
	// the move all the same, so the next move first reads back how many
	// it has (resolveDoubt).
	doubt bool
	// recFailing is set while the table's record could not be stored,
	// and recRetry while a retry is due (saveRecord).
	recFailing, recRetry bool
	// moveCtx is the context a move is stored under (apply), used again.
	moveCtx deadlineCtx
	// narrator tells moves in words (the game's state, when it can).
	narrator game.Narrator
	// dealEnds is, while a move that ended a deal is told, each
	// receiver's view of that deal's end (frames.go); dealWatch keeps it.
	dealEnds  []protocol.DealEnd
	dealWatch func(game.State)
	// chatLog is the table's last chat messages, oldest first (chat.go).
	chatLog []store.ChatMessage

	// The chat read from the store (set on the actor, read anywhere), and
	// the messages waiting to be stored, in order, by one goroutine at a
	// time.
	chatLoaded  atomic.Bool
	chatMu      sync.Mutex
	chatQueue   []store.ChatMessage
	chatWriting bool

	// The actor's inbox: work waits here, and one of the manager's actors
	// runs it only while there is some (an idle table holds no goroutine,
	// and so no stack).
	mu      sync.Mutex
	inbox   []func()
	spare   []func() // the other half of a double buffer
	running bool     // an actor is draining the inbox
	// waits is the actors' line the table waits in (waitsNot, waitsPeople,
	// waitsOwn), guarded by the actors' mu.
	waits int8
	ended bool // the actor has stopped; done is closed
	// owed are the subs whose item or Detach came while the inbox was
	// full (each at most once), and settling says the one piece of work
	// that settles them is in the inbox (owe).
	owed     []*Sub
	settling bool
	quit     chan struct{}
	quitOnce sync.Once
	done     chan struct{}
	info     atomic.Pointer[protocol.TableInfo]
	// infoMoves is the lobby entry's move count, kept apart so that a
	// move does not rebuild the entry.
	infoMoves atomic.Int64
}

// ID returns the table's id.
func (t *Table) ID() string { return t.id }

// Info returns the table's lobby entry.
func (t *Table) Info() protocol.TableInfo {
	info := *t.info.Load()
	info.Moves = int(t.infoMoves.Load())
	return info
}

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

// run drains the inbox, one piece of work at a time, until it is empty
// or the table stops. post starts it when work arrives at an idle table.
func (t *Table) run() {
	for {
		t.mu.Lock()
		batch := t.inbox
		if len(batch) == 0 {
			t.running = false
			t.mu.Unlock()
			return
		}
		t.inbox = t.spare[:0]
		t.mu.Unlock()
		for i, f := range batch {
			batch[i] = nil
			select {
			case <-t.quit:
				t.stopping = true
			default:
				t.safely(f)
			}
			if t.stopping {
				t.end()
				return
			}
		}
		t.spare = batch[:0]
	}
}

// end stops the actor: the subs are closed, later work is refused, and
// done is closed (callers waiting for work that never ran see it).
func (t *Table) end() {
	why := t.stopWhy
	select {
	case <-t.quit:
		why = cmp.Or(why, t.m.closeWhy())
	default:
	}
	t.closeSubs(cmp.Or(why, ErrClosed))
	t.mu.Lock()
	t.ended, t.running = true, false
	t.inbox, t.spare = nil, nil
	t.owed = nil
	t.mu.Unlock()
	close(t.done)
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
	t.post(func() {}) // wakes the actor, which sees quit
	<-t.done
}

// call runs f, the manager's own work, on the actor and waits for it.
func (t *Table) call(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ran := make(chan struct{})
	if !t.post(func() { f(); close(ran) }) {
		return ErrClosed
	}
	return t.wait(ran)
}

// request runs f, a client's request, on the actor and waits for it;
// ErrBusy, without running it, if the inbox is full.
func (t *Table) request(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ran := make(chan struct{})
	ok, full := t.admit(func() { f(); close(ran) })
	switch {
	case full:
		return ErrBusy
	case !ok:
		return ErrClosed
	}
	return t.wait(ran)
}

// wait waits for ran, the signal of work posted to the actor; ErrClosed if
// the actor stopped without running it.
func (t *Table) wait(ran <-chan struct{}) error {
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

// The inbox is bounded. The work that connections and requests bring
// (a connection's messages, the server's refusals and Detach; the
// requests Attach, Join, Leave and Public) goes in only while
// the inbox holds fewer than Config.Inbox pieces of work (admit). Past
// that a request is refused with ErrBusy, and a connection's message with
// protocol.CodeBusy. A connection has one item at a time with its table
// (Handle), so that refusal, a refusal the server sends, and the
// connection's Detach each need no more than the sub they are for: the
// sub waits in the table's owed list (once, however much it is owed), and
// one piece of work in the inbox settles the whole list (owe).
//
// The table's own work (a bot's choice, a timer, a manager's call) is
// never refused: what it carries would be lost. It is bounded by what
// the table holds: one piece at a time per seat for its bot, its think
// and its clock (wake, bots.go), one per timer the table and its seats
// set (a grace period, an unload, a store retry), and one per call of the
// manager waiting for its answer. So the inbox of a table holds at most
// Config.Inbox + 1 pieces of work besides its own, a few per seat.

// post hands f, the table's own work, to the actor without waiting for it
// to run; false if the actor has stopped. It is never refused for a full
// inbox.
func (t *Table) post(f func()) bool {
	t.mu.Lock()
	if t.ended {
		t.mu.Unlock()
		return false
	}
	t.enqueue(f, false)
	t.mu.Unlock()
	return true
}

// admit hands f, work a connection or a request brings, to the actor
// without waiting for it to run, unless the inbox holds Config.Inbox
// pieces of work (then full) or the actor has stopped.
func (t *Table) admit(f func()) (ok, full bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.ended:
		return false, false
	case len(t.inbox) >= t.m.cfg.Inbox:
		return false, true
	}
	t.enqueue(f, true)
	return true, false
}

// enqueue adds f to the inbox and has an actor run it if none is (under
// t.mu); people says a person brought it, which puts the table in the
// people's line if it waits for an actor.
func (t *Table) enqueue(f func(), people bool) {
	t.inbox = append(t.inbox, f)
	switch {
	case !t.running:
		t.running = true
		t.m.actors.start(t, people)
	case people:
		t.m.actors.promote(t)
	}
}

// owe has the actor run sub's item (item) or detach it (detach) after
// the work in the inbox though the inbox is full: sub goes in the owed
// list unless it is there already, and one piece of work, beyond the
// bound, settles the list. False if the actor has stopped.
func (t *Table) owe(sub *Sub, item, detach bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return false
	}
	if !sub.owed && !sub.detachOwed {
		t.owed = append(t.owed, sub)
	}
	sub.owed = sub.owed || item
	sub.detachOwed = sub.detachOwed || detach
	if !t.settling {
		t.settling = true
		t.enqueue(t.settle, true)
	}
	return true
}

// settle runs the items and Detaches owed, in the order the subs came (on
// the actor).
func (t *Table) settle() {
	t.mu.Lock()
	owed := t.owed
	t.owed, t.settling = nil, false
	t.mu.Unlock()
	for _, sub := range owed {
		t.mu.Lock()
		item, detach := sub.owed, sub.detachOwed
		sub.owed, sub.detachOwed = false, false
		t.mu.Unlock()
		if item {
			sub.handle()
		}
		if detach {
			t.detach(sub, nil)
		}
	}
}

// inboxDepth returns the pieces of work waiting in the inbox, not yet
// taken by the actor.
func (t *Table) inboxDepth() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.inbox)
}

// after runs f on the actor after d.
func (t *Table) after(d time.Duration, f func()) {
	time.AfterFunc(d, func() { t.post(f) })
}

// storeCtx bounds a store call of the table's by the store timeout.
func (t *Table) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), t.m.cfg.StoreTimeout)
}

func (t *Table) log() *slog.Logger { return t.m.log.With("table", t.id) }

// --- requests ---

// Attach connects a client: with a seat token to play that seat, or as a
// spectator (ErrBusy if the table has too much work waiting). The sub's first frames are a welcome, the current state, the
// table's last chat messages and the log of its last moves (a
// protocol.Log, worked out before Attach returns, off the table's
// goroutine; the frames of what happens meanwhile follow it).
func (t *Table) Attach(ctx context.Context, token string, spectate bool) (*Sub, error) {
	keepChat := t.loadChat(ctx)
	var sub *Sub
	var err error
	var past recent
	if e := t.request(ctx, func() {
		if keepChat != nil {
			keepChat()
		}
		sub, err = t.attach(token, spectate)
		if err == nil {
			past = t.recentFor(sub)
		}
	}); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	if sub.holding {
		t.sendRecent(ctx, sub, past)
	}
	return sub, nil
}

// Detach disconnects a sub. It is safe to call more than once, and after
// the table dropped the sub. It is never refused: past a full inbox the
// sub waits in the owed list, after the work in the inbox.
func (t *Table) Detach(sub *Sub) {
	if _, full := t.admit(func() { t.detach(sub, nil) }); full {
		t.owe(sub, false, true)
	}
}

// sync sends sub a fresh state frame (on the actor).
func (t *Table) sync(sub *Sub) {
	if _, ok := t.subs[sub]; ok {
		t.sendState(sub, sub.seat, []protocol.Event{})
	}
}

// Refuse sends sub an error frame (the server's refusals of messages that
// never reach the game go through the table so frames stay in order).
// Like Handle it is called by the connection's goroutine, and waits until
// the table has read the connection's message before: the refusal takes
// the place of a message, so a connection still has one item at a time
// with its table. It is never refused itself: past a full inbox it waits
// in the owed list.
func (t *Table) Refuse(sub *Sub, code, message, id string) {
	if t.settled(sub) != nil {
		return
	}
	sub.outCode, sub.outMsg, sub.outID = code, message, id
	t.give(sub)
}

// Join takes seat (or the first open seat when seat < 0) for a person
// called name and returns the seat's token.
func (t *Table) Join(ctx context.Context, seatNo int, name string) (protocol.JoinResult, error) {
	name, err := cleanName(name)
	if err != nil {
		return protocol.JoinResult{}, err
	}
	var res protocol.JoinResult
	if e := t.request(ctx, func() { res, err = t.join(seatNo, name) }); e != nil {
		return protocol.JoinResult{}, e
	}
	return res, err
}

// Leave gives up the seat token holds. In a running game the stand-in
// bot plays the seat from then on, and anyone may join it.
func (t *Table) Leave(ctx context.Context, token string) error {
	var err error
	if e := t.request(ctx, func() { err = t.leave(token) }); e != nil {
		return e
	}
	return err
}

// Public returns the spectators' view and the number of moves made.
func (t *Table) Public(ctx context.Context) (any, int, error) {
	var view any
	var seq int
	if err := t.request(ctx, func() {
		view, seq = t.st.View(game.Spectator), t.moves
		b, _ := json.Marshal(view) // a copy the caller may keep
		view = json.RawMessage(b)
	}); err != nil {
		return nil, 0, err
	}
	return view, seq, nil
}
