package loadgen_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/games"
	"parlour/internal/loadgen"
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
	m := table.NewManager(table.Config{Store: st, Games: games.Registry, BotDelay: 10 * time.Millisecond,
		Grace: time.Minute, StandIn: "random"})
	if _, err := m.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Games: games.Registry, RateLimit: 1e6, Burst: 1e6})
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
	var progress strings.Builder
	r, err := loadgen.Run(context.Background(), loadgen.Config{
		URLs: []string{s.url}, Tables: 20, Duration: 3 * time.Second, Ramp: 300 * time.Millisecond,
		Think: 20 * time.Millisecond, Game: "golf", Options: map[string]string{"holes": "1"}, Seed: 7,
		ProgressEvery: time.Second,
	}, &syncWriter{w: &progress})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, r)
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
		Think: time.Millisecond, Game: "fake",
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
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	send := func(v map[string]any) {
		v["v"] = 1
		b, _ := json.Marshal(v)
		c.Write(ctx, websocket.MessageText, b)
	}
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
