package tui

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parlour/bot"
	"parlour/game"
)

// botNames are the friendly names of the bots at a table here, seat by
// seat after the person's.
var botNames = []string{"Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"}

// botLevel is how a bot's level reads beside its name: "Ada (casual)".
func botLevel(name string) string {
	switch name {
	case "random":
		return "beginner"
	case "heuristic":
		return "casual"
	}
	return name
}

// DefaultBotDelay is how long a bot at the full-screen table waits before
// its move shows, so that each move can be seen.
const DefaultBotDelay = 700 * time.Millisecond

// local runs a match here: the person's seat and bots at the others.
type local struct {
	cfg    Config
	s      game.State
	rng    *rand.Rand
	bots   *bot.Table
	names  []string // short names by seat
	labels []string // names with the bots' levels
	deals  int      // deals ended so far
	moves  int      // moves made so far
	delay  time.Duration
	busy   bool // a bot is choosing

	// ended is the person's view of the last position of the deal the
	// last move ended, and the result then (the deal watcher's), or nil.
	ended       any
	endedResult game.Result
}

// botMsg is a bot's chosen move.
type botMsg struct {
	seat int
	move game.Move
}

// newLocal starts the match of cfg.
func newLocal(cfg Config) (*local, error) {
	s, err := cfg.Game.New(cfg.Options, cfg.Seed, nil)
	if err != nil {
		return nil, err
	}
	l := &local{cfg: cfg, s: s, rng: rand.New(rand.NewPCG(cfg.Seed, 0xb07)), delay: cfg.BotDelay}
	k := 0
	for i := 0; i < s.Players(); i++ {
		if i == cfg.Seat {
			name := cfg.Name
			if name == "" {
				name = "You"
			}
			l.names = append(l.names, name)
			l.labels = append(l.labels, name)
			continue
		}
		short := botNames[k%len(botNames)]
		l.names = append(l.names, short)
		l.labels = append(l.labels, fmt.Sprintf("%s (%s)", short, botLevel(cfg.Bots[i].Name())))
		k++
	}
	l.bots = bot.Sit("m1", s, cfg.Options, cfg.Bots)
	// The end of each deal is seen as it was, before the next is dealt.
	s.WatchDeals(func(st game.State) {
		l.ended, l.endedResult = game.DealEndView(st, cfg.Seat), st.Result()
	})
	return l, nil
}

// snapshot is the person's view of the match now.
func (l *local) snapshot() snapshot {
	s := l.s
	snap := snapshot{
		name: l.cfg.Game.Name(), title: l.cfg.Game.Title(), seat: l.cfg.Seat, players: s.Players(),
		view: s.View(l.cfg.Seat), toAct: s.ToAct().List(), result: s.Result(), status: "playing",
		names: l.names, labels: l.labels, states: make([]string, s.Players()),
	}
	snap.seq = l.moves
	if snap.result.Over {
		snap.status = "over"
	}
	// The person acts once the bots have (their choices stay hidden).
	if botToAct(s.ToAct(), l.cfg.Seat) < 0 && s.ToAct().Has(l.cfg.Seat) {
		snap.legal = game.LegalText(s, l.cfg.Seat)
	}
	return snap
}

func (l *local) start(m *Model) tea.Cmd {
	m.log = append(m.log, fmt.Sprintf("%s: you are seat %d against %s (seed %d).", l.cfg.Game.Title(), l.cfg.Seat, plural(l.s.Players()-1, "bot"), l.cfg.Seed))
	return l.next()
}

// next lets the next bot choose, if a bot is to act: after the delay when
// its move will show, at once for a hidden simultaneous choice.
func (l *local) next() tea.Cmd {
	acts := l.s.ToAct()
	seat := botToAct(acts, l.cfg.Seat)
	if seat < 0 {
		return nil
	}
	l.busy = true
	st, b, rng := l.s.Clone(), l.bots.Bots[seat], l.rng
	delay := l.delay
	if acts.Len() > 1 {
		delay = 0
	}
	return func() tea.Msg {
		start := time.Now()
		mv := b.Choose(st, seat, rng)
		if rest := delay - time.Since(start); rest > 0 {
			time.Sleep(rest)
		}
		return botMsg{seat: seat, move: mv}
	}
}

// apply makes a move and tells the screen what happened; a move that ends
// a deal (not the match) shows the deal's end until a key or a while,
// which the command returned times.
func (l *local) apply(m *Model, seat int, mv game.Move) (tea.Cmd, error) {
	acts := l.s.ToAct()
	simultaneous := acts.Len() > 1
	n := narrate(l.s, seat, mv, simultaneous)
	text := l.s.FormatMove(mv)
	l.ended = nil
	if err := game.Apply(l.s, seat, mv); err != nil {
		return nil, err
	}
	l.moves++
	l.bots.Moved(l.s, seat, mv, simultaneous)
	person := l.cfg.Seat
	tmpl := n.blind
	if seat == person || game.MayReadMove(person, seat, simultaneous, game.CardWords(text), game.Visible(nil, l.s)) {
		tmpl = n.full
	}
	d := m.drawer(0, true)
	name := func(i int) string {
		if i >= 0 && i < len(l.names) {
			return l.names[i]
		}
		return fmt.Sprintf("seat %d", i)
	}
	log := []string{words(tmpl, person, name, d.card)}
	r := l.s.Result()
	for len(r.DealScores) > l.deals {
		l.deals++
		log = append(log, m.st.bold.Render(dealLine(l.cfg.Game.Name(), l.deals, r.DealScores[l.deals-1], func(i int) string {
			if i == person {
				return "you"
			}
			return name(i)
		})))
	}
	if r.Over {
		log = append(log, m.st.accent.Render("The match is over. "+winners(r, name, person)))
	}
	snap := l.snapshot()
	m.setSnap(snap, log...)
	if l.ended != nil && !r.Over {
		deal := len(l.endedResult.DealScores)
		snap.view, snap.result = l.ended, l.endedResult
		return m.showDealEnd(snap, deal), nil
	}
	return nil, nil
}

func (l *local) play(m *Model, text string) tea.Cmd {
	if l.busy {
		m.notice, m.bad = "Wait for the bots.", true
		return nil
	}
	mv, err := l.s.ParseMove(l.cfg.Seat, text)
	var shown tea.Cmd
	if err == nil {
		shown, err = l.apply(m, l.cfg.Seat, mv)
	}
	if err != nil {
		m.notice, m.bad = "Not allowed: "+err.Error(), true
		return nil
	}
	return tea.Batch(shown, l.next())
}

func (l *local) say(*Model, string) tea.Cmd { return nil }
func (l *local) canChat() bool              { return false }

func (l *local) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	b, ok := msg.(botMsg)
	if !ok {
		return false, nil
	}
	l.busy = false
	shown, err := l.apply(m, b.seat, b.move)
	if err != nil {
		m.notice, m.bad = fmt.Sprintf("%s chose a move that is not allowed: %v", l.names[b.seat], err), true
		return true, nil
	}
	return true, tea.Batch(shown, l.next())
}

func (l *local) leaving() string { return "Leave the game? The match is lost." }

func (l *local) footer() string {
	cmd := l.cfg.Replay
	if cmd == "" {
		cmd = fmt.Sprintf("parlour play %s --seed %d", l.cfg.Game.Name(), l.cfg.Seed)
	}
	return cmd + " replays this match."
}

// newLocalModel makes the full-screen table of a match here.
func newLocalModel(cfg Config) (*Model, *local, error) {
	if cfg.BotDelay < 0 {
		cfg.BotDelay = 0
	}
	l, err := newLocal(cfg)
	if err != nil {
		return nil, nil, err
	}
	m := newModel(l, l.snapshot())
	return m, l, nil
}

// Run plays the match of cfg on the full-screen table: the terminal in
// and out must be a terminal. It returns when the person quits.
func Run(cfg Config, in io.Reader, out io.Writer) error {
	m, l, err := newLocalModel(cfg)
	if err != nil {
		return err
	}
	defer l.bots.End(l.s)
	_, err = tea.NewProgram(m, programOptions(cfg.Colour, in, out)...).Run()
	return err
}

// programOptions are the options of a full-screen program.
func programOptions(colour bool, in io.Reader, out io.Writer) []tea.ProgramOption {
	opts := []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out)}
	if !colour {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return opts
}
