// Package metrics holds the table server's Prometheus metrics: tables,
// connections, moves, latencies, the cluster's leases and the refusals the
// server gives, in a registry of the server's own (never the global one),
// served in the text exposition format by Handler.
//
// Every method is safe on a nil *Metrics and then does nothing, so code and
// tests may hold a nil one. The methods called on hot paths (Move,
// MoveToView, the gauges) do not allocate: the labelled series are made
// once, in New, and looked up in read-only maps.
package metrics

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"parlour/games"
)

// gameNames are the game names whose parlour_moves_total series exist from
// the start (at 0): every game of the registry. A move of another game is
// counted under its own name too.
var gameNames = games.Registry.Names()

// refusalCodes are the codes parlour_refusals_total counts by name: the
// WebSocket error codes (internal/protocol) and the HTTP API's
// (internal/server, docs/protocol.md). Any other code counts as "other", so
// the label set stays small whatever callers pass.
var refusalCodes = []string{
	// WebSocket "error" messages.
	"bad_message", "bad_version", "bad_token", "spectator", "not_your_seat",
	"not_started", "over", "bad_move", "not_your_turn", "illegal_move",
	"too_large", "rate_limited", "unavailable", "bad_chat", "chat_flood",
	"busy", "chat_backlog",
	// HTTP API errors not already above.
	"bad_request", "not_found", "seat_taken", "not_over", "starting",
	"closed", "timeout", "internal", "full", "moved", "no_analysis",
}

// shedWhat are the values of parlour_shed_total's "what" label; anything
// else counts as "other".
var shedWhat = []string{"table", "connection"}

// other is the label value for a refusal code or a shed kind not listed.
const other = "other"

// latencyBuckets are the histogram buckets in seconds, from a quarter of a
// millisecond (a move on loopback) to 5 s (a store or network in trouble).
var latencyBuckets = []float64{
	0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 0.5, 1, 2.5, 5,
}

// doc describes one metric family the server exports.
type doc struct {
	Name   string   // e.g. "parlour_moves_total"
	Type   string   // "counter", "gauge" or "histogram"
	Labels []string // label names, none for most
	Help   string   // the HELP text
}

// docs lists every family New registers, besides the Go runtime's (go_*)
// and the process's (process_*). New builds the metrics from it, so the two
// cannot drift apart.
var docs = []doc{
	{"parlour_tables_live", "gauge", nil, "Tables live on this node: opened and not yet closed."},
	{"parlour_connections", "gauge", nil, "WebSocket connections open on this node."},
	{"parlour_moves_total", "counter", []string{"game"}, "Moves applied, by game."},
	{"parlour_move_to_view_seconds", "histogram", nil, "Time from a person's move being received to the view showing it being queued to that person's connection."},
	{"parlour_store_commit_seconds", "histogram", nil, "Time a commit to the store takes."},
	{"parlour_store_up", "gauge", nil, "1 while the store answers this node's pings and moves in time, 0 while it does not (the node is not ready)."},
	{"parlour_leases_held", "gauge", nil, "Tables whose lease this node holds in a cluster."},
	{"parlour_takeovers_total", "counter", nil, "Tables this node took over from a dead or departed node."},
	{"parlour_refusals_total", "counter", []string{"code"}, "Requests and messages refused, by error code (codes not known are counted as other)."},
	{"parlour_shed_total", "counter", []string{"what"}, "Tables or connections refused with 503 for load, by what was refused."},
	{"parlour_relayed_connections", "gauge", nil, "Connections this node relays to the node that owns their table."},
	{"parlour_inbox_queued", "gauge", nil, "Work waiting in the inboxes of this node's tables, summed over the tables."},
	{"parlour_inbox_max", "gauge", nil, "The most work waiting in one table's inbox; at the table's limit its messages are refused with busy."},
	{"parlour_actors_ready", "gauge", nil, "Tables with work waiting for an actor (at most the live tables)."},
	{"parlour_chat_queued", "gauge", nil, "Chat messages waiting to be stored, over this node's tables; at a table's limit its chat is refused with chat_backlog."},
	{"parlour_search_queued", "gauge", nil, "Bot decisions waiting for a worker of the search pool; at its limit a bot plays the heuristic's move."},
	{"parlour_search_busy", "gauge", nil, "Workers of the search pool running a bot decision."},
	{"parlour_search_workers", "gauge", nil, "Workers of the search pool: the most bot decisions run at once."},
	{"parlour_search_fallbacks_total", "counter", nil, "Bot decisions the search pool had no room or no time left for, played by the heuristic instead."},
	{"parlour_search_think_seconds", "histogram", nil, "Time from a bot decision being given to the search pool to its move, the wait for a worker included."},
	{"parlour_search_paced_seconds_total", "counter", nil, "Time the search pool's searches waited, thinking nothing, while the node or the machine wanted the processors."},
}

// Metrics holds the server's metrics in a private registry.
type Metrics struct {
	reg *prometheus.Registry

	tables      prometheus.Gauge
	conns       prometheus.Gauge
	moves       *prometheus.CounterVec
	movesByGame map[string]prometheus.Counter // read-only after New
	moveToView  prometheus.Histogram
	storeCommit prometheus.Histogram
	leases      prometheus.Gauge
	storeUp     prometheus.Gauge
	takeovers   prometheus.Counter
	refusals    map[string]prometheus.Counter // read-only after New; includes "other"
	shed        map[string]prometheus.Counter // read-only after New; includes "other"
	relayed     prometheus.Gauge
	fallbacks   prometheus.Counter
	think       prometheus.Histogram
	paced       prometheus.Counter
	// depths holds, by Depth's names, the functions the queue gauges
	// read at each scrape (read-only map after New).
	depths map[string]*atomic.Pointer[func() int]
}

// New makes the metrics and registers them, with the Go runtime and process
// collectors, on a registry of their own.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	for _, d := range docs {
		var c prometheus.Collector
		switch d.Name {
		case "parlour_tables_live":
			m.tables = gauge(d)
			c = m.tables
		case "parlour_connections":
			m.conns = gauge(d)
			c = m.conns
		case "parlour_moves_total":
			m.moves = prometheus.NewCounterVec(prometheus.CounterOpts{Name: d.Name, Help: d.Help}, d.Labels)
			m.movesByGame = make(map[string]prometheus.Counter, len(gameNames))
			for _, g := range gameNames {
				m.movesByGame[g] = m.moves.WithLabelValues(g)
			}
			c = m.moves
		case "parlour_move_to_view_seconds":
			m.moveToView = histogram(d)
			c = m.moveToView
		case "parlour_store_commit_seconds":
			m.storeCommit = histogram(d)
			c = m.storeCommit
		case "parlour_store_up":
			m.storeUp = gauge(d)
			m.storeUp.Set(1)
			c = m.storeUp
		case "parlour_leases_held":
			m.leases = gauge(d)
			c = m.leases
		case "parlour_takeovers_total":
			m.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: d.Name, Help: d.Help})
			c = m.takeovers
		case "parlour_refusals_total":
			v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: d.Name, Help: d.Help}, d.Labels)
			m.refusals = preset(v, refusalCodes)
			c = v
		case "parlour_shed_total":
			v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: d.Name, Help: d.Help}, d.Labels)
			m.shed = preset(v, shedWhat)
			c = v
		case "parlour_relayed_connections":
			m.relayed = gauge(d)
			c = m.relayed
		case "parlour_search_fallbacks_total":
			m.fallbacks = prometheus.NewCounter(prometheus.CounterOpts{Name: d.Name, Help: d.Help})
			c = m.fallbacks
		case "parlour_search_think_seconds":
			m.think = histogram(d)
			c = m.think
		case "parlour_search_paced_seconds_total":
			m.paced = prometheus.NewCounter(prometheus.CounterOpts{Name: d.Name, Help: d.Help})
			c = m.paced
		case "parlour_inbox_queued", "parlour_inbox_max", "parlour_actors_ready", "parlour_chat_queued",
			"parlour_search_queued", "parlour_search_busy", "parlour_search_workers":
			c = m.depthGauge(d)
		default:
			panic("metrics: no metric made for " + d.Name)
		}
		m.reg.MustRegister(c)
	}
	return m
}

// depthNames are the names Depth takes, by the family each one sets.
var depthNames = map[string]string{
	"parlour_inbox_queued":   "inbox",
	"parlour_inbox_max":      "inbox_max",
	"parlour_actors_ready":   "actors_ready",
	"parlour_chat_queued":    "chat",
	"parlour_search_queued":  "search_queued",
	"parlour_search_busy":    "search_busy",
	"parlour_search_workers": "search_workers",
}

// depthGauge makes the gauge of a queue's depth, read at each scrape
// from the function Depth gave it (0 until one is given).
func (m *Metrics) depthGauge(d doc) prometheus.Collector {
	if m.depths == nil {
		m.depths = map[string]*atomic.Pointer[func() int]{}
	}
	read := new(atomic.Pointer[func() int])
	m.depths[depthNames[d.Name]] = read
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: d.Name, Help: d.Help}, func() float64 {
		if f := read.Load(); f != nil {
			return float64((*f)())
		}
		return 0
	})
}

func gauge(d doc) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: d.Name, Help: d.Help})
}

func histogram(d doc) prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: d.Name, Help: d.Help, Buckets: latencyBuckets})
}

// preset makes v's series for each value and for "other", at 0.
func preset(v *prometheus.CounterVec, values []string) map[string]prometheus.Counter {
	out := make(map[string]prometheus.Counter, len(values)+1)
	for _, s := range values {
		out[s] = v.WithLabelValues(s)
	}
	out[other] = v.WithLabelValues(other)
	return out
}

// Handler serves the metrics in Prometheus' exposition format (text unless
// the scraper asks for another). On a nil *Metrics it answers 404.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: 4,
		Timeout:             10 * time.Second,
	})
}

// TableOpened counts a table opened on this node (parlour_tables_live).
func (m *Metrics) TableOpened() {
	if m != nil {
		m.tables.Inc()
	}
}

// TableClosed counts a table closed on this node (parlour_tables_live).
func (m *Metrics) TableClosed() {
	if m != nil {
		m.tables.Dec()
	}
}

// ConnOpened counts a WebSocket connection opened (parlour_connections).
func (m *Metrics) ConnOpened() {
	if m != nil {
		m.conns.Inc()
	}
}

// ConnClosed counts a WebSocket connection closed (parlour_connections).
func (m *Metrics) ConnClosed() {
	if m != nil {
		m.conns.Dec()
	}
}

// Move counts a move applied at a table of the game (parlour_moves_total).
// It does not allocate for the games of the registry.
func (m *Metrics) Move(game string) {
	if m == nil {
		return
	}
	if c, ok := m.movesByGame[game]; ok {
		c.Inc()
		return
	}
	// A game added since: its own series (bounded by the game registry).
	m.moves.WithLabelValues(game).Inc()
}

// MoveToView records the time from a person's move being received to the
// view showing it being queued to that person's connection
// (parlour_move_to_view_seconds).
func (m *Metrics) MoveToView(d time.Duration) {
	if m != nil {
		m.moveToView.Observe(d.Seconds())
	}
}

// StoreCommit records the time a commit to the store took
// (parlour_store_commit_seconds).
func (m *Metrics) StoreCommit(d time.Duration) {
	if m != nil {
		m.storeCommit.Observe(d.Seconds())
	}
}

// SetLeases sets the number of tables whose lease this node holds
// (parlour_leases_held).
func (m *Metrics) SetLeases(n int) {
	if m != nil {
		m.leases.Set(float64(n))
	}
}

// StoreUp sets whether the store answers in time (parlour_store_up).
func (m *Metrics) StoreUp(up bool) {
	if m != nil {
		v := 0.0
		if up {
			v = 1
		}
		m.storeUp.Set(v)
	}
}

// Takeover counts a table taken over from a dead or departed node
// (parlour_takeovers_total).
func (m *Metrics) Takeover() {
	if m != nil {
		m.takeovers.Inc()
	}
}

// Refusal counts a refused request or message by its error code
// (parlour_refusals_total); a code not in refusalCodes counts as "other".
func (m *Metrics) Refusal(code string) {
	if m == nil {
		return
	}
	c, ok := m.refusals[code]
	if !ok {
		c = m.refusals[other]
	}
	c.Inc()
}

// Shed counts a table or connection refused with 503 for load
// (parlour_shed_total); what is "table" or "connection" (else "other").
func (m *Metrics) Shed(what string) {
	if m == nil {
		return
	}
	c, ok := m.shed[what]
	if !ok {
		c = m.shed[other]
	}
	c.Inc()
}

// SearchFallback counts a bot decision played by the heuristic because
// the search pool had no room or no time left for it
// (parlour_search_fallbacks_total).
func (m *Metrics) SearchFallback() {
	if m != nil {
		m.fallbacks.Inc()
	}
}

// SearchThink records how long a bot decision given to the search pool
// took to its move, its wait for a worker included
// (parlour_search_think_seconds).
func (m *Metrics) SearchThink(d time.Duration) {
	if m != nil {
		m.think.Observe(d.Seconds())
	}
}

// SearchPaced adds the time a search of the pool waited while the node
// or the machine wanted the processors
// (parlour_search_paced_seconds_total).
func (m *Metrics) SearchPaced(d time.Duration) {
	if m != nil && d > 0 {
		m.paced.Add(d.Seconds())
	}
}

// Depth has the gauge of the queue called name read its depth from depth
// at each scrape, on the scraper's goroutine (a later call replaces an
// earlier one): "inbox" (parlour_inbox_queued), "inbox_max",
// "actors_ready", "chat" (parlour_chat_queued), "search_queued",
// "search_busy" and "search_workers" (parlour_ and the name). Any other
// name is ignored. The queues' owner keeps their depths; nothing is
// counted on its hot paths.
func (m *Metrics) Depth(name string, depth func() int) {
	if m == nil {
		return
	}
	if read, ok := m.depths[name]; ok {
		read.Store(&depth)
	}
}

// Relay adds delta (+1 or -1) to the connections this node relays to
// another node (parlour_relayed_connections).
func (m *Metrics) Relay(delta int) {
	if m != nil {
		m.relayed.Add(float64(delta))
	}
}
