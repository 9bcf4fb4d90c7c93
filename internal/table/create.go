package table

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	mrand "math/rand/v2"
	"parlour/bot"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"slices"
	"strings"
	"time"
)

// CreateRequest asks for a new table: a POST /api/tables body
// (protocol.CreateTable) as the server decodes it.
type CreateRequest struct {
	Game    string
	Options map[string]any
	// Seats has one entry per seat: "open" (for a person) or a bot's name.
	// Empty: every seat open. When options leave out "players", the
	// number of seats sets it.
	Seats []string
	// Clock is the seconds a person has per decision; 0: no clock.
	Clock float64
	// Grace is the seconds a dropped player's seat waits before its
	// stand-in plays; nil: the server's default.
	Grace *float64
	// StandIn names the stand-in bot; "": the server's default.
	StandIn string
	// Seed fixes the game's seed (reproducible tables); nil: random.
	Seed *uint64
	// Think is the milliseconds the table's search bots (and a search
	// stand-in) think per move, 0 to MaxThinkMS; 0: each level's own
	// iterations, cut short at bot.LevelCap; nil: the server's default
	// (Config.Think).
	Think *float64
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
func (m *Manager) Create(ctx context.Context, req CreateRequest) (protocol.TableInfo, error) {
	ctx, cancel := m.storeCtx(ctx)
	defer cancel()
	g, err := m.cfg.Games.Lookup(req.Game)
	if err != nil {
		return protocol.TableInfo{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
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
		return protocol.TableInfo{}, fmt.Errorf("%w: %v", ErrBadRequest, err)
	}
	n := opts.Players()
	if len(req.Seats) != 0 && len(req.Seats) != n {
		return protocol.TableInfo{}, badRequest("%d seats given for %d players", len(req.Seats), n)
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
				return protocol.TableInfo{}, badRequest("seat %d: %q is neither \"open\" nor a bot (bots: %s)", i, name, strings.Join(m.cfg.BotNames, ", "))
			}
			seats[i] = store.Seat{Kind: store.KindBot, Bot: b.Name()}
		}
	}
	nameBots(seats)
	set := Settings{StandIn: m.cfg.StandIn, GraceMS: m.cfg.Grace.Milliseconds(), ThinkMS: m.cfg.Think.Milliseconds()}
	if req.Clock < 0 || req.Clock > maxSeconds {
		return protocol.TableInfo{}, badRequest("clock %v is out of range (0 to %d seconds)", req.Clock, maxSeconds)
	}
	set.ClockMS = int64(req.Clock * 1000)
	if req.Grace != nil {
		if *req.Grace < 0 || *req.Grace > maxSeconds {
			return protocol.TableInfo{}, badRequest("grace %v is out of range (0 to %d seconds)", *req.Grace, maxSeconds)
		}
		set.GraceMS = int64(*req.Grace * 1000)
	}
	if req.Think != nil {
		if !(*req.Think >= 0 && *req.Think <= MaxThinkMS) {
			return protocol.TableInfo{}, badRequest("think %v is out of range (0 to %d milliseconds)", *req.Think, MaxThinkMS)
		}
		set.ThinkMS = int64(math.Round(*req.Think))
	}
	if req.StandIn != "" {
		// A stand-in takes a seat mid-match, which an external bot's
		// process cannot: the built-in bots only.
		b, ok := m.namedBot(req.StandIn)
		if _, seater := b.(bot.Seater); !ok || seater {
			return protocol.TableInfo{}, badRequest("stand-in %q is not a built-in bot (bots: %s)", req.StandIn, strings.Join(bot.Names(), ", "))
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
		Settings: settings, Seats: seats, Status: status, CreatedAt: time.Now().UTC(), Lease: m.newLease(),
	}
	t, err := m.build(rec, nil)
	if err != nil {
		return protocol.TableInfo{}, err
	}
	// A table made here has no chat yet: its first connection need not
	// read it from the store (a table loaded later does).
	t.chatLoaded.Store(true)
	if err := m.cfg.Store.CreateTable(ctx, rec); err != nil {
		return protocol.TableInfo{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err := m.add(t); err != nil {
		return protocol.TableInfo{}, err
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
	// Tables stored before bots had friendly names get them here (their
	// bot seats were named after the bot); the others keep theirs.
	nameBots(rec.Seats)
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
		rng:  mrand.New(mrand.NewPCG(rec.Seed, uint64(time.Now().UnixNano()))),
		quit: make(chan struct{}), done: make(chan struct{}),
	}
	t.narrator, _ = st.(game.Narrator)
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

// Rematch starts (once) a new table with the same game, options, seats and
// settings as the finished table id, and seats the holder of token at the
// same seat there. Bots keep their seats; the other people's seats are
// open for them (or anyone) to take, each previous holder by calling
// Rematch with their own token.
func (m *Manager) Rematch(ctx context.Context, id, token, name string) (protocol.JoinResult, error) {
	ctx, cancel := m.storeCtx(ctx)
	defer cancel()
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
		return protocol.JoinResult{}, err
	}
	if name == "" {
		name = oldName
	}
	if existing == "" {
		seats := make([]store.Seat, len(rec.Seats))
		for i, s := range rec.Seats {
			seats[i] = store.Seat{Kind: s.Kind, Bot: s.Bot}
		}
		nameBots(seats)
		nrec := &store.Table{
			ID: randomID(), Game: rec.Game, Options: rec.Options, Seed: randomSeed(), Settings: rec.Settings,
			Seats: seats, Status: store.StatusWaiting, RematchOf: id, CreatedAt: time.Now().UTC(), Lease: m.newLease(),
		}
		t, err := m.build(nrec, nil)
		if err != nil {
			return protocol.JoinResult{}, err
		}
		if err := m.cfg.Store.CreateTable(ctx, nrec); err != nil {
			return protocol.JoinResult{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if err := m.add(t); err != nil {
			return protocol.JoinResult{}, err
		}
		existing = nrec.ID
		err = m.with(ctx, id, func(t *Table) error {
			return t.call(ctx, func() {
				t.rec.Rematch = existing
				sctx, cancel := t.storeCtx()
				if err := t.m.cfg.Store.UpdateTable(sctx, t.rec); err != nil && !t.lostLease(err) {
					t.log().Error("storing the rematch link", "err", err)
				}
				cancel()
				frame := t.encode(protocol.Rematch{V: protocol.Version, Type: protocol.TypeRematch, Table: t.id, Rematch: existing})
				for sub := range t.subs {
					t.send(sub, frame)
				}
				t.updateInfo()
			})
		})
		if err != nil {
			return protocol.JoinResult{}, err
		}
	}
	return m.Join(ctx, existing, seatNo, name)
}
