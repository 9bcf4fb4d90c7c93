package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"parlour/bot"
	"parlour/games"
	"parlour/internal/extbot"
	"parlour/internal/metrics"
	"parlour/internal/server"
	"parlour/internal/store"
	"parlour/internal/table"
)

// runServe is "parlour serve": the table server, lobby and page on one
// address, until SIGINT or SIGTERM.
func runServe(e *env, args []string) int {
	fs := newFlags(e, "serve")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (HOST:PORT)")
	db := fs.String("db", "sqlite:parlour.db", "database: sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DB")
	botDelay := fs.Duration("bot-delay", 800*time.Millisecond, "mean pause before a bot moves (0: at once)")
	grace := fs.Duration("grace", time.Minute, "default time a dropped player's seat waits before a stand-in bot plays it")
	standIn := fs.String("standin", "", "default stand-in bot (default: heuristic if there is one, else random)")
	think := fs.Duration("think", 0, fmt.Sprintf("default time hard thinks per move (medium an eighth of it, easy a fortieth), spread over every core, for tables created without \"think\" (at most %v); 0: each level's own iterations, cut short at %v",
		table.MaxThinkMS*time.Millisecond, bot.LevelCap))
	origins := fs.String("origin", "", "comma-separated hosts whose pages may connect besides this server's own (e.g. example.com,*.example.org)")
	engines := addEngineFlags(e, fs)
	engineProcs := fs.Int("engine-procs", 64, "most processes each --engine may run at once (one per table seat); a seat past it is played by the random bot")
	advertise := fs.String("advertise", "", "with PostgreSQL, where the other nodes of the cluster reach this one (http://HOST:PORT; default: from --addr)")
	lease := fs.Duration("lease", 5*time.Second, "with PostgreSQL, how long a table's lease lasts unless renewed: about how long a dead node's tables wait for a new owner")
	maxTables := fs.Int("max-tables", defaultMaxTables, "most tables played (playing, or waiting with a person seated) this node runs; past it new tables are refused with 503 and Retry-After (0: no limit)")
	limits := server.DefaultLimits()
	fs.Var(&limits.Create, "limit-create", "tables one client address may create: N/PERIOD, N at once and N each PERIOD (off: no limit); past it 429 with Retry-After")
	fs.Var(&limits.Join, "limit-join", "seats one client address may take: N/PERIOD (off: no limit)")
	fs.Var(&limits.Connect, "limit-connect", "WebSocket connections one client address may open: N/PERIOD (off: no limit)")
	fs.IntVar(&limits.Conns, "limit-connections", limits.Conns, "most WebSocket connections one client address holds at once (0: no limit)")
	fs.Var(&limits.Chat, "limit-chat", "chat messages one client address may write, over all its connections: N/PERIOD (off: no limit)")
	limitExempt := fs.String("limit-exempt", "127.0.0.0/8,::1", "comma-separated client addresses and ranges (CIDR) the per-client limits do not apply to (default: this machine's loopback, for load tests and health checks; \"\": none)")
	trustedProxy := fs.String("trusted-proxy", "", "comma-separated addresses and ranges (CIDR) of proxies whose X-Forwarded-For names the client the limits count (default: none; the peer's address counts)")
	expire := fs.Duration("expire", 10*time.Minute, "how long a table no person has joined waits before it is deleted (0: never)")
	abandon := fs.Duration("abandon", 15*time.Minute, "how long an unfinished table nobody is connected to stays in memory before it is unloaded; it stays in the database and loads again when asked for (0: never; a cluster never unloads one)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof) on this address, e.g. 127.0.0.1:6060 (keep it private; default: off)")
	storeTimeout := fs.Duration("store-timeout", 2*time.Second, "longest a call to the database may take: a move not stored within it is refused with unavailable, a lobby request answered 503 with Retry-After")
	drain := fs.Duration("drain", 10*time.Second, "on SIGINT or SIGTERM, longest the node takes to stop: it closes its connections and waits for the moves in flight, then exits whatever the database does (a second signal stops it at once)")
	maxConns := fs.Int("max-connections", defaultMaxConns, "most WebSocket connections this node holds; past it new ones are refused with 503 and Retry-After (0: no limit)")
	analysisWorkers := fs.Int("analysis-workers", runtime.NumCPU(), "most game analyses this node makes at once (POST /api/tables/{id}/analysis), at most the machine's cores")
	analysisQueue := fs.Int("analysis-queue", 0, "most analyses waiting to be made (in the database: a cluster's nodes together); past it an analysis asked for is refused with 503 and Retry-After (0: 8 per --analysis-workers)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "parlour serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !strings.HasPrefix(*db, "sqlite:") && !strings.HasPrefix(*db, "postgres://") && !strings.HasPrefix(*db, "postgresql://") {
		fmt.Fprintf(e.stderr, "parlour serve: unknown database %q (use sqlite:PATH or postgres://...)\n", *db)
		return 2
	}
	if *botDelay < 0 || *grace < 0 {
		fmt.Fprintln(e.stderr, "parlour serve: --bot-delay and --grace may not be negative")
		return 2
	}
	if err := checkThink(*think, table.MaxThinkMS*time.Millisecond); err != nil {
		fmt.Fprintf(e.stderr, "parlour serve: %v\n", err)
		return 2
	}
	if *expire < 0 || *abandon < 0 || limits.Conns < 0 {
		fmt.Fprintln(e.stderr, "parlour serve: --expire, --abandon and --limit-connections may not be negative")
		return 2
	}
	proxies, err := server.ParsePrefixes(*trustedProxy)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour serve: --trusted-proxy: %v\n", err)
		return 2
	}
	exempt, err := server.ParsePrefixes(*limitExempt)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour serve: --limit-exempt: %v\n", err)
		return 2
	}
	if *analysisWorkers < 1 || *analysisWorkers > runtime.NumCPU() || *analysisQueue < 0 {
		fmt.Fprintf(e.stderr, "parlour serve: --analysis-workers must be 1 to %d (the cores) and --analysis-queue at least 0\n", runtime.NumCPU())
		return 2
	}
	if *maxTables < 0 || *maxConns < 0 {
		fmt.Fprintln(e.stderr, "parlour serve: --max-tables and --max-connections may not be negative")
		return 2
	}
	if *storeTimeout < 100*time.Millisecond || *storeTimeout > time.Minute {
		fmt.Fprintf(e.stderr, "parlour serve: --store-timeout %v is out of range (100ms to 1m)\n", *storeTimeout)
		return 2
	}
	if *drain < time.Second || *drain > 10*time.Minute {
		fmt.Fprintf(e.stderr, "parlour serve: --drain %v is out of range (1s to 10m)\n", *drain)
		return 2
	}
	if *lease < 500*time.Millisecond || *lease > 5*time.Minute {
		fmt.Fprintf(e.stderr, "parlour serve: --lease %v is out of range (500ms to 5m)\n", *lease)
		return 2
	}
	if *advertise != "" {
		if u, err := url.Parse(*advertise); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fmt.Fprintf(e.stderr, "parlour serve: --advertise %q is not an http://HOST:PORT address\n", *advertise)
			return 2
		}
	}
	if *engineProcs < 1 {
		fmt.Fprintf(e.stderr, "parlour serve: --engine-procs must be at least 1 (got %d)\n", *engineProcs)
		return 2
	}
	var patterns []string
	for _, p := range strings.Split(*origins, ",") {
		if p = strings.TrimSpace(p); p != "" {
			patterns = append(patterns, p)
		}
	}

	// The search pool is sized to the cores the process may use, before
	// a SQLite node takes more Ps than that.
	cores := runtime.GOMAXPROCS(0)
	if os.Getenv("GOMAXPROCS") == "" && strings.HasPrefix(*db, "sqlite:") {
		raiseProcs()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Each table seat an external bot plays gets a process of its own,
	// started when the seat first acts and stopped when the table ends.
	engines.startWith(extbot.Config{Logger: log, StopAfterMatch: true, MaxProcs: *engineProcs})
	defer engines.close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour serve: %v\n", err)
		return 1
	}
	if *pprofAddr != "" {
		stop, err := servePprof(*pprofAddr)
		if err != nil {
			fmt.Fprintf(e.stderr, "parlour serve: --pprof: %v\n", err)
			return 1
		}
		defer stop()
	}
	mx := metrics.New()
	srv := server.New(server.Config{Games: games.Registry, OriginPatterns: patterns, Logger: log,
		Metrics: mx, MaxTables: *maxTables, MaxConns: *maxConns, Limits: limits, TrustedProxies: proxies, LimitExempt: exempt})
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(e.stdout, "parlour: serving on %s (open it in a browser)\n", pageURL(ln.Addr()))

	forced := false // the drain ran out
	code := func() int {
		st, err := store.Open(ctx, *db)
		if err != nil {
			if ctx.Err() != nil {
				return 0 // stopped while starting
			}
			fmt.Fprintf(e.stderr, "parlour serve: %v\n", err)
			return 1
		}
		cluster := !strings.HasPrefix(*db, "sqlite:")
		adv := *advertise
		if adv == "" {
			adv = advertised(ln.Addr())
		}
		m := table.NewManager(table.Config{Store: st, Games: games.Registry, BotDelay: *botDelay, Grace: *grace,
			StandIn: *standIn, Think: *think, Logger: log, Bots: engines.bot, BotNames: engines.all(),
			Metrics: mx, Cluster: cluster, Advertise: adv, LeaseTTL: *lease, Expire: *expire, Abandon: *abandon, StoreTimeout: *storeTimeout,
			Workers: cores})
		n, err := m.Recover(ctx)
		if err != nil {
			m.Close()
			st.Close()
			if ctx.Err() != nil {
				return 0
			}
			fmt.Fprintf(e.stderr, "parlour serve: %v\n", err)
			return 1
		}
		srv.Ready(m)
		srv.StartAnalyses(server.AnalysisConfig{Store: st.(store.Analyses), Node: m.NodeID(), Workers: *analysisWorkers, Queue: *analysisQueue})
		if cluster {
			fmt.Fprintf(e.stdout, "parlour: ready as node %s of a cluster at %s (%d tables taken over, database %s)\n", m.NodeID(), adv, n, redact(*db))
		} else {
			fmt.Fprintf(e.stdout, "parlour: ready (%d unfinished tables restored, database %s)\n", n, redact(*db))
		}
		code := 0
		select {
		case <-ctx.Done():
		case err := <-served:
			fmt.Fprintf(e.stderr, "parlour serve: %v\n", err)
			code = 1
		}
		// From here a second signal stops the process at once.
		stop()
		fmt.Fprintln(e.stdout, "parlour: shutting down")
		if !shutdown(hs, srv, m, st, *drain, e.stderr) {
			fmt.Fprintf(e.stderr, "parlour serve: still stopping after --drain %v; exiting (every move acknowledged is stored)\n", *drain)
			forced = true
		}
		return code
	}()
	if forced {
		return code // what is still stopping ends with the process
	}
	hs.Close()
	srv.Close()
	if code == 0 {
		fmt.Fprintln(e.stdout, "parlour: stopped")
	}
	return code
}

// shutdown stops the node within drain: it stops taking requests, stops
// every table (their connections are told so; in a cluster the leases are
// given up), waits for the moves in flight and closes the store. It
// reports whether all that ended within drain; if not, what is left runs
// on until the process exits. Every store call is bounded by the store
// timeout, so a stuck database holds it up only that long at each step,
// and drain bounds the whole.
func shutdown(hs *http.Server, srv *server.Server, m *table.Manager, st store.Store, drain time.Duration, stderr io.Writer) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		sctx, cancel := context.WithTimeout(context.Background(), drain/2)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, context.DeadlineExceeded) {
			fmt.Fprintf(stderr, "parlour serve: %v\n", err)
		}
		m.Close()   // every table stops; its connections are told so
		srv.Close() // and their handlers end
		if err := st.Close(); err != nil {
			fmt.Fprintf(stderr, "parlour serve: closing the database: %v\n", err)
		}
	}()
	select {
	case <-done:
		return true
	case <-time.After(drain):
		return false
	}
}

// Load-shedding defaults: about what one 2-core node holds with a move's
// view within 20 ms at the 99th percentile (docs/deploy.md, "Capacity of
// one node"); a table has a person or three and a spectator or two.
const (
	defaultMaxTables = 5000
	defaultMaxConns  = 15000
)

// servePprof serves Go's profiles (pprofMux) on addr, a listener of their
// own, until stop is called.
func servePprof(addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	ps := &http.Server{Handler: pprofMux(), ReadHeaderTimeout: 10 * time.Second}
	go ps.Serve(ln)
	return func() { ps.Close() }, nil
}

// pprofMux serves net/http/pprof's handlers, on a listener of their own.
func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// advertised is where other nodes reach a server listening on a: its
// address, or the machine's name when it listens on every interface.
func advertised(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		if h, err := os.Hostname(); err == nil {
			host = h
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// pageURL is the address to open in a browser.
func pageURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// redact hides a password in a database URL.
func redact(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if j := strings.Index(dsn[i+3:], "@"); j >= 0 {
			cred := dsn[i+3 : i+3+j]
			if user, _, ok := strings.Cut(cred, ":"); ok {
				return dsn[:i+3] + user + ":***" + dsn[i+3+j:]
			}
		}
	}
	return dsn
}

// minProcs is the fewest Ps (runtime.GOMAXPROCS) a SQLite node runs with
// on a small machine of its own. The garbage collector marks with a
// quarter of the Ps: with 4, one P marks while three play on, the kernel
// sharing the cores among them; with 2, the mark takes a share of both
// and the moves that come meanwhile queue behind it. A PostgreSQL node
// keeps Go's own number: there more Ps take processor time from a
// database on the same machine. (docs/perf/node.md has the runs.)
const minProcs = 4

// raiseProcs runs the process with minProcs Ps when it has all of a
// machine of fewer CPUs. It leaves them as they are when a CPU limit (a
// container's) made them fewer than the CPUs: there more Ps would only be
// throttled. (serve calls it for SQLite, unless GOMAXPROCS is set.)
func raiseProcs() {
	n := runtime.GOMAXPROCS(0)
	if n < minProcs && n == runtime.NumCPU() {
		runtime.GOMAXPROCS(minProcs)
	}
}
