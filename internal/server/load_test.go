package server_test

import (
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/internal/protocol"
	"parlour/internal/server"
	"parlour/internal/store"
	"parlour/internal/table"
)

var (
	loadSeconds    = flag.Float64("load.seconds", 5, "BenchmarkServerLoad: seconds to run")
	loadTables     = flag.Int("load.tables", 100, "BenchmarkServerLoad: concurrent tables")
	loadSpectators = flag.Int("load.spectators", 2, "BenchmarkServerLoad: spectators per table")
	loadBotDelay   = flag.Duration("load.botdelay", 0, "BenchmarkServerLoad: mean bot delay")
	loadDB         = flag.String("load.db", "", "BenchmarkServerLoad: database (default: SQLite in a temp dir)")
)

// loadFrame is what the load clients read of a frame.
type loadFrame struct {
	Type   string   `json:"type"`
	Seq    int      `json:"seq"`
	Status string   `json:"status"`
	ToAct  []int    `json:"to_act"`
	Legal  []string `json:"legal"`
	Events []struct {
		Kind string    `json:"kind"`
		Seat int       `json:"seat"`
		At   time.Time `json:"at"`
	} `json:"events"`
}

type latencies struct {
	mu         sync.Mutex
	roundTrip  []time.Duration // a person's move sent -> its view with the move received
	fanOut     []time.Duration // a move applied -> a spectator's view received
	games      int
	frames     int64
	dropped    int
	clientErrs int
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// BenchmarkServerLoad runs many concurrent tables over loopback WebSockets
// for a fixed time (-load.seconds, whatever b.N is): on each table one
// person (a client playing random legal moves at once), server-side random
// bots in the other seats (-load.botdelay), and -load.spectators
// spectators; a finished table is replaced by a new one. It reports moves
// a second, the p50/p99 latency from a person sending a move to its view
// with that move arriving, the same from a move being applied to a
// spectator's view arriving, and heap per table (server and in-process
// clients together). Run it with:
//
//	go test -run '^$' -bench ServerLoad -benchtime 1x ./internal/server/
func BenchmarkServerLoad(b *testing.B) {
	r := runLoad(b, *loadSeconds, *loadTables)
	b.ReportMetric(r.movesPerS, "moves/s")
	b.ReportMetric(float64(r.p50.Microseconds()), "p50-move-to-view-µs")
	b.ReportMetric(float64(r.p99.Microseconds()), "p99-move-to-view-µs")
	b.ReportMetric(float64(r.fan50.Microseconds()), "p50-fanout-µs")
	b.ReportMetric(float64(r.fan99.Microseconds()), "p99-fanout-µs")
	b.ReportMetric(r.kibPerTable, "KiB/table")
}

type loadResult struct {
	movesPerS, kibPerTable float64
	p50, p99, fan50, fan99 time.Duration
	games                  int
}

func runLoad(b testing.TB, seconds float64, tables int) loadResult {
	ctx := context.Background()
	dsn := *loadDB
	if dsn == "" {
		dsn = "sqlite:" + filepath.Join(b.TempDir(), "load.db")
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m := table.NewManager(table.Config{Store: st, Games: games.Registry, BotDelay: *loadBotDelay, Grace: time.Minute,
		StandIn: "random", Unload: time.Second})
	srv := server.New(server.Config{Games: games.Registry, RateLimit: 1e6, Burst: 1e6})
	srv.Ready(m)
	hs := httptest.NewServer(srv) // loopback only
	defer func() {
		m.Close()
		srv.Close()
		hs.Close()
	}()
	e := &env{url: hs.URL}

	runtime.GC()
	runtime.GC() // twice: the first only moves sync.Pools aside
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	baseHeap, baseG := ms.HeapAlloc, runtime.NumGoroutine()

	all := games.Registry.All()
	lat := &latencies{}
	runCtx, cancel := context.WithTimeout(ctx, time.Duration(seconds*float64(time.Second)))
	defer cancel()
	started := make(chan struct{}, tables)
	var wg sync.WaitGroup
	for slot := range tables {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(slot), 1))
			first := true
			for k := 0; runCtx.Err() == nil; k++ {
				g := all[(slot+k)%len(all)]
				playLoadTable(runCtx, b, e, m, g, rng, lat, func() {
					if first {
						first = false
						started <- struct{}{}
					}
				})
			}
		})
	}
	for range tables {
		select {
		case <-started:
		case <-runCtx.Done():
		}
	}
	// Every table is in play: measure from here.
	time.Sleep(200 * time.Millisecond)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap, gs := ms.HeapAlloc, runtime.NumGoroutine()
	moves0, t0 := m.Moves(), time.Now()
	<-runCtx.Done()
	moves, secs := m.Moves()-moves0, time.Since(t0).Seconds()
	wg.Wait()

	perTable := float64(int64(heap)-int64(baseHeap)) / float64(tables)

	// Server side alone: tables waiting for players, no connection.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	const idle = 200
	for range idle {
		if _, err := m.Create(ctx, table.CreateRequest{Game: "golf", Seats: []string{"open", "random", "random", "random"}}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	perIdle := float64(int64(ms.HeapAlloc)-int64(before)) / idle
	lat.mu.Lock()
	defer lat.mu.Unlock()
	r := loadResult{movesPerS: float64(moves) / secs, kibPerTable: perTable / 1024,
		p50: percentile(lat.roundTrip, 0.5), p99: percentile(lat.roundTrip, 0.99),
		fan50: percentile(lat.fanOut, 0.5), fan99: percentile(lat.fanOut, 0.99), games: lat.games}
	b.Logf("%d tables (%s), 1 person + bots + %d spectators each, bot delay %v, %.1fs: %d moves (%.0f/s), %d games finished, %d frames read, %d dropped connections, %d client errors",
		tables, dsn[:min(len(dsn), 6)], *loadSpectators, *loadBotDelay, secs, moves, r.movesPerS, lat.games, lat.frames, lat.dropped, lat.clientErrs)
	b.Logf("person's move -> its view: p50 %v, p99 %v (%d samples); move applied -> spectator's view: p50 %v, p99 %v (%d samples)",
		r.p50, r.p99, len(lat.roundTrip), r.fan50, r.fan99, len(lat.fanOut))
	b.Logf("heap per live table, its %d WebSockets' both ends included: %.1f KiB; goroutines per table: %.1f; heap per table waiting for players (server only, no connection): %.1f KiB",
		1+*loadSpectators, r.kibPerTable, float64(gs-baseG)/float64(tables), perIdle/1024)
	return r
}

// playLoadTable plays one table to its end (or until ctx ends).
func playLoadTable(ctx context.Context, b testing.TB, e *env, m *table.Manager, g game.Game, rng *rand.Rand, lat *latencies, started func()) {
	lo, hi := g.Players()
	n := min(max(lo, 3), hi)
	opts := map[string]any{}
	for _, o := range g.Options() {
		if v, ok := shortTargets[g.Name()][o.Name]; ok {
			opts[o.Name] = v
		} else if v, ok := shortOptions[o.Name]; ok {
			opts[o.Name] = v
		}
	}
	opts["players"] = n
	info, err := m.Create(ctx, table.CreateRequest{Game: g.Name(), Options: opts, Seats: seatsFor(n, 1, "random")})
	if err != nil {
		if ctx.Err() == nil {
			b.Errorf("creating a %s table: %v", g.Name(), err)
		}
		return
	}
	var specs sync.WaitGroup
	for range *loadSpectators {
		c, _, err := dialRaw(nil, e.url, info.ID, nil)
		if err != nil {
			countErr(lat)
			continue
		}
		specs.Go(func() { spectate(ctx, c, lat) })
	}
	j, err := m.Join(ctx, info.ID, 0, "load")
	if err != nil {
		return
	}
	c, _, err := dialRaw(nil, e.url, info.ID, nil)
	if err != nil {
		countErr(lat)
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]any{"v": 1, "type": "hello", "token": j.Token})
	if c.Write(ctx, websocket.MessageText, hello) != nil {
		return
	}
	started()
	var rts []time.Duration
	var sent time.Time
	pending := false
	frames := int64(0)
	defer func() {
		lat.mu.Lock()
		lat.roundTrip = append(lat.roundTrip, rts...)
		lat.frames += frames
		lat.mu.Unlock()
		specs.Wait()
	}()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				countDrop(lat)
			}
			return
		}
		frames++
		var f loadFrame
		if json.Unmarshal(data, &f) != nil {
			countErr(lat)
			return
		}
		switch f.Type {
		case protocol.TypeError:
			pending = false
		case protocol.TypeState:
			for _, ev := range f.Events {
				if pending && ev.Kind == protocol.EventMove && ev.Seat == 0 {
					rts = append(rts, time.Since(sent))
					pending = false
				}
			}
			if f.Status == store.StatusOver {
				lat.mu.Lock()
				lat.games++
				lat.mu.Unlock()
				return
			}
			if !pending && slices.Contains(f.ToAct, 0) && len(f.Legal) > 0 {
				mv, _ := json.Marshal(map[string]any{"v": 1, "type": "move", "move": f.Legal[rng.IntN(len(f.Legal))]})
				sent = time.Now()
				pending = true
				if c.Write(ctx, websocket.MessageText, mv) != nil {
					return
				}
			}
		}
	}
}

func spectate(ctx context.Context, c *websocket.Conn, lat *latencies) {
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]any{"v": 1, "type": "hello", "spectate": true})
	if c.Write(ctx, websocket.MessageText, hello) != nil {
		return
	}
	var fan []time.Duration
	frames := int64(0)
	defer func() {
		lat.mu.Lock()
		lat.fanOut = append(lat.fanOut, fan...)
		lat.frames += frames
		lat.mu.Unlock()
	}()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				countDrop(lat)
			}
			return
		}
		frames++
		var f loadFrame
		if json.Unmarshal(data, &f) != nil {
			countErr(lat)
			return
		}
		now := time.Now()
		for _, ev := range f.Events {
			if ev.Kind == protocol.EventMove {
				fan = append(fan, now.Sub(ev.At))
			}
		}
		if f.Status == store.StatusOver {
			return
		}
	}
}

func countErr(lat *latencies) {
	lat.mu.Lock()
	lat.clientErrs++
	lat.mu.Unlock()
}

func countDrop(lat *latencies) {
	lat.mu.Lock()
	lat.dropped++
	lat.mu.Unlock()
}

// TestServerLoadSmoke runs the load benchmark's loop briefly, so it stays
// working.
func TestServerLoadSmoke(t *testing.T) {
	r := runLoad(t, 0.5, 4)
	if r.movesPerS <= 0 || r.p50 <= 0 || r.fan50 <= 0 {
		t.Errorf("the load run measured nothing: %+v", r)
	}
}
