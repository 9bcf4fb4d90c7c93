// Package server puts Parlour's tables on the network: a JSON lobby API,
// the table protocol over WebSocket, and a small web page. The tables
// themselves (actors, bots, clocks, persistence) are internal/table's, and
// every JSON body and frame is a type of internal/protocol; the API and
// the protocol are described in docs/protocol.md. A WebSocket connection
// is a conn (conn.go), whose doc comment gives its goroutines' life.
package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/internal/metrics"
	"parlour/internal/protocol"
	"parlour/internal/table"
	"parlour/web"
)

// Config configures a Server.
type Config struct {
	// Games is the registry the lobby lists. Required.
	Games *game.Registry
	// OriginPatterns are the hosts (patterns as path.Match takes them,
	// such as "example.com" or "*.example.com") whose pages may open the
	// WebSocket besides the server's own host. Empty: same host only.
	OriginPatterns []string
	// RateLimit is the messages per second a connection may send on
	// average, and Burst how many at once; 0 means 20 and 40.
	RateLimit float64
	Burst     int
	// ReadLimit is the largest message a connection may send, in bytes;
	// a larger one closes the connection. 0 means 16 KiB.
	ReadLimit int64
	// WriteTimeout is how long a write may block before the connection is
	// dropped as too slow (it is, within a quarter of it more); 0 means
	// 10 seconds.
	WriteTimeout time.Duration
	// HelloTimeout is how long a new connection has to say hello; 0 means
	// 10 seconds.
	HelloTimeout time.Duration
	// Logger logs; nil discards.
	Logger *slog.Logger
	// Metrics measures the server and serves GET /metrics; nil: no
	// metrics (and /metrics answers 404).
	Metrics *metrics.Metrics
	// MaxTables is the most tables played the node runs (playing, or
	// waiting with a person seated; table.Manager.Played): past it, new
	// tables are refused with 503 and Retry-After (tables already
	// playing keep their latency). 0: no limit.
	MaxTables int
	// MaxConns is the most WebSocket connections the node holds: past
	// it, new ones are refused with 503 and Retry-After. 0: no limit.
	MaxConns int
	// Limits are what one client address may do (limit.go): past them
	// a request is refused with 429 and Retry-After. The zero Limits is
	// no limit; DefaultLimits are parlour serve's.
	Limits Limits
	// TrustedProxies are the proxies whose X-Forwarded-For names the
	// client that Limits count: a request from anyone else counts
	// against its peer's address, whatever headers it carries.
	TrustedProxies []netip.Prefix
	// LimitExempt are the client addresses Limits do not apply to (such
	// as this machine's own, for a load test or a health check).
	LimitExempt []netip.Prefix
}

// Server is the HTTP handler of the lobby, the table protocol and the page.
type Server struct {
	cfg    Config
	log    *slog.Logger
	mux    *http.ServeMux
	m      atomic.Pointer[table.Manager]
	ctx    context.Context
	cancel context.CancelFunc
	conns  sync.WaitGroup
	// connMu orders the start of a session (conns.Add) against Close:
	// once closed, no session starts, so Close's wait is not raced.
	connMu sync.Mutex
	closed bool
	open   atomic.Int64 // WebSocket connections open (relayed ones too)
	stuck  *stuckWrites // cuts the connections whose writes block
	lim    *limiter     // each client address's limits
	nodes  nodeAddrs    // the cluster's nodes' addresses, for their relays
	lobby  *lobbyFeed   // pushes the lobby's lists to the pages watching them

	relayTransport http.RoundTripper

	// an is the analyses the server makes (analysis.go); nil: none.
	an atomic.Pointer[analyses]
}

// New returns a server. It answers /healthz with 503 and the API with 503
// until Ready gives it its tables.
func New(cfg Config) *Server {
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	if cfg.ReadLimit <= 0 {
		cfg.ReadLimit = 16 << 10
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.HelloTimeout <= 0 {
		cfg.HelloTimeout = 10 * time.Second
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, mux: http.NewServeMux(), lim: newLimiter(cfg.Limits), lobby: newLobbyFeed()}
	s.relayTransport = &http.Transport{
		Proxy:               nil,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     time.Minute,
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.stuck = newStuckWrites(s.ctx, cfg.WriteTimeout)
	page, err := newPage(web.Files())
	if err != nil {
		panic(err) // the page is embedded: it is always there
	}
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { page.serve(w, r, "index.html") })
	s.mux.HandleFunc("GET /web/{name}", func(w http.ResponseWriter, r *http.Request) { page.serve(w, r, r.PathValue("name")) })
	s.mux.HandleFunc("GET /api/games", s.games)
	s.mux.HandleFunc("GET /api/games/{game}", s.gameByID)
	s.mux.HandleFunc("GET /api/bots", s.bots)
	s.mux.HandleFunc("GET /api/tables", s.ready(s.listTables))
	s.mux.HandleFunc("GET /api/lobby/events", s.ready(s.lobbyEvents))
	s.mux.HandleFunc("POST /api/tables", s.limited(actCreate, s.ready(s.createTable)))
	s.mux.HandleFunc("GET /api/tables/{id}", s.owned(s.getTable))
	s.mux.HandleFunc("POST /api/tables/{id}/join", s.limited(actJoin, s.owned(s.join)))
	s.mux.HandleFunc("POST /api/tables/{id}/leave", s.owned(s.leave))
	s.mux.HandleFunc("POST /api/tables/{id}/rematch", s.owned(s.rematch))
	s.mux.HandleFunc("GET /api/tables/{id}/public", s.owned(s.public))
	s.mux.HandleFunc("GET /api/tables/{id}/replay", s.ready(s.replay))
	s.mux.HandleFunc("GET /api/tables/{id}/replay/{k}", s.ready(s.replayAt))
	s.mux.HandleFunc("POST /api/tables/{id}/analysis", s.ready(s.askAnalysis))
	s.mux.HandleFunc("GET /api/tables/{id}/analysis", s.ready(s.getAnalysis))
	s.mux.HandleFunc("GET /ws/tables/{id}", s.limited(actConnect, s.owned(s.websocket)))
	if cfg.Metrics != nil {
		s.mux.Handle("GET /metrics", cfg.Metrics.Handler())
	}
	return s
}

// Ready hands the server its tables; from then on /healthz answers 200.
func (s *Server) Ready(m *table.Manager) { s.m.Store(m) }

// Close closes every WebSocket connection still open and waits for their
// handlers to end (http.Server.Shutdown does not wait for them).
func (s *Server) Close() {
	s.connMu.Lock()
	s.closed = true
	s.connMu.Unlock()
	s.cancel()
	s.conns.Wait()
	s.stopAnalyses()
}

// ServeHTTP serves the lobby, the protocol and the page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if s.m.Load() == nil {
		http.Error(w, "starting", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

// readyz is the readiness check: 200 while the node can serve play, 503
// with the reason while it starts, while its store does not answer, or
// while (in a cluster) it has let its tables go for want of the store. A
// load balancer takes a node that is not ready out of rotation; /healthz
// stays the liveness check. It reads the node's last ping of the store and
// never calls the store itself.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	m := s.m.Load()
	if m == nil {
		w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "not ready: starting\n")
		return
	}
	if err := m.Ready(); err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "not ready: "+err.Error()+"\n")
		return
	}
	io.WriteString(w, "ready\n")
}

func (s *Server) ready(h func(w http.ResponseWriter, r *http.Request, m *table.Manager)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		m := s.m.Load()
		if m == nil {
			s.writeError(w, http.StatusServiceUnavailable, "starting", "the server is starting")
			return
		}
		h(w, r, m)
	}
}

// --- JSON helpers ---

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = protocol.APIRefusal("internal", err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// writeError refuses a request (counted in the metrics by its code).
func (s *Server) writeError(w http.ResponseWriter, status int, code, message string) {
	s.cfg.Metrics.Refusal(code)
	b := protocol.APIRefusal(code, message)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// fail writes the error a table request returned.
func (s *Server) fail(w http.ResponseWriter, err error) {
	status, code := http.StatusInternalServerError, "internal"
	switch {
	case errors.Is(err, table.ErrNotFound):
		status, code = http.StatusNotFound, "not_found"
	case errors.Is(err, table.ErrBadRequest):
		status, code = http.StatusBadRequest, "bad_request"
	case errors.Is(err, table.ErrSeatTaken):
		status, code = http.StatusConflict, "seat_taken"
	case errors.Is(err, table.ErrBadToken):
		status, code = http.StatusForbidden, protocol.CodeBadToken
	case errors.Is(err, table.ErrNotOver):
		status, code = http.StatusConflict, "not_over"
	case errors.Is(err, table.ErrOver):
		status, code = http.StatusConflict, protocol.CodeOver
	case errors.Is(err, table.ErrClosed):
		s.unavailable(w, "closed", err.Error())
		return
	case errors.As(err, new(*table.ElsewhereError)):
		s.unavailable(w, "moved", err.Error())
		return
	case errors.Is(err, table.ErrBusy):
		s.unavailable(w, protocol.CodeBusy, err.Error())
		return
	case errors.Is(err, table.ErrUnavailable):
		s.unavailable(w, protocol.CodeUnavailable, err.Error())
		return
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		s.unavailable(w, "timeout", err.Error())
		return
	}
	s.writeError(w, status, code, err.Error())
}

const maxBody = 64 << 10

// decode reads a JSON body into v, refusing unknown fields, trailing data
// and bodies over 64 KiB. An empty body leaves v as it is.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.writeError(w, http.StatusRequestEntityTooLarge, protocol.CodeTooLarge, fmt.Sprintf("the body is over %d bytes", maxBody))
			return false
		}
		s.writeError(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
		return false
	}
	if strings.TrimSpace(string(data)) == "" {
		return true
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		s.writeError(w, http.StatusBadRequest, "bad_request", "the body is not the JSON expected: "+err.Error())
		return false
	}
	if dec.More() {
		s.writeError(w, http.StatusBadRequest, "bad_request", "the body holds more than one JSON value")
		return false
	}
	return true
}

// token reads a seat token from "Authorization: Bearer TOKEN" or the body.
func token(r *http.Request, body string) string {
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(auth)
	}
	return body
}

// --- the lobby ---

// gameInfo is g as GET /api/games lists it.
func gameInfo(g game.Game) protocol.GameInfo {
	lo, hi := g.Players()
	info := g.Info()
	gi := protocol.GameInfo{ID: g.Name(), Name: g.Title(), Summary: g.Summary(), MinPlayers: lo, MaxPlayers: hi,
		Deal: cmp.Or(info.Deal, "deal"), Deals: cmp.Or(info.Deals, "deals"), LowWins: info.LowWins, OneDeal: info.OneDeal,
		Sides: map[int][]int{}, Options: []protocol.OptionInfo{}, Rules: g.Rules()}
	maps.Copy(gi.Sides, info.Sides)
	for _, o := range g.Options() {
		oi := protocol.OptionInfo{Name: o.Name, Doc: o.Doc, Default: o.Default, Choices: o.Choices}
		if len(o.Choices) == 0 {
			lo, hi := o.Min, o.Max
			oi.Min, oi.Max = &lo, &hi
		}
		gi.Options = append(gi.Options, oi)
	}
	lo0, hi0 := 0, hi-1
	gi.Options = append(gi.Options, protocol.OptionInfo{Name: "dealer", Doc: "the first dealer's seat (left out: drawn with the seed)",
		Default: nil, Min: &lo0, Max: &hi0})
	return gi
}

// games is GET /api/games; with ?rules=0 it leaves out the rules texts,
// most of its size, for pages that do not show them.
func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	out := []protocol.GameInfo{}
	for _, g := range s.cfg.Games.All() {
		gi := gameInfo(g)
		if r.URL.Query().Get("rules") == "0" {
			gi.Rules = ""
		}
		out = append(out, gi)
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) gameByID(w http.ResponseWriter, r *http.Request) {
	g, err := s.cfg.Games.Lookup(r.PathValue("game"))
	if err != nil {
		s.writeError(w, http.StatusNotFound, "not_found", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, gameInfo(g))
}

func (s *Server) bots(w http.ResponseWriter, r *http.Request) {
	names := bot.Names()
	if m := s.m.Load(); m != nil {
		names = m.BotNames() // with the external bots (--engine)
	}
	writeJSON(w, http.StatusOK, names)
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	f := table.Filter(r.URL.Query().Get("status"))
	switch f {
	case "":
		f = table.FilterOpen
	case table.FilterOpen, table.FilterLive, table.FilterOver:
	default:
		s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("status %q is not one of open, live, over", f))
		return
	}
	list, err := m.List(r.Context(), f)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	var body protocol.CreateTable
	if !s.decode(w, r, &body) {
		return
	}
	req := table.CreateRequest{Game: body.Game, Options: body.Options, Seats: body.Seats, Clock: body.Clock,
		Grace: body.Grace, StandIn: body.StandIn, Think: body.Think}
	if body.Seed != nil {
		seed, err := strconv.ParseUint(body.Seed.String(), 10, 64)
		if err != nil {
			s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("seed %s is not an unsigned 64-bit integer", body.Seed))
			return
		}
		req.Seed = &seed
	}
	if req.Game == "" {
		s.writeError(w, http.StatusBadRequest, "bad_request", "name a \"game\"")
		return
	}
	// Only the tables played count: one nobody joined expires, and how
	// many one client makes is its limit's (Limits.Create).
	if s.cfg.MaxTables > 0 && m.Played() >= s.cfg.MaxTables {
		s.cfg.Metrics.Shed("table")
		s.unavailable(w, "full", fmt.Sprintf("this server runs its most tables (%d); try again shortly", s.cfg.MaxTables))
		return
	}
	info, err := m.Create(r.Context(), req)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, info)
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	info, err := m.Info(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

func (s *Server) join(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	var body protocol.JoinTable
	if !s.decode(w, r, &body) {
		return
	}
	seat := -1
	if body.Seat != nil {
		if *body.Seat < 0 {
			s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("no seat %d", *body.Seat))
			return
		}
		seat = *body.Seat
	}
	res, err := m.Join(r.Context(), r.PathValue("id"), seat, body.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) leave(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	var body protocol.LeaveTable
	if !s.decode(w, r, &body) {
		return
	}
	if err := m.Leave(r.Context(), r.PathValue("id"), token(r, body.Token)); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.OK{OK: true})
}

func (s *Server) rematch(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	var body protocol.RematchTable
	if !s.decode(w, r, &body) {
		return
	}
	res, err := m.Rematch(r.Context(), r.PathValue("id"), token(r, body.Token), body.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) public(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	view, seq, err := m.Public(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.PublicView{Table: r.PathValue("id"), Seq: seq, View: view})
}

func (s *Server) replay(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	rep, err := m.Replay(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rep)
}

func (s *Server) replayAt(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	k, err := strconv.Atoi(r.PathValue("k"))
	if err != nil {
		s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("step %q is not a number", r.PathValue("k")))
		return
	}
	step, err := m.ReplayAt(r.Context(), r.PathValue("id"), k)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, step)
}
