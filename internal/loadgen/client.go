package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// bufPool holds the buffers messages are read into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// slot keeps one table in play: it creates the table, takes the person's
// seat, plays it over a WebSocket (reconnecting after drops) and, when the
// game is over, starts another table in its place. Its goroutine is the
// connection's reader; the person's pauses are timers.
type slot struct {
	r    *runner
	idx  int
	url  int // the server in use (index in r.urls)
	plan int // the next table's game (index in r.plans)

	mu    sync.Mutex
	rng   *rand.Rand
	table string
	seat  int
	token string
	conn  *websocket.Conn
	seq   int   // the table's move count, as last seen
	acked []ack // our moves that a view has shown, by number, ascending
	toAct bool
	legal []string

	over bool        // the game was seen over
	tr   TableReport // Games mode: the table's line of the report

	timer    *time.Timer // the person's pause
	thinking bool
	wantAt   time.Time

	pending  bool // a move sent and not yet seen
	pendMove string
	pendID   string
	sentAt   time.Time
	sentSeq  int
	nextID   uint64
}

func (s *slot) run(ctx context.Context) {
	defer func() {
		s.mu.Lock()
		s.stopThinkingLocked()
		s.mu.Unlock()
	}()
	if s.r.cfg.Games > 0 {
		s.playOne(ctx)
		return
	}
	for ctx.Err() == nil {
		if !s.open(ctx) {
			return
		}
		s.play(ctx)
	}
}

// ack is one of our moves that a view has shown.
type ack struct {
	n    int32  // its number
	move string // as the view's event showed it
}

// apiResult is the outcome of a lobby request.
type apiResult struct {
	status     int
	code       string
	message    string
	err        error // no answer (or an unreadable one)
	shed       bool  // 503 with Retry-After
	retryAfter time.Duration
}

func (a apiResult) kind(op string) string {
	if a.err != nil {
		return op + ":net"
	}
	code := a.code
	if code == "" {
		code = "-"
	}
	return op + ":" + strconv.Itoa(a.status) + ":" + code
}

func (r *runner) post(ctx context.Context, base, path string, body, out any) apiResult {
	b, err := json.Marshal(body)
	if err != nil {
		return apiResult{err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+path, bytes.NewReader(b))
	if err != nil {
		return apiResult{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.http.Do(req)
	if err != nil {
		return apiResult{err: err}
	}
	defer resp.Body.Close()
	res := apiResult{status: resp.StatusCode}
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		res.err = err
		return res
	}
	if resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(data, out); err != nil {
			res.err = fmt.Errorf("the answer is not the JSON expected: %v", err)
		}
		return res
	}
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil {
		res.code, res.message = e.Error.Code, e.Error.Message
	}
	res.retryAfter, res.shed = shedding(resp)
	return res
}

// shedding reports whether resp is a 503 with Retry-After, and the wait.
func shedding(resp *http.Response) (time.Duration, bool) {
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	ra := resp.Header.Get("Retry-After")
	if ra == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(ra, 64); err == nil {
		return time.Duration(max(secs, 0) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(ra); err == nil {
		return max(time.Until(t), 0), true
	}
	return time.Second, true
}

// backoff waits a little longer after each failure in a row (50 ms to about
// 3 s, jittered); false if ctx ended.
func (s *slot) backoff(ctx context.Context, fails int) bool {
	d := 50 * time.Millisecond << min(fails, 6)
	s.mu.Lock()
	d = d/2 + time.Duration(s.rng.Int64N(int64(d)))
	s.mu.Unlock()
	return sleepUntil(ctx, time.Now().Add(d))
}

// shedWait honours a Retry-After; false if ctx ended.
func (s *slot) shedWait(ctx context.Context, d time.Duration) bool {
	s.r.shed.Add(1)
	return sleepUntil(ctx, time.Now().Add(max(d, 10*time.Millisecond)))
}

// open creates a table with the person's seat open and bots in the others,
// and takes that seat. It returns false when the run is over.
func (s *slot) open(ctx context.Context) bool {
	r := s.r
	p := r.plans[s.plan]
	s.plan = (s.plan + 1) % len(r.plans)
	n := r.tables.Add(1)
	for fails := 0; ; {
		if ctx.Err() != nil {
			return false
		}
		s.mu.Lock()
		human := s.rng.IntN(p.players)
		s.mu.Unlock()
		seats := make([]string, p.players)
		k := int(n)
		for i := range seats {
			if i == human {
				seats[i] = "open"
				continue
			}
			seats[i] = r.bots[k%len(r.bots)]
			k++
		}
		body := map[string]any{"game": p.game, "seats": seats}
		if len(p.options) > 0 {
			body["options"] = p.options
		}
		var info struct {
			ID string `json:"id"`
		}
		base := r.urls[s.url]
		created := s.url
		res := r.post(ctx, base, "/api/tables", body, &info)
		switch {
		case ctx.Err() != nil:
			return false
		case res.err == nil && res.status == http.StatusCreated:
		case res.shed:
			if !s.shedWait(ctx, res.retryAfter) {
				return false
			}
			continue
		case res.err == nil && (res.status == http.StatusBadRequest || res.status == http.StatusNotFound || res.status == http.StatusRequestEntityTooLarge):
			r.fail(&fatalError{fmt.Errorf("%s refuses to create a %s table (%d %s): %s", base, p.game, res.status, res.code, res.message)})
			return false
		default:
			r.countErr(res.kind("create"))
			if res.err != nil {
				s.url = (s.url + 1) % len(r.urls)
			}
			fails++
			if !s.backoff(ctx, fails) {
				return false
			}
			continue
		}

		// The seat, through the next server if this table is to be relayed.
		if e := r.cfg.RelayEvery; e > 0 && (s.idx+1)%e == 0 {
			s.url = (s.url + 1) % len(r.urls)
			base = r.urls[s.url]
		}
		var joined struct {
			Table string `json:"table"`
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		}
		for jfails := 0; ; {
			res = r.post(ctx, base, "/api/tables/"+url.PathEscape(info.ID)+"/join",
				map[string]any{"seat": human, "name": "load " + strconv.FormatInt(n, 10)}, &joined)
			if ctx.Err() != nil {
				return false
			}
			if res.err == nil && res.status == http.StatusOK {
				break
			}
			if res.shed {
				if !s.shedWait(ctx, res.retryAfter) {
					return false
				}
				continue
			}
			r.countErr(res.kind("join"))
			jfails++
			if res.err != nil { // no answer: in a cluster any node will do
				s.url = (s.url + 1) % len(r.urls)
				base = r.urls[s.url]
			}
			if (res.err == nil && res.status != http.StatusServiceUnavailable) || jfails > 5 {
				break // this table is no good: another
			}
			if !s.backoff(ctx, jfails) {
				return false
			}
		}
		if joined.Token == "" {
			fails++
			if !s.backoff(ctx, fails) {
				return false
			}
			continue
		}
		s.mu.Lock()
		s.table, s.seat, s.token = info.ID, joined.Seat, joined.Token
		s.seq, s.acked = 0, s.acked[:0]
		s.toAct, s.pending, s.legal = false, false, s.legal[:0]
		s.over = false
		if r.cfg.Games > 0 {
			s.tr = TableReport{ID: info.ID, Created: r.urls[created], Joined: base, Start: time.Now()}
		}
		s.mu.Unlock()
		return true
	}
}

// end says why a connection ended.
type end int

const (
	endDrop     end = iota // the connection dropped: reconnect
	endOver                // the game is over: another table
	endCtx                 // the run is over
	endBadToken            // the table does not know the seat: another table
)

// play plays the table until its game is over, reconnecting after drops.
func (s *slot) play(ctx context.Context) {
	r := s.r
	connected := false
	for fails := 0; ctx.Err() == nil; {
		c, res, err := s.dial(ctx)
		if ctx.Err() != nil {
			if c != nil {
				c.CloseNow()
			}
			return
		}
		if err != nil {
			switch {
			case res.status == http.StatusNotFound:
				r.countErr("table_gone")
				s.loseBeyond(-1)
				return
			case res.shed:
				if !s.shedWait(ctx, res.retryAfter) {
					return
				}
				continue
			}
			r.countErr(res.kind("dial"))
			fails++
			s.url = (s.url + 1) % len(r.urls)
			if !s.backoff(ctx, fails) {
				return
			}
			continue
		}
		if connected {
			r.reconnects.Add(1)
		}
		connected = true
		r.live.Add(1)
		why, kind, gotState := s.read(ctx, c)
		r.live.Add(-1)
		s.mu.Lock()
		s.conn, s.pending, s.toAct = nil, false, false
		s.stopThinkingLocked()
		s.mu.Unlock()
		switch why {
		case endOver:
			c.Close(websocket.StatusNormalClosure, "")
			return
		case endCtx:
			c.CloseNow()
			return
		case endBadToken:
			c.CloseNow()
			r.countErr(kind)
			s.checkTable(ctx)
			return
		}
		c.CloseNow()
		r.countErr(kind)
		if r.cfg.Games > 0 {
			s.mu.Lock()
			s.tr.Drops++
			s.mu.Unlock()
		}
		if gotState {
			fails = 0
		}
		fails++
		s.url = (s.url + 1) % len(r.urls)
		if !s.backoff(ctx, fails) {
			return
		}
	}
}

// dial opens the WebSocket and says hello.
func (s *slot) dial(ctx context.Context) (*websocket.Conn, apiResult, error) {
	s.mu.Lock()
	u := s.r.urls[s.url] + "/ws/tables/" + url.PathEscape(s.table)
	hello, _ := json.Marshal(map[string]any{"v": 1, "type": "hello", "token": s.token})
	s.mu.Unlock()
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(dctx, u, &websocket.DialOptions{HTTPClient: s.r.ws})
	if err != nil {
		res := apiResult{err: err}
		if resp != nil {
			res = apiResult{status: resp.StatusCode}
			res.retryAfter, res.shed = shedding(resp)
		}
		return nil, res, err
	}
	c.SetReadLimit(1 << 20)
	if err := c.Write(dctx, websocket.MessageText, hello); err != nil {
		c.CloseNow()
		return nil, apiResult{err: err}, err
	}
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	return c, apiResult{}, nil
}

// read handles the connection's frames until it ends. The connection is
// closed when ctx ends, rather than each read taking ctx (which would set
// up and tear down a context.AfterFunc a message).
func (s *slot) read(ctx context.Context, c *websocket.Conn) (why end, kind string, gotState bool) {
	stop := context.AfterFunc(ctx, func() { c.CloseNow() })
	defer stop()
	var f frame
	welcomed := false
	helloErr := ""
	for {
		_, rd, err := c.Reader(context.Background())
		buf := bufPool.Get().(*bytes.Buffer)
		buf.Reset()
		if err == nil {
			_, err = buf.ReadFrom(rd)
		}
		if err != nil {
			bufPool.Put(buf)
			switch {
			case ctx.Err() != nil:
				return endCtx, "", gotState
			case helloErr == "bad_token":
				return endBadToken, "hello:" + helloErr, gotState
			case helloErr != "":
				return endDrop, "hello:" + helloErr, gotState
			}
			kind := "ws_drop"
			if code := websocket.CloseStatus(err); code != -1 {
				kind += ":" + strconv.Itoa(int(code))
			}
			return endDrop, kind, gotState
		}
		now := time.Now()
		err = f.parse(buf.Bytes())
		bufPool.Put(buf)
		if err != nil {
			s.r.countErr("bad_frame")
			continue
		}
		switch f.Type {
		case "welcome":
			welcomed = true
			s.mu.Lock()
			if s.r.cfg.Games > 0 && s.tr.Welcomed.IsZero() {
				s.tr.Welcomed = now
			}
			s.mu.Unlock()
		case "error":
			if !welcomed {
				helloErr = f.Code
			} else {
				s.refused(&f)
			}
		case "state":
			gotState = true
			if s.state(&f, now) {
				return endOver, "", gotState
			}
		}
	}
}

// state takes in a state frame received at now; true once the game is over.
func (s *slot) state(f *frame, now time.Time) bool {
	r := s.r
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loseBeyondLocked(f.Seq)
	if d := f.Seq - s.seq; d > 0 {
		r.tickMoves.Add(int64(d))
		if r.measuring.Load() {
			r.moves.Add(int64(d))
		}
	}
	s.seq = f.Seq
	if r.cfg.Games > 0 {
		for len(s.tr.MoveAt) < f.Seq {
			s.tr.MoveAt = append(s.tr.MoveAt, now)
		}
	}
	for _, ev := range f.Events {
		if ev.Kind != "move" || ev.Seat != s.seat || ev.By != "" {
			continue
		}
		if s.pending && ev.N > s.sentSeq && ev.Move == s.pendMove {
			s.pending = false
			r.sample(now.Sub(s.sentAt))
			if r.measuring.Load() {
				r.person.Add(1)
			}
		}
		if n := int32(ev.N); len(s.acked) == 0 || n > s.acked[len(s.acked)-1].n {
			s.acked = append(s.acked, ack{n: n, move: ev.Move})
			if r.cfg.Games > 0 {
				s.tr.AckAt = append(s.tr.AckAt, now)
			}
		}
	}
	if f.Status == "over" {
		if r.measuring.Load() && r.cfg.Games == 0 {
			r.games.Add(1) // in Games mode, once the replay is checked
		}
		s.over = true
		if r.cfg.Games > 0 && s.tr.End.IsZero() {
			s.tr.End = now
		}
		s.toAct = false
		s.stopThinkingLocked()
		return true
	}
	s.toAct = slices.Contains(f.ToAct, s.seat) && len(f.Legal) > 0
	s.legal = append(s.legal[:0], f.Legal...)
	s.decideLocked()
	return false
}

// loseBeyondLocked counts as lost our moves shown before whose numbers are
// beyond the table's move count seq (all of them for seq -1).
func (s *slot) loseBeyondLocked(seq int) {
	i := len(s.acked)
	for i > 0 && int(s.acked[i-1].n) > seq {
		i--
	}
	if lost := len(s.acked) - i; lost > 0 {
		s.r.lost.Add(int64(lost))
		s.acked = s.acked[:i]
	}
}

func (s *slot) loseBeyond(seq int) {
	s.mu.Lock()
	s.loseBeyondLocked(seq)
	s.mu.Unlock()
}

// checkTable looks the table up after the server refused the seat's token:
// our moves beyond its move count (all of them if it is gone) are lost.
func (s *slot) checkTable(ctx context.Context) {
	s.mu.Lock()
	u := s.r.urls[s.url] + "/api/tables/" + url.PathEscape(s.table)
	s.mu.Unlock()
	var info struct {
		Moves int `json:"moves"`
	}
	err := s.r.getJSON(ctx, u, &info)
	var se *statusError
	switch {
	case err == nil:
		s.loseBeyond(info.Moves)
	case ctx.Err() == nil && errors.As(err, &se) && se.status == http.StatusNotFound:
		s.loseBeyond(-1)
	}
}

// refused takes in an error frame answering one of our messages.
func (s *slot) refused(f *frame) {
	s.r.countErr("refused:" + f.Code)
	s.mu.Lock()
	if s.pending && (f.ID == s.pendID || f.ID == "") {
		s.pending = false
		s.r.mu.Lock()
		s.r.answered(time.Since(s.sentAt))
		s.r.mu.Unlock()
		s.decideLocked()
	}
	s.mu.Unlock()
}

// decideLocked starts the person's pause when the seat is to act, and
// stops it when the seat no longer is.
func (s *slot) decideLocked() {
	switch {
	case s.toAct && !s.pending && !s.thinking && s.conn != nil:
		d := time.Duration(0)
		if t := s.r.cfg.Think; t > 0 {
			d = t/2 + time.Duration(s.rng.Int64N(int64(t)+1))
		}
		s.thinking = true
		s.wantAt = time.Now().Add(d)
		if s.timer == nil {
			s.timer = time.AfterFunc(d, s.think)
		} else {
			s.timer.Reset(d)
		}
	case !s.toAct && s.thinking:
		s.stopThinkingLocked()
	}
}

func (s *slot) stopThinkingLocked() {
	if s.thinking {
		s.thinking = false
		s.timer.Stop()
	}
}

// think ends the person's pause: a random legal move.
func (s *slot) think() {
	s.mu.Lock()
	// A timer stopped or reset after it fired may still call: only the
	// pause in force, once it is over, counts.
	if !s.thinking || time.Now().Add(time.Millisecond).Before(s.wantAt) {
		s.mu.Unlock()
		return
	}
	s.thinking = false
	c := s.conn
	if c == nil || !s.toAct || s.pending || len(s.legal) == 0 {
		s.mu.Unlock()
		return
	}
	mv := s.legal[s.rng.IntN(len(s.legal))]
	s.nextID++
	id := "m" + strconv.FormatUint(s.nextID, 10)
	msg := moveMessage(mv, id)
	s.pending, s.pendMove, s.pendID, s.sentSeq = true, mv, id, s.seq
	s.sentAt = time.Now()
	s.mu.Unlock()
	write(c, msg)
}

// writeTimeout is how long a message may take to be written before its
// connection is given up.
const writeTimeout = 10 * time.Second

// write sends msg on c, and closes c (its reader sees the drop) if that
// fails or takes longer than writeTimeout. It takes no context: c is closed
// when its slot's run ends (see read), which ends the write too, and a
// timer costs less than a context (and the AfterFunc the websocket package
// sets on it) a message.
func write(c *websocket.Conn, msg []byte) {
	t := time.AfterFunc(writeTimeout, func() { c.CloseNow() })
	err := c.Write(context.Background(), websocket.MessageText, msg)
	t.Stop()
	if err != nil {
		c.CloseNow()
	}
}

// moveMessage is the move message of mv with id, as json.Marshal writes
// moveMsg{V: 1, Type: "move", Move: mv, ID: id}, without its reflection for
// the usual moves and ids (printable ASCII that needs no escape).
func moveMessage(mv, id string) []byte {
	if !plainJSON(mv) || !plainJSON(id) {
		msg, _ := json.Marshal(moveMsg{V: 1, Type: "move", Move: mv, ID: id})
		return msg
	}
	b := make([]byte, 0, len(`{"v":1,"type":"move","move":"","id":""}`)+len(mv)+len(id))
	b = append(b, `{"v":1,"type":"move","move":"`...)
	b = append(b, mv...)
	b = append(b, `","id":"`...)
	b = append(b, id...)
	return append(b, `"}`...)
}

// plainJSON says whether json.Marshal writes s as it is, between quotes:
// printable ASCII but for the quote, the backslash and the <, > and & it
// escapes for HTML.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// moveMsg is a move message.
type moveMsg struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Move string `json:"move"`
	ID   string `json:"id"`
}

// checkTimeout counts a move unseen for longer than the move timeout, and
// asks for a fresh state to decide again from.
func (s *slot) checkTimeout(now time.Time) {
	s.mu.Lock()
	if !s.pending || now.Sub(s.sentAt) < s.r.cfg.MoveTimeout {
		s.mu.Unlock()
		return
	}
	s.pending = false
	c := s.conn
	s.mu.Unlock()
	s.r.countErr("timeout")
	if c != nil {
		go write(c, []byte(`{"v":1,"type":"sync"}`))
	}
}
