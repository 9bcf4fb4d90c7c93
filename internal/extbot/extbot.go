// Package extbot lets any program play a seat: an external bot speaking the
// Parlour bot protocol, version 1 (shared/spec/bot-protocol.md and
// docs/bots.md): one JSON object per line on the program's standard input
// and output.
//
// An Engine is a named command. It is a bot.Seater: each seat of each match
// gets a process of its own, taken from the engine's idle processes or
// started anew, and given back when the match ends, so one process plays
// many matches one after another. Nothing the program does can stall or
// crash Parlour: every answer has a time limit, lines have a size limit,
// standard error is drained and logged in part, and a process that hangs,
// floods, exits or never starts is killed; its moves are faults, made by
// the random bot and counted, and the next match starts it again.
package extbot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"parlour/bot"
	"parlour/game"
)

// Protocol is the version of the bot protocol spoken here.
const Protocol = 1

// DefaultTimeout is the time a bot has to answer when Config says none.
const DefaultTimeout = 10 * time.Second

// MaxLine is the longest line a bot may write; a longer one is a fault and
// the process is killed.
const MaxLine = 1 << 20

// stderrLines is how many lines of a process's standard error are logged;
// the rest is read and dropped.
const stderrLines = 50

// Config configures an Engine.
type Config struct {
	// Timeout is the time a bot has to answer each message (time_ms);
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// Dir is the directory the command runs in; "" is the current one.
	Dir string
	// Logger receives faults and the bots' standard error; nil discards.
	Logger *slog.Logger
	// StopAfterMatch stops a seat's process when its match ends, instead
	// of keeping it for the next (the server: a table's seat has its own
	// process, stopped when the table ends).
	StopAfterMatch bool
	// MaxProcs limits the engine's running processes; a seat that would
	// need one more is played by the random bot. 0 means no limit.
	MaxProcs int
}

// Engine is an external bot: a command speaking the bot protocol.
type Engine struct {
	name, command string
	cfg           Config
	log           *slog.Logger

	mu       sync.Mutex
	idle     []*proc
	live     map[*proc]bool
	starting int // processes being started, not yet live
	closed   bool
}

var _ bot.Seater = (*Engine)(nil)

// Parse reads an --engine value "NAME=COMMAND". NAME may not be empty, hold
// a comma or white space, or shadow a built-in bot.
func Parse(spec string) (name, command string, err error) {
	name, command, ok := strings.Cut(spec, "=")
	name, command = strings.TrimSpace(name), strings.TrimSpace(command)
	switch {
	case !ok || name == "" || command == "":
		return "", "", fmt.Errorf("--engine %q: write NAME=COMMAND, as in mine=\"python3 bots/mine.py\"", spec)
	case strings.ContainsAny(name, ", \t"):
		return "", "", fmt.Errorf("--engine %q: the name %q may not hold a comma or a space", spec, name)
	}
	if _, builtin := bot.ByName(name); builtin {
		return "", "", fmt.Errorf("--engine %q: %q is a built-in bot; choose another name", spec, name)
	}
	return name, command, nil
}

// New returns the engine name that runs command (with sh -c).
func New(name, command string, cfg Config) *Engine {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Engine{name: name, command: command, cfg: cfg, log: log.With("bot", name), live: map[*proc]bool{}}
}

// Name returns the engine's name.
func (e *Engine) Name() string { return e.name }

// Command returns the command the engine runs.
func (e *Engine) Command() string { return e.command }

// Choose is what the engine does when asked for a move outside a seat
// (Sit): it plays at random. Every caller in Parlour seats it first.
func (e *Engine) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	return bot.Random{}.Choose(s, seat, rng)
}

// Sit seats the program in a match. It does not wait: the seat's process
// is taken (or started) and sent "start" when the seat first acts.
func (e *Engine) Sit(match string, s game.State, opts game.Options, seat int) bot.Seat {
	return &seatPlay{e: e, match: match, seat: seat, events: []event{}, encodes: isEncoder(s),
		start: map[string]any{"type": "start", "protocol": Protocol, "match": match, "game": s.Game().Name(),
			"players": s.Players(), "seat": seat, "options": opts}}
}

// open gives the seat its process: an idle one or a new one, sent start
// and answering ready. An idle process may have exited since its last
// match: then a new one gets a second try.
func (st *seatPlay) open() {
	e := st.e
	for try := 0; try < 2; try++ {
		p, reused, err := e.get()
		if err != nil {
			e.log.Warn("bot fault: cannot start; the random bot plays the seat", "match", st.match, "seat", st.seat, "reason", err.Error())
			return
		}
		var want []string
		if want, err = e.greet(p, st.start); err == nil {
			st.p = p
			st.observe = slices.Contains(want, "observation")
			if st.observe && !st.encodes {
				e.log.Warn("the bot wants observations, which this game does not encode", "match", st.match, "seat", st.seat)
				st.observe = false
			}
			return
		}
		e.kill(p)
		if !reused {
			e.log.Warn("bot fault: the random bot plays the seat", "match", st.match, "seat", st.seat, "reason", "start: "+err.Error())
			return
		}
	}
}

// greet sends start and waits for ready; it returns what the bot wants
// besides the protocol's fields ("want", e.g. ["observation"]).
func (e *Engine) greet(p *proc, start map[string]any) ([]string, error) {
	if err := p.send(start, e.cfg.Timeout); err != nil {
		return nil, err
	}
	line, err := p.receive(e.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	var ready struct {
		Type string   `json:"type"`
		Want []string `json:"want"`
	}
	if json.Unmarshal(line, &ready) != nil || ready.Type != "ready" {
		return nil, fmt.Errorf("answered %s, not {\"type\":\"ready\"}", clip(line))
	}
	return ready.Want, nil
}

// Close asks every process to quit (Parlour then closes its standard
// input) and kills those still running after a moment.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	ps := make([]*proc, 0, len(e.live))
	for p := range e.live {
		ps = append(ps, p)
	}
	e.idle = nil
	e.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.stop(p)
		}()
	}
	wg.Wait()
}

// stop sends quit, closes the process's standard input, and kills it if
// it has not exited two seconds later.
func (e *Engine) stop(p *proc) {
	p.send(map[string]any{"type": "quit"}, time.Second)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
	e.kill(p)
}

// get returns an idle process (reused), or starts one.
func (e *Engine) get() (p *proc, reused bool, err error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, false, errors.New("the engine is closed")
	}
	if n := len(e.idle); n > 0 {
		p := e.idle[n-1]
		e.idle = e.idle[:n-1]
		e.mu.Unlock()
		return p, true, nil
	}
	if e.cfg.MaxProcs > 0 && len(e.live)+e.starting >= e.cfg.MaxProcs {
		e.mu.Unlock()
		return nil, false, fmt.Errorf("%d processes are running, the limit", e.cfg.MaxProcs)
	}
	e.starting++ // counted against the limit while it starts
	e.mu.Unlock()
	p, err = e.start()
	e.mu.Lock()
	e.starting--
	if err == nil {
		e.live[p] = true
	}
	e.mu.Unlock()
	if err != nil {
		return nil, false, err
	}
	return p, false, nil
}

// put gives a process back for the next match.
func (e *Engine) put(p *proc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || !e.live[p] {
		return
	}
	select {
	case <-p.exited:
		delete(e.live, p)
		return
	default:
	}
	e.idle = append(e.idle, p)
}

// kill ends a process and its children.
func (e *Engine) kill(p *proc) {
	e.mu.Lock()
	delete(e.live, p)
	e.mu.Unlock()
	p.kill()
}

// proc is one running bot program.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan []byte   // what it writes, a line at a time
	quit   chan struct{} // closed by kill
	exited chan struct{} // closed when it has exited
	once   sync.Once
	errMu  sync.Mutex
	err    error // why its output ended
}

func (e *Engine) start() (*proc, error) {
	cmd := exec.Command("sh", "-c", e.command)
	cmd.Dir = e.cfg.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // kill takes its children too
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: inW, lines: make(chan []byte, 4), quit: make(chan struct{}), exited: make(chan struct{})}
	pid := cmd.Process.Pid
	go func() {
		if err := cmd.Wait(); err != nil {
			e.log.Info("bot process ended", "pid", pid, "status", err.Error())
		}
		close(p.exited)
	}()
	go p.readLines(outR)
	go e.drain(errR, pid)
	return p, nil
}

// readLines passes on the process's output a line at a time, until it
// ends, writes a line over MaxLine, or the process is killed.
func (p *proc) readLines(r *os.File) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > MaxLine {
				p.setErr(fmt.Errorf("it wrote a line of over %d bytes", MaxLine))
				p.kill()
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF {
					err = errors.New("it closed its output (exited?)")
				}
				p.setErr(err)
				close(p.lines)
				return
			}
			break
		}
		select {
		case p.lines <- bytes.TrimSpace(line):
		case <-p.quit:
			return
		}
	}
}

// drain reads the process's standard error into the log, the first
// stderrLines lines of it (each cut at 4 KiB), and drops the rest.
func (e *Engine) drain(r *os.File, pid int) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 4096)
	for n := 0; n < stderrLines; n++ {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			e.log.Info("bot stderr", "pid", pid, "line", strings.TrimRight(string(line), "\n"))
		}
		for err == bufio.ErrBufferFull { // the rest of a long line
			_, err = br.ReadSlice('\n')
		}
		if err != nil {
			return
		}
	}
	e.log.Info("bot stderr: more is dropped", "pid", pid)
	io.Copy(io.Discard, br)
}

func (p *proc) setErr(err error) {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	if p.err == nil {
		p.err = err
	}
}

func (p *proc) ended() error {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	if p.err == nil {
		return errors.New("its output ended")
	}
	return p.err
}

func (p *proc) kill() {
	p.once.Do(func() {
		close(p.quit)
		if p.cmd.Process != nil {
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
		p.stdin.Close()
	})
}

// send writes one message, within timeout.
func (p *proc) send(msg any, timeout time.Duration) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing to it: %w", err)
	}
	return nil
}

// receive waits for the next line, within timeout, dropping lines that
// came before the question it answers (stale ones were dropped by ask).
func (p *proc) receive(timeout time.Duration) ([]byte, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			return nil, p.ended()
		}
		return line, nil
	case <-p.quit:
		return nil, p.ended()
	case <-t.C:
		return nil, fmt.Errorf("no answer within %v", timeout)
	}
}

// dropStale drops lines written when nothing was asked.
func (p *proc) dropStale() int {
	n := 0
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return n
			}
			n++
		default:
			return n
		}
	}
}

// event is one move as a seat may know it.
type event struct {
	Seq  int    `json:"seq"`
	Seat int    `json:"seat"`
	Move string `json:"move,omitempty"`
}

// seatPlay is one seat of one match played by an engine's process. Moved
// may come from another goroutine than Choose and End (the server's table
// tells moves from its actor while a bot thinks on its own): mu guards the
// events, io the process.
type seatPlay struct {
	e     *Engine
	match string
	seat  int
	start map[string]any

	mu     sync.Mutex
	moves  int
	events []event

	io      sync.Mutex
	p       *proc // nil before the first act, and once it faulted out
	started bool
	observe bool // the bot asked for observations at ready
	encodes bool // the game offers observations (game.Encoder)
	faults  int
}

func (st *seatPlay) Name() string { return st.e.name }

// fault counts a move made by the stand-in, and logs why.
func (st *seatPlay) fault(reason string) {
	st.faults++
	st.e.log.Warn("bot fault: the random bot moves instead", "match", st.match, "seat", st.seat, "reason", reason)
}

// Faults returns the seat's faults so far.
func (st *seatPlay) Faults() int {
	st.io.Lock()
	defer st.io.Unlock()
	return st.faults
}

// Choose asks the program for the seat's move; a fault gives the random
// bot's move instead.
func (st *seatPlay) Choose(s game.State, seat int, rng *rand.Rand) game.Move {
	legal := s.Legal(seat, nil)
	texts := make(map[string]game.Move, len(legal))
	for _, m := range legal {
		texts[s.FormatMove(m)] = m
	}
	stand := func(reason string) game.Move {
		st.fault(reason)
		return legal[rng.IntN(len(legal))]
	}
	st.io.Lock()
	defer st.io.Unlock()
	if !st.started {
		st.started = true
		st.open()
	}
	if st.p == nil {
		// Out of the match since its fault, which the log has told: the
		// stand-in plays on, and the next match starts it again.
		st.faults++
		return legal[rng.IntN(len(legal))]
	}
	if n := st.p.dropStale(); n > 0 {
		st.e.log.Warn("bot wrote lines nobody asked for; dropped", "match", st.match, "seat", seat, "lines", n)
	}
	st.mu.Lock()
	events, seq := st.events, st.moves+1
	st.events = []event{}
	st.mu.Unlock()
	act := map[string]any{"type": "act", "match": st.match, "seq": seq, "view": s.View(seat),
		"legal": game.LegalText(s, seat), "events": events, "time_ms": st.e.cfg.Timeout.Milliseconds()}
	if st.observe {
		observation(act, s, seat)
	}
	if err := st.p.send(act, st.e.cfg.Timeout); err != nil {
		st.e.kill(st.p)
		st.p = nil
		return stand(err.Error())
	}
	line, err := st.p.receive(st.e.cfg.Timeout)
	if err != nil {
		st.e.kill(st.p)
		st.p = nil
		return stand(err.Error())
	}
	var ans struct {
		Type string `json:"type"`
		Move string `json:"move"`
	}
	if err := json.Unmarshal(line, &ans); err != nil || ans.Type != "move" {
		return stand(fmt.Sprintf("answered %s, not {\"type\":\"move\",\"move\":...}", clip(line)))
	}
	m, ok := texts[ans.Move]
	if !ok {
		return stand(fmt.Sprintf("answered move %q, which is not among the legal moves %q", clip([]byte(ans.Move)), game.LegalText(s, seat)))
	}
	return m
}

// isEncoder reports whether s offers observations.
func isEncoder(s game.State) bool {
	_, ok := s.(game.Encoder)
	return ok
}

// observation adds to an act what a bot that wants observations gets:
// the seat's observation vector, the action index of each legal move (in
// the order of "legal"), and the size of the action space.
func observation(act map[string]any, s game.State, seat int) {
	enc := s.(game.Encoder)
	e := enc.Encoding()
	obs := make([]float32, e.Size)
	enc.Observe(seat, obs)
	legal := s.Legal(seat, nil)
	slices.SortFunc(legal, func(a, b game.Move) int { return strings.Compare(s.FormatMove(a), s.FormatMove(b)) })
	act["observation"] = obs
	act["legal_ids"] = game.LegalIDs(s, seat, legal, make([]int, 0, len(legal)))
	act["actions"] = e.Actions
}

// Moved records a move as this seat may know it.
func (st *seatPlay) Moved(s game.State, mover int, m game.Move, simultaneous bool) {
	var ev event
	ev.Seat = mover
	text := s.FormatMove(m)
	cards := game.CardWords(text)
	if mover == st.seat || game.MayReadMove(st.seat, mover, simultaneous, cards, game.Visible(nil, s)) {
		ev.Move = text
	}
	st.mu.Lock()
	st.moves++
	ev.Seq = st.moves
	st.events = append(st.events, ev)
	st.mu.Unlock()
}

// End tells the program the match is over and gives its process back (or
// stops it, with Config.StopAfterMatch).
func (st *seatPlay) End(s game.State) {
	st.io.Lock()
	defer st.io.Unlock()
	if st.p == nil {
		return
	}
	r := s.Result()
	end := map[string]any{"type": "end", "match": st.match,
		"result": map[string]any{"deal_scores": nonNil(r.DealScores), "totals": r.Totals, "winners": nonNilInts(r.Winners)}}
	if err := st.p.send(end, st.e.cfg.Timeout); err != nil {
		st.e.kill(st.p)
		st.p = nil
		return
	}
	if st.e.cfg.StopAfterMatch {
		st.e.stop(st.p)
	} else {
		st.e.put(st.p)
	}
	st.p = nil
}

func nonNil(x [][]int) [][]int {
	if x == nil {
		return [][]int{}
	}
	return x
}

func nonNilInts(x []int) []int {
	if x == nil {
		return []int{}
	}
	return x
}

// clip shortens what a bot wrote for the log.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return fmt.Sprintf("%q... (%d bytes)", b[:n], len(b))
	}
	return fmt.Sprintf("%q", b)
}
