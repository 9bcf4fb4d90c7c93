package tui

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"parlour/card"
	"parlour/game"
	"parlour/internal/tui/client"
)

// JoinConfig is a seat taken at a server's table (client.Sit), to play
// from the terminal.
type JoinConfig struct {
	Invite client.Invite
	Seat   client.Seat
	Conn   *client.Conn
	Colour bool // draw red suits in red
}

// logLine is a line of the live log, by kind: "move", "deal", "over",
// "seat" (someone came or went), "start".
type logLine struct {
	kind, text string
}

// feedOut is what one message of the server changes.
type feedOut struct {
	snap *snapshot // the new snapshot, if any
	// dealEnd is, with the state of a move that ended a deal (not the
	// match), the table as that deal left it, and deal its number.
	dealEnd *snapshot
	deal    int
	// log is the lines to add to the log: those of a log frame of the
	// recent past that this feed had not told yet (after a reconnect,
	// the moves made while it was away).
	log []logLine
	// past, from a log frame of the recent past, is the whole of it: a
	// log shown whole is replaced with it (it is the same past).
	past      []logLine
	isPast    bool // the message was a log of the recent past
	chats     []chatMsg
	resetChat bool // a new connection: the kept chat is sent again
	notice    string
	bad       bool
	welcome   bool
}

// feed follows a table from the server's messages: the snapshot to draw
// and the log and chat lines to show.
type feed struct {
	inv      client.Invite
	viewer   int
	gameName string
	title    string
	players  int
	snap     snapshot
	has      bool // a state has come
	deals    int  // deals whose end the log has told
	told     bool // the log has told the match's end
	started  bool // the log has told the start
	lastN    int  // the last move the log has told
	drawCard func(card.Card) string
}

// name returns seat's short name.
func (f *feed) name(seat int) string {
	if seat >= 0 && seat < len(f.snap.names) && f.snap.names[seat] != "" {
		return f.snap.names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// seats takes who sits where.
func (f *feed) seats(infos []client.SeatInfo) {
	n := max(f.players, len(infos))
	f.snap.names = make([]string, n)
	f.snap.labels = make([]string, n)
	f.snap.states = make([]string, n)
	for _, s := range infos {
		if s.Seat < 0 || s.Seat >= n {
			continue
		}
		name := clean(s.Name)
		if name == "" {
			name = clean(s.Bot)
		}
		if name == "" {
			name = fmt.Sprintf("seat %d", s.Seat)
		}
		label := name
		if s.Kind == "bot" {
			level := s.Level
			if level == "" {
				level = botLevel(s.Bot)
			}
			if level != "" && level != name {
				label = fmt.Sprintf("%s (%s)", name, level)
			}
		}
		f.snap.names[s.Seat], f.snap.labels[s.Seat], f.snap.states[s.Seat] = name, label, s.State
	}
}

// frame reads one server message.
func (f *feed) frame(fr *client.Frame, now time.Time) feedOut {
	var out feedOut
	switch fr.Type {
	case "welcome":
		f.viewer, f.gameName, f.title, f.players = fr.Seat, fr.Game, fr.Title, fr.Players
		f.snap.seat, f.snap.name, f.snap.title, f.snap.players = fr.Seat, fr.Game, fr.Title, fr.Players
		out.resetChat, out.welcome = true, true
	case "state":
		f.seats(fr.Seats)
		view, err := decodeView(f.gameName, fr.View)
		if err != nil {
			out.notice, out.bad = "The server sent a view this client cannot read: "+err.Error(), true
			return out
		}
		r := game.Result{Deal: fr.Result.Deal, DealScores: fr.Result.DealScores, Totals: fr.Result.Totals, Over: fr.Result.Over, Winners: fr.Result.Winners}
		f.snap.view, f.snap.legal, f.snap.toAct, f.snap.result, f.snap.status, f.snap.seq = view, fr.Legal, fr.ToAct, r, fr.Status, fr.Seq
		f.snap.clocks = nil
		for _, c := range fr.Clocks {
			if f.snap.clocks == nil {
				f.snap.clocks = map[int]time.Time{}
			}
			f.snap.clocks[c.Seat] = now.Add(time.Duration(c.RemainingMS) * time.Millisecond)
		}
		first := !f.has
		f.has = true
		moved := false
		for _, e := range fr.Events {
			switch e.Kind {
			case "move":
				moved = true
				f.lastN = max(f.lastN, e.N)
				out.log = append(out.log, logLine{"move", f.moveWords(e)})
			case "start":
				f.started = true
				out.log = append(out.log, logLine{"start", startLine})
			case "deal":
				if e.Deal > f.deals {
					f.deals = e.Deal
					out.log = append(out.log, logLine{"deal", dealLine(f.gameName, e.Deal, e.Scores, f.sayName)})
				}
			case "over":
				if !f.told {
					f.told = true
					out.log = append(out.log, logLine{"over", "The match is over. " + winners(r, f.name, f.viewer)})
				}
			}
		}
		// A server that sends no deal events: the result tells.
		if first || !moved {
			f.deals = max(f.deals, len(r.DealScores))
		}
		for len(r.DealScores) > f.deals {
			f.deals++
			out.log = append(out.log, logLine{"deal", dealLine(f.gameName, f.deals, r.DealScores[f.deals-1], f.sayName)})
		}
		if (r.Over || fr.Status == "over") && !f.told {
			f.told = true
			out.log = append(out.log, logLine{"over", "The match is over. " + winners(r, f.name, f.viewer)})
		}
		snap := f.snap
		out.snap = &snap
		if e := fr.DealEnd; e != nil && !r.Over && fr.Status != "over" {
			out.dealEnd, out.deal = f.dealEndSnap(e, r), e.Deal
		}
	case "log":
		f.past(fr, &out)
	case "seats":
		f.seats(fr.Seats)
		for _, e := range fr.Events {
			if t := f.seatWords(e); t != "" {
				out.log = append(out.log, logLine{"seat", t})
			}
		}
		if f.has {
			snap := f.snap
			out.snap = &snap
		}
	case "chat":
		name := fr.Name
		if name == "" {
			name = f.name(fr.Seat)
		}
		out.chats = append(out.chats, chatMsg{seat: fr.Seat, name: clean(name), text: clean(fr.Text), old: fr.Old})
	case "error":
		out.notice, out.bad = refusal(fr), true
	case "rematch":
		out.notice = "A rematch has started: " + client.Invite{Base: f.inv.Base, Table: fr.Rematch}.Link()
	}
	return out
}

// dealEndSnap is the table as the deal e ended left it, as this seat
// sees it (the server's deal-end view), with its scores; nil if the view
// cannot be read (the next deal shows all the same).
func (f *feed) dealEndSnap(e *client.DealEnd, r game.Result) *snapshot {
	view, err := decodeView(f.gameName, e.View)
	if err != nil || view == nil || e.Deal < 1 {
		return nil
	}
	snap := f.snap
	snap.view = view
	snap.result = game.Result{Deal: e.Deal, DealScores: r.DealScores[:min(e.Deal-1, len(r.DealScores))], Totals: e.Totals}
	snap.result.DealScores = append(slices.Clip(snap.result.DealScores), e.Scores)
	return &snap
}

const startLine = "The game begins."

// past reads a log of the recent past (the table's last moves, sent once
// on connecting): every line of it in out.past, and in out.log those not
// told yet, the moves made after the last one told and what followed
// them.
func (f *feed) past(fr *client.Frame, out *feedOut) {
	out.isPast = true
	out.past = []logLine{}
	fresh := false // the move an event follows was not told yet
	for _, e := range fr.Events {
		var l logLine
		switch e.Kind {
		case "move":
			fresh = e.N > f.lastN
			l = logLine{"move", f.moveWords(e)}
		case "start":
			fresh = !f.started
			f.started = true
			l = logLine{"start", startLine}
		case "deal":
			f.deals = max(f.deals, e.Deal)
			l = logLine{"deal", dealLine(f.gameName, e.Deal, e.Scores, f.sayName)}
		case "over":
			fresh = fresh && !f.told
			f.told = true
			l = logLine{"over", "The match is over. " + winners(f.snap.result, f.name, f.viewer)}
		default:
			continue
		}
		out.past = append(out.past, l)
		if fresh {
			out.log = append(out.log, l)
		}
	}
	f.lastN = max(f.lastN, fr.Seq)
}

// clean makes text from the server safe to print on a terminal: control
// characters (escape sequences among them) go; tabs and line breaks
// become spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
}

// unavailable is what a refusal with the code "unavailable" says: the
// server's store could not commit the move, which was not made.
const unavailable = "The server could not save your move; try again."

// refusal writes an error frame as one line.
func refusal(fr *client.Frame) string {
	if fr.Code == "unavailable" {
		return unavailable
	}
	msg := clean(fr.Message)
	if msg == "" {
		msg = clean(fr.Code)
	}
	if fr.Move != "" {
		return fmt.Sprintf("Refused %q: %s", clean(fr.Move), msg)
	}
	return "Refused: " + msg
}

// sayName is a seat's name in a sentence: "you" for the viewer.
func (f *feed) sayName(seat int) string {
	if seat == f.viewer {
		return "you"
	}
	return f.name(seat)
}

// moveWords writes a move event in words.
func (f *feed) moveWords(e client.Event) string {
	tmpl := clean(e.Text)
	if tmpl == "" {
		tmpl = moveTemplate(e.Seat, e.Move, e.Hidden, false)
	}
	line := words(tmpl, f.viewer, f.name, f.drawCard)
	switch e.By {
	case "standin":
		line += " (a bot stood in)"
	case "clock":
		line += " (the clock ran out)"
	}
	return line
}

// seatWords writes a seats event in words.
func (f *feed) seatWords(e client.Event) string {
	who := capitalise(f.sayName(e.Seat))
	switch e.Kind {
	case "join":
		return fmt.Sprintf("%s sat down at seat %d.", who, e.Seat)
	case "leave":
		return fmt.Sprintf("Seat %d was left.", e.Seat)
	case "away":
		return who + " is away."
	case "back":
		return who + " is here."
	case "standin":
		return "A bot plays for " + f.name(e.Seat) + " while away."
	}
	return ""
}

// remote is the screen's driver for a seat at a server's table.
type remote struct {
	cfg  JoinConfig
	feed *feed
}

// remoteMsg is a message of the connection.
type remoteMsg struct{ client.Message }

// connEndMsg says the connection's messages have ended.
type connEndMsg struct{}

func (r *remote) listen() tea.Cmd {
	conn := r.cfg.Conn
	return func() tea.Msg {
		m, ok := <-conn.Messages()
		if !ok {
			return connEndMsg{}
		}
		return remoteMsg{m}
	}
}

func (r *remote) start(*Model) tea.Cmd { return r.listen() }

func (r *remote) play(m *Model, text string) tea.Cmd {
	conn := r.cfg.Conn
	return func() tea.Msg {
		if err := conn.Move(text); err != nil {
			return noticeMsg{text: "The move was not sent: " + err.Error(), bad: true}
		}
		return nil
	}
}

func (r *remote) say(m *Model, text string) tea.Cmd {
	conn := r.cfg.Conn
	return func() tea.Msg {
		if err := conn.Chat(text); err != nil {
			return noticeMsg{text: "The message was not sent: " + err.Error(), bad: true}
		}
		return nil
	}
}

func (r *remote) canChat() bool { return true }

func (r *remote) update(m *Model, msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case connEndMsg:
		if m.link == "" {
			m.link = "closed"
		}
		return true, nil
	case remoteMsg:
		if s := msg.Status; s != nil {
			switch s.State {
			case client.Connected:
				// Back, but the table shown is still the old one until
				// the state comes.
				if m.link != "" {
					m.link = linkBack
				}
			case client.Reconnecting:
				if m.link == "" {
					// The table shown is the last one known: nobody's turn
					// is told and no move is offered until a state comes.
					s := m.snap
					s.legal, s.toAct, s.clocks = nil, nil, nil
					m.setSnap(s)
				}
				m.link = linkLost
			case client.Closed:
				m.link = "closed"
				if s.Err != nil {
					m.notice, m.bad = closedWhy(s.Err), true
				}
				return true, nil
			}
			return true, r.listen()
		}
		out := r.feed.frame(msg.Frame, m.now())
		if msg.Frame.Type == "state" && out.snap != nil && m.link != "" && m.link != "closed" {
			m.link = ""
			m.notice, m.bad = "Connected again.", false
		}
		if out.resetChat {
			m.chats = nil
		}
		for _, c := range out.chats {
			m.addChat(c)
		}
		if out.notice != "" {
			m.notice, m.bad = out.notice, out.bad
		}
		var lines []string
		for _, l := range out.log {
			lines = append(lines, m.styleLog(l))
		}
		if out.isPast {
			// The recent past, told whole on connecting: the log is that.
			m.log = make([]string, 0, len(out.past))
			for _, l := range out.past {
				m.log = append(m.log, m.styleLog(l))
			}
			return true, tea.Batch(r.listen(), m.clockTick())
		}
		if out.snap != nil {
			m.setSnap(*out.snap, lines...)
		} else {
			m.log = append(m.log, lines...)
		}
		if out.dealEnd != nil {
			// The deal's end shows until a key or a while; the game goes on
			// at the server meanwhile, and the next deal shows after it.
			return true, tea.Batch(r.listen(), m.clockTick(), m.showDealEnd(*out.dealEnd, out.deal))
		}
		return true, tea.Batch(r.listen(), m.clockTick())
	}
	return false, nil
}

// What the header says of a connection that dropped, until the table's
// state comes again.
const (
	linkLost = "connection lost: reconnecting…"
	linkBack = "reconnected: waiting for the table…"
)

// closedWhy says why the connection closed for good.
func closedWhy(err error) string {
	switch {
	case errors.Is(err, client.ErrSeatLeft):
		return "The seat was left: the connection is closed."
	case errors.Is(err, client.ErrBadToken):
		return "The table no longer knows this seat: " + err.Error()
	}
	return "The connection closed: " + err.Error()
}

func (r *remote) leaving() string {
	return "Leave the table? Your seat stays yours: parlour play --join " + r.cfg.Invite.Link() + " takes it back."
}

func (r *remote) footer() string { return "Replay: " + r.cfg.Invite.Replay() }

// styleLog styles a log line by its kind.
func (m *Model) styleLog(l logLine) string {
	switch l.kind {
	case "deal":
		return m.st.bold.Render(l.text)
	case "over":
		return m.st.accent.Render(l.text)
	case "seat", "start":
		return m.st.muted.Render(l.text)
	}
	return l.text
}

// newRemoteModel makes the full-screen table of a seat at a server.
func newRemoteModel(cfg JoinConfig) *Model {
	r := &remote{cfg: cfg, feed: &feed{inv: cfg.Invite, viewer: cfg.Seat.Seat}}
	m := newModel(r, snapshot{seat: cfg.Seat.Seat, title: "Parlour", status: "waiting"})
	r.feed.drawCard = m.drawer(0, true).card
	return m
}

// RunJoined plays a seat at a server's table on the full-screen table;
// in and out must be a terminal. It returns when the person quits (the
// seat stays theirs) or the connection closes for good.
func RunJoined(cfg JoinConfig, in io.Reader, out io.Writer) error {
	m := newRemoteModel(cfg)
	_, err := tea.NewProgram(m, programOptions(cfg.Colour, in, out)...).Run()
	return err
}
