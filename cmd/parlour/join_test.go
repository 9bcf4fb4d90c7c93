package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// parlourCommand returns a path that runs this package's command: the
// test binary under the name "parlour", which testscript.Main (TestMain)
// runs as the command itself.
func parlourCommand(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "parlour")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// testServer is a `parlour serve` on a loopback port with its own database.
type testServer struct {
	t    *testing.T
	bin  string
	db   string
	addr string // HOST:PORT
	url  string // http://HOST:PORT
	cmd  *exec.Cmd
}

// startServe starts `parlour serve` on addr (127.0.0.1:0: any free port),
// with flags after its own, and waits until it is ready.
func startServe(t *testing.T, bin, db, addr string, flags ...string) *testServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", "sqlite:" + db, "--bot-delay", "5ms"}, flags...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &testServer{t: t, bin: bin, db: db, cmd: cmd}
	t.Cleanup(s.stop)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if u, ok := strings.CutPrefix(line, "parlour: serving on "); ok {
			u, _, _ = strings.Cut(u, " ")
			s.url = strings.TrimSuffix(u, "/")
			s.addr = strings.TrimPrefix(s.url, "http://")
		}
		if strings.HasPrefix(line, "parlour: ready") {
			break
		}
	}
	if s.url == "" {
		t.Fatal("the server did not say where it serves")
	}
	go io.Copy(io.Discard, out)
	return s
}

// stop stops the server as a person would (SIGINT) and waits for it.
func (s *testServer) stop() {
	if s.cmd == nil {
		return
	}
	cmd := s.cmd
	s.cmd = nil
	cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// api makes a lobby API request and decodes the answer into out.
func (s *testServer) api(method, path string, body any, out any) int {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(data, out); err != nil {
			s.t.Fatalf("%s %s: %v\n%s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

// newTable creates a table and returns its id.
func (s *testServer) newTable(body map[string]any) string {
	s.t.Helper()
	var tb struct {
		ID string `json:"id"`
	}
	if code := s.api("POST", "/api/tables", body, &tb); code != http.StatusCreated {
		s.t.Fatalf("creating a table: status %d", code)
	}
	return tb.ID
}

// tableInfo is what the test reads of GET /api/tables/{id}.
type tableInfo struct {
	Status string `json:"status"`
	Open   []int  `json:"open"`
	Seats  []struct {
		Name  string `json:"name"`
		State string `json:"state"`
	} `json:"seats"`
	Result *struct {
		Totals  []int `json:"totals"`
		Winners []int `json:"winners"`
		Over    bool  `json:"over"`
	} `json:"result"`
}

func (s *testServer) table(id string) tableInfo {
	s.t.Helper()
	var info tableInfo
	if code := s.api("GET", "/api/tables/"+id, nil, &info); code != http.StatusOK {
		s.t.Fatalf("GET table %s: status %d", id, code)
	}
	return info
}

// terminal is `parlour play --join` in line mode, driven through pipes:
// its output comes line by line, and a bare prompt ("> ") as a line of
// its own.
type terminal struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	done  chan error
	mu    sync.Mutex
	all   strings.Builder
}

func startTerminal(t *testing.T, bin, config string, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"play"}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "USER=tester")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tm := &terminal{t: t, cmd: cmd, in: in, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Split(promptLines)
		for sc.Scan() {
			tm.mu.Lock()
			tm.all.WriteString(sc.Text() + "\n")
			tm.mu.Unlock()
			tm.lines <- sc.Text()
		}
		close(tm.lines)
		err := cmd.Wait()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, stderr.String())
		}
		tm.done <- err
	}()
	t.Cleanup(func() {
		in.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	})
	return tm
}

// promptLines splits output into lines, a prompt "> " awaiting input
// being a line of its own.
func promptLines(data []byte, atEOF bool) (int, []byte, error) {
	if bytes.HasPrefix(data, []byte("> ")) {
		return 2, data[:1], nil
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// transcript is everything the terminal has printed so far.
func (tm *terminal) transcript() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.all.String()
}

// send types a line.
func (tm *terminal) send(line string) {
	if _, err := io.WriteString(tm.in, line+"\n"); err != nil {
		tm.t.Fatalf("typing %q: %v", line, err)
	}
}

// waitFor reads lines until one matches re.
func (tm *terminal) waitFor(ctx context.Context, re string) string {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	for {
		select {
		case line, ok := <-tm.lines:
			if !ok {
				tm.t.Fatalf("the terminal ended before %q; it printed:\n%s", re, tm.transcript())
			}
			if rx.MatchString(line) {
				return line
			}
		case <-ctx.Done():
			tm.t.Fatalf("no %q from the terminal; it printed:\n%s", re, tm.transcript())
		}
	}
}

// browser stands in for a browser at a seat: the table protocol over a
// WebSocket.
type browser struct {
	t      *testing.T
	ws     *websocket.Conn
	frames chan map[string]any
}

func openBrowser(ctx context.Context, t *testing.T, s *testServer, table, token string) *browser {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, "ws://"+s.addr+"/ws/tables/"+table, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	b := &browser{t: t, ws: ws, frames: make(chan map[string]any, 1024)}
	t.Cleanup(func() { ws.CloseNow() })
	b.write(ctx, map[string]any{"type": "hello", "token": token})
	go func() {
		defer close(b.frames)
		for {
			_, data, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			var f map[string]any
			if json.Unmarshal(data, &f) == nil {
				b.frames <- f
			}
		}
	}()
	return b
}

func (b *browser) write(ctx context.Context, msg map[string]any) {
	msg["v"] = 1
	data, _ := json.Marshal(msg)
	if err := b.ws.Write(ctx, websocket.MessageText, data); err != nil {
		b.t.Fatalf("the browser's write: %v", err)
	}
}

// join takes the first open seat of a table through the lobby API.
func (s *testServer) join(table, name string) (seat int, token string) {
	s.t.Helper()
	var res struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if code := s.api("POST", "/api/tables/"+table+"/join", map[string]any{"name": name}, &res); code != http.StatusOK {
		s.t.Fatalf("joining %s: status %d", table, code)
	}
	return res.Seat, res.Token
}

// TestJoin plays a whole game of Golf at a real `parlour serve` between a
// person in the terminal (`parlour play --join`, line mode through pipes)
// and one in a browser (a WebSocket client here): they chat both ways,
// and the game runs to its end, the terminal showing the server's result.
func TestJoin(t *testing.T) {
	bin := parlourCommand(t)
	dir := t.TempDir()
	srv := startServe(t, bin, filepath.Join(dir, "parlour.db"), "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	id := srv.newTable(map[string]any{"game": "golf", "options": map[string]any{"holes": 1}, "seats": []string{"open", "open"}, "seed": 12345})
	link := srv.url + "/#/t/" + id
	term := startTerminal(t, bin, filepath.Join(dir, "config"), "--join", link, "--name", "Ann", "--plain")
	term.waitFor(ctx, `^Golf at .*: you are seat 0\.`)
	seat, token := srv.join(id, "Ben")
	if seat != 1 {
		t.Fatalf("the browser got seat %d, want 1", seat)
	}
	br := openBrowser(ctx, t, srv, id, token)

	const fromBrowser, fromTerminal = "hello from the browser <b>", "hi from the terminal"
	var (
		browserGotChat, terminalGotChat, sentReply bool
		waiting                                    bool // the browser's move has not come back
		final                                      map[string]any
		termSwaps, browserSwaps                    int
		answered                                   = -1 // the listings of moves answered
	)
	termLines := term.lines
	frames := br.frames
	for termLines != nil || final == nil {
		select {
		case line, ok := <-termLines:
			if !ok {
				termLines = nil
				continue
			}
			switch {
			case line == ">":
				// Moves by number and by notation, once a listing: the
				// prompt is drawn again after news that comes while it
				// waits (a chat line).
				if n := strings.Count(term.transcript(), "\nYour move:"); n == answered {
					continue
				} else {
					answered = n
				}
				listed := lastListed(term.transcript())
				mv := golfChoice(listed, &termSwaps)
				if i := slices.Index(listed, mv); i >= 0 && !strings.HasPrefix(mv, "swap") {
					mv = strconv.Itoa(i + 1)
				}
				term.send(mv)
			case line == "[chat] Ben: "+fromBrowser:
				terminalGotChat = true
				if !sentReply {
					sentReply = true
					term.send("say " + fromTerminal)
				}
			}
		case f, ok := <-frames:
			if !ok {
				t.Fatalf("the browser's connection closed; the terminal printed:\n%s", term.transcript())
			}
			switch f["type"] {
			case "welcome":
				br.write(ctx, map[string]any{"type": "chat", "text": fromBrowser})
			case "chat":
				if f["text"] == fromTerminal && f["seat"] == float64(0) && f["name"] == "Ann" {
					browserGotChat = true
				}
			case "state":
				if f["status"] == "over" {
					final = f
					continue
				}
				var legal []string
				for _, l := range f["legal"].([]any) {
					legal = append(legal, l.(string))
				}
				// One move at a time: the next once this one is in a state.
				events, _ := f["events"].([]any)
				for _, e := range events {
					if ev := e.(map[string]any); ev["kind"] == "move" && ev["seat"] == float64(seat) {
						waiting = false
					}
				}
				if len(legal) > 0 && !waiting {
					waiting = true
					br.write(ctx, map[string]any{"type": "move", "move": golfChoice(legal, &browserSwaps)})
				}
			case "error":
				t.Errorf("the browser was refused: %v", f)
			}
		case <-ctx.Done():
			t.Fatalf("the game did not end; the terminal printed:\n%s", term.transcript())
		}
	}
	if err := <-term.done; err != nil {
		t.Fatalf("the terminal failed: %v\n%s", err, term.transcript())
	}
	out := term.transcript()
	if !terminalGotChat || !strings.Contains(out, "[chat] You: "+fromTerminal) {
		t.Errorf("the terminal did not show both chat lines:\n%s", out)
	}
	if !browserGotChat {
		t.Errorf("the browser did not get the terminal's chat")
	}
	for _, want := range []string{"The match is over.", "Replay: " + srv.url + "/#/replay/" + id, "You chose to turn up"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal did not print %q:\n%s", want, out)
		}
	}
	// The terminal's final scores are the server's.
	info := srv.table(id)
	if info.Status != "over" || info.Result == nil {
		t.Fatalf("the table is %q, want over", info.Status)
	}
	m := regexp.MustCompile(`(?m)^total\s+(-?\d+)\s+(-?\d+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no totals line in the terminal's output:\n%s", out)
	}
	for i, want := range info.Result.Totals {
		if got, _ := strconv.Atoi(m[i+1]); got != want {
			t.Errorf("the terminal's total of seat %d is %d, the server's %d", i, got, want)
		}
	}
	res := final["result"].(map[string]any)
	if fmt.Sprint(res["totals"]) != fmt.Sprint(toAny(info.Result.Totals)) {
		t.Errorf("the browser's final totals %v differ from the server's %v", res["totals"], info.Result.Totals)
	}
	winner := "Ann"
	switch {
	case len(info.Result.Winners) == 2:
		winner = "share the win"
	case info.Result.Winners[0] == 1:
		winner = "Ben wins."
	}
	if !strings.Contains(out, winner) {
		t.Errorf("the terminal does not say %q:\n%s", winner, out)
	}
}

// lastListed returns the legal moves the terminal listed last.
func lastListed(out string) []string {
	i := strings.LastIndex(out, "\nYour move:")
	if i < 0 {
		return nil
	}
	rest := out[i+1:]
	rest = rest[strings.IndexByte(rest, '\n')+1:] // after the turn line ("Your move: what to do.")
	var moves []string
	item := regexp.MustCompile(`^\s+\d+\) (.+)$`)
	for _, line := range strings.Split(rest, "\n") {
		m := item.FindStringSubmatch(line)
		if m == nil {
			break
		}
		moves = append(moves, m[1])
	}
	return moves
}

// golfChoice plays a hole of Golf quickly to its end: the first column
// turned up, always a card from the stock, put in the places still face
// down in turn, so that the layout is soon all face up.
func golfChoice(legal []string, swaps *int) string {
	if slices.Contains(legal, "draw stock") {
		return "draw stock"
	}
	for *swaps < 6 && slices.Contains(legal, "swap 0") {
		mv := "swap " + strconv.Itoa([]int{1, 2, 4, 5, 0, 3}[*swaps])
		*swaps++
		if slices.Contains(legal, mv) {
			return mv
		}
	}
	return legal[0]
}

func toAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// TestJoinSeatKept: --join keeps the seat's token, so joining again takes
// the same seat back; a server restart is ridden out by reconnecting.
func TestJoinSeatKept(t *testing.T) {
	bin := parlourCommand(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "parlour.db")
	srv := startServe(t, bin, db, "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	config := filepath.Join(dir, "config")
	id := srv.newTable(map[string]any{"game": "golf", "seats": []string{"open", "open", "open"}})
	link := srv.url + "/t/" + id // the other form of the link

	term := startTerminal(t, bin, config, "--join", link, "--plain")
	term.waitFor(ctx, `: you are seat 0\.`)
	if info := srv.table(id); info.Seats[0].Name != "tester" || fmt.Sprint(info.Open) != "[1 2]" {
		t.Fatalf("after joining, seat 0 is %q and the open seats %v; want tester, [1 2]", info.Seats[0].Name, info.Open)
	}
	st, err := os.Stat(filepath.Join(config, "parlour", "seats.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("seats.json may be read by others: %v", st.Mode().Perm())
	}

	// The server stops and starts again: the terminal reconnects (once it
	// has seen the table, so that it knows it is connecting again).
	term.waitFor(ctx, `^Waiting for players: seats 1 and 2 open\.$`)
	srv.stop()
	term.waitFor(ctx, `^The connection to the table was lost: reconnecting`)
	srv = startServe(t, bin, db, srv.addr)
	term.waitFor(ctx, `^Connected again\.$`)

	// Leaving (end of input) and coming back: the same seat.
	term.in.Close()
	term.waitFor(ctx, `^bye \(your seat stays yours`)
	if err := <-term.done; err != nil {
		t.Fatal(err)
	}
	again := startTerminal(t, bin, config, "--join", strings.Replace(srv.url, "http:", "ws:", 1)+"/ws/tables/"+id)
	again.waitFor(ctx, `^\(taking back seat 0 at `)
	again.waitFor(ctx, `: you are seat 0\.`)
	if info := srv.table(id); fmt.Sprint(info.Open) != "[1 2]" {
		t.Errorf("joining again took another seat: open seats %v, want [1 2]", info.Open)
	}
	again.in.Close()
	if err := <-again.done; err != nil {
		t.Fatal(err)
	}
}

// TestJoinSecondTerminal: a second --join of the same user (the same
// seats file) while the first plays does not take the first one's seat:
// it joins as another player. Once the first has left, joining again
// takes its seat back.
func TestJoinSecondTerminal(t *testing.T) {
	bin := parlourCommand(t)
	dir := t.TempDir()
	srv := startServe(t, bin, filepath.Join(dir, "parlour.db"), "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	config := filepath.Join(dir, "config")
	id := srv.newTable(map[string]any{"game": "golf", "seats": []string{"open", "open", "open"}})
	link := srv.url + "/#/t/" + id

	first := startTerminal(t, bin, config, "--join", link, "--plain")
	first.waitFor(ctx, `: you are seat 0\.`)
	second := startTerminal(t, bin, config, "--join", link, "--plain")
	second.waitFor(ctx, `^\(seat 0 at .* is yours but played in another terminal: this one joins as another player\)$`)
	second.waitFor(ctx, `: you are seat 1\.`)
	if info := srv.table(id); fmt.Sprint(info.Open) != "[2]" || info.Seats[0].State != "here" {
		t.Fatalf("after the second join: open seats %v, seat 0 %q; want [2] and the first player here", info.Open, info.Seats[0].State)
	}
	if strings.Contains(first.transcript(), "connection") {
		t.Errorf("the first terminal was disturbed:\n%s", first.transcript())
	}

	// The first leaves: its seat is free to take back, the second's stays
	// the second's.
	first.in.Close()
	if err := <-first.done; err != nil {
		t.Fatal(err)
	}
	third := startTerminal(t, bin, config, "--join", link, "--plain")
	third.waitFor(ctx, `^\(taking back seat 0 at `)
	third.waitFor(ctx, `: you are seat 0\.`)
	if info := srv.table(id); fmt.Sprint(info.Open) != "[2]" {
		t.Errorf("joining again took another seat: open seats %v, want [2]", info.Open)
	}
	for _, tm := range []*terminal{second, third} {
		tm.in.Close()
		if err := <-tm.done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestJoinRefusals: a bad link, a table that does not exist and a table
// with no open seat are refused with one line, and nothing is kept.
func TestJoinRefusals(t *testing.T) {
	bin := parlourCommand(t)
	dir := t.TempDir()
	srv := startServe(t, bin, filepath.Join(dir, "parlour.db"), "127.0.0.1:0")
	full := srv.newTable(map[string]any{"game": "golf", "seats": []string{"random", "random"}})
	config := filepath.Join(dir, "config")
	for _, c := range []struct {
		args   []string
		status int
		err    string
	}{
		{[]string{"--join", "nonsense"}, 2, `^parlour play: --join: not an invite link: "nonsense" has no scheme`},
		{[]string{"--join", "ftp://example.com/#/t/x"}, 2, `is not an http or ws address`},
		{[]string{"--join", srv.url + "/#/lobby"}, 2, `names no table`},
		{[]string{"--join", srv.url + "/#/t/0000000000000000"}, 1, `^parlour play: cannot sit at .*: no such table`},
		{[]string{"--join", srv.url + "/#/t/" + full}, 1, `^parlour play: cannot sit at .*: .*open`},
		{[]string{"--join", srv.url + "/#/t/" + full, "--name", strings.Repeat("n", 33)}, 2, `a name has at most 32`},
		{[]string{"golf", "--join", srv.url + "/#/t/" + full}, 2, `give a game or --join, not both`},
		{[]string{"--join", srv.url + "/#/t/" + full, "--players", "3"}, 2, `--players sets up a game here`},
		{[]string{"golf", "--name", "Ann"}, 2, `--name is for --join`},
	} {
		cmd := exec.Command(bin, append([]string{"play"}, c.args...)...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Stdin = strings.NewReader("")
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		msg := stderr.String()
		if code != c.status || !regexp.MustCompile(c.err).MatchString(msg) || strings.Count(msg, "\n") != 1 {
			t.Errorf("play %v: exit %d, stderr %q; want exit %d and one line matching %q", c.args, code, msg, c.status, c.err)
		}
	}
	if _, err := os.Stat(filepath.Join(config, "parlour", "seats.json")); err == nil {
		t.Errorf("a refused join kept a seat")
	}
}
