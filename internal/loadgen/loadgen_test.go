package loadgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/games"
	"parlour/internal/loadgen"
	"parlour/internal/metrics"
	"parlour/internal/protocol"
	"parlour/internal/server"
	"parlour/internal/store"
	"parlour/internal/table"
)

// realServer is parlour serve in-process: a SQLite store in a temp dir,
// bots with a short delay, on a loopback listener at addr (":0" for any).
type realServer struct {
	t    *testing.T
	path string
	st   store.Store
	m    *table.Manager
	srv  *server.Server
	hs   *httptest.Server
	url  string
}

func startServer(t *testing.T, path, addr string) *realServer {
	t.Helper()
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mx := metrics.New()
	m := table.NewManager(table.Config{Store: st, Games: games.Registry, BotDelay: 10 * time.Millisecond,
		Grace: time.Minute, StandIn: "random", Metrics: mx})
	if _, err := m.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Games: games.Registry, RateLimit: 1e6, Burst: 1e6, Metrics: mx})
	srv.Ready(m)
	hs := httptest.NewUnstartedServer(srv)
	if addr != "" {
		var ln net.Listener
		for range 50 { // the port of a server just stopped
			if ln, err = net.Listen("tcp", addr); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		hs.Listener.Close()
		hs.Listener = ln
	}
	hs.Start()
	return &realServer{t: t, path: path, st: st, m: m, srv: srv, hs: hs, url: hs.URL}
}

// stop shuts the server down as parlour serve does on SIGINT.
func (s *realServer) stop() {
	if s.hs == nil {
		return
	}
	s.m.Close()
	s.srv.Close()
	s.hs.Close()
	s.st.Close()
	s.hs = nil
}

func checkReport(t *testing.T, r loadgen.Report) {
	t.Helper()
	b, _ := json.Marshal(r)
	t.Logf("report: %s", b)
	if r.Moves <= 0 || r.PersonMoves <= 0 || r.MovesPerS <= 0 {
		t.Errorf("no moves measured: moves %d, person moves %d, %.1f/s", r.Moves, r.PersonMoves, r.MovesPerS)
	}
	if r.PersonMoves > r.Moves {
		t.Errorf("more person moves (%d) than moves (%d)", r.PersonMoves, r.Moves)
	}
	if !(0 < r.P50MS && r.P50MS <= r.P90MS && r.P90MS <= r.P99MS && r.P99MS <= r.MaxMS) {
		t.Errorf("percentiles not positive and ordered: p50 %v p90 %v p99 %v max %v", r.P50MS, r.P90MS, r.P99MS, r.MaxMS)
	}
	if r.Lost != 0 {
		t.Errorf("%d acknowledged moves lost", r.Lost)
	}
}

// TestRun plays 20 tables of one-hole Golf on a real server for 3 seconds.
func TestRun(t *testing.T) {
	t.Parallel()
	s := startServer(t, filepath.Join(t.TempDir(), "parlour.db"), "")
	defer s.stop()
	var pids []int // the server's, where /proc has its memory and time
	if runtime.GOOS == "linux" {
		pids = []int{os.Getpid()}
	}
	var progress strings.Builder
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{s.url}, Tables: 20, Duration: 3 * time.Second, Ramp: 300 * time.Millisecond,
		Think: 20 * time.Millisecond, Game: "golf", Options: map[string]string{"holes": "1"}, Seed: 7,
		ProgressEvery: time.Second, PIDs: pids,
	}, &syncWriter{w: &progress})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r)
	if pids != nil {
		// The server is this process: its processor time is the load
		// generator's too.
		if r.ServerCores <= 0 || r.ServerUSPerMove <= 0 || r.LoadCores <= 0 || !(0 < r.MachineBusy && r.MachineBusy <= 1) {
			t.Errorf("processor time: server %v cores (%v µs a move), load generator %v cores, machine %v busy; want all measured",
				r.ServerCores, r.ServerUSPerMove, r.LoadCores, r.MachineBusy)
		}
		if r.RSSBytes <= 0 || r.RSSPerTableBytes <= 0 {
			t.Errorf("memory: %d bytes, %d a table; want both measured", r.RSSBytes, r.RSSPerTableBytes)
		}
	}
	// The server's own part of a person's move, from its metrics.
	if r.ServerViews <= 0 || !(0 < r.ServerP50MS && r.ServerP50MS <= r.ServerP90MS && r.ServerP90MS <= r.ServerP99MS) {
		t.Errorf("the server's part: %d moves, p50 %vms, p90 %vms, p99 %vms; want it measured, in order",
			r.ServerViews, r.ServerP50MS, r.ServerP90MS, r.ServerP99MS)
	}
	if r.Tables != 20 || r.LiveTables < 15 {
		t.Errorf("tables %d, %d live at the end; want 20, nearly all live", r.Tables, r.LiveTables)
	}
	if r.GamesFinished <= 0 {
		t.Errorf("no game finished")
	}
	if r.ErrorsTotal != 0 || len(r.Errors) != 0 || r.Shed != 0 || r.Reconnects != 0 {
		t.Errorf("errors %v (%d), shed %d, reconnects %d; want none", r.Errors, r.ErrorsTotal, r.Shed, r.Reconnects)
	}
	if r.DurationS < 2.9 || r.DurationS > 3.5 {
		t.Errorf("measured %.2fs, want 3", r.DurationS)
	}
	if !strings.Contains(progress.String(), "moves/s") {
		t.Errorf("no progress line: %q", progress.String())
	}
}

// TestRunMix runs the default workload for two seconds: every game in
// turn at its usual seat count, heuristic and random bots seated in turn.
func TestRunMix(t *testing.T) {
	t.Parallel()
	s := startServer(t, filepath.Join(t.TempDir(), "parlour.db"), "")
	defer s.stop()
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{s.url}, Tables: 20, Duration: 2 * time.Second, Ramp: 200 * time.Millisecond,
		Think: 20 * time.Millisecond, Seed: 3,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r)
	if r.Game != "all" || r.Bot != "heuristic,random" {
		t.Errorf("report says game %q, bot %q; want the defaults all and heuristic,random", r.Game, r.Bot)
	}
	usual := map[string]int{"golf": 4, "parcellus": 3, "tractric": 3, "damn": 2, "court-circular": 2}
	var tables []protocol.TableInfo
	for _, f := range []table.Filter{table.FilterLive, table.FilterOver} {
		list, err := s.m.List(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, list...)
	}
	played := map[string]int{}
	bots := map[string]int{}
	for _, info := range tables {
		played[info.Game]++
		if want, ok := usual[info.Game]; !ok || len(info.Seats) != want {
			t.Errorf("table %s: %s with %d seats, want %d", info.ID, info.Game, len(info.Seats), want)
		}
		for _, seat := range info.Seats {
			if seat.Kind == "bot" {
				bots[seat.Bot]++
			}
		}
	}
	t.Logf("tables played: %v", played)
	if len(played) != len(usual) {
		t.Errorf("games played %v, want every one of %v", played, usual)
	}
	if bots["heuristic"] == 0 || bots["random"] == 0 || len(bots) != 2 {
		t.Errorf("bots seated %v, want heuristic and random", bots)
	}
}

// TestRunAcrossRestart restarts the server in the middle of a run: every
// person reconnects with their token and no move shown is lost.
func TestRunAcrossRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "parlour.db")
	s := startServer(t, path, "127.0.0.1:0")
	addr := s.hs.Listener.Addr().String()
	var mu sync.Mutex
	defer func() {
		mu.Lock()
		s.stop()
		mu.Unlock()
	}()
	go func() {
		time.Sleep(1500 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		s.stop()
		s = startServer(t, path, addr)
	}()
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{"http://" + addr}, Tables: 10, Duration: 3 * time.Second, Ramp: 200 * time.Millisecond,
		Think: 20 * time.Millisecond, Game: "all", Options: map[string]string{"holes": "1", "target": "5"}, Seed: 8,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r)
	if r.Reconnects == 0 {
		t.Errorf("no reconnect across the restart")
	}
	if r.Errors["ws_drop:1001"] == 0 {
		t.Errorf("errors %v: want the shutdown's drops (ws_drop:1001)", r.Errors)
	}
}

// TestLostAndRefused plays against a fake server that refuses a move,
// shows moves and then forgets them, and sheds a request: the report
// counts each exactly.
func TestLostAndRefused(t *testing.T) {
	t.Parallel()
	f := &fake{t: t}
	hs := httptest.NewServer(f)
	defer hs.Close()
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{hs.URL}, Tables: 1, Duration: 700 * time.Millisecond, Ramp: 10 * time.Millisecond,
		Think: time.Millisecond, Game: "fake", Bot: "random",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	t.Logf("report: %s", b)
	// t1: moves 2 and 3 shown, then the table says 1. t2: moves 1 and 2
	// shown, then the table is gone.
	if r.Lost != 4 {
		t.Errorf("lost %d, want 4", r.Lost)
	}
	want := map[string]int64{"refused:illegal_move": 1, "ws_drop:1011": 2, "table_gone": 1}
	if fmt.Sprint(r.Errors) != fmt.Sprint(want) {
		t.Errorf("errors %v, want %v", r.Errors, want)
	}
	if r.Shed != 1 || r.Reconnects != 1 {
		t.Errorf("shed %d, reconnects %d; want 1 and 1", r.Shed, r.Reconnects)
	}
	if n := f.created.Load(); n != 4 {
		t.Errorf("%d create requests, want 4 (one shed, t1, t2, t3)", n)
	}
}

// fake is a table server that plays scripted tables: t1 refuses the
// second move, shows three, drops the connection and on the next one says
// the table has one move, then ends the game; t2 shows two moves, drops
// the connection and is gone; later tables wait for players forever.
type fake struct {
	t       *testing.T
	created atomic.Int64
	mu      sync.Mutex
	conns   map[string]int
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	switch p := r.URL.Path; {
	case p == "/api/games":
		reply(200, []map[string]any{{"id": "fake", "min_players": 2, "max_players": 2, "options": []any{}}})
	case p == "/api/bots":
		reply(200, []string{"random"})
	case p == "/api/tables" && r.Method == "POST":
		n := f.created.Add(1)
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			reply(503, map[string]any{"error": map[string]string{"code": "busy", "message": "shedding"}})
			return
		}
		reply(201, map[string]any{"id": fmt.Sprintf("t%d", n-1)})
	case strings.HasSuffix(p, "/join"):
		var body struct{ Seat int }
		json.NewDecoder(r.Body).Decode(&body)
		id := strings.Split(p, "/")[3]
		reply(200, map[string]any{"table": id, "seat": body.Seat, "token": fmt.Sprintf("tok-%s-%d", id, body.Seat)})
	case strings.HasPrefix(p, "/ws/tables/"):
		id := strings.TrimPrefix(p, "/ws/tables/")
		f.mu.Lock()
		if f.conns == nil {
			f.conns = map[string]int{}
		}
		f.conns[id]++
		k := f.conns[id]
		f.mu.Unlock()
		if id == "t2" && k > 1 {
			reply(404, map[string]any{"error": map[string]string{"code": "not_found", "message": "no such table"}})
			return
		}
		f.play(w, r, id, k)
	default:
		reply(404, map[string]any{"error": map[string]string{"code": "not_found", "message": p}})
	}
}

func (f *fake) play(w http.ResponseWriter, r *http.Request, id string, k int) {
	c, send, ok := acceptFake(w, r)
	if !ok {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	_, data, err := c.Read(ctx)
	if err != nil {
		return
	}
	var hello struct{ Token string }
	json.Unmarshal(data, &hello)
	var seat int
	fmt.Sscanf(hello.Token[strings.LastIndex(hello.Token, "-")+1:], "%d", &seat)
	send(map[string]any{"type": "welcome", "table": id, "seat": seat, "players": 2})
	seq := 0
	state := func(status string, events []any) {
		toAct, legal := []int{seat}, []string{"a", "b"}
		if status != "playing" {
			toAct, legal = []int{}, []string{}
		}
		send(map[string]any{"type": "state", "table": id, "seat": seat, "seq": seq, "status": status,
			"to_act": toAct, "legal": legal, "view": map[string]any{"hand": []string{"AS", "2C"}}, "events": events})
	}
	switch {
	case id == "t1" && k == 1, id == "t2":
		state("playing", []any{})
	case id == "t1":
		seq = 1 // moves 2 and 3 forgotten
		state("playing", []any{})
	default:
		state("waiting", []any{})
	}
	for n := 1; ; n++ {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct{ Type, Move, ID string }
		json.Unmarshal(data, &m)
		if m.Type != "move" {
			continue
		}
		if id == "t1" && k == 1 && n == 2 {
			send(map[string]any{"type": "error", "code": "illegal_move", "message": "no", "id": m.ID, "move": m.Move})
			continue
		}
		seq++
		status := "playing"
		if id == "t1" && k == 2 && seq == 3 {
			status = "over"
		}
		state(status, []any{map[string]any{"kind": "move", "n": seq, "seat": seat, "move": m.Move, "at": time.Now()}})
		if (id == "t1" && k == 1 && seq == 3) || (id == "t2" && seq == 2) {
			c.Close(websocket.StatusInternalError, "crash")
			return
		}
	}
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestHistogram checks the quantiles against exact ones.
func TestHistogram(t *testing.T) {
	var h loadgen.Histogram
	if h.Quantile(0.5) != 0 || h.Max() != 0 {
		t.Fatal("an empty histogram is not zero")
	}
	for i := 1; i <= 100000; i++ {
		h.Add(time.Duration(i) * 10 * time.Microsecond) // 10 µs to 1 s
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999} {
		want := q * float64(time.Second)
		got := float64(h.Quantile(q))
		if got < want*0.99 || got > want*1.01 {
			t.Errorf("q%v: %v, want %v within 1%%", q, time.Duration(got), time.Duration(want))
		}
	}
	if h.Max() != time.Second || h.Count() != 100000 {
		t.Errorf("max %v, count %d", h.Max(), h.Count())
	}
	var o loadgen.Histogram
	o.Add(5 * time.Second)
	o.Add(-time.Second)
	h.Merge(&o)
	if h.Max() != 5*time.Second || h.Count() != 100002 {
		t.Errorf("after merge: max %v, count %d", h.Max(), h.Count())
	}
	if h.Quantile(0) != 0 {
		t.Errorf("q0 = %v, want 0 (the negative sample)", h.Quantile(0))
	}
	h.Reset()
	if h.Count() != 0 {
		t.Error("reset kept samples")
	}
}

// TestRunGames plays a fixed set of games to their end on a real server:
// every game finishes, every move of ours shown is found in its replay,
// and the run ends as soon as the last game does.
func TestRunGames(t *testing.T) {
	t.Parallel()
	s := startServer(t, filepath.Join(t.TempDir(), "parlour.db"), "")
	defer s.stop()
	start := time.Now()
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{s.url}, Games: 8, Tables: 99, Duration: 30 * time.Second, Ramp: 100 * time.Millisecond,
		Think: 5 * time.Millisecond, Game: "golf", Options: map[string]string{"holes": "1"}, Seed: 9,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r)
	if r.Games != 8 || r.Tables != 8 || r.GamesFinished != 8 || len(r.PerTable) != 8 {
		t.Fatalf("games %d, tables %d, finished %d, %d lines; want 8 of each", r.Games, r.Tables, r.GamesFinished, len(r.PerTable))
	}
	if r.ErrorsTotal != 0 || r.Reconnects != 0 {
		t.Errorf("errors %v, reconnects %d; want none", r.Errors, r.Reconnects)
	}
	if r.DurationS >= 25 {
		t.Errorf("the run took %.1fs: it did not end with the last game", r.DurationS)
	}
	acked, moves := 0, 0
	for _, tr := range r.PerTable {
		if !tr.Finished || tr.ID == "" || tr.Created != s.url || tr.Joined != s.url || tr.Acked == 0 || len(tr.AckAt) != tr.Acked ||
			len(tr.MoveAt) != tr.Moves || tr.End.IsZero() || tr.MaxGapMS <= 0 ||
			tr.Welcomed.Before(tr.Start) || tr.Welcomed.After(tr.AckAt[0]) {
			t.Errorf("table line %+v", tr)
		}
		acked += tr.Acked
		moves += tr.Moves
	}
	if int64(acked) != r.Verified || int64(acked) != r.PersonMoves || int64(moves) != r.Moves {
		t.Errorf("acked %d, verified %d, person moves %d; moves %d, counted %d", acked, r.Verified, r.PersonMoves, moves, r.Moves)
	}
	if n := r.AckedAfter(start); n != acked {
		t.Errorf("%d of our moves after the start, want all %d", n, acked)
	}
	if n := r.MovesAfter(start); n != moves {
		t.Errorf("%d moves after the start, want all %d", n, moves)
	}
	mid := r.PerTable[0].AckAt[len(r.PerTable[0].AckAt)/2]
	worst, slowest, stuck := r.Resumed(mid, nil)
	gap, _ := r.MaxGap()
	if len(stuck) != 0 || slowest == "" || worst <= 0 || worst > gap {
		t.Errorf("resumed after %v: worst %v (%s), stuck %v; max gap %v", mid, worst, slowest, stuck, gap)
	}
}

// TestGamesVerify plays two games on two fake servers, the second joined
// through the other server (RelayEvery), and checks the moves shown
// against the replays, one of which does not have one of them as shown.
func TestGamesVerify(t *testing.T) {
	t.Parallel()
	f := &gamesFake{moves: map[string][]map[string]any{}}
	hs := [2]*httptest.Server{}
	for i := range hs {
		hs[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serve(i, w, r) }))
		defer hs[i].Close()
	}
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{hs[0].URL, hs[1].URL}, Games: 2, RelayEvery: 2, Duration: 10 * time.Second,
		Ramp: 10 * time.Millisecond, Think: time.Millisecond, Game: "fake", Bot: "random",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	t.Logf("report: %s", b)
	if r.GamesFinished != 2 || r.Verified != 5 || r.Lost != 1 || r.ErrorsTotal != 0 {
		t.Errorf("finished %d, verified %d, lost %d, errors %v; want 2, 5, 1, none", r.GamesFinished, r.Verified, r.Lost, r.Errors)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := "0 create g0, 0 join g0, 0 ws g0, 1 create g1, 0 join g1, 0 ws g1"
	if got := strings.Join(f.hits, ", "); !strings.Contains(got, "0 join g1") || !strings.Contains(got, "1 create g1") ||
		!strings.Contains(got, "0 ws g1") || strings.Contains(got, "1 join") || strings.Contains(got, "1 ws") {
		t.Errorf("requests %s; want (in some order) %s", got, want)
	}
	for i, tr := range r.PerTable {
		if !tr.Finished || tr.Created != hs[i].URL || tr.Joined != hs[0].URL || tr.Moves != 6 || len(tr.MoveAt) != 6 {
			t.Errorf("table line %d: %+v", i, tr)
		}
	}
}

// gamesFake serves games of "fake" in which our seat makes three moves,
// each answered by a bot's, and then the game is over. The replay of g1
// says its second move of ours was the stand-in's.
type gamesFake struct {
	mu    sync.Mutex
	n     int
	hits  []string
	moves map[string][]map[string]any
}

func (f *gamesFake) hit(server int, what, id string) {
	f.mu.Lock()
	f.hits = append(f.hits, fmt.Sprintf("%d %s %s", server, what, id))
	f.mu.Unlock()
}

func (f *gamesFake) serve(server int, w http.ResponseWriter, r *http.Request) {
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	parts := strings.Split(r.URL.Path, "/")
	switch p := r.URL.Path; {
	case p == "/api/games":
		reply(200, []map[string]any{{"id": "fake", "min_players": 2, "max_players": 2, "options": []any{}}})
	case p == "/api/bots":
		reply(200, []string{"random"})
	case p == "/api/tables" && r.Method == "POST":
		f.mu.Lock()
		id := fmt.Sprintf("g%d", f.n)
		f.n++
		f.mu.Unlock()
		f.hit(server, "create", id)
		reply(201, map[string]any{"id": id})
	case strings.HasSuffix(p, "/join"):
		f.hit(server, "join", parts[3])
		reply(200, map[string]any{"table": parts[3], "seat": 0, "token": "tok"})
	case strings.HasSuffix(p, "/replay"):
		f.mu.Lock()
		moves := f.moves[parts[3]]
		f.mu.Unlock()
		reply(200, map[string]any{"id": parts[3], "moves": moves})
	case strings.HasPrefix(p, "/ws/tables/"):
		f.hit(server, "ws", parts[3])
		f.play(w, r, parts[3])
	default:
		reply(404, map[string]any{"error": map[string]string{"code": "not_found", "message": p}})
	}
}

func (f *gamesFake) play(w http.ResponseWriter, r *http.Request, id string) {
	c, send, ok := acceptFake(w, r)
	if !ok {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	if _, _, err := c.Read(ctx); err != nil { // the hello
		return
	}
	send(map[string]any{"type": "welcome", "table": id, "seat": 0, "players": 2})
	seq := 0
	state := func(status string, events []any) {
		toAct, legal := []int{0}, []string{"a", "b"}
		if status != "playing" {
			toAct, legal = []int{}, []string{}
		}
		send(map[string]any{"type": "state", "table": id, "seat": 0, "seq": seq, "status": status,
			"to_act": toAct, "legal": legal, "events": events})
	}
	state("playing", []any{})
	for ours := 1; ; {
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct{ Type, Move string }
		json.Unmarshal(data, &m)
		if m.Type != "move" {
			continue
		}
		mine := map[string]any{"n": seq + 1, "seat": 0, "move": m.Move}
		bot := map[string]any{"n": seq + 2, "seat": 1, "move": "c", "by": "bot"}
		stored := maps.Clone(mine)
		if id == "g1" && ours == 2 {
			stored["by"] = "standin"
		}
		f.mu.Lock()
		f.moves[id] = append(f.moves[id], stored, bot)
		f.mu.Unlock()
		seq++
		state("playing", []any{map[string]any{"kind": "move", "n": seq, "seat": 0, "move": m.Move}})
		seq++
		status := "playing"
		if ours == 3 {
			status = "over"
		}
		state(status, []any{map[string]any{"kind": "move", "n": seq, "seat": 1, "move": "c", "by": "bot"}})
		ours++
		if status == "over" {
			c.Close(websocket.StatusNormalClosure, "")
			return
		}
	}
}

// TestTableReportTimes checks the measures of a table's line.
func TestTableReportTimes(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	r := loadgen.Report{PerTable: []loadgen.TableReport{
		// Our moves at 100, 200, then nothing until 2600; over at 2700.
		{ID: "a", Start: at(0), End: at(2700), AckAt: []time.Time{at(100), at(200), at(2600)},
			MoveAt: []time.Time{at(100), at(150), at(200), at(2600), at(2700)}},
		// Over at 500 by a bot's move, before anything else of ours.
		{ID: "b", Start: at(50), End: at(500), AckAt: []time.Time{at(60)}, MoveAt: []time.Time{at(60), at(500)}},
		// Never moves again after 300.
		{ID: "c", Start: at(0), AckAt: []time.Time{at(300)}, MoveAt: []time.Time{at(300)}},
		// Over before the instant.
		{ID: "d", Start: at(0), End: at(250), AckAt: []time.Time{at(240)}},
		// Opened after it.
		{ID: "e", Start: at(400), AckAt: []time.Time{at(450)}},
	}}
	if d, ok := r.PerTable[0].ResumedAfter(at(300)); !ok || d != 2300*time.Millisecond {
		t.Errorf("a resumed after %v, %v; want 2.3s", d, ok)
	}
	if d, ok := r.PerTable[1].ResumedAfter(at(300)); !ok || d != 200*time.Millisecond {
		t.Errorf("b resumed after %v, %v; want 200ms (its end)", d, ok)
	}
	if _, ok := r.PerTable[2].ResumedAfter(at(300)); ok {
		t.Error("c resumed")
	}
	if r.PerTable[3].InPlay(at(300)) || r.PerTable[4].InPlay(at(300)) || !r.PerTable[2].InPlay(at(300)) {
		t.Error("InPlay wrong")
	}
	worst, slowest, stuck := r.Resumed(at(300), nil)
	if worst != 2300*time.Millisecond || slowest != "a" || fmt.Sprint(stuck) != "[c]" {
		t.Errorf("resumed: %v %q %v; want 2.3s a [c]", worst, slowest, stuck)
	}
	worst, slowest, stuck = r.Resumed(at(300), func(id string) bool { return id == "b" })
	if worst != 200*time.Millisecond || slowest != "b" || len(stuck) != 0 {
		t.Errorf("resumed (b only): %v %q %v", worst, slowest, stuck)
	}
	if n := r.AckedAfter(at(200)); n != 4 { // a's 2600, c's 300, d's 240, e's 450
		t.Errorf("acked after 200ms: %d, want 4", n)
	}
	if n := r.MovesAfter(at(200)); n != 4 { // a's 2600 and 2700, b's 500, c's 300
		t.Errorf("moves after 200ms: %d, want 4", n)
	}
}

// acceptFake accepts a fake server's WebSocket and gives a sender of
// protocol messages ("v" filled in).
func acceptFake(w http.ResponseWriter, r *http.Request) (*websocket.Conn, func(map[string]any), bool) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, nil, false
	}
	send := func(v map[string]any) {
		v["v"] = 1
		b, _ := json.Marshal(v)
		c.Write(r.Context(), websocket.MessageText, b)
	}
	return c, send, true
}
