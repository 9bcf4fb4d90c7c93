package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/card"
	"parlour/game"
	"parlour/games"
	"parlour/internal/metrics"
	"parlour/internal/protocol"
	"parlour/internal/server"
	"parlour/internal/store"
	"parlour/internal/table"
)

// shortOptions keep test matches short: one hole, low targets, few turns.
// Options a game does not have are left out, so a game that lands later
// plays with its defaults.
var shortOptions = map[string]any{"holes": 1, "target": 5, "max_turns": 80}

var shortTargets = map[string]map[string]any{"court-circular": {"target": "20"}}

func shortFor(g game.Game) map[string]any {
	out := map[string]any{}
	for _, o := range g.Options() {
		if v, ok := shortTargets[g.Name()][o.Name]; ok {
			out[o.Name] = v
		} else if v, ok := shortOptions[o.Name]; ok {
			out[o.Name] = v
		}
	}
	return out
}

// env is a server on a real listener with a SQLite store in a temp dir.
type env struct {
	t    *testing.T
	path string
	cfg  envConfig
	st   store.Store
	m    *table.Manager
	srv  *server.Server
	hs   *httptest.Server
	url  string
}

type envConfig struct {
	grace     time.Duration
	queue     int
	rate      float64
	burst     int
	readLimit int64
	standIn   string
	maxTables int
	maxConns  int
	metrics   *metrics.Metrics
}

func newEnv(t *testing.T, cfg envConfig) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "parlour.db"), cfg: cfg}
	e.start()
	t.Cleanup(e.stop)
	return e
}

func (e *env) start() {
	e.t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+e.path)
	if err != nil {
		e.t.Fatal(err)
	}
	e.st = st
	standIn := e.cfg.standIn
	if standIn == "" {
		standIn = "random"
	}
	grace := e.cfg.grace
	if grace == 0 {
		grace = time.Minute
	}
	e.m = table.NewManager(table.Config{Store: st, Games: games.Registry, BotDelay: 0, Grace: grace,
		StandIn: standIn, Queue: e.cfg.queue})
	if _, err := e.m.Recover(ctx); err != nil {
		e.t.Fatal(err)
	}
	rate, burst := e.cfg.rate, e.cfg.burst
	if rate == 0 {
		rate, burst = 1e6, 1e6 // test clients move as fast as they can
	}
	e.srv = server.New(server.Config{Games: games.Registry, RateLimit: rate, Burst: burst, ReadLimit: e.cfg.readLimit,
		MaxTables: e.cfg.maxTables, MaxConns: e.cfg.maxConns, Metrics: e.cfg.metrics})
	e.srv.Ready(e.m)
	e.hs = httptest.NewServer(e.srv)
	e.url = e.hs.URL
}

// stop shuts the server down as parlour serve does on SIGINT.
func (e *env) stop() {
	if e.hs == nil {
		return
	}
	e.m.Close()
	e.srv.Close()
	e.hs.Close()
	e.st.Close()
	e.hs = nil
}

func (e *env) restart() {
	e.stop()
	e.start()
}

// do sends a JSON request and decodes the JSON answer into out.
func (e *env) do(method, path string, body any, out any) int {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			r = strings.NewReader(s)
		} else {
			b, _ := json.Marshal(body)
			r = bytes.NewReader(b)
		}
	}
	req, _ := http.NewRequest(method, e.url+path, r)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

func (e *env) create(req map[string]any) protocol.TableInfo {
	e.t.Helper()
	var raw json.RawMessage
	code := e.do("POST", "/api/tables", req, &raw)
	if code != http.StatusCreated {
		e.t.Fatalf("creating %v: status %d %s", req, code, raw)
	}
	var info protocol.TableInfo
	json.Unmarshal(raw, &info)
	return info
}

func (e *env) join(id string, seat int, name string) protocol.JoinResult {
	e.t.Helper()
	var res protocol.JoinResult
	if code := e.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": seat, "name": name}, &res); code != http.StatusOK {
		e.t.Fatalf("joining seat %d of %s: status %d", seat, id, code)
	}
	return res
}

// msg is any server message, decoded loosely.
type msg struct {
	V       int                 `json:"v"`
	Type    string              `json:"type"`
	Table   string              `json:"table"`
	Seat    int                 `json:"seat"`
	Seq     int                 `json:"seq"`
	Status  string              `json:"status"`
	ToAct   []int               `json:"to_act"`
	Legal   []string            `json:"legal"`
	View    json.RawMessage     `json:"view"`
	Result  protocol.Result     `json:"result"`
	Seats   []protocol.SeatInfo `json:"seats"`
	Clocks  []protocol.Clock    `json:"clocks"`
	Events  []protocol.Event    `json:"events"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	ID      string              `json:"id"`
	Move    string              `json:"move"`
	Rematch string              `json:"rematch"`
	Name    string              `json:"name"` // chat: the writer's name
	Text    string              `json:"text"` // chat: the message
	Old     bool                `json:"old"`  // chat: sent on connecting
	At      time.Time           `json:"at"`
	raw     []byte
}

// client is a real WebSocket client that records every frame it gets.
type client struct {
	t      *testing.T
	name   string
	seat   int
	c      *websocket.Conn
	mu     sync.Mutex
	frames []msg
	notify chan struct{}
	read   int // frames consumed by next
	closed chan struct{}
	err    error
}

func dialRaw(t *testing.T, url, id string, header http.Header) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(url, "http") + "/ws/tables/" + id
	return websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: header})
}

// dial connects and says hello with token, or spectates when token is "".
func (e *env) dial(id, token, name string) *client {
	e.t.Helper()
	c, _, err := dialRaw(e.t, e.url, id, nil)
	if err != nil {
		e.t.Fatalf("%s: dialing: %v", name, err)
	}
	c.SetReadLimit(1 << 22)
	cl := &client{t: e.t, name: name, c: c, notify: make(chan struct{}, 1), closed: make(chan struct{})}
	go cl.readLoop()
	hello := map[string]any{"v": 1, "type": "hello"}
	if token == "" {
		hello["spectate"] = true
	} else {
		hello["token"] = token
	}
	cl.send(hello)
	w := cl.next(10 * time.Second)
	if w.Type != protocol.TypeWelcome {
		e.t.Fatalf("%s: first message %s, want a welcome", name, w.raw)
	}
	cl.seat = w.Seat
	return cl
}

func (cl *client) readLoop() {
	defer close(cl.closed)
	for {
		_, data, err := cl.c.Read(context.Background())
		if err != nil {
			cl.mu.Lock()
			cl.err = err
			cl.mu.Unlock()
			select {
			case cl.notify <- struct{}{}:
			default:
			}
			return
		}
		var m msg
		if err := json.Unmarshal(data, &m); err != nil {
			cl.t.Errorf("%s: a frame is not JSON: %s", cl.name, data)
		}
		m.raw = data
		cl.mu.Lock()
		cl.frames = append(cl.frames, m)
		cl.mu.Unlock()
		select {
		case cl.notify <- struct{}{}:
		default:
		}
	}
}

func (cl *client) send(v any) {
	cl.t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		b, _ = json.Marshal(v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.c.Write(ctx, websocket.MessageText, b); err != nil {
		cl.t.Errorf("%s: sending %s: %v", cl.name, b, err)
	}
}

func (cl *client) move(text string) {
	cl.send(map[string]any{"v": 1, "type": "move", "move": text})
}

// next returns the next frame not yet consumed. The log of the recent
// past sent on connecting is left out (see recentLog): the tests read
// what happens from then on.
func (cl *client) next(timeout time.Duration) msg {
	cl.t.Helper()
	m, ok := cl.tryNext(timeout)
	if !ok {
		cl.t.Fatalf("%s: no frame within %v (connection: %v)", cl.name, timeout, cl.connErr())
	}
	return m
}

func (cl *client) tryNext(timeout time.Duration) (msg, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		cl.mu.Lock()
		for cl.read < len(cl.frames) && cl.frames[cl.read].Type == protocol.TypeLog {
			cl.read++
		}
		if cl.read < len(cl.frames) {
			m := cl.frames[cl.read]
			cl.read++
			cl.mu.Unlock()
			return m, true
		}
		err := cl.err
		cl.mu.Unlock()
		if err != nil {
			return msg{}, false
		}
		select {
		case <-cl.notify:
		case <-deadline.C:
			return msg{}, false
		}
	}
}

// waitFor consumes frames until one satisfies ok.
func (cl *client) waitFor(what string, timeout time.Duration, ok func(msg) bool) msg {
	cl.t.Helper()
	end := time.Now().Add(timeout)
	for {
		left := time.Until(end)
		if left <= 0 {
			cl.t.Fatalf("%s: no frame with %s within %v", cl.name, what, timeout)
		}
		m, got := cl.tryNext(left)
		if !got {
			cl.t.Fatalf("%s: no frame with %s within %v (connection: %v)", cl.name, what, timeout, cl.connErr())
		}
		if ok(m) {
			return m
		}
	}
}

func (cl *client) connErr() error {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.err
}

// lastState returns the last state frame cl got.
func (cl *client) lastState() msg {
	cl.t.Helper()
	all := cl.all()
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Type == protocol.TypeState {
			return all[i]
		}
	}
	cl.t.Fatalf("%s: no state frame", cl.name)
	return msg{}
}

func (cl *client) all() []msg {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return slices.Clone(cl.frames)
}

func (cl *client) close() {
	cl.c.Close(websocket.StatusNormalClosure, "bye")
	<-cl.closed
}

// drop ends the connection without a goodbye, like a lost network.
func (cl *client) drop() {
	cl.c.CloseNow()
	<-cl.closed
}

// play makes random legal moves for the client's seat until the game is
// over or stop says to pause; it returns the refusals it met.
func (cl *client) play(rng *rand.Rand, timeout time.Duration, stop func(seq int) bool) []msg {
	cl.t.Helper()
	var refusals []msg
	var latest *msg
	cl.mu.Lock()
	for i := cl.read - 1; i >= 0; i-- {
		if cl.frames[i].Type == protocol.TypeState {
			m := cl.frames[i]
			latest = &m
			break
		}
	}
	cl.mu.Unlock()
	pending := false
	end := time.Now().Add(timeout)
	for {
		if latest != nil && latest.Status == store.StatusOver {
			return refusals
		}
		if latest != nil && stop != nil && stop(latest.Seq) && !pending {
			return refusals
		}
		if latest != nil && !pending && latest.Status == store.StatusPlaying && slices.Contains(latest.ToAct, cl.seat) && len(latest.Legal) > 0 {
			cl.move(latest.Legal[rng.IntN(len(latest.Legal))])
			pending = true
		}
		left := time.Until(end)
		if left <= 0 {
			cl.t.Errorf("%s: the game did not end within %v", cl.name, timeout)
			return refusals
		}
		m, ok := cl.tryNext(left)
		if !ok {
			cl.t.Errorf("%s: no frame for %v mid-game (connection: %v)", cl.name, timeout, cl.connErr())
			return refusals
		}
		switch m.Type {
		case protocol.TypeState:
			latest = &m
			for _, ev := range m.Events {
				if ev.Kind == protocol.EventMove && ev.Seat == cl.seat {
					pending = false
				}
			}
		case protocol.TypeError:
			refusals = append(refusals, m)
			pending = false
		}
	}
}

// --- checking frames against the stored game ---

// history rebuilds a stored table's states after each of its moves.
type history struct {
	g      game.Game
	states []game.State // states[k]: after k moves
	moves  []store.Move
	// dealEnds[k] is where the cards were as move k+1 ended a deal, before
	// the next was dealt (nil if it did not): the words of that move may
	// name the cards every seat saw then.
	dealEnds [][]game.Place
	// dealEndViews[k] are the deal-end views (game.DealEndView) of the
	// deal move k+1 ended, as JSON, a spectator's first and then each
	// seat's (nil if it ended none): what its frames' deal_end must show.
	dealEndViews [][]string
}

func (e *env) history(id string) *history {
	e.t.Helper()
	ctx := context.Background()
	rec, err := e.st.Table(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	moves, err := e.st.Moves(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	g, err := games.Lookup(rec.Game)
	if err != nil {
		e.t.Fatal(err)
	}
	opts, err := game.Resolve(g, rec.Options)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := g.New(opts, rec.Seed, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	h := &history{g: g, moves: moves, states: []game.State{st.Clone()}}
	var ended []game.Place
	var endViews []string
	st.WatchDeals(func(s game.State) {
		for _, p := range s.Places() {
			p.Cards = slices.Clone(p.Cards)
			ended = append(ended, p)
		}
		for seat := game.Spectator; seat < s.Players(); seat++ {
			b, err := json.Marshal(game.DealEndView(s, seat))
			if err != nil {
				e.t.Fatalf("a deal-end view: %v", err)
			}
			endViews = append(endViews, string(b))
		}
	})
	for _, mv := range moves {
		m, err := st.ParseMove(mv.Seat, mv.Text)
		if err == nil {
			ended, endViews = nil, nil
			err = game.Apply(st, mv.Seat, m)
		}
		if err != nil {
			e.t.Fatalf("stored move %d (%d: %s) does not replay: %v", mv.N, mv.Seat, mv.Text, err)
		}
		h.states = append(h.states, st.Clone())
		h.dealEnds = append(h.dealEnds, ended)
		h.dealEndViews = append(h.dealEndViews, endViews)
	}
	return h
}

// dealEndProblems checks the deal_end de of state frame m to seat (or a
// spectator): only after a move that ended a deal, that deal's number,
// scores and totals, its view the game's DealEndView for the seat, with
// no card the seat might not see as the deal ended.
func dealEndProblems(h *history, seat int, m msg, de any) []string {
	if m.Type != protocol.TypeState || m.Seq < 1 || h.dealEndViews[m.Seq-1] == nil {
		return []string{"a deal_end in a frame that follows no deal's end"}
	}
	var out []string
	ended := h.states[m.Seq]
	b, _ := json.Marshal(de)
	var d struct {
		Deal   int             `json:"deal"`
		Scores []int           `json:"scores"`
		Totals []int           `json:"totals"`
		View   json.RawMessage `json:"view"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return []string{fmt.Sprintf("deal_end %s: %v", b, err)}
	}
	r := ended.Result()
	if d.Deal < 1 || d.Deal > len(r.DealScores) || !slices.Equal(d.Scores, r.DealScores[d.Deal-1]) || !slices.Equal(d.Totals, r.Totals) {
		out = append(out, fmt.Sprintf("deal_end of deal %d, scores %v, totals %v; the result %+v", d.Deal, d.Scores, d.Totals, r))
	}
	var got, want any
	if json.Unmarshal(d.View, &got) != nil || json.Unmarshal([]byte(h.dealEndViews[m.Seq-1][seat+1]), &want) != nil || !reflect.DeepEqual(got, want) {
		out = append(out, fmt.Sprintf("deal_end view %s, want %s", d.View, h.dealEndViews[m.Seq-1][seat+1]))
	}
	may := mayReadIn(h.dealEnds[m.Seq-1], seat)
	for _, c := range cardsIn(got) {
		if !may.Has(c) {
			out = append(out, fmt.Sprintf("the deal_end shows %v, which seat %d might not see as the deal ended: %s", c, seat, d.View))
			break
		}
	}
	return out
}

// hasDealEvent reports whether a frame's events tell a deal's end.
func hasDealEvent(tree map[string]any) bool {
	evs, _ := tree["events"].([]any)
	for _, ev := range evs {
		if ev, ok := ev.(map[string]any); ok && ev["kind"] == protocol.EventDeal {
			return true
		}
	}
	return false
}

// mayRead returns the cards seat (or a spectator) may see in st.
func mayRead(st game.State, seat int) card.Set {
	return mayReadIn(st.Places(), seat)
}

// mayReadIn returns the cards seat (or a spectator) may see in places.
func mayReadIn(places []game.Place, seat int) card.Set {
	var s card.Set
	for _, p := range places {
		if (seat == game.Spectator && p.Public) || (seat >= 0 && p.Visible.Has(seat)) {
			for _, c := range p.Cards {
				s = s.Add(c)
			}
		}
	}
	return s
}

// cardsIn returns every card named in canonical notation in any string of
// the JSON value v: as a word ("play 7S") or in brackets, as the words of
// the live log name them ("{0} took [7S]").
func cardsIn(v any) []card.Card {
	var out []card.Card
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, game.CardWords(x)...)
			out = append(out, bracketed(x)...)
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// bracketed returns the cards a text names in brackets ("[7S]").
func bracketed(text string) []card.Card {
	var out []card.Card
	for {
		i := strings.IndexByte(text, '[')
		if i < 0 {
			return out
		}
		text = text[i+1:]
		j := strings.IndexByte(text, ']')
		if j < 0 {
			return out
		}
		if c, err := card.Parse(text[:j]); err == nil && c.String() == text[:j] {
			out = append(out, c)
		}
		text = text[j+1:]
	}
}

// checkFrames reports every problem frameProblems finds.
func checkFrames(t *testing.T, h *history, cl *client) {
	t.Helper()
	for _, p := range frameProblems(h, cl.name, cl.seat, cl.all()) {
		t.Error(p)
	}
}

// frameProblems checks every frame a client got against the stored game:
// no card the seat may not see at that moment (its own moves' text aside,
// and a log's earlier moves judged by the moment after each),
// no text of another seat's simultaneous choice, the view is the game's
// view of the seat, to_act and the legal moves are the game's.
func frameProblems(h *history, name string, seat int, frames []msg) []string {
	var out []string
	bad := func(format string, args ...any) {
		if len(out) < 10 {
			out = append(out, fmt.Sprintf(name+": "+format, args...))
		}
	}
	for i, m := range frames {
		if m.Type == protocol.TypeError {
			continue
		}
		if m.Seq < 0 || m.Seq >= len(h.states) {
			bad("frame %d: seq %d, but %d moves are stored", i, m.Seq, len(h.moves))
			continue
		}
		st := h.states[m.Seq]
		var tree map[string]any
		if err := json.Unmarshal(m.raw, &tree); err != nil {
			bad("frame %d is not JSON: %v", i, err)
			continue
		}
		// A deal's end, sent with the move that ended it, is judged by the
		// cards as that deal ended (before the next was dealt).
		if de, ok := tree["deal_end"]; ok {
			delete(tree, "deal_end")
			for _, p := range dealEndProblems(h, seat, m, de) {
				bad("frame %d (seq %d): %s", i, m.Seq, p)
			}
		} else if m.Type == protocol.TypeState && hasDealEvent(tree) {
			bad("frame %d (seq %d): a deal ended, but the frame has no deal_end", i, m.Seq)
		}
		evs, _ := tree["events"].([]any)
		for _, ev := range evs {
			ev := ev.(map[string]any)
			if ev["kind"] != protocol.EventMove {
				continue
			}
			n := int(ev["n"].(float64))
			mover := int(ev["seat"].(float64))
			if n < 1 || n > len(h.moves) || h.moves[n-1].Seat != mover {
				bad("frame %d: event of move %d by seat %d, stored %d moves", i, n, mover, len(h.moves))
				continue
			}
			text, shown := ev["move"].(string)
			if shown && text != h.moves[n-1].Text {
				bad("frame %d: move %d is %q, stored %q", i, n, text, h.moves[n-1].Text)
			}
			words, _ := ev["text"].(string)
			if mover == seat {
				if !shown {
					bad("frame %d: its own move %d is hidden from it", i, n)
				}
				// A seat may read its own moves: it made them.
				delete(ev, "move")
				delete(ev, "text")
				continue
			}
			// The words, hidden move or not, may name what the seat saw
			// as the move was made: after it, at the end of the deal it
			// ended, or face up while it was made (game.Revealer).
			saw := mayRead(h.states[n], seat) | mayReadIn(h.dealEnds[n-1], seat)
			if r, ok := h.states[n-1].(game.Revealer); ok {
				if mv, err := h.states[n-1].ParseMove(mover, h.moves[n-1].Text); err == nil {
					saw |= r.Revealed(mover, mv)
				}
			}
			for _, c := range bracketed(words) {
				if !saw.Has(c) {
					bad("frame %d: the words of move %d name %v, which seat %d did not see: %q", i, n, c, seat, words)
				}
			}
			delete(ev, "text")
			if h.states[n-1].ToAct().Len() > 1 && (shown || ev["hidden"] != true) {
				bad("frame %d: seat %d's simultaneous choice %d is not hidden: %v", i, mover, n, ev)
			}
			if m.Type == protocol.TypeLog && shown {
				// The log of the recent past tells earlier moves: each
				// is judged by what the seat saw right after it.
				saw := mayRead(h.states[n], seat)
				for _, c := range game.CardWords(text) {
					if !saw.Has(c) {
						bad("frame %d: the log tells move %d as %q, but seat %d did not see %v", i, n, text, seat, c)
					}
				}
				delete(ev, "move")
			}
		}
		may := mayRead(st, seat)
		for _, c := range cardsIn(tree) {
			if !may.Has(c) {
				bad("seat %d frame %d (seq %d) shows %v, which it may not see: %s", seat, i, m.Seq, c, m.raw)
				break
			}
		}
		if m.Type != protocol.TypeState {
			continue
		}
		want, _ := json.Marshal(st.View(seat))
		var a, b any
		if json.Unmarshal(m.View, &a) != nil || json.Unmarshal(want, &b) != nil || !reflect.DeepEqual(a, b) {
			bad("frame %d (seq %d): view %s, want %s", i, m.Seq, m.View, want)
		}
		if m.Status == store.StatusPlaying {
			if got, want := m.ToAct, st.ToAct().List(); !slices.Equal(got, want) {
				bad("frame %d: to_act %v, want %v", i, got, want)
			}
			if seat >= 0 && st.ToAct().Has(seat) {
				if got, want := m.Legal, game.LegalText(st, seat); !slices.Equal(got, want) {
					bad("frame %d: legal %v, want %v", i, got, want)
				}
			}
		}
		if seat < 0 && len(m.Legal) != 0 {
			bad("frame %d: a spectator got legal moves %v", i, m.Legal)
		}
	}
	return out
}

// moves returns the stored moves of table id.
func (e *env) moves(id string) []store.Move {
	e.t.Helper()
	ms, err := e.st.Moves(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

func playersFor(g game.Game) int {
	lo, hi := g.Players()
	return min(max(lo, 3), hi)
}

func seatsFor(n, humans int, botName string) []string {
	seats := make([]string, n)
	for i := range seats {
		seats[i] = botName
		if i < humans {
			seats[i] = "open"
		}
	}
	return seats
}

func describe(ms []msg) string {
	var parts []string
	for _, m := range ms[:min(len(ms), 3)] {
		parts = append(parts, fmt.Sprintf("%s/%s", m.Code, m.Message))
	}
	return fmt.Sprintf("%d refusals: %s", len(ms), strings.Join(parts, "; "))
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
