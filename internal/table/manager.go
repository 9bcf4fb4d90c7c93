package table

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	mrand "math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/internal/store"
)

// Config configures a Manager.
type Config struct {
	// Store keeps the tables. Required.
	Store store.Store
	// Games is the registry of games. Required.
	Games *game.Registry
	// Bots finds a bot by name; nil means bot.ByName.
	Bots func(name string) (bot.Bot, bool)
	// BotNames are the bots a table's seat may ask for; nil means
	// bot.Names (external bots add their names).
	BotNames []string
	// BotDelay is the mean pause before a bot moves, so play looks human
	// (each pause is drawn between half and one and a half of it). 0: none.
	BotDelay time.Duration
	// Grace is the default grace period of a dropped player's seat.
	Grace time.Duration
	// StandIn is the default stand-in bot; "" picks "heuristic" when
	// there is one, else "random".
	StandIn string
	// Think is the default time a table's search bots (the levels easy,
	// medium, hard) think per move, for tables created without one (see
	// CreateRequest.Think); 0: each level's own iterations, cut short at
	// bot.LevelCap. At most MaxThinkMS milliseconds.
	Think time.Duration
	// Workers is the number of goroutines a search bot spreads each
	// decision over (Search.Workers); 0 means runtime.NumCPU().
	Workers int
	// Queue is the number of frames a connection may fall behind before it
	// is dropped; 0 means 256.
	Queue int
	// Unload is how long a finished table nobody watches stays in memory;
	// 0 means 10 minutes, negative never.
	Unload time.Duration
	// Logger logs; nil discards.
	Logger *slog.Logger
}

// Manager holds the live tables.
type Manager struct {
	cfg       Config
	log       *slog.Logger
	mu        sync.Mutex
	tables    map[string]*Table
	closed    bool
	rematchMu sync.Mutex
	moveCount atomic.Int64
}

// NewManager returns a manager with no tables loaded; call Recover to load
// the unfinished tables of the store.
func NewManager(cfg Config) *Manager {
	if cfg.Bots == nil {
		cfg.Bots = bot.ByName
	}
	if cfg.BotNames == nil {
		cfg.BotNames = bot.Names()
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	cfg.Think = min(max(cfg.Think, 0), MaxThinkMS*time.Millisecond)
	if cfg.Unload == 0 {
		cfg.Unload = 10 * time.Minute
	}
	if cfg.StandIn == "" {
		cfg.StandIn = "random"
		if _, ok := cfg.Bots("heuristic"); ok {
			cfg.StandIn = "heuristic"
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{cfg: cfg, log: log, tables: map[string]*Table{}}
}

// Moves returns the number of moves the manager's tables have made since
// it started.
func (m *Manager) Moves() int64 { return m.moveCount.Load() }

// CreateRequest asks for a new table.
type CreateRequest struct {
	Game    string         `json:"game"`
	Options map[string]any `json:"options"`
	// Seats has one entry per seat: "open" (for a person) or a bot's name.
	// Empty: every seat open. When options leave out "players", the
	// number of seats sets it.
	Seats []string `json:"seats"`
	// Clock is the seconds a person has per decision; 0: no clock.
	Clock float64 `json:"clock"`
	// Grace is the seconds a dropped player's seat waits before its
	// stand-in plays; nil: the server's default.
	Grace *float64 `json:"grace"`
	// StandIn names the stand-in bot; "": the server's default.
	StandIn string `json:"standin"`
	// Seed fixes the game's seed (reproducible tables); nil: random.
	Seed *uint64 `json:"seed"`
	// Think is the milliseconds the table's search bots (and a search
	// stand-in) think per move, 0 to MaxThinkMS; 0: each level's own
	// iterations, cut short at bot.LevelCap; nil: the server's default
	// (Config.Think).
	Think *float64 `json:"think"`
}

// MaxThinkMS is the longest time per move, in milliseconds, a table's
// bots may be given to think (CreateRequest.Think).
const MaxThinkMS = 10_000

// namedBot finds a bot a request names: only the levels bot.Names lists
// (bot.ByName also takes search settings such as "search/100000", which
// would let anyone spend the server's CPU).
func (m *Manager) namedBot(name string) (bot.Bot, bool) {
	if !slices.Contains(m.cfg.BotNames, name) {
		return nil, false
	}
	return m.cfg.Bots(name)
}

// BotNames returns the bots a table's seat may ask for.
func (m *Manager) BotNames() []string { return m.cfg.BotNames }

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

func randomID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

const maxSeconds = 24 * 3600

// Create starts a new table.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (Info, error) {
	g, err := m.cfg.Games.Lookup(req.Game)
	if err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	given := map[string]any{}
	maps.Copy(given, req.Options)
	if _, ok := given["players"]; !ok && len(req.Seats) > 0 {
		given["players"] = len(req.Seats)
	}
	// The options are stored and shown resolved, defaults filled in: they
	// resolve to themselves when the table is rebuilt.
	opts, err := game.Resolve(g, given)
	if err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	n := opts.Players()
	if len(req.Seats) != 0 && len(req.Seats) != n {
		return Info{}, badRequest("%d seats given for %d players", len(req.Seats), n)
	}
	seats := make([]store.Seat, n)
	for i := range seats {
		seats[i] = store.Seat{Kind: store.KindHuman}
		if i >= len(req.Seats) {
			continue
		}
		switch name := strings.TrimSpace(req.Seats[i]); name {
		case "", "open", "human":
		default:
			b, ok := m.namedBot(name)
			if !ok {
				return Info{}, badRequest("seat %d: %q is neither \"open\" nor a bot (bots: %s)", i, name, strings.Join(m.cfg.BotNames, ", "))
			}
			seats[i] = store.Seat{Kind: store.KindBot, Bot: b.Name(), Name: b.Name()}
		}
	}
	set := Settings{StandIn: m.cfg.StandIn, GraceMS: m.cfg.Grace.Milliseconds(), ThinkMS: m.cfg.Think.Milliseconds()}
	if req.Clock < 0 || req.Clock > maxSeconds {
		return Info{}, badRequest("clock %v is out of range (0 to %d seconds)", req.Clock, maxSeconds)
	}
	set.ClockMS = int64(req.Clock * 1000)
	if req.Grace != nil {
		if *req.Grace < 0 || *req.Grace > maxSeconds {
			return Info{}, badRequest("grace %v is out of range (0 to %d seconds)", *req.Grace, maxSeconds)
		}
		set.GraceMS = int64(*req.Grace * 1000)
	}
	if req.Think != nil {
		if !(*req.Think >= 0 && *req.Think <= MaxThinkMS) {
			return Info{}, badRequest("think %v is out of range (0 to %d milliseconds)", *req.Think, MaxThinkMS)
		}
		set.ThinkMS = int64(math.Round(*req.Think))
	}
	if req.StandIn != "" {
		// A stand-in takes a seat mid-match, which an external bot's
		// process cannot: the built-in bots only.
		b, ok := m.namedBot(req.StandIn)
		if _, seater := b.(bot.Seater); !ok || seater {
			return Info{}, badRequest("stand-in %q is not a built-in bot (bots: %s)", req.StandIn, strings.Join(bot.Names(), ", "))
		}
		set.StandIn = b.Name()
	}
	seed := randomSeed()
	if req.Seed != nil {
		seed = *req.Seed
	}
	settings, _ := json.Marshal(set)
	status := store.StatusWaiting
	if !slices.ContainsFunc(seats, func(s store.Seat) bool { return s.Kind == store.KindHuman }) {
		status = store.StatusPlaying
	}
	rec := &store.Table{
		ID: randomID(), Game: g.Name(), Options: opts, Seed: seed,
		Settings: settings, Seats: seats, Status: status, CreatedAt: time.Now().UTC(),
	}
	t, err := m.build(rec, nil)
	if err != nil {
		return Info{}, err
	}
	if err := m.cfg.Store.CreateTable(ctx, rec); err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err := m.add(t); err != nil {
		return Info{}, err
	}
	return t.Info(), nil
}

// build makes a table from its stored record and moves (not started).
func (m *Manager) build(rec *store.Table, moves []store.Move) (*Table, error) {
	g, err := m.cfg.Games.Lookup(rec.Game)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	opts, err := game.Resolve(g, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	st, err := g.New(opts, rec.Seed, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	for _, mv := range moves {
		if err := replayMove(st, mv); err != nil {
			return nil, fmt.Errorf("table %s: %w", rec.ID, err)
		}
	}
	if len(rec.Seats) != st.Players() {
		return nil, fmt.Errorf("table %s: %d seats stored for %d players", rec.ID, len(rec.Seats), st.Players())
	}
	var set Settings
	if len(rec.Settings) > 0 {
		if err := json.Unmarshal(rec.Settings, &set); err != nil {
			return nil, fmt.Errorf("table %s: settings: %v", rec.ID, err)
		}
	}
	stand, ok := m.cfg.Bots(set.StandIn)
	if !ok {
		stand = bot.Random{}
		set.StandIn = stand.Name()
	}
	// One bot thinks at a time at a table: a search spreads over the
	// cores, with the table's budget.
	set.ThinkMS = min(max(set.ThinkMS, 0), MaxThinkMS)
	think := time.Duration(set.ThinkMS) * time.Millisecond
	stand = bot.WithThink(stand, think, m.cfg.Workers)
	t := &Table{
		id: rec.ID, g: g, opts: opts, set: set, m: m, stand: stand,
		st: st, rec: rec, moves: len(moves), status: rec.Status, subs: map[*Sub]struct{}{},
		rng:   mrand.New(mrand.NewPCG(rec.Seed, uint64(time.Now().UnixNano()))),
		inbox: make(chan func(), 256), quit: make(chan struct{}), done: make(chan struct{}),
	}
	bots := make([]bot.Bot, len(rec.Seats))
	for i, s := range rec.Seats {
		x := &seat{n: i, kind: s.Kind, botName: s.Bot, name: s.Name, token: s.TokenHash}
		if s.Kind == store.KindBot {
			b, ok := m.cfg.Bots(s.Bot)
			if !ok {
				m.log.Warn("a stored bot is unknown; a random bot plays its seat", "table", rec.ID, "bot", s.Bot)
				b = bot.Random{}
			}
			bots[i] = bot.WithThink(b, think, m.cfg.Workers)
		} else {
			x.kind = store.KindHuman
		}
		t.seats = append(t.seats, x)
	}
	// External bots get a seat each; their processes start when the seat
	// first acts.
	t.bots = bot.Sit(rec.ID, st, opts, bots)
	for i, x := range t.seats {
		x.b = t.bots.Bots[i]
	}
	if t.status != store.StatusOver && st.ToAct() == 0 {
		t.status = store.StatusOver // stored before its result was: finish it now
	}
	t.updateInfo()
	return t, nil
}

// replayMove applies one stored move.
func replayMove(st game.State, mv store.Move) error {
	x, err := st.ParseMove(mv.Seat, mv.Text)
	if err == nil {
		err = game.Apply(st, mv.Seat, x)
	}
	if err != nil {
		return fmt.Errorf("stored move %d (seat %d: %s) does not replay: %w", mv.N+1, mv.Seat, mv.Text, err)
	}
	return nil
}

// errLoaded says a table is already in memory.
var errLoaded = errors.New("table already loaded")

// add registers a built table and starts its actor; errLoaded if a table
// with its id is already registered.
func (m *Manager) add(t *Table) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	if _, ok := m.tables[t.id]; ok {
		m.mu.Unlock()
		return errLoaded
	}
	m.tables[t.id] = t
	m.mu.Unlock()
	t.start()
	t.post(func() {
		if t.status == store.StatusOver && t.rec.Status != store.StatusOver {
			t.finish()
		}
		if t.status == store.StatusPlaying {
			for _, s := range t.seats {
				if s.kind == store.KindHuman && s.token != "" && s.conns == 0 {
					s.away = true
					s.awayGen++
					t.startGrace(s)
				}
			}
		}
		t.schedule()
		t.maybeIdle()
		t.updateInfo()
	})
	return nil
}

func (m *Manager) forget(t *Table) {
	m.mu.Lock()
	if m.tables[t.id] == t {
		delete(m.tables, t.id)
	}
	m.mu.Unlock()
}

// Recover loads every unfinished table of the store, so play goes on where
// it stopped. It returns how many it loaded; tables that fail to load are
// logged and skipped.
func (m *Manager) Recover(ctx context.Context) (int, error) {
	recs, err := m.cfg.Store.Tables(ctx, store.Query{Status: []string{store.StatusWaiting, store.StatusPlaying}})
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	n := 0
	for _, rec := range recs {
		if _, err := m.load(ctx, rec); err != nil {
			m.log.Error("a stored table could not be rebuilt", "table", rec.ID, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// load rebuilds a stored table and starts it (or returns the one loaded).
func (m *Manager) load(ctx context.Context, rec *store.Table) (*Table, error) {
	moves, err := m.cfg.Store.Moves(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	t, err := m.build(rec, moves)
	if err != nil {
		return nil, err
	}
	if err := m.add(t); err != nil && !errors.Is(err, errLoaded) {
		return nil, err
	}
	// This one, or the one another request loaded meanwhile.
	return m.Get(ctx, rec.ID)
}

// Get returns a live table, loading it from the store if it is not in
// memory (a finished table that was unloaded).
func (m *Manager) Get(ctx context.Context, id string) (*Table, error) {
	m.mu.Lock()
	t, ok := m.tables[id]
	closed := m.closed
	m.mu.Unlock()
	if ok {
		return t, nil
	}
	if closed {
		return nil, ErrClosed
	}
	rec, err := m.cfg.Store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return m.load(ctx, rec)
}

// with runs f on the table id, once more on a fresh load if the table
// unloaded itself meanwhile.
func (m *Manager) with(ctx context.Context, id string, f func(t *Table) error) error {
	for range 2 {
		t, err := m.Get(ctx, id)
		if err != nil {
			return err
		}
		err = f(t)
		if !errors.Is(err, ErrClosed) {
			return err
		}
		m.forget(t)
	}
	return ErrClosed
}

// Info returns a table's lobby entry.
func (m *Manager) Info(ctx context.Context, id string) (Info, error) {
	var info Info
	err := m.with(ctx, id, func(t *Table) error { info = t.Info(); return nil })
	return info, err
}

// Attach connects a client to table id (see Table.Attach).
func (m *Manager) Attach(ctx context.Context, id, token string, spectate bool) (*Table, *Sub, error) {
	var tb *Table
	var sub *Sub
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		tb = t
		sub, err = t.Attach(ctx, token, spectate)
		return err
	})
	return tb, sub, err
}

// Join takes a seat at table id (see Table.Join).
func (m *Manager) Join(ctx context.Context, id string, seat int, name string) (JoinResult, error) {
	var res JoinResult
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		res, err = t.Join(ctx, seat, name)
		return err
	})
	return res, err
}

// Leave gives up the seat token holds at table id.
func (m *Manager) Leave(ctx context.Context, id, token string) error {
	return m.with(ctx, id, func(t *Table) error { return t.Leave(ctx, token) })
}

// Public returns table id's spectator view and its number of moves.
func (m *Manager) Public(ctx context.Context, id string) (any, int, error) {
	var view any
	var seq int
	err := m.with(ctx, id, func(t *Table) error {
		var err error
		view, seq, err = t.Public(ctx)
		return err
	})
	return view, seq, err
}

// Filter selects tables for List.
type Filter string

// Filters.
const (
	// FilterOpen lists unfinished tables with a seat to join.
	FilterOpen Filter = "open"
	// FilterLive lists every unfinished table.
	FilterLive Filter = "live"
	// FilterOver lists recently finished tables.
	FilterOver Filter = "over"
)

// List returns tables for the lobby, newest first.
func (m *Manager) List(ctx context.Context, f Filter) ([]Info, error) {
	out := []Info{}
	if f == FilterOver {
		recs, err := m.cfg.Store.Tables(ctx, store.Query{Status: []string{store.StatusOver}, Limit: 100, Newest: true})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		for _, rec := range recs {
			if info, err := m.recordInfo(rec); err == nil {
				out = append(out, info)
			}
		}
	} else {
		m.mu.Lock()
		for _, t := range m.tables {
			info := t.Info()
			if info.Status == store.StatusOver || (f == FilterOpen && len(info.Open) == 0) {
				continue
			}
			out = append(out, info)
		}
		m.mu.Unlock()
	}
	slices.SortFunc(out, func(a, b Info) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// recordInfo is the lobby entry of a stored table that is not loaded.
func (m *Manager) recordInfo(rec *store.Table) (Info, error) {
	t, err := m.build(rec, nil)
	if err != nil {
		return Info{}, err
	}
	info := t.Info()
	if len(rec.Result) > 0 {
		var r Result
		if json.Unmarshal(rec.Result, &r) == nil {
			info.Result = &r
		}
	}
	moves, err := m.cfg.Store.Moves(context.Background(), rec.ID)
	if err == nil {
		info.Moves = len(moves)
	}
	return info, nil
}

// Rematch starts (once) a new table with the same game, options, seats and
// settings as the finished table id, and seats the holder of token at the
// same seat there. Bots keep their seats; the other people's seats are
// open for them (or anyone) to take, each previous holder by calling
// Rematch with their own token.
func (m *Manager) Rematch(ctx context.Context, id, token, name string) (JoinResult, error) {
	m.rematchMu.Lock()
	defer m.rematchMu.Unlock()
	var (
		seatNo   = -1
		rec      store.Table
		existing string
		oldName  string
	)
	err := m.with(ctx, id, func(t *Table) error {
		var inner error
		err := t.call(ctx, func() {
			s := t.findToken(token)
			if s == nil {
				inner = fmt.Errorf("%w: no seat of table %s has that token", ErrBadToken, id)
				return
			}
			if t.status != store.StatusOver {
				inner = fmt.Errorf("%w: a rematch starts once table %s has finished", ErrNotOver, id)
				return
			}
			seatNo, rec, existing, oldName = s.n, *t.rec, t.rec.Rematch, s.name
		})
		if err != nil {
			return err
		}
		return inner
	})
	if err != nil {
		return JoinResult{}, err
	}
	if name == "" {
		name = oldName
	}
	if existing == "" {
		seats := make([]store.Seat, len(rec.Seats))
		for i, s := range rec.Seats {
			seats[i] = store.Seat{Kind: s.Kind, Bot: s.Bot, Name: s.Bot}
		}
		nrec := &store.Table{
			ID: randomID(), Game: rec.Game, Options: rec.Options, Seed: randomSeed(), Settings: rec.Settings,
			Seats: seats, Status: store.StatusWaiting, RematchOf: id, CreatedAt: time.Now().UTC(),
		}
		t, err := m.build(nrec, nil)
		if err != nil {
			return JoinResult{}, err
		}
		if err := m.cfg.Store.CreateTable(ctx, nrec); err != nil {
			return JoinResult{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if err := m.add(t); err != nil {
			return JoinResult{}, err
		}
		existing = nrec.ID
		err = m.with(ctx, id, func(t *Table) error {
			return t.call(ctx, func() {
				t.rec.Rematch = existing
				sctx, cancel := t.storeCtx()
				if err := t.m.cfg.Store.UpdateTable(sctx, t.rec); err != nil {
					t.log().Error("storing the rematch link", "err", err)
				}
				cancel()
				frame := t.encode(Rematch{V: ProtocolVersion, Type: TypeRematch, Table: t.id, Rematch: existing})
				for sub := range t.subs {
					t.send(sub, frame)
				}
				t.updateInfo()
			})
		})
		if err != nil {
			return JoinResult{}, err
		}
	}
	return m.Join(ctx, existing, seatNo, name)
}

// Replay is a finished game, whole: everything needed to replay it.
type Replay struct {
	ID      string         `json:"id"`
	Game    string         `json:"game"`
	Title   string         `json:"title"`
	Options map[string]any `json:"options"`
	// Seed is the game's seed, as a decimal string (it may not fit a
	// JSON number exactly).
	Seed    string       `json:"seed"`
	Players int          `json:"players"`
	Seats   []SeatInfo   `json:"seats"`
	Moves   []ReplayMove `json:"moves"`
	Result  Result       `json:"result"`
}

// ReplayMove is one move of a replay.
type ReplayMove struct {
	N    int       `json:"n"` // 1-based
	Seat int       `json:"seat"`
	Move string    `json:"move"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at"`
}

// ReplayStep is a finished game after its first K moves, with every
// seat's view: the game is over, so nothing is hidden any more.
type ReplayStep struct {
	Table  string              `json:"table"`
	K      int                 `json:"k"`
	Moves  int                 `json:"moves"` // in the whole game
	ToAct  []int               `json:"to_act"`
	Legal  map[string][]string `json:"legal"`
	Public any                 `json:"public"`
	Views  []any               `json:"views"` // one per seat
	Result Result              `json:"result"`
	Last   *ReplayMove         `json:"last"` // move K, null for K = 0
}

// finished returns a finished table's record and moves.
func (m *Manager) finished(ctx context.Context, id string) (*store.Table, []store.Move, error) {
	rec, err := m.cfg.Store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if rec.Status != store.StatusOver {
		return nil, nil, fmt.Errorf("%w: a replay shows every card, so it waits for the end of the game", ErrNotOver)
	}
	moves, err := m.cfg.Store.Moves(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return rec, moves, nil
}

// Replay returns finished table id's game: seed, options and moves.
func (m *Manager) Replay(ctx context.Context, id string) (*Replay, error) {
	rec, moves, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := m.build(rec, moves)
	if err != nil {
		return nil, err
	}
	out := &Replay{ID: id, Game: t.g.Name(), Title: t.g.Title(), Options: t.opts,
		Seed: fmt.Sprint(rec.Seed), Players: t.st.Players(), Seats: t.seatInfos(),
		Moves: []ReplayMove{}, Result: resultOf(t.st.Result())}
	for _, mv := range moves {
		out.Moves = append(out.Moves, ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, By: mv.By, At: mv.At})
	}
	return out, nil
}

// ReplayAt returns finished table id after its first k moves.
func (m *Manager) ReplayAt(ctx context.Context, id string, k int) (*ReplayStep, error) {
	rec, moves, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	if k < 0 || k > len(moves) {
		return nil, badRequest("no step %d (steps are 0-%d)", k, len(moves))
	}
	t, err := m.build(rec, moves[:k])
	if err != nil {
		return nil, err
	}
	st := t.st
	out := &ReplayStep{Table: id, K: k, Moves: len(moves), ToAct: st.ToAct().List(), Legal: map[string][]string{},
		Public: st.View(game.Spectator), Result: resultOf(st.Result())}
	for _, s := range out.ToAct {
		out.Legal[fmt.Sprint(s)] = game.LegalText(st, s)
	}
	for s := range st.Players() {
		out.Views = append(out.Views, st.View(s))
	}
	if k > 0 {
		mv := moves[k-1]
		out.Last = &ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, By: mv.By, At: mv.At}
	}
	return out, nil
}

// Close stops every table (their connections are closed with ErrClosed)
// and refuses new ones. It does not close the store.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	tables := slices.Collect(maps.Values(m.tables))
	m.tables = map[string]*Table{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Go(t.stop)
	}
	wg.Wait()
}
