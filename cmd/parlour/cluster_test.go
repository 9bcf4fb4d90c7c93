package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"parlour/internal/loadgen"
	"parlour/internal/pgtest"
)

var clusterLogs = flag.Bool("cluster.logs", false, "TestCluster: log every node's output even when the test passes")

// Settings of the cluster under test.
const (
	clusterLease = 2 * time.Second
	clusterGames = 60
)

// TestCluster is the cluster's fault test, with real processes on
// loopback: three "parlour serve" nodes on one PostgreSQL database play 60
// one-hole games of Golf (one person, one random bot each) driven by the
// load generator, half of them through a relay. One node is killed with
// SIGKILL mid-game: its tables wait for their leases to run out and are
// taken over. Then, in a second round with a fresh node in its place,
// another node is stopped with SIGTERM mid-game: it gives its tables up at
// once. In both rounds every game must finish, every move of ours shown
// in a view must be in the game's replay as shown, every connection to a
// table of the stopped node (relayed or not) must be closed so that its
// client reconnects, the tables must move again within a few seconds of a
// kill and at once after a clean stop, and the only errors are dropped
// connections. Each node listens on a port of its own choosing on
// 127.0.0.1 (--addr 127.0.0.1:0), read from its first line.
//
// Run it with: go test -run Cluster -v ./cmd/parlour/ (-args -cluster.logs
// to see the nodes' logs).
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three servers and plays 120 games (-short)")
	}
	dsn := pgtest.Database(t, "parlour_cluster")
	bin := filepath.Join(t.TempDir(), "parlour")
	bctx, bcancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer bcancel()
	build := exec.CommandContext(bctx, "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// The first node makes the database's tables; the others join it.
	a := startNode(t, bin, "A", dsn)
	a.waitReady(t)
	b, c := startNode(t, bin, "B", dsn), startNode(t, bin, "C", dsn)
	b.waitReady(t)
	c.waitReady(t)

	t.Run("kill", func(t *testing.T) {
		f := faultRound(t, dsn, []*node{a, b, c}, a, syscall.SIGKILL)
		// Without a goodbye, the tables wait for their leases to run out
		// (and then for a client's retry): a few seconds, not more.
		if f.takeover > 3*clusterLease {
			t.Errorf("the killed node's tables stood still for %v after the kill; want at most %v (3 leases)", f.takeover, 3*clusterLease)
		}
	})
	if t.Failed() {
		return
	}
	d := startNode(t, bin, "D", dsn)
	d.waitReady(t)
	t.Run("term", func(t *testing.T) {
		f := faultRound(t, dsn, []*node{b, c, d}, b, syscall.SIGTERM)
		// A clean stop gives the tables up at once: no lease to wait for.
		if f.takeover > clusterLease {
			t.Errorf("the stopped node's tables stood still for %v after SIGTERM; want under the lease (%v)", f.takeover, clusterLease)
		}
		select {
		case <-b.exited:
			if b.waitErr != nil {
				t.Errorf("node B did not stop cleanly on SIGTERM: %v", b.waitErr)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("node B still runs 10s after SIGTERM")
		}
	})
}

// faultFigures is what a round measured.
type faultFigures struct {
	takeover time.Duration // from the signal until every table the victim owned moved again
}

// faultRound plays clusterGames games on nodes, sends victim sig once the
// moves flow, and checks that every game finishes with nothing lost.
func faultRound(t *testing.T, dsn string, nodes []*node, victim *node, sig syscall.Signal) faultFigures {
	name := map[syscall.Signal]string{syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM"}[sig]
	urls := make([]string, len(nodes))
	for i, n := range nodes {
		urls[i] = n.url
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The tables in play or over from earlier rounds, counted as the
	// seated below are: a table an earlier round left waiting is not one.
	before := 0
	qctx, qcancel := context.WithTimeout(context.Background(), 5*time.Second)
	err = db.QueryRowContext(qctx, "SELECT count(*) FROM tables WHERE status <> 'waiting'").Scan(&before)
	qcancel()
	if err != nil {
		t.Fatalf("counting the tables: %v", err)
	}
	type result struct {
		rep loadgen.Report
		err error
	}
	done := make(chan result, 1)
	var running sync.WaitGroup
	defer running.Wait() // nothing logs after the test ends
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	start := time.Now()
	running.Go(func() {
		rep, err := loadgen.Run(ctx, loadgen.Config{
			URLs: urls, Games: clusterGames, Duration: 30 * time.Second, Ramp: 300 * time.Millisecond,
			Think: 30 * time.Millisecond, Game: "golf", Players: 2, Bot: "random",
			Options: map[string]string{"holes": "1"}, Seed: uint64(sig), RelayEvery: 2,
			ProgressEvery: time.Second,
		}, &logWriter{t: t})
		done <- result{rep, err}
	})

	// Once every table is open and the moves flow (a second in, every
	// seat taken), the signal.
	select {
	case res := <-done:
		t.Fatalf("the run ended before the %s: %v", name, res.err)
	case <-time.After(time.Second):
	}
	for seated := 0; seated < clusterGames; {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d of %d tables had every seat taken 10s after the start", seated, clusterGames)
		}
		qctx, qcancel := context.WithTimeout(ctx, 5*time.Second)
		err := db.QueryRowContext(qctx, "SELECT count(*) FROM tables WHERE status <> 'waiting'").Scan(&seated)
		seated -= before
		qcancel()
		if err != nil {
			t.Fatalf("counting the tables in play: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	owned := victim.owned(t, db)
	at := time.Now()
	if err := victim.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signalling node %s: %v", victim.name, err)
	}
	res := <-done
	rep := res.rep
	if res.err != nil {
		t.Fatalf("load generator: %v", res.err)
	}

	// The figures.
	takeover, slowest, stuck := rep.Resumed(at, func(id string) bool { return owned[id] })
	allResumed, _, _ := rep.Resumed(at, nil)
	gap, gapTable := rep.MaxGap()
	affected, relayed, endedThere, notYet := 0, 0, 0, 0
	for _, tr := range rep.PerTable {
		if !owned[tr.ID] || !tr.InPlay(at) {
			continue
		}
		affected++
		if tr.Joined != tr.Created {
			relayed++
		}
		if tr.Drops > 0 {
			continue
		}
		if tr.Welcomed.IsZero() || tr.Welcomed.After(at) {
			// Its seat was taken but its client not yet connected
			// (slow on a busy machine): it had no connection to close,
			// and it connects to the new owner.
			notYet++
			continue
		}
		// The table's connection, direct or relayed, must be closed for
		// its client to find the table's new owner; unless the game ended
		// first: a node stopping cleanly plays on while its HTTP server
		// shuts down, and a killed one may have sent the last frame just
		// before it died.
		if sig == syscall.SIGKILL && tr.End.Sub(at) > 100*time.Millisecond || !tr.Finished {
			t.Errorf("table %s of node %s (created on %s, played through %s): its connection was not closed after the %s (game over %v after it)",
				tr.ID, victim.name, tr.Created, tr.Joined, name, tr.End.Sub(at))
		}
		endedThere++
	}
	t.Logf("%s to node %s (%s) %.2fs after the start; it owned %d tables, %d of them in play (%d played through a relay, %d ended there, %d not yet connected)",
		name, victim.name, victim.id, at.Sub(start).Seconds(), len(owned), affected, relayed, endedThere, notYet)
	t.Logf("moves before/after the %s: %d/%d (ours acknowledged: %d/%d); %d games finished in %.1fs",
		name, rep.Moves-int64(rep.MovesAfter(at)), rep.MovesAfter(at), rep.PersonMoves-int64(rep.AckedAfter(at)), rep.AckedAfter(at),
		rep.GamesFinished, rep.DurationS)
	t.Logf("takeover: the victim's tables all moving again %v after the %s (slowest %s); every table %v; longest stand-still of a table %v (%s)",
		takeover.Round(time.Millisecond), name, slowest, allResumed.Round(time.Millisecond), gap.Round(time.Millisecond), gapTable)
	t.Logf("reconnects %d, shed (503 retried) %d, errors %v, lost %d, moves checked against the replays %d",
		rep.Reconnects, rep.Shed, rep.Errors, rep.Lost, rep.Verified)

	// The checks.
	if rep.GamesFinished != clusterGames {
		var unfinished []string
		for _, tr := range rep.PerTable {
			if !tr.Finished {
				unfinished = append(unfinished, fmt.Sprintf("%s (created on %s, %d moves, %d drops)", tr.ID, tr.Created, tr.Moves, tr.Drops))
			}
		}
		t.Errorf("%d of %d games finished; not: %s", rep.GamesFinished, clusterGames, strings.Join(unfinished, ", "))
	}
	if rep.Lost != 0 {
		t.Errorf("%d acknowledged moves lost", rep.Lost)
	}
	acked := 0
	for _, tr := range rep.PerTable {
		acked += tr.Acked
	}
	if int64(acked) != rep.Verified || rep.Verified == 0 {
		t.Errorf("%d moves of ours shown, %d checked against the replays", acked, rep.Verified)
	}
	for kind, n := range rep.Errors {
		if !dropKind(kind) {
			t.Errorf("%d errors %s: want none but dropped connections", n, kind)
		}
	}
	if affected == 0 {
		t.Errorf("node %s owned no table in play at the %s: nothing was tested", victim.name, name)
	}
	if len(stuck) > 0 {
		t.Errorf("tables of node %s never moved again after the %s: %v", victim.name, name, stuck)
	}
	if rep.AckedAfter(at) == 0 || rep.AckedAfter(at) == int(rep.PersonMoves) {
		t.Errorf("%d moves of ours, %d of them after the %s: want some before and after", rep.PersonMoves, rep.AckedAfter(at), name)
	}
	return faultFigures{takeover: takeover}
}

// dropKind reports whether a load generator's error kind is a connection
// dropped, or a reconnection that found no server (the dead node's
// address). A reconnection refused while a table changes hands is a 503
// with Retry-After, which the generator waits out and counts as shed.
func dropKind(kind string) bool {
	return kind == "ws_drop" || strings.HasPrefix(kind, "ws_drop:") || kind == "dial:net"
}

// node is a "parlour serve" process of the cluster.
type node struct {
	name    string
	dsn     string
	cmd     *exec.Cmd
	stdout  *syncBuffer
	stderr  *syncBuffer
	url     string // where it serves, from its first line
	id      string // its node id, from its ready line
	exited  chan struct{}
	waitErr error // once exited is closed
}

// startNode starts a node on a port of its own choosing on loopback; it is
// killed (if still running) when the test ends, and its output logged if
// the test failed.
func startNode(t *testing.T, bin, name, dsn string) *node {
	t.Helper()
	return startNodeWith(t, bin, name, dsn, "--lease", clusterLease.String(), "--bot-delay", "50ms", "--grace", "1s")
}

// startNodeWith starts a node as startNode does, with flags of its own
// after --addr and --db.
func startNodeWith(t *testing.T, bin, name, dsn string, flags ...string) *node {
	t.Helper()
	n := &node{name: name, dsn: dsn, stdout: &syncBuffer{}, stderr: &syncBuffer{}, exited: make(chan struct{})}
	n.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", dsn}, flags...)...)
	n.cmd.Stdout, n.cmd.Stderr = n.stdout, n.stderr
	n.cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
	if err := n.cmd.Start(); err != nil {
		t.Fatalf("starting node %s: %v", name, err)
	}
	go func() {
		n.waitErr = n.cmd.Wait()
		close(n.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-n.exited:
		default:
			n.cmd.Process.Kill()
			<-n.exited
		}
		if t.Failed() || *clusterLogs {
			t.Logf("node %s (%s, %s) ended: %v\n--- stdout:\n%s--- stderr:\n%s", n.name, n.url, n.id, n.waitErr, n.stdout, n.stderr)
		}
	})
	return n
}

// waitReady waits for the node's address, its node id and its /healthz.
func (n *node) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-n.exited:
			t.Fatalf("node %s exited while starting: %v\n%s%s", n.name, n.waitErr, n.stdout, n.stderr)
		default:
		}
		sc := bufio.NewScanner(strings.NewReader(n.stdout.String()))
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "parlour: serving on "); ok {
				u, err := url.Parse(strings.Fields(rest)[0])
				if err == nil {
					n.url = "http://" + u.Host
				}
			}
			if rest, ok := strings.CutPrefix(line, "parlour: ready as node "); ok {
				n.id = strings.Fields(rest)[0]
			}
		}
		if n.url != "" && n.id != "" && n.healthy() {
			if !n.registered(t) {
				t.Fatalf("node %s is ready but has not announced itself: other nodes cannot relay to it", n.name)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("node %s not ready within 15s\n%s%s", n.name, n.stdout, n.stderr)
}

// healthy reports whether the node answers /healthz with 200.
func (n *node) healthy() bool {
	resp, err := http.Get(n.url + "/healthz")
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// registered reports whether the node has announced itself to the
// cluster. A node must do so before it answers /healthz: until then the
// other nodes cannot relay to it ("not answering", 503 with Retry-After),
// and the tables made on it would stand still.
func (n *node) registered(t *testing.T) bool {
	db, err := sql.Open("pgx", n.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var k int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM nodes WHERE id = $1", n.id).Scan(&k); err != nil {
		t.Fatalf("reading the nodes: %v", err)
	}
	return k == 1
}

// owned is the set of tables the node owns, as the database says.
func (n *node) owned(t *testing.T, db *sql.DB) map[string]bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id FROM tables WHERE owner = $1", n.id)
	if err != nil {
		t.Fatalf("reading the tables of node %s: %v", n.name, err)
	}
	defer rows.Close()
	ids := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// syncBuffer is a bytes.Buffer safe for a process's output and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// logWriter writes the load generator's progress lines to the test log.
type logWriter struct{ t *testing.T }

func (w *logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
