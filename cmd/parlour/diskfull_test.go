package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/internal/protocol"
)

// Limits of TestSQLiteDiskFull: how long an answer to a move may take,
// and how long after space returns a move may still be refused.
const (
	fullAnswer  = 5 * time.Second
	fullRecover = 10 * time.Second
)

// TestSQLiteDiskFull is the fault test of a SQLite node whose disk fills
// up, with a real process on loopback: "parlour serve" on a database in a
// small tmpfs of its own, a table of a person (the test, over the
// WebSocket) and a random bot. Once some moves are stored the tmpfs is
// filled with a file: the moves are then refused with "unavailable",
// each answered within a few seconds, and the server says on stderr
// that the disk is full. Once the file is gone the moves are taken again,
// on the same connection, within a few seconds. The server then stops
// (SIGTERM) with the disk full again, and starts again on the same file
// once it has room: the table holds exactly the moves that were shown,
// the refused ones not among them. Last, the tmpfs is made read-only:
// the server does not start, and says that the database cannot be
// written; once it is writable again, it starts and nothing is lost.
//
// It mounts a tmpfs, so it needs root (as CI runs it); elsewhere it
// skips.
func TestSQLiteDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the server three times (-short)")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounts a tmpfs, which needs root")
	}
	dir := mountTmpfs(t, "4m")
	bin := filepath.Join(t.TempDir(), "parlour")
	bctx, bcancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer bcancel()
	if out, err := exec.CommandContext(bctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dbPath := filepath.Join(dir, "p.db")

	srv := startSQLiteNode(t, bin, "first", dbPath)
	srv.waitUp(t)
	id, token := newBotTable(t, srv.url)
	c := dialTable(t, srv.url, id, token)

	// Some moves, stored as usual.
	for range 10 {
		if res := c.play(t); res.code != "" {
			t.Fatalf("a move before the disk filled up was refused: %s", res.code)
		}
	}

	// The disk fills up. The moves go on until the database needs room
	// it cannot have (pages free in the database and the WAL are used
	// first); a bot's move may be refused first, and then the person
	// never has the turn: the filler goes, the bot moves, and the disk
	// fills up again.
	filler := filepath.Join(dir, "filler")
	var refused moveAnswer
	var filled int // how much the server had written on stderr when the disk filled up
	for round := 1; refused.code == "" && round <= 5; round++ {
		c.awaitTurn(t)
		filled = len(srv.stderr.String())
		fillDisk(t, filler)
		for k := 0; k < 400; k++ {
			if !c.awaitTurnWithin(t, 3*time.Second) {
				break // the bot's move was refused
			}
			res := c.play(t)
			if res.code != "" {
				refused = res
				break
			}
		}
		if refused.code == "" {
			t.Logf("round %d: a bot's move was refused before one of ours; making room and filling again", round)
			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
		}
	}
	if refused.code == "" {
		t.Fatal("no move of ours was refused with the disk full")
	}
	if refused.code != protocol.CodeUnavailable {
		t.Fatalf("a move with the disk full was refused with %q (%s), want %q", refused.code, refused.message, protocol.CodeUnavailable)
	}
	t.Logf("with the disk full: a move refused (%s: %s) in %v", refused.code, refused.message, refused.took.Round(time.Millisecond))
	// The disk stays full past a fold of the move log (every 3 s) and many
	// checkpoints: every move is answered, each within a few seconds, and
	// refused; a chat message is relayed (and not stored).
	c.send(t, protocol.ClientMessage{V: protocol.Version, Type: "chat", Text: "is anyone there?"})
	fullSince, slowest, more := time.Now(), refused.took, 0
	for time.Since(fullSince) < 4*time.Second {
		res := c.play(t)
		if res.code != protocol.CodeUnavailable {
			t.Fatalf("a move with the disk still full: %q (%s), want %q", res.code, res.message, protocol.CodeUnavailable)
		}
		slowest = max(slowest, res.took)
		more++
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("with the disk still full: %d more moves refused, the slowest answered in %v", more, slowest.Round(time.Millisecond))
	stderr := srv.stderr.String()[filled:]
	if !diskFullLine.MatchString(stderr) {
		t.Errorf("no line on stderr says the disk is full; stderr:\n%s", stderr)
	}
	// The store tells of the refusals once, not once a move.
	if told := strings.Count(stderr, "moves are refused until"); told != 1 {
		t.Errorf("%d lines on stderr say that moves are refused, for %d moves refused in %v; want 1\n%s", told, more+1, time.Since(fullSince).Round(time.Second), stderr)
	}

	// Room again: the moves are taken, on the same connection.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	freed := time.Now()
	for {
		res := c.play(t)
		if res.code == "" {
			t.Logf("room again: the first move taken %v after (answered in %v)", time.Since(freed).Round(time.Millisecond), res.took.Round(time.Millisecond))
			break
		}
		if res.code != protocol.CodeUnavailable {
			t.Fatalf("a move once there was room again: %q (%s)", res.code, res.message)
		}
		if time.Since(freed) > fullRecover {
			t.Fatalf("moves still refused %v after the disk had room again: %s", fullRecover, res.message)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for range 10 {
		if res := c.play(t); res.code != "" {
			t.Fatalf("a move after the disk had room again was refused: %q (%s)", res.code, res.message)
		}
	}
	lines := strings.Count(srv.stderr.String(), "\n")
	t.Logf("%d lines on stderr", lines)
	if lines > 200 {
		t.Errorf("%d lines on stderr over the test: a repeated error is not rate-limited\n%s", lines, srv.stderr)
	}

	// A restart on the same file: what was shown is stored, nothing else;
	// even when the server stops with the disk full (its last checkpoint
	// fails, and the WAL stays for the next start to read).
	c.awaitTurn(t) // the bot has moved: nothing moves while the server stops
	shown := c.shownMoves(t)
	c.close()
	fillDisk(t, filler)
	srv.stop(t)
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	srv = startSQLiteNode(t, bin, "second", dbPath)
	srv.waitUp(t)
	if n := tableMoves(t, srv.url, id); n != len(shown) {
		t.Errorf("after a restart the table has %d moves, want the %d shown", n, len(shown))
	}
	srv.stop(t)
	checkStored(t, dbPath, id, shown)

	// Read-only: a database it cannot write. (A file system holding a
	// file open for writing cannot be made read-only, so the server finds
	// it so as it starts.) It says so and exits; once the database is
	// writable again, nothing is lost.
	t.Run("read-only", func(t *testing.T) {
		if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
			t.Fatalf("remounting the tmpfs read-only: %v\n%s", err, out)
		}
		ro := startSQLiteNode(t, bin, "read-only", dbPath)
		if ro.waitUpOrExit(t) {
			t.Errorf("the server started on a read-only database")
			ro.stop(t)
		} else if code := ro.exitCode(); code != 1 {
			t.Errorf("on a read-only database the server exited with %d (%v), want 1", code, ro.waitErr)
		}
		if !readOnlyLine.MatchString(ro.stderr.String()) || strings.Contains(ro.stderr.String(), "panic") {
			t.Errorf("on a read-only database the server did not say that it cannot write it; stderr:\n%s", ro.stderr)
		}
		if out, err := exec.Command("mount", "-o", "remount,rw", dir).CombinedOutput(); err != nil {
			t.Fatalf("remounting the tmpfs writable: %v\n%s", err, out)
		}
		rw := startSQLiteNode(t, bin, "writable", dbPath)
		rw.waitUp(t)
		rc := dialTable(t, rw.url, id, token)
		rc.knows(shown)
		if res := rc.play(t); res.code != "" {
			t.Errorf("a move once the database was writable again: %q (%s)", res.code, res.message)
		}
		rc.awaitTurn(t)
		shown := rc.shownMoves(t)
		rc.close()
		rw.stop(t)
		checkStored(t, dbPath, id, shown)
	})
}

// diskFullLine and readOnlyLine are what the server's log must say.
var (
	diskFullLine = regexp.MustCompile(`the database cannot be written: the disk is full`)
	readOnlyLine = regexp.MustCompile(`the database cannot be written: it is read-only`)
)

// mountTmpfs mounts a tmpfs of size (as mount takes it) on a directory of
// the test's, unmounted when the test ends.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mounting a tmpfs: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("unmounting the tmpfs at %s: %v\n%s", dir, err, out)
		}
	})
	return dir
}

// fillDisk writes the file at path until the disk is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}

// startSQLiteNode starts "parlour serve" on the SQLite database at path,
// as startNodeWith does.
func startSQLiteNode(t *testing.T, bin, name, path string) *node {
	t.Helper()
	return startNodeWith(t, bin, name, "sqlite:"+path, "--bot-delay", "5ms", "--grace", "1m")
}

// waitUp waits for the server's address and its /healthz.
func (n *node) waitUp(t *testing.T) {
	t.Helper()
	if !n.waitUpOrExit(t) {
		t.Fatalf("the %s server exited while starting: %v\n%s%s", n.name, n.waitErr, n.stdout, n.stderr)
	}
}

// waitUpOrExit waits for the server's address and its /healthz, and
// reports whether it is up; false if it exited first.
func (n *node) waitUpOrExit(t *testing.T) bool {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-n.exited:
			return false
		default:
		}
		sc := bufio.NewScanner(strings.NewReader(n.stdout.String()))
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "parlour: serving on "); ok {
				if u, err := url.Parse(strings.Fields(rest)[0]); err == nil {
					n.url = "http://" + u.Host
				}
			}
		}
		if n.url != "" && n.healthy() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the %s server not up within 15s\n%s%s", n.name, n.stdout, n.stderr)
	return false
}

// exitCode is the exit status of a server that has exited.
func (n *node) exitCode() int {
	<-n.exited
	var ee *exec.ExitError
	if errors.As(n.waitErr, &ee) {
		return ee.ExitCode()
	}
	if n.waitErr != nil {
		return -1
	}
	return 0
}

// stop stops the server with SIGTERM and checks that it ends cleanly.
func (n *node) stop(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("stopping the %s server: %v", n.name, err)
	}
	select {
	case <-n.exited:
		if n.waitErr != nil {
			t.Errorf("the %s server did not stop cleanly on SIGTERM: %v", n.name, n.waitErr)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the %s server still runs 15s after SIGTERM", n.name)
	}
}

// apiCall sends a lobby API request and decodes the answer into out.
func apiCall(t *testing.T, method, u string, body, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s\n%s", method, u, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s %s: %v\n%s", method, u, err, b)
	}
}

// newBotTable creates a table of Golf for a person and a random bot,
// long enough (99 holes) not to end during the test, takes the person's seat, and
// returns the table and the seat's token.
func newBotTable(t *testing.T, base string) (id, token string) {
	t.Helper()
	var tab struct {
		ID string `json:"id"`
	}
	apiCall(t, "POST", base+"/api/tables", map[string]any{"game": "golf", "options": map[string]any{"holes": 99},
		"seats": []string{"open", "random"}, "seed": 27}, &tab)
	var seat struct {
		Token string `json:"token"`
	}
	apiCall(t, "POST", base+"/api/tables/"+tab.ID+"/join", map[string]any{"seat": 0, "name": "Ann"}, &seat)
	return tab.ID, seat.Token
}

// tableMoves is the number of moves of table id the lobby API shows.
func tableMoves(t *testing.T, base, id string) int {
	t.Helper()
	var tab struct {
		Moves int `json:"moves"`
	}
	apiCall(t, "GET", base+"/api/tables/"+id, nil, &tab)
	return tab.Moves
}

// checkStored checks that the database at path, of a server that has
// stopped, holds exactly the moves shown of table id: in the moves table
// and in the move log not yet folded into it (a move in both is the same
// row twice, which UNION keeps once).
func checkStored(t *testing.T, path, id string, shown []protocol.Event) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT n, seat, move, by_whom FROM moves WHERE table_id = ?
		UNION SELECT json_extract(m.value, '$[1]'), json_extract(m.value, '$[2]'), json_extract(m.value, '$[3]'),
			json_extract(m.value, '$[4]')
		FROM move_batches b, json_each(b.moves) m WHERE json_extract(m.value, '$[0]') = ?
		ORDER BY 1`, id, id)
	if err != nil {
		t.Fatalf("reading the stored moves: %v", err)
	}
	defer rows.Close()
	var stored []protocol.Event
	for rows.Next() {
		var e protocol.Event
		if err := rows.Scan(&e.N, &e.Seat, &e.Move, &e.By); err != nil {
			t.Fatal(err)
		}
		e.N++
		stored = append(stored, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(shown) {
		t.Errorf("%d moves stored, %d shown", len(stored), len(shown))
	}
	for i := range min(len(stored), len(shown)) {
		s, w := stored[i], shown[i]
		if s.N != w.N || s.Seat != w.Seat || s.By != w.By || (!w.Hidden && s.Move != w.Move) {
			t.Errorf("move %d stored as %d %d %q by %q, shown as %d %d %q by %q", i+1, s.N, s.Seat, s.Move, s.By, w.N, w.Seat, w.Move, w.By)
		}
	}
}

// tableClient is a person at a table, over the WebSocket.
type tableClient struct {
	conn   *websocket.Conn
	cancel context.CancelFunc
	frames chan tableFrame
	seat   int
	seq    int
	legal  []string
	shown  map[int]protocol.Event // every move shown, by its 1-based number
	nextID int
	sent   time.Time // when the last move was sent
}

// movePace spaces the person's moves, under the connection's rate limit
// (20 messages a second).
const movePace = 60 * time.Millisecond

// tableFrame is a server message as the test reads it.
type tableFrame struct {
	Type    string           `json:"type"`
	Seat    int              `json:"seat"`
	Seq     int              `json:"seq"`
	Status  string           `json:"status"`
	Legal   []string         `json:"legal"`
	Events  []protocol.Event `json:"events"`
	Code    string           `json:"code"`
	Message string           `json:"message"`
	ID      string           `json:"id"`
	err     error            // the connection ended
}

// dialTable connects to table id with the seat's token.
func dialTable(t *testing.T, base, id, token string) *tableClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	defer dcancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/tables/"+id, nil)
	if err != nil {
		cancel()
		t.Fatalf("connecting to table %s: %v", id, err)
	}
	c := &tableClient{conn: conn, cancel: cancel, frames: make(chan tableFrame, 1024), seat: -1, shown: map[int]protocol.Event{}}
	go func() {
		defer close(c.frames)
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				c.frames <- tableFrame{err: err}
				return
			}
			var f tableFrame
			if err := json.Unmarshal(b, &f); err != nil {
				c.frames <- tableFrame{err: fmt.Errorf("a frame that is not JSON: %v: %s", err, b)}
				return
			}
			c.frames <- f
		}
	}()
	c.send(t, protocol.ClientMessage{V: protocol.Version, Type: "hello", Token: token})
	t.Cleanup(c.close)
	return c
}

func (c *tableClient) close() {
	c.conn.Close(websocket.StatusNormalClosure, "")
	c.cancel()
}

func (c *tableClient) send(t *testing.T, m protocol.ClientMessage) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatalf("sending %s: %v", b, err)
	}
}

// next reads the next frame, within d; ok is false if none came.
func (c *tableClient) next(t *testing.T, d time.Duration) (f tableFrame, ok bool) {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case f, open := <-c.frames:
		if !open || f.err != nil {
			t.Fatalf("the connection ended: %v", f.err)
		}
		switch f.Type {
		case "welcome":
			c.seat = f.Seat
		case "state":
			c.seq, c.legal = f.Seq, f.Legal
			fallthrough
		case "log":
			for _, e := range f.Events {
				if e.Kind == "move" {
					c.shown[e.N] = e
				}
			}
		}
		return f, true
	case <-timer.C:
		return tableFrame{}, false
	}
}

// awaitTurnWithin reads frames until the person may move, and reports
// whether that came within d.
func (c *tableClient) awaitTurnWithin(t *testing.T, d time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for len(c.legal) == 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		if f, ok := c.next(t, left); ok && f.Type == "state" && f.Status == "over" {
			t.Fatal("the game ended during the test")
		}
	}
	return true
}

// awaitTurn reads frames until the person may move.
func (c *tableClient) awaitTurn(t *testing.T) {
	t.Helper()
	if !c.awaitTurnWithin(t, 15*time.Second) {
		t.Fatalf("not the person's turn within 15s (at move %d)", c.seq)
	}
}

// moveAnswer is how a move of the person's was answered.
type moveAnswer struct {
	code, message string // the refusal; "" when it was made
	took          time.Duration
}

// play makes the person's first legal move once it is their turn, and
// returns how it was answered: shown, or refused. The answer must come
// within fullAnswer.
func (c *tableClient) play(t *testing.T) moveAnswer {
	t.Helper()
	c.awaitTurn(t)
	time.Sleep(time.Until(c.sent.Add(movePace)))
	c.nextID++
	id := fmt.Sprint("m", c.nextID)
	seq := c.seq
	start := time.Now()
	c.sent = start
	c.send(t, protocol.ClientMessage{V: protocol.Version, Type: "move", Move: c.legal[0], ID: id})
	deadline := start.Add(fullAnswer)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("a move at %d not answered within %v", seq, fullAnswer)
		}
		f, ok := c.next(t, left)
		if !ok {
			continue
		}
		switch {
		case f.Type == "error" && f.ID == id:
			return moveAnswer{code: f.Code, message: f.Message, took: time.Since(start)}
		case f.Type == "error":
			t.Fatalf("an error not for move %s: %s %s", id, f.Code, f.Message)
		case f.Type == "state":
			for _, e := range f.Events {
				if e.Kind == "move" && e.Seat == c.seat && e.N > seq {
					return moveAnswer{took: time.Since(start)}
				}
			}
		}
	}
}

// knows adds moves shown on an earlier connection to those shown.
func (c *tableClient) knows(moves []protocol.Event) {
	for _, e := range moves {
		c.shown[e.N] = e
	}
}

// shownMoves returns every move shown so far, in order; every number
// from 1 to the last must have been shown.
func (c *tableClient) shownMoves(t *testing.T) []protocol.Event {
	t.Helper()
	out := make([]protocol.Event, 0, len(c.shown))
	for n := 1; n <= c.seq; n++ {
		e, ok := c.shown[n]
		if !ok {
			t.Fatalf("move %d of %d was never shown", n, c.seq)
		}
		out = append(out, e)
	}
	return out
}
