// Package loadgen measures a running Parlour table server from the
// outside, as its players would: it opens many live tables through the
// lobby API, sits one simulated person at each (a WebSocket client that
// answers after a human-like pause with a random legal move) and lets the
// server's bots play the other seats. It reports the latency from a move
// sent to the view that shows it, the moves made a second, errors by kind,
// and the server's memory per table.
//
// It speaks only HTTP, WebSocket and JSON (docs/protocol.md), so it can
// measure a server in another process or on other machines, or several of
// them (a cluster) at once.
package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config says what load to put on which servers.
type Config struct {
	// URLs are the servers' base URLs (http://HOST:PORT). Tables are
	// spread over them round-robin; a connection that drops reconnects to
	// the next one. At least one.
	URLs []string
	// Tables is the number of tables kept in play at once.
	Tables int
	// Duration is how long to measure, once every table is open.
	Duration time.Duration
	// Ramp is the time over which the tables are opened, evenly; 0 means
	// max(1s, Tables/500 s).
	Ramp time.Duration
	// Settle is how long the tables play after the ramp before the
	// measurement starts; 0 means none. Opening every table within the
	// ramp is a burst a server does not meet in use, and its aftermath
	// (the garbage of thousands of handshakes collected, every table's
	// first moves at once) is not the steady load Duration measures.
	Settle time.Duration
	// Think is the person's mean pause before a move; each pause is drawn
	// uniformly between half and one and a half of it.
	Think time.Duration
	// Game is the game's id, or "all" to rotate through every game the
	// server lists. "" means all.
	Game string
	// Players is the number of seats (one person, bots in the others);
	// 0 means each game's usual count, the default of its players option
	// (its minimum if it has none).
	Players int
	// Bot is the bot of the other seats (as GET /api/bots lists them), or
	// several, comma-separated, to seat in turn: the bot seats of a table
	// take them in order, starting one further on at each table, so every
	// bot plays every seat. "" means heuristic,random.
	Bot string
	// Options are game options (name=value, as parlour script takes them)
	// given to every table of a game that has them.
	Options map[string]string
	// PIDs are the server processes whose resident memory (VmRSS) is read
	// at the end of the measurement, to report it per live table, and
	// whose processor time over the measurement is reported per move.
	PIDs []int
	// Seed seeds the generator's own choices (pauses, seats, moves).
	Seed uint64
	// MoveTimeout is how long a move may go unseen before it counts as a
	// timeout; 0 means 10 seconds.
	MoveTimeout time.Duration
	// ProgressEvery is the interval of progress lines; 0 means 5 seconds.
	ProgressEvery time.Duration
	// Games, when more than 0, plays a fixed set of games to their end
	// instead of keeping Tables in play: that many tables are opened over
	// the ramp (Tables is ignored), a finished game is not replaced, and
	// the run ends once every game is over (or cannot go on: its table
	// gone) or Duration, counted from the start, runs out. The whole run
	// is measured, the ramp included. Once a game is over, our moves shown
	// in its views are checked against its replay (a move not found there
	// as shown counts as lost), and the report has a line per table
	// (Report.PerTable) with the time of every move.
	Games int
	// RelayEvery, when more than 0, has every RelayEvery-th table (1:
	// every table) joined and played through the server after the one
	// that created it in URLs: in a cluster, its connection is relayed to
	// the table's owner.
	RelayEvery int
}

// Report is what a run measured. Moves, person moves, latencies and games
// count only the measurement (after the ramp); errors, shed requests,
// reconnects and lost moves count the whole run.
type Report struct {
	// URLs, Game, Bot and Think (in milliseconds) say what was run.
	URLs  []string `json:"urls"`
	Game  string   `json:"game"`
	Bot   string   `json:"bot"`
	Think float64  `json:"think_ms"`
	// Tables is the number of tables asked for; LiveTables those with a
	// connected person at the end of the measurement.
	Tables     int `json:"tables"`
	LiveTables int `json:"live_tables"`
	// RampS is the time the tables were opened over, in seconds, and
	// SettleS the time they then played before the measurement.
	RampS   float64 `json:"ramp_s"`
	SettleS float64 `json:"settle_s"`
	// DurationS is the time measured, in seconds.
	DurationS float64 `json:"duration_s"`
	// Moves is every move seen made at our tables (bots' included);
	// PersonMoves those of our people, seen in a view.
	Moves       int64   `json:"moves"`
	MovesPerS   float64 `json:"moves_per_s"`
	PersonMoves int64   `json:"person_moves"`
	// P50MS to MaxMS: the time from a person's move written to the
	// WebSocket to the first state frame showing it, in milliseconds.
	P50MS float64 `json:"p50_ms"`
	P90MS float64 `json:"p90_ms"`
	P99MS float64 `json:"p99_ms"`
	MaxMS float64 `json:"max_ms"`
	// AnswerMaxMS is the longest a person's move waited for its answer
	// (a view showing it, or a refusal), over the whole run, in
	// milliseconds: what a player waits however the server fares.
	AnswerMaxMS float64 `json:"answer_max_ms"`
	// GamesFinished is the number of games seen to end.
	GamesFinished int64 `json:"games_finished"`
	// Errors counts failures by kind: "create:STATUS:CODE",
	// "join:STATUS:CODE" (or ":net" when no answer came), "dial:...",
	// "ws_drop" (":CLOSECODE" when the server gave one), "refused:CODE"
	// (an error frame answering our move), "timeout" (a move not seen
	// within the move timeout), "table_gone", "hello:CODE", "bad_frame".
	Errors map[string]int64 `json:"errors"`
	// ErrorsTotal is the sum of Errors.
	ErrorsTotal int64 `json:"errors_total"`
	// Shed counts requests answered 503 with Retry-After (waited for and
	// retried; not errors).
	Shed int64 `json:"shed"`
	// Reconnects counts connections made again after a drop.
	Reconnects int64 `json:"reconnects"`
	// Lost counts our moves that were shown in a view and later were not:
	// a table's move count below their number (or the table gone).
	Lost int64 `json:"lost"`
	// RSSBytes is the servers' VmRSS at the end of the measurement (with
	// PIDs), RSSStartBytes before the first table, RSSPerTableBytes
	// RSSBytes over LiveTables.
	RSSBytes         int64 `json:"rss_bytes,omitempty"`
	RSSStartBytes    int64 `json:"rss_start_bytes,omitempty"`
	RSSPerTableBytes int64 `json:"rss_per_table_bytes,omitempty"`
	// ServerCores is the processor time the servers (PIDs) used over the
	// measurement, in cores (a second a second), and ServerUSPerMove the
	// same over Moves, in microseconds a move. LoadCores is the load
	// generator's own, and MachineBusy the share of all of this machine's
	// processors in use (0 to 1): a load generator on the servers' machine
	// takes part of it. Each is read from /proc (Linux); 0 where it could
	// not be.
	ServerCores     float64 `json:"server_cpu_cores,omitempty"`
	ServerUSPerMove float64 `json:"server_cpu_us_per_move,omitempty"`
	LoadCores       float64 `json:"loadgen_cpu_cores,omitempty"`
	MachineBusy     float64 `json:"machine_busy,omitempty"`
	// ServerP50MS, ServerP90MS and ServerP99MS are the servers' own part
	// of a person's move over the measurement, from the move received to
	// its view queued, as their metrics count it
	// (parlour_move_to_view_seconds, interpolated within its buckets as
	// Prometheus's histogram_quantile does), and ServerViews the moves
	// counted: every person's on the servers, not only this run's. 0 where
	// a server's GET /metrics could not be read.
	ServerP50MS float64 `json:"server_p50_ms,omitempty"`
	ServerP90MS float64 `json:"server_p90_ms,omitempty"`
	ServerP99MS float64 `json:"server_p99_ms,omitempty"`
	ServerViews int64   `json:"server_views,omitempty"`
	// Games is Config.Games. In that mode GamesFinished counts the games
	// seen over whose replay could be checked, Verified our moves found in
	// those replays as they were shown, and PerTable has a line per table,
	// in the order they were opened.
	Games    int           `json:"games,omitempty"`
	Verified int64         `json:"verified,omitempty"`
	PerTable []TableReport `json:"per_table,omitempty"`
}

// ErrUnreachable marks a run that could not start because a server did not
// answer.
var ErrUnreachable = errors.New("cannot reach the server")

// ConfigError is a setting of Config the servers cannot play: an unknown
// game or bot, an option or a number of players the game does not take.
type ConfigError struct {
	Field string // the Config field, in lower case: game, bot, players, option, pid
	Value string // the value given
	Msg   string // why it cannot be played
}

// Error says which setting is wrong and why.
func (e *ConfigError) Error() string { return e.Field + " " + e.Value + ": " + e.Msg }

func cfgErr(field, value, format string, a ...any) error {
	return &ConfigError{Field: field, Value: value, Msg: fmt.Sprintf(format, a...)}
}

// gameInfo is what the generator reads of GET /api/games.
type gameInfo struct {
	ID         string       `json:"id"`
	MinPlayers int          `json:"min_players"`
	MaxPlayers int          `json:"max_players"`
	Options    []optionInfo `json:"options"`
}

// optionInfo is one option of a game.
type optionInfo struct {
	Name    string   `json:"name"`
	Min     *int     `json:"min"`
	Max     *int     `json:"max"`
	Choices []string `json:"choices"`
	Default any      `json:"default"`
}

// plan is one game of the rotation, ready to create tables of.
type plan struct {
	game    string
	players int
	options map[string]any
}

// runner is one run's shared state.
type runner struct {
	cfg   Config
	urls  []string
	plans []plan
	bots  []string     // the bots seated in turn (Config.Bot)
	http  *http.Client // the lobby API
	ws    *http.Client // WebSocket handshakes
	fail  context.CancelCauseFunc

	measuring  atomic.Bool
	live       atomic.Int64
	moves      atomic.Int64 // measured
	tickMoves  atomic.Int64 // since the last progress line
	person     atomic.Int64
	games      atomic.Int64
	shed       atomic.Int64
	reconnects atomic.Int64
	lost       atomic.Int64
	errTotal   atomic.Int64
	verified   atomic.Int64
	slotsDone  atomic.Int64  // Games mode: slots whose game is over, or given up on
	allDone    chan struct{} // Games mode: closed when every slot is done

	mu   sync.Mutex
	errs map[string]int64
	hist Histogram // measured
	tick Histogram // since the last progress line
	// answerMax is the longest a person's move waited for its answer.
	answerMax time.Duration
	slots     []*slot
	tables    atomic.Int64 // tables created, for seats and names
}

// answered notes that a person's move was answered d after it was sent;
// r.mu is held.
func (r *runner) answered(d time.Duration) {
	r.answerMax = max(r.answerMax, d)
}

func (r *runner) countErr(kind string) {
	r.errTotal.Add(1)
	r.mu.Lock()
	r.errs[kind]++
	r.mu.Unlock()
}

func (r *runner) sample(d time.Duration) {
	r.mu.Lock()
	r.answered(d)
	r.tick.Add(d)
	if r.measuring.Load() {
		r.hist.Add(d)
	}
	r.mu.Unlock()
}

// Run puts the load cfg describes on the servers until the measurement is
// over or ctx ends, writing a progress line to progress (if not nil) every
// few seconds, and reports what it measured. It returns an error wrapping
// ErrUnreachable when a server does not answer at the start, and an error
// when cfg is unusable (an unknown game, bot or option) or the server
// refuses to create the tables it asks for.
func Run(ctx context.Context, cfg Config, progress io.Writer) (Report, error) {
	r, err := newRunner(ctx, cfg)
	if err != nil {
		return Report{}, err
	}
	defer r.http.CloseIdleConnections()
	cfg = r.cfg
	rep := Report{URLs: r.urls, Game: cfg.Game, Bot: cfg.Bot, Think: float64(cfg.Think) / float64(time.Millisecond),
		Tables: cfg.Tables, RampS: cfg.Ramp.Seconds(), SettleS: cfg.Settle.Seconds()}
	rep.RSSStartBytes = rss(cfg.PIDs)

	runCtx, fail := context.WithCancelCause(ctx)
	defer fail(nil)
	r.fail = fail
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x10ad))
	var wg sync.WaitGroup
	start := time.Now()

	// The tables open evenly over the ramp.
	wg.Go(func() {
		for i := range cfg.Tables {
			at := start.Add(time.Duration(int64(cfg.Ramp) * int64(i) / int64(cfg.Tables)))
			if !sleepUntil(runCtx, at) {
				return
			}
			s := &slot{r: r, idx: i, url: i % len(r.urls), plan: i % len(r.plans),
				rng: rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))}
			r.mu.Lock()
			r.slots = append(r.slots, s)
			r.mu.Unlock()
			wg.Go(func() { s.run(runCtx) })
		}
	})
	// Moves unseen for too long; progress lines.
	wg.Go(func() { r.sweep(runCtx) })
	if progress != nil {
		wg.Go(func() { r.progress(runCtx, progress, start) })
	}

	var (
		t0   time.Time
		cpu  cpuReading  // at t0
		span spanReading // at t0
	)
	if cfg.Games > 0 {
		// Everything is measured, until every game is over or the time
		// runs out.
		t0 = start
		limit := time.NewTimer(cfg.Duration)
		select {
		case <-runCtx.Done():
		case <-r.allDone:
		case <-limit.C:
		}
		limit.Stop()
	} else if sleepUntil(runCtx, start.Add(cfg.Ramp+cfg.Settle)) {
		r.mu.Lock()
		r.measuring.Store(true)
		r.mu.Unlock()
		t0 = time.Now()
		cpu = readCPU(cfg.PIDs)
		span = readSpan(runCtx, r.http, r.urls)
		sleepUntil(runCtx, t0.Add(cfg.Duration))
	}
	// The end of the measurement: take the figures while the tables live.
	r.mu.Lock()
	wasMeasuring := r.measuring.Swap(false)
	r.mu.Unlock()
	end := time.Now()
	var (
		cpuEnd  cpuReading
		spanEnd spanReading
	)
	if wasMeasuring {
		cpuEnd = readCPU(cfg.PIDs)
		spanEnd = readSpan(ctx, r.http, r.urls)
		rep.DurationS = end.Sub(t0).Seconds()
	}
	rep.LiveTables = int(r.live.Load())
	rep.RSSBytes = rss(cfg.PIDs)
	if rep.RSSBytes > 0 && rep.LiveTables > 0 {
		rep.RSSPerTableBytes = rep.RSSBytes / int64(rep.LiveTables)
	}
	cause := context.Cause(runCtx)
	fail(nil)
	wg.Wait()

	rep.Moves = r.moves.Load()
	if rep.DurationS > 0 {
		rep.MovesPerS = float64(rep.Moves) / rep.DurationS
		cpu.report(cpuEnd, rep.DurationS, &rep)
		span.report(spanEnd, &rep)
	}
	rep.PersonMoves = r.person.Load()
	rep.GamesFinished = r.games.Load()
	rep.Shed = r.shed.Load()
	rep.Reconnects = r.reconnects.Load()
	rep.Lost = r.lost.Load()
	rep.ErrorsTotal = r.errTotal.Load()
	r.mu.Lock()
	rep.Errors = r.errs
	slots := r.slots
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	rep.P50MS, rep.P90MS, rep.P99MS = ms(r.hist.Quantile(0.5)), ms(r.hist.Quantile(0.9)), ms(r.hist.Quantile(0.99))
	rep.MaxMS = ms(r.hist.Max())
	rep.AnswerMaxMS = ms(r.answerMax)
	r.mu.Unlock()
	if cfg.Games > 0 {
		rep.Games = cfg.Games
		rep.Verified = r.verified.Load()
		for _, s := range slots {
			rep.PerTable = append(rep.PerTable, s.report(end))
		}
	}
	var fe *fatalError
	if errors.As(cause, &fe) {
		return rep, fe.err
	}
	return rep, nil
}

// fatalError ends a run: the servers refuse what the configuration asks.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

func newRunner(ctx context.Context, cfg Config) (*runner, error) {
	if len(cfg.URLs) == 0 {
		return nil, errors.New("no server URL")
	}
	if cfg.Games < 0 || cfg.RelayEvery < 0 {
		return nil, errors.New("games and relay-every may not be negative")
	}
	if cfg.Games > 0 {
		cfg.Tables = cfg.Games
	}
	if cfg.Tables < 1 {
		return nil, fmt.Errorf("tables %d: need at least 1", cfg.Tables)
	}
	if cfg.Duration <= 0 {
		return nil, fmt.Errorf("duration %v: need more than 0", cfg.Duration)
	}
	if cfg.Think < 0 || cfg.Ramp < 0 || cfg.Settle < 0 || cfg.MoveTimeout < 0 || cfg.ProgressEvery < 0 {
		return nil, errors.New("think, ramp, settle, move timeout and progress interval may not be negative")
	}
	if cfg.Ramp == 0 {
		cfg.Ramp = max(time.Second, time.Duration(cfg.Tables)*time.Second/500)
	}
	if cfg.Game == "" {
		cfg.Game = "all"
	}
	if cfg.Bot == "" {
		cfg.Bot = "heuristic,random"
	}
	if cfg.MoveTimeout == 0 {
		cfg.MoveTimeout = 10 * time.Second
	}
	if cfg.ProgressEvery == 0 {
		cfg.ProgressEvery = 5 * time.Second
	}
	for _, pid := range cfg.PIDs {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/status"); err != nil {
			return nil, cfgErr("pid", strconv.Itoa(pid), "no such process to read the memory of")
		}
	}
	r := &runner{cfg: cfg, errs: map[string]int64{}, allDone: make(chan struct{})}
	if cfg.Games > 0 {
		r.measuring.Store(true)
	}
	for _, u := range cfg.URLs {
		base, err := BaseURL(u)
		if err != nil {
			return nil, err
		}
		r.urls = append(r.urls, base)
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	r.http = &http.Client{Transport: &http.Transport{
		DialContext:         dialer.DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}, Timeout: 30 * time.Second}
	r.ws = &http.Client{Transport: &http.Transport{
		DialContext:        dialer.DialContext,
		DisableKeepAlives:  true,
		DisableCompression: true,
	}}

	// Every server answers, and knows the game and the bot.
	var list []gameInfo
	for _, u := range r.urls {
		var gl []gameInfo
		if err := r.getJSON(ctx, u+"/api/games", &gl); err != nil {
			r.http.CloseIdleConnections()
			return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, u, err)
		}
		if list == nil {
			list = gl
		}
	}
	var bots []string
	if err := r.getJSON(ctx, r.urls[0]+"/api/bots", &bots); err != nil {
		r.http.CloseIdleConnections()
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, r.urls[0], err)
	}
	for _, b := range strings.Split(cfg.Bot, ",") {
		if !slices.Contains(bots, b) {
			return nil, cfgErr("bot", b, "the server has %s", strings.Join(bots, ", "))
		}
		r.bots = append(r.bots, b)
	}
	plans, err := makePlans(list, cfg)
	if err != nil {
		return nil, err
	}
	r.plans = plans
	return r, nil
}

// BaseURL checks a server URL (http or https, with a host) and returns it
// without a trailing slash.
func BaseURL(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("URL %q: %v", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("URL %q: want http://HOST:PORT or https://HOST:PORT", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("URL %q: want no query or fragment", s)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// makePlans resolves the game (or all), the players and the options.
func makePlans(list []gameInfo, cfg Config) ([]plan, error) {
	var games []gameInfo
	ids := make([]string, 0, len(list))
	for _, g := range list {
		ids = append(ids, g.ID)
		if cfg.Game == "all" || g.ID == cfg.Game {
			games = append(games, g)
		}
	}
	if len(games) == 0 {
		return nil, cfgErr("game", cfg.Game, "the server has %s (or all)", strings.Join(ids, ", "))
	}
	used := map[string]bool{}
	var plans []plan
	for _, g := range games {
		n := max(g.MinPlayers, 2)
		if i := slices.IndexFunc(g.Options, func(o optionInfo) bool { return o.Name == "players" }); i >= 0 {
			if d, ok := g.Options[i].Default.(float64); ok && int(d) >= n {
				n = int(d)
			}
		}
		if cfg.Players != 0 {
			n = cfg.Players
			if cfg.Game == "all" {
				n = min(max(n, g.MinPlayers), g.MaxPlayers)
			} else if n < g.MinPlayers || n > g.MaxPlayers {
				return nil, cfgErr("players", strconv.Itoa(n), "%s takes %d to %d", g.ID, g.MinPlayers, g.MaxPlayers)
			}
		}
		if n < 2 || n > g.MaxPlayers {
			return nil, cfgErr("game", g.ID, "no room for a person and a bot (%d to %d players)", g.MinPlayers, g.MaxPlayers)
		}
		p := plan{game: g.ID, players: n, options: map[string]any{}}
		for name, val := range cfg.Options {
			if name == "players" {
				return nil, cfgErr("option", "players="+val, "set the number of players with Players")
			}
			i := slices.IndexFunc(g.Options, func(o optionInfo) bool { return o.Name == name })
			if i < 0 {
				continue
			}
			o := g.Options[i]
			used[name] = true
			if len(o.Choices) > 0 {
				if !slices.Contains(o.Choices, val) {
					return nil, cfgErr("option", name+"="+val, "%s takes %s", g.ID, strings.Join(o.Choices, ", "))
				}
				p.options[name] = val
				continue
			}
			v, err := strconv.Atoi(val)
			if err != nil {
				return nil, cfgErr("option", name+"="+val, "not a whole number")
			}
			if (o.Min != nil && v < *o.Min) || (o.Max != nil && v > *o.Max) {
				return nil, cfgErr("option", name+"="+val, "%s takes %d to %d", g.ID, deref(o.Min), deref(o.Max))
			}
			p.options[name] = v
		}
		plans = append(plans, p)
	}
	for name := range cfg.Options {
		if !used[name] {
			return nil, cfgErr("option", name+"="+cfg.Options[name], "no game played has it")
		}
	}
	return plans, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func (r *runner) getJSON(ctx context.Context, u string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &statusError{url: u, status: resp.StatusCode, text: resp.Status}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("GET %s: %v", u, err)
	}
	return nil
}

// statusError is an HTTP answer other than the one expected.
type statusError struct {
	url    string
	status int
	text   string
}

func (e *statusError) Error() string { return "GET " + e.url + ": " + e.text }

// sweep counts moves unseen for longer than the move timeout and asks for a
// fresh state in their place.
func (r *runner) sweep(ctx context.Context) {
	every := min(time.Second, r.cfg.MoveTimeout/4)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		r.mu.Lock()
		slots := r.slots
		r.mu.Unlock()
		now := time.Now()
		for _, s := range slots {
			s.checkTimeout(now)
		}
	}
}

// progress writes a line every ProgressEvery.
func (r *runner) progress(ctx context.Context, w io.Writer, start time.Time) {
	t := time.NewTicker(r.cfg.ProgressEvery)
	defer t.Stop()
	last := start
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			moves := r.tickMoves.Swap(0)
			r.mu.Lock()
			p99 := r.tick.Quantile(0.99)
			r.tick.Reset()
			phase := "ramp"
			switch {
			case r.measuring.Load():
				phase = "measure"
			case now.Sub(start) >= r.cfg.Ramp:
				phase = "settle"
			}
			r.mu.Unlock()
			secs := now.Sub(last).Seconds()
			last = now
			over := ""
			if r.cfg.Games > 0 {
				phase = "games"
				over = fmt.Sprintf("  over %d/%d", r.games.Load(), r.cfg.Games)
			}
			fmt.Fprintf(w, "loadtest: %6.1fs %-7s live %d/%d%s  moves/s %.0f  p99 %.1fms  errors %d\n",
				now.Sub(start).Seconds(), phase, r.live.Load(), r.cfg.Tables, over, float64(moves)/secs,
				float64(p99)/float64(time.Millisecond), r.errTotal.Load())
		}
	}
}

// sleepUntil waits until t; false if ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}

// rss sums the VmRSS of the processes, in bytes (0 when none is readable).
func rss(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				f := strings.Fields(rest)
				if len(f) >= 1 {
					kb, _ := strconv.ParseInt(f[0], 10, 64)
					total += kb * 1024
				}
			}
		}
	}
	return total
}
