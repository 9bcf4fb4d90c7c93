package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"parlour/internal/loadgen"
	"parlour/internal/pgtest"
)

// Settings of the store fault test.
const (
	faultStoreTimeout = 2 * time.Second
	faultDrain        = 3 * time.Second
	faultGames        = 20
	// faultAnswer is the longest a person's move may wait for its answer
	// (made or refused), whatever the database does.
	faultAnswer = 5 * time.Second
)

// TestStoreFaults is the node's fault test against its database, with real
// processes on loopback: "parlour serve" on PostgreSQL reached through a
// TCP proxy of the test's own, which can stall every connection (a
// database frozen, as by SIGSTOP, or a network that drops packets) or cut
// them all and refuse new ones (a database restarting). While the store
// does not answer, every move is answered within faultAnswer (refused with
// unavailable), /readyz answers 503 while /healthz stays 200, and the
// lobby answers 503 with Retry-After instead of hanging; once it answers
// again the node is ready within a few seconds and every game plays on to
// its end with no acknowledged move lost. SIGTERM while the store is
// stalled stops the node within --drain. And three nodes started at once
// on a new database all come up (the migrations take turns under an
// advisory lock).
//
// Run it with: go test -run StoreFaults -v ./cmd/parlour/
func TestStoreFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and plays games through database faults (-short)")
	}
	bin := filepath.Join(t.TempDir(), "parlour")
	bctx, bcancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer bcancel()
	if out, err := exec.CommandContext(bctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	t.Run("start together", func(t *testing.T) {
		dsn := pgtest.Database(t, "parlour_start")
		nodes := make([]*node, 3)
		for i := range nodes {
			nodes[i] = startNode(t, bin, string(rune('A'+i)), dsn)
		}
		for _, n := range nodes {
			n.waitReady(t)
		}
	})

	dsn := pgtest.Database(t, "parlour_faults")
	proxy := newFaultProxy(t, dsn)
	flags := []string{"--store-timeout", faultStoreTimeout.String(), "--drain", faultDrain.String(),
		"--bot-delay", "50ms", "--grace", "30s"}
	n := startNodeWith(t, bin, "A", proxy.dsn, flags...)
	n.waitReady(t)

	for _, f := range []struct {
		name  string
		mode  int32
		lasts time.Duration
	}{
		{"stall", proxyStall, 6 * time.Second},
		{"cut", proxyCut, 4 * time.Second},
	} {
		t.Run(f.name, func(t *testing.T) {
			storeFaultRound(t, n, proxy, f.mode, f.lasts)
		})
		if t.Failed() {
			return
		}
	}

	t.Run("sigterm while stalled", func(t *testing.T) {
		proxy.set(proxyStall)
		defer proxy.set(proxyPass)
		waitReadyz(t, n.url, http.StatusServiceUnavailable, 5*time.Second)
		at := time.Now()
		if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-n.exited:
			t.Logf("stopped %v after SIGTERM with the database stalled (--drain %v): %v", time.Since(at).Round(time.Millisecond), faultDrain, n.waitErr)
		case <-time.After(faultDrain + 2*time.Second):
			t.Fatalf("still running %v after SIGTERM with the database stalled (--drain %v)", time.Since(at).Round(time.Millisecond), faultDrain)
		}
	})
}

// storeFaultRound plays faultGames games on node n, puts the proxy in mode
// for d once the moves flow, and checks what players and operators see.
func storeFaultRound(t *testing.T, n *node, proxy *faultProxy, mode int32, d time.Duration) {
	type result struct {
		rep loadgen.Report
		err error
	}
	done := make(chan result, 1)
	var running sync.WaitGroup
	defer running.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	running.Go(func() {
		rep, err := loadgen.Run(ctx, loadgen.Config{
			URLs: []string{n.url}, Games: faultGames, Duration: 80 * time.Second, Ramp: 300 * time.Millisecond,
			Think: 50 * time.Millisecond, Game: "golf", Players: 2, Bot: "random",
			Options: map[string]string{"holes": "2"}, Seed: uint64(mode), MoveTimeout: faultAnswer,
			ProgressEvery: 2 * time.Second,
		}, &logWriter{t: t})
		done <- result{rep, err}
	})
	select {
	case res := <-done:
		t.Fatalf("the run ended before the fault: %v", res.err)
	case <-time.After(1500 * time.Millisecond):
	}

	at := time.Now()
	proxy.set(mode)
	notReady := waitReadyz(t, n.url, http.StatusServiceUnavailable, 5*time.Second)
	if code := status(t, n.url+"/healthz", 3*time.Second); code != http.StatusOK {
		t.Errorf("/healthz answered %d while the database did not: the liveness check must stay 200", code)
	}
	lobbyStart := time.Now()
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(n.url + "/api/tables")
	lobby := time.Since(lobbyStart)
	switch {
	case err != nil:
		t.Errorf("GET /api/tables while the database did not answer: %v after %v", err, lobby)
	default:
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("GET /api/tables while the database did not answer: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		if lobby > faultStoreTimeout+time.Second {
			t.Errorf("GET /api/tables took %v while the database did not answer, want within the store timeout (%v)", lobby, faultStoreTimeout)
		}
	}
	time.Sleep(time.Until(at.Add(d)))
	proxy.set(proxyPass)
	ended := time.Now()
	ready := waitReadyz(t, n.url, http.StatusOK, 10*time.Second)

	res := <-done
	if res.err != nil {
		t.Fatalf("load generator: %v", res.err)
	}
	rep := res.rep
	resumed, slowest, stuck := rep.Resumed(ended, nil)
	refused := rep.Errors["refused:unavailable"]
	t.Logf("%s for %v: /readyz 503 %v after it began and 200 %v after it ended; the lobby answered in %v",
		map[int32]string{proxyStall: "stall", proxyCut: "cut"}[mode], d, notReady.Round(time.Millisecond), ready.Round(time.Millisecond), lobby.Round(time.Millisecond))
	t.Logf("longest wait for an answer %.0f ms; moves refused unavailable %d; every table moving again %v after (slowest %s); errors %v; reconnects %d; shed %d; lost %d; %d games finished, %d moves checked",
		rep.AnswerMaxMS, refused, resumed.Round(time.Millisecond), slowest, rep.Errors, rep.Reconnects, rep.Shed, rep.Lost, rep.GamesFinished, rep.Verified)

	if rep.Lost != 0 {
		t.Errorf("%d acknowledged moves lost", rep.Lost)
	}
	if rep.GamesFinished != faultGames {
		t.Errorf("%d of %d games finished", rep.GamesFinished, faultGames)
	}
	if rep.AnswerMaxMS > float64(faultAnswer/time.Millisecond) {
		t.Errorf("a move waited %.0f ms for its answer, want at most %v", rep.AnswerMaxMS, faultAnswer)
	}
	for kind, k := range rep.Errors {
		switch {
		case kind == "refused:unavailable", dropKind(kind), strings.HasPrefix(kind, "hello:unavailable"):
		default:
			t.Errorf("%d errors %s: want only moves refused as unavailable and dropped connections", k, kind)
		}
	}
	if len(stuck) > 0 {
		t.Errorf("tables that never moved again after the fault ended: %v", stuck)
	}
	if resumed > 10*time.Second {
		t.Errorf("every table moved again %v after the fault ended, want within a few seconds", resumed)
	}
}

// waitReadyz polls /readyz until it answers want and returns how long
// that took; it fails the test after limit.
func waitReadyz(t *testing.T, base string, want int, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < limit {
		if status(t, base+"/readyz", time.Second) == want {
			return time.Since(start)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("/readyz did not answer %d within %v", want, limit)
	return 0
}

// status returns the HTTP status of GET u, or 0 if none came within
// timeout.
func status(t *testing.T, u string, timeout time.Duration) int {
	t.Helper()
	resp, err := (&http.Client{Timeout: timeout}).Get(u)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// The proxy's modes.
const (
	proxyPass  int32 = iota // bytes flow
	proxyStall              // connections stay open, nothing flows
	proxyCut                // every connection is closed, new ones too
)

// faultProxy is a TCP proxy between a node and its database that can
// stall or cut the connections.
type faultProxy struct {
	ln     net.Listener
	target string
	dsn    string // the database's DSN, through the proxy
	mode   atomic.Int32
	mu     sync.Mutex
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

// newFaultProxy starts a proxy to the database dsn names; it stops when
// the test ends.
func newFaultProxy(t *testing.T, dsn string) *faultProxy {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	u.Host = ln.Addr().String()
	p.dsn = u.String()
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		ln.Close()
		p.set(proxyCut)
		p.wg.Wait()
	})
	return p
}

// set puts the proxy in mode; proxyCut closes every connection at once.
func (p *faultProxy) set(mode int32) {
	p.mode.Store(mode)
	if mode == proxyCut {
		p.mu.Lock()
		for c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	}
}

func (p *faultProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if p.mode.Load() == proxyCut {
			c.Close()
			continue
		}
		p.wg.Go(func() { p.serve(c) })
	}
}

// serve pipes c to the database both ways until either side closes.
func (p *faultProxy) serve(c net.Conn) {
	d, err := net.DialTimeout("tcp", p.target, 2*time.Second)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, d) {
		return
	}
	defer p.untrack(c, d)
	var both sync.WaitGroup
	both.Go(func() { p.pipe(d, c) })
	both.Go(func() { p.pipe(c, d) })
	both.Wait()
}

// track registers a connection pair, unless the proxy is cut (then it
// closes them).
func (p *faultProxy) track(a, b net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode.Load() == proxyCut {
		a.Close()
		b.Close()
		return false
	}
	p.conns[a], p.conns[b] = true, true
	return true
}

func (p *faultProxy) untrack(a, b net.Conn) {
	p.mu.Lock()
	delete(p.conns, a)
	delete(p.conns, b)
	p.mu.Unlock()
	a.Close()
	b.Close()
}

// pipe copies from src to dst, holding each chunk while the proxy stalls.
func (p *faultProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		for n > 0 && p.mode.Load() == proxyStall {
			time.Sleep(10 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
