package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/analysis"
	"parlour/internal/pace"
	"parlour/internal/protocol"
	"parlour/internal/script"
	"parlour/internal/store"
	"parlour/internal/table"
)

// The analyses of finished games (shared/spec/analysis.md): POST
// /api/tables/{id}/analysis asks for one, GET answers how it stands. An
// analysis is a job stored with its table (store.Analyses): any node of
// a cluster may claim it and make it, and any node answers for it, from
// the store. Each node makes at most AnalysisConfig.Workers at once, no
// more than it has cores, its searches paced (internal/pace) so that the
// tables come first; an analysis asked for when AnalysisConfig.Queue
// analyses wait already is refused with 503 and Retry-After. An analysis already
// asked for (the same table and options) is never made again: asking for
// it answers how it stands.

// AnalyseFunc makes the analysis of a scripted game; analysis.Analyse is
// one.
type AnalyseFunc func(ctx context.Context, lookup script.Lookup, s *script.Script, seed uint64, opt analysis.Options) (*analysis.Report, error)

// AnalysisConfig configures the analyses a server makes (StartAnalyses).
type AnalysisConfig struct {
	// Store keeps the analyses with their tables. Required.
	Store store.Analyses
	// Node names this node's claims of analyses; "" picks a random id.
	// It must be unique among the nodes running.
	Node string
	// Workers is the most analyses the node makes at once; 0, or more
	// than runtime.NumCPU(), means runtime.NumCPU().
	Workers int
	// Queue is the most analyses waiting to be made (in the store: a
	// cluster's nodes together); past it an analysis asked for is
	// refused with 503 and Retry-After. 0 means 8 per worker.
	Queue int
	// Think is the search time per decision analysed; 0 means
	// analysis.DefaultThink.
	Think time.Duration
	// ClaimTTL is how long a node's claim of an analysis lasts unless
	// renewed (it is, while the node makes it): about how long an
	// analysis a dead node was making waits for another. 0 means 30s.
	ClaimTTL time.Duration
	// Poll is how often an idle node looks for analyses asked for at
	// other nodes (one asked for here starts at once); 0 means 2s.
	Poll time.Duration
	// Analyse makes an analysis; nil means analysis.Analyse.
	Analyse AnalyseFunc
}

// Defaults and bounds of the analyses.
const (
	defaultClaimTTL         = 30 * time.Second
	defaultAnalysisPoll     = 2 * time.Second
	analysisQueuePerWorker  = 8
	analysisStoreTimeout    = 5 * time.Second
	analysisProgressEvery   = time.Second
	analysisRetryAfter      = 30 * time.Second
	analysisMaxInterruption = 3 // claims that ran out before an analysis is given up
)

// analyses is a server's pool of analysis workers: a dispatcher claims
// analyses from the store while a worker is free, and each runs on a
// goroutine of its own.
type analyses struct {
	cfg  AnalysisConfig
	srv  *Server
	log  *slog.Logger
	wake chan struct{} // an analysis was asked for here, or a worker is free

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // the dispatcher ended
	work   sync.WaitGroup
	down   bool // the last claim failed (the dispatcher's)
	once   sync.Once
}

// StartAnalyses starts the node's analyses: from now on it answers POST
// and GET /api/tables/{id}/analysis (503 before), and makes the analyses
// asked for at any node sharing its store once Ready has given it its
// tables. Close stops them; the analyses it was making go back to the
// queue, for any node. It is called once.
func (s *Server) StartAnalyses(cfg AnalysisConfig) {
	if cfg.Store == nil {
		panic("server: StartAnalyses needs a store")
	}
	if cfg.Workers <= 0 || cfg.Workers > runtime.NumCPU() {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.Queue <= 0 {
		cfg.Queue = analysisQueuePerWorker * cfg.Workers
	}
	if cfg.Think <= 0 {
		cfg.Think = analysis.DefaultThink
	}
	if cfg.ClaimTTL <= 0 {
		cfg.ClaimTTL = defaultClaimTTL
	}
	if cfg.Poll <= 0 {
		cfg.Poll = defaultAnalysisPoll
	}
	if cfg.Analyse == nil {
		cfg.Analyse = analysis.Analyse
	}
	if cfg.Node == "" {
		b := make([]byte, 6)
		rand.Read(b)
		cfg.Node = "analyst-" + hex.EncodeToString(b)
	}
	a := &analyses{cfg: cfg, srv: s, log: s.log.With("node", cfg.Node), wake: make(chan struct{}, 1), done: make(chan struct{})}
	a.ctx, a.cancel = context.WithCancel(s.ctx)
	if !s.an.CompareAndSwap(nil, a) {
		panic("server: StartAnalyses called twice")
	}
	go a.dispatch()
}

// stopAnalyses stops the node's analyses, if they were started: the
// analyses it was making go back to the queue.
func (s *Server) stopAnalyses() {
	if a := s.an.Load(); a != nil {
		a.stop()
	}
}

// poke wakes the dispatcher.
func (a *analyses) poke() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// dispatch claims analyses while a worker is free, until the pool stops.
func (a *analyses) dispatch() {
	defer close(a.done)
	free := make(chan struct{}, a.cfg.Workers) // a token for each worker busy
	for {
		select {
		case free <- struct{}{}:
		case <-a.ctx.Done():
			return
		}
		if job, ok := a.claim(); ok {
			a.work.Go(func() {
				defer func() {
					<-free
					a.poke()
				}()
				a.run(job)
			})
			continue
		}
		<-free
		select {
		case <-a.wake:
		case <-time.After(a.cfg.Poll):
		case <-a.ctx.Done():
			return
		}
	}
}

// claim claims the analysis waiting longest, if the node has its tables.
func (a *analyses) claim() (store.Analysis, bool) {
	if a.srv.m.Load() == nil {
		return store.Analysis{}, false
	}
	ctx, cancel := context.WithTimeout(a.ctx, analysisStoreTimeout)
	defer cancel()
	job, ok, err := a.cfg.Store.ClaimAnalysis(ctx, a.cfg.Node, a.cfg.ClaimTTL)
	if err != nil {
		if !a.down && a.ctx.Err() == nil {
			a.log.Warn("analyses: claiming one failed; trying again", "err", err)
		}
		a.down = true
		return store.Analysis{}, false
	}
	a.down = false
	return job, ok
}

// stop cancels the analyses under way, waits a little for them, and
// queues them again; once.
func (a *analyses) stop() { a.once.Do(a.stopNow) }

func (a *analyses) stopNow() {
	a.cancel()
	<-a.done
	stopped := make(chan struct{})
	go func() {
		a.work.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(analysisStoreTimeout):
		// An analysis slow to stop cannot store its report: its claim is
		// released below.
	}
	ctx, cancel := context.WithTimeout(context.Background(), analysisStoreTimeout)
	defer cancel()
	if err := a.cfg.Store.ReleaseAnalyses(ctx, a.cfg.Node); err != nil {
		a.log.Warn("analyses: queueing the analyses under way again failed; they wait for their claims to run out", "err", err)
	}
}

// run makes the analysis job claims and stores its report, or why it
// failed. It gives up, leaving the job to whoever has it now, when its
// claim is lost or the pool stops.
func (a *analyses) run(job store.Analysis) {
	log := a.log.With("table", job.Table, "analysis", job.ID)
	if job.Attempts > analysisMaxInterruption {
		a.fail(log, job, fmt.Sprintf("given up: the analysis was interrupted %d times", job.Attempts-1))
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	var progress atomic.Uint64 // math.Float64bits of done/total
	var lost atomic.Bool
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		a.renew(ctx, job, &progress, func() {
			lost.Store(true)
			cancel()
		})
	}()
	report, err := a.analyse(ctx, job, func(done, total int) {
		if total > 0 {
			progress.Store(math.Float64bits(float64(done) / float64(total)))
		}
	})
	cancel()
	<-renewed
	switch {
	case a.ctx.Err() != nil:
		return // stopping: the analysis goes back to the queue
	case lost.Load():
		log.Warn("analyses: another node took the analysis over")
		return
	case errors.Is(err, table.ErrUnavailable):
		// The store failed: the analysis is tried again when its claim
		// runs out.
		log.Warn("analyses: reading the game failed; the analysis waits for its claim to run out", "err", err)
		return
	case err != nil:
		a.fail(log, job, err.Error())
		return
	}
	b, err := json.Marshal(report)
	if err != nil {
		a.fail(log, job, "the report: "+err.Error())
		return
	}
	sctx, scancel := context.WithTimeout(context.Background(), analysisStoreTimeout)
	defer scancel()
	if err := a.cfg.Store.FinishAnalysis(sctx, job, b); err != nil {
		log.Warn("analyses: storing a report failed", "err", err)
	}
}

// renew writes job's progress now and then (at most every
// analysisProgressEvery, and whether it moved or not every quarter of the
// claim, which it renews) until ctx ends; it calls lost if the claim is
// no longer job's.
func (a *analyses) renew(ctx context.Context, job store.Analysis, progress *atomic.Uint64, lost func()) {
	every := min(analysisProgressEvery, a.cfg.ClaimTTL/4)
	tick := time.NewTicker(every)
	defer tick.Stop()
	written, at := 0.0, time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		p := math.Float64frombits(progress.Load())
		if p == written && time.Since(at) < a.cfg.ClaimTTL/4 {
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, analysisStoreTimeout)
		err := a.cfg.Store.AnalysisProgress(sctx, job, p, a.cfg.ClaimTTL)
		cancel()
		switch {
		case errors.Is(err, store.ErrLeaseLost):
			lost()
			return
		case err != nil:
			if ctx.Err() == nil {
				a.log.Warn("analyses: writing the progress failed", "table", job.Table, "err", err)
			}
		default:
			written, at = p, time.Now()
		}
	}
}

// analyse makes job's analysis from its table's replay: its game,
// options, seed and moves, the script of the game. Its searches are
// paced (internal/pace), so the node's tables go first; a panic in it
// fails the analysis, not the node.
func (a *analyses) analyse(ctx context.Context, job store.Analysis, progress func(done, total int)) (rep *analysis.Report, err error) {
	var opts protocol.AnalysisRequest
	if err := json.Unmarshal([]byte(job.Options), &opts); err != nil {
		return nil, fmt.Errorf("the analysis's options %s: %w", job.Options, err)
	}
	m := a.srv.m.Load()
	replay, err := m.Replay(ctx, job.Table)
	if err != nil {
		return nil, err
	}
	seed, err := strconv.ParseUint(replay.Seed, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("the game's seed %q: %w", replay.Seed, err)
	}
	sc := &script.Script{Game: replay.Game, Options: replay.Options, Seed: json.Number(replay.Seed), Moves: make([]string, len(replay.Moves))}
	for i, mv := range replay.Moves {
		sc.Moves[i] = fmt.Sprintf("%d: %s", mv.Seat, mv.Move)
	}
	defer func() {
		if p := recover(); p != nil {
			a.log.Error("analyses: the analysis panicked", "table", job.Table, "panic", p)
			rep, err = nil, fmt.Errorf("the analysis crashed: %v", p)
		}
	}()
	pc := pace.New()
	defer pc.Close()
	pc.Quit = ctx.Done()
	return a.cfg.Analyse(ctx, a.srv.cfg.Games.Lookup, sc, seed,
		analysis.Options{Think: a.cfg.Think, Seats: opts.Seats, Hindsight: opts.Hindsight, Progress: progress, Pace: pc})
}

// fail stores why job failed.
func (a *analyses) fail(log *slog.Logger, job store.Analysis, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), analysisStoreTimeout)
	defer cancel()
	log.Warn("analyses: an analysis failed", "why", why)
	if err := a.cfg.Store.FailAnalysis(ctx, job, why); err != nil && !errors.Is(err, store.ErrLeaseLost) {
		log.Warn("analyses: storing a failure failed", "err", err)
	}
}

// optionsKey checks o against a game of players seats and returns it in
// its canonical form, as JSON, the store's key of the analysis: nil seats
// are every seat; seats are sorted and listed once.
func optionsKey(o protocol.AnalysisRequest, players int) (string, error) {
	seats := slices.Clone(o.Seats)
	if seats == nil {
		for s := range players {
			seats = append(seats, s)
		}
	}
	if len(seats) == 0 {
		return "", errors.New("seats is empty: name the seats to analyse, or leave seats out for every seat")
	}
	for _, s := range seats {
		if s < 0 || s >= players {
			return "", fmt.Errorf("no seat %d: the game has %d seats (0 to %d)", s, players, players-1)
		}
	}
	slices.Sort(seats)
	b, err := json.Marshal(protocol.AnalysisRequest{Seats: slices.Compact(seats), Hindsight: o.Hindsight})
	return string(b), err
}

// answerOf is job as the API answers it.
func answerOf(job store.Analysis) protocol.AnalysisStatus {
	var o protocol.AnalysisRequest
	json.Unmarshal([]byte(job.Options), &o)
	out := protocol.AnalysisStatus{Status: job.Status, Progress: math.Round(job.Progress*100) / 100, Seats: o.Seats,
		Hindsight: o.Hindsight, Error: job.Error}
	if job.Status == store.AnalysisDone {
		out.Progress, out.Report = 1, job.Report
	}
	if out.Seats == nil {
		out.Seats = []int{}
	}
	return out
}

// noAnalyses refuses an analysis request on a server that makes none.
func (s *Server) noAnalyses(w http.ResponseWriter) *analyses {
	a := s.an.Load()
	if a == nil {
		s.unavailable(w, protocol.CodeUnavailable, "this server makes no analyses")
	}
	return a
}

// askAnalysis is POST /api/tables/{id}/analysis.
func (s *Server) askAnalysis(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	a := s.noAnalyses(w)
	if a == nil {
		return
	}
	var body protocol.AnalysisRequest
	if !s.decode(w, r, &body) {
		return
	}
	id := r.PathValue("id")
	key, ok := s.analysisKey(w, r, m, id, body)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), analysisStoreTimeout)
	defer cancel()
	job, queued, err := a.cfg.Store.AskAnalysis(ctx, id, key, a.cfg.Queue)
	switch {
	case errors.Is(err, store.ErrQueueFull):
		s.cfg.Metrics.Shed("analysis")
		w.Header().Set("Retry-After", strconv.Itoa(int(analysisRetryAfter/time.Second)))
		s.writeError(w, http.StatusServiceUnavailable, "full",
			fmt.Sprintf("the analysis queue is full (%d waiting); try again later", a.cfg.Queue))
		return
	case err != nil:
		s.analysisFault(w, id, err)
		return
	}
	if queued {
		a.poke()
	}
	status := http.StatusAccepted
	if job.Status == store.AnalysisDone {
		status = http.StatusOK
	}
	writeJSON(w, status, answerOf(job))
}

// analysisKey returns the canonical options of table id's analysis that
// o asks for, or refuses the request: the table is missing or its game is
// not over, or o names seats the game does not have.
func (s *Server) analysisKey(w http.ResponseWriter, r *http.Request, m *table.Manager, id string, o protocol.AnalysisRequest) (string, bool) {
	rep, err := m.Replay(r.Context(), id)
	if errors.Is(err, table.ErrNotOver) {
		s.writeError(w, http.StatusConflict, "not_over", "the game is not over: it is analysed once it has ended")
		return "", false
	}
	if err != nil {
		s.fail(w, err)
		return "", false
	}
	key, err := optionsKey(o, rep.Players)
	if err != nil {
		s.writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return "", false
	}
	return key, true
}

// getAnalysis is GET /api/tables/{id}/analysis: the analysis asked for
// last, or the one the query's seats and hindsight name.
func (s *Server) getAnalysis(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	a := s.noAnalyses(w)
	if a == nil {
		return
	}
	id := r.PathValue("id")
	key := ""
	if q := r.URL.Query(); q.Has("seats") || q.Has("hindsight") {
		var o protocol.AnalysisRequest
		if v := q.Get("seats"); v != "" {
			for f := range strings.SplitSeq(v, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("seats %q is not a list of seats (such as 0,2)", v))
					return
				}
				o.Seats = append(o.Seats, n)
			}
		}
		if v := q.Get("hindsight"); v != "" {
			h, err := strconv.ParseBool(v)
			if err != nil {
				s.writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("hindsight %q is not true or false", v))
				return
			}
			o.Hindsight = h
		}
		var ok bool
		if key, ok = s.analysisKey(w, r, m, id, o); !ok {
			return
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), analysisStoreTimeout)
	defer cancel()
	job, err := a.cfg.Store.Analysis(ctx, id, key)
	if errors.Is(err, store.ErrNoAnalysis) {
		what := "no analysis of table " + id + " was asked for"
		if key != "" {
			what = "no analysis of table " + id + " with these options was asked for"
		}
		s.writeError(w, http.StatusNotFound, "no_analysis", what+": POST /api/tables/"+id+"/analysis asks for one")
		return
	}
	if err != nil {
		s.analysisFault(w, id, err)
		return
	}
	writeJSON(w, http.StatusOK, answerOf(job))
}

// analysisFault refuses an analysis request the store failed.
func (s *Server) analysisFault(w http.ResponseWriter, id string, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, fmt.Errorf("%w: %s", table.ErrNotFound, id))
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		s.unavailable(w, "timeout", "the store did not answer in time")
	default:
		s.unavailable(w, protocol.CodeUnavailable, "the store failed: "+err.Error())
	}
}
