package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/card"
	"parlour/game"
	"parlour/games"
)

// snapshot is one seat's view of the table, as the screen draws it: the
// same whether the game runs here (against bots) or at a server.
type snapshot struct {
	name    string // the game's id
	title   string
	seat    int // the viewer's seat
	players int
	view    any
	legal   []string
	toAct   []int
	result  game.Result
	status  string   // waiting, playing, over
	names   []string // by seat: a short name for sentences ("Ada")
	labels  []string // by seat: the name with the bot's level ("Ada (casual)")
	states  []string
	clocks  map[int]time.Time // when each running turn clock runs out
	seq     int
}

// Messages of the screen's life.
type (
	// snapMsg brings a new snapshot and the log lines that led to it.
	snapMsg struct {
		snap snapshot
		log  []string
	}
	// noticeMsg is a one-line message for the status line.
	noticeMsg struct {
		text string
		bad  bool
	}
	// chatMsg is a line of the table chat.
	chatMsg struct {
		seat       int
		name, text string
		old        bool
	}
	// tickMsg redraws the turn clocks.
	tickMsg struct{}
)

// driver runs the table behind the screen: a game here with bots, or a
// seat at a server.
type driver interface {
	// start returns the first command (the first snapshot is set already).
	start(m *Model) tea.Cmd
	// play sends the viewer's move in notation.
	play(m *Model, move string) tea.Cmd
	// say sends a chat message; canChat reports whether there is a chat.
	say(m *Model, text string) tea.Cmd
	canChat() bool
	// update handles the driver's own messages.
	update(m *Model, msg tea.Msg) (handled bool, cmd tea.Cmd)
	// leaving says what quitting mid-game means, for the confirmation.
	leaving() string
	// footer is the end-of-match line (a replay link), or "".
	footer() string
}

type focus int

const (
	focusTable focus = iota
	focusMove
	focusChat
)

// Model is the full-screen table: the board drawn from the viewer's view,
// the legal moves to choose among (arrow keys, or typed), the live log and
// the chat. It implements tea.Model.
type Model struct {
	drv     driver
	snap    snapshot
	st      styles
	w, h    int
	focus   focus
	moveIn  textinput.Model
	chatIn  textinput.Model
	cursor  int         // the chosen move among choices(), or card in a pick
	picks   []card.Card // cards picked for a move of several cards
	tabBase string      // the typed text Tab completes from ("" none)
	log     []string
	chats   []string
	help    bool
	confirm bool
	notice  string
	bad     bool
	link    string // the connection's state, when not connected
	done    bool   // quitting
	final   bool   // the match is over and the final table is shown, not the scores
	now     func() time.Time

	dealEnd     *dealEnd      // the end of a deal shown until a key (dealend.go)
	dealEnds    int           // deal ends shown so far
	dealEndWait time.Duration // how long a deal's end shows without a key; 0: until one

	an *analysisState // the game's analysis, once asked for (analysis.go)
}

// newModel makes the screen for a driver whose first snapshot is snap.
func newModel(drv driver, snap snapshot) *Model {
	m := &Model{drv: drv, snap: snap, st: newStyles(), w: 100, h: 32, now: time.Now, dealEndWait: dealEndFor}
	m.moveIn = newInput("move> ", "a move, as listed (Tab completes)")
	m.chatIn = newInput("say> ", "a message to the table")
	m.chatIn.CharLimit = 500
	return m
}

func newInput(prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	s := in.Styles()
	s.Cursor.Blink = false
	in.SetStyles(s)
	in.CharLimit = 256
	return in
}

// Init starts the table.
func (m *Model) Init() tea.Cmd { return m.drv.start(m) }

// Update handles a key, a resize, or news from the table.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.moveIn.SetWidth(max(10, m.w-12))
		m.chatIn.SetWidth(max(10, m.w-12))
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		return m, m.toInput(msg)
	case snapMsg:
		m.setSnap(msg.snap, msg.log...)
		return m, m.clockTick()
	case noticeMsg:
		m.notice, m.bad = msg.text, msg.bad
		return m, nil
	case chatMsg:
		m.addChat(msg)
		return m, nil
	case tickMsg:
		return m, m.clockTick()
	case dealEndDone:
		if m.dealEnd != nil && m.dealEnd.id == msg.id {
			m.dealEnd = nil
		}
		return m, nil
	case analysisMsg:
		return m, m.analysisUpdate(msg)
	}
	if ok, cmd := m.drv.update(m, msg); ok {
		return m, cmd
	}
	return m, nil
}

// setSnap takes a new snapshot and appends log lines.
func (m *Model) setSnap(s snapshot, log ...string) {
	changed := s.seq != m.snap.seq || !slices.Equal(s.legal, m.snap.legal)
	m.snap = s
	m.log = append(m.log, log...)
	if len(m.log) > 500 {
		m.log = slices.Clone(m.log[len(m.log)-400:])
	}
	if changed {
		m.cursor, m.picks = 0, nil
		m.moveIn.SetSuggestions(s.legal)
		if len(s.legal) > 0 && m.bad {
			m.notice, m.bad = "", false
		}
	}
	if m.cursor >= len(m.choices()) {
		m.cursor = 0
	}
}

func (m *Model) addChat(c chatMsg) {
	line := m.st.bold.Render(c.name+":") + " " + c.text
	if c.seat == m.snap.seat {
		line = m.st.accent.Render("You:") + " " + c.text
	}
	m.chats = append(m.chats, line)
	if len(m.chats) > 200 {
		m.chats = slices.Clone(m.chats[100:])
	}
}

// clockTick redraws every second while a turn clock runs.
func (m *Model) clockTick() tea.Cmd {
	if len(m.snap.clocks) == 0 || m.done {
		return nil
	}
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// over reports whether the match has ended.
func (m *Model) over() bool { return m.snap.status == "over" || m.snap.result.Over }

// key handles a key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if m.confirm {
		switch s {
		case "y", "Y", "enter", "ctrl+c", "q":
			m.done = true
			return tea.Quit
		default:
			m.confirm = false
		}
		return nil
	}
	if s == "ctrl+c" {
		return m.quit()
	}
	if m.dealEnd != nil && !m.help && m.focus == focusTable {
		m.dealEnd = nil // any key goes on
		return nil
	}
	if m.help {
		switch s {
		case "q":
			return m.quit()
		default:
			m.help = false
		}
		return nil
	}
	switch m.focus {
	case focusMove:
		return m.moveKey(k)
	case focusChat:
		return m.chatKey(k)
	}
	if m.an != nil && m.an.shown && m.over() {
		if cmd, ok := m.analysisKey(s); ok {
			return cmd
		}
	}
	switch s {
	case "?":
		m.help = true
	case "t":
		if m.over() {
			m.final = !m.final
		}
	case "a":
		if m.over() {
			return m.analyse()
		}
	case "q", "esc":
		if s == "esc" && m.picks != nil {
			m.picks = nil
			return nil
		}
		return m.quit()
	case "left", "h", "up", "k", "shift+tab":
		m.step(-1)
	case "right", "l", "down", "j":
		m.step(1)
	case "home":
		m.cursor = 0
	case "end":
		m.cursor = max(0, m.choiceCount()-1)
	case "space":
		m.pick()
	case "enter":
		return m.playChosen()
	case ":", "/", "m", "tab":
		if s == "tab" && m.drv.canChat() {
			m.focus = focusChat
			return m.chatIn.Focus()
		}
		m.focus = focusMove
		m.moveIn.Reset()
		m.tabBase = ""
		return m.moveIn.Focus()
	case "c":
		if m.drv.canChat() {
			m.focus = focusChat
			return m.chatIn.Focus()
		}
		m.notice, m.bad = "There is no chat at a table of bots.", false
	default:
		if n := k.Text; len(n) == 1 && n[0] >= '1' && n[0] <= '9' {
			if i := int(n[0] - '1'); i < m.choiceCount() && m.pickVerb() == "" {
				m.cursor = i
			}
		}
	}
	return nil
}

// quit leaves at once once the match is over, and asks first before.
func (m *Model) quit() tea.Cmd {
	if m.over() || m.link == "closed" {
		m.done = true
		return tea.Quit
	}
	m.confirm = true
	return nil
}

func (m *Model) moveKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		m.focus = focusTable
		m.moveIn.Blur()
		return nil
	case "enter":
		text := strings.TrimSpace(m.moveIn.Value())
		cs := m.choices()
		if text == "" || !slices.Contains(m.snap.legal, text) {
			if len(cs) == 0 {
				if text != "" {
					return m.send(text) // the table gives the reason
				}
				return nil
			}
			if text != "" && len(cs) > 1 && !strings.HasPrefix(cs[m.cursor], text) {
				return m.send(text)
			}
			text = cs[min(m.cursor, len(cs)-1)]
		}
		m.moveIn.Reset()
		m.tabBase = ""
		m.focus = focusTable
		m.moveIn.Blur()
		return m.send(text)
	case "tab":
		m.complete()
		return nil
	case "up", "shift+tab":
		m.step(-1)
		return nil
	case "down":
		m.step(1)
		return nil
	}
	var cmd tea.Cmd
	m.moveIn, cmd = m.moveIn.Update(k)
	m.cursor, m.tabBase = 0, ""
	return cmd
}

// complete extends the typed move to the longest text the matching legal
// moves share, or, when it is that already, to the next match in turn.
func (m *Model) complete() {
	v := m.moveIn.Value()
	if m.tabBase == "" {
		m.tabBase = v
	}
	cs := m.choices()
	if len(cs) == 0 {
		return
	}
	common := cs[0]
	for _, c := range cs[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	next := common
	if len(common) <= len(v) || !strings.HasPrefix(common, v) {
		next = cs[0]
		if i := slices.Index(cs, v); i >= 0 {
			next = cs[(i+1)%len(cs)]
		}
	}
	m.moveIn.SetValue(next)
	m.moveIn.CursorEnd()
	m.cursor = max(0, slices.Index(cs, next))
}

func (m *Model) chatKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "esc", "tab":
		m.focus = focusTable
		m.chatIn.Blur()
		return nil
	case "enter":
		text := strings.TrimSpace(m.chatIn.Value())
		if text == "" {
			return nil
		}
		if n := len([]rune(text)); n > 500 {
			m.notice, m.bad = fmt.Sprintf("A chat message is at most 500 characters (this one has %d).", n), true
			return nil
		}
		m.chatIn.Reset()
		return m.drv.say(m, text)
	}
	var cmd tea.Cmd
	m.chatIn, cmd = m.chatIn.Update(k)
	return cmd
}

// toInput pastes into the focused input.
func (m *Model) toInput(p tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	switch m.focus {
	case focusMove:
		m.moveIn, cmd = m.moveIn.Update(p)
	case focusChat:
		m.chatIn, cmd = m.chatIn.Update(p)
	}
	return cmd
}

// notSent is the notice for a move that cannot go while the connection
// is down.
const notSent = "Not connected: the move was not sent."

// send plays a move.
func (m *Model) send(text string) tea.Cmd {
	if m.link != "" {
		m.notice, m.bad = notSent, true
		return nil
	}
	if len(m.snap.legal) == 0 {
		m.notice, m.bad = "It is not your turn.", true
		return nil
	}
	m.notice, m.bad = "", false
	return m.drv.play(m, text)
}

// choices are the legal moves on offer, in the order the arrow keys go
// through them: moves naming cards of the hand in the hand's order, then
// the others; while a move is being typed, those that match it.
func (m *Model) choices() []string {
	legal := orderMoves(m.snap.legal, handOf(m.snap.name, m.snap.view))
	if m.focus != focusMove {
		return legal
	}
	v := m.moveIn.Value()
	if m.tabBase != "" {
		v = m.tabBase
	}
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return legal
	}
	var out []string
	for _, l := range legal {
		if strings.HasPrefix(strings.ToLower(l), v) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		for _, l := range legal {
			if strings.Contains(strings.ToLower(l), v) {
				out = append(out, l)
			}
		}
	}
	return out
}

func (m *Model) choiceCount() int {
	if m.pickVerb() != "" {
		return len(m.pickPool())
	}
	return len(m.choices())
}

// step moves the cursor among the choices (or the cards to pick from).
func (m *Model) step(d int) {
	n := m.choiceCount()
	if n == 0 {
		return
	}
	m.cursor = ((m.cursor+d)%n + n) % n
}

// pickVerb is the verb of the legal moves when they all name several cards
// (Parcellus's pass, Damn's keep): then cards are picked one by one with
// space, and Enter plays the move they make.
func (m *Model) pickVerb() string {
	verb := ""
	for _, l := range m.snap.legal {
		f := strings.Fields(l)
		if len(f) < 3 || len(game.CardWords(l)) != len(f)-1 {
			return ""
		}
		if verb != "" && f[0] != verb {
			return ""
		}
		verb = f[0]
	}
	return verb
}

// pickPool is the cards a pick chooses among, in the hand's order.
func (m *Model) pickPool() []card.Card {
	seen := map[card.Card]bool{}
	for _, l := range m.snap.legal {
		for _, c := range game.CardWords(l) {
			seen[c] = true
		}
	}
	var out []card.Card
	for _, c := range handOf(m.snap.name, m.snap.view) {
		if seen[c] {
			out = append(out, c)
			delete(seen, c)
		}
	}
	var rest []card.Card
	for c := range seen {
		rest = append(rest, c)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// pickSize is how many cards the move being picked names.
func (m *Model) pickSize() int {
	if len(m.snap.legal) == 0 {
		return 0
	}
	return len(game.CardWords(m.snap.legal[0]))
}

// pick picks or unpicks the card under the cursor.
func (m *Model) pick() {
	if m.pickVerb() == "" {
		return
	}
	pool := m.pickPool()
	if m.cursor >= len(pool) {
		return
	}
	c := pool[m.cursor]
	if i := slices.Index(m.picks, c); i >= 0 {
		m.picks = slices.Delete(m.picks, i, i+1)
		return
	}
	if len(m.picks) >= m.pickSize() {
		m.notice, m.bad = fmt.Sprintf("%d cards are picked already: unpick one first (space).", len(m.picks)), true
		return
	}
	m.picks = append(m.picks, c)
}

// pickedMove is the legal move the picked cards make, or "".
func (m *Model) pickedMove() string {
	want := slices.Clone(m.picks)
	slices.Sort(want)
	for _, l := range m.snap.legal {
		got := game.CardWords(l)
		slices.Sort(got)
		if slices.Equal(got, want) {
			return l
		}
	}
	return ""
}

// playChosen plays the move under the cursor, or the picked one.
func (m *Model) playChosen() tea.Cmd {
	if m.link != "" && !m.over() {
		m.notice, m.bad = notSent, true
		return nil
	}
	if len(m.snap.legal) == 0 {
		if !m.over() {
			m.notice, m.bad = "It is not your turn.", true
		}
		return nil
	}
	if verb := m.pickVerb(); verb != "" {
		mv := m.pickedMove()
		if mv == "" {
			k := m.pickSize()
			if len(m.picks) == k {
				m.notice, m.bad = "Those cards do not make a move: pick others.", true
			} else {
				m.notice, m.bad = fmt.Sprintf("Pick %d cards to %s with space (%d picked), then Enter.", k, verb, len(m.picks)), true
			}
			return nil
		}
		return m.send(mv)
	}
	cs := m.choices()
	if m.cursor >= len(cs) {
		return nil
	}
	return m.send(cs[m.cursor])
}

// selectedMove is the move the cursor is on ("" in a pick).
func (m *Model) selectedMove() string {
	if m.pickVerb() != "" {
		return ""
	}
	cs := m.choices()
	if m.cursor < len(cs) {
		return cs[m.cursor]
	}
	return ""
}

// handOf returns the viewer's hand in a view of game name, if it has one.
func handOf(name string, view any) []card.Card {
	if r, ok := renderers[name]; ok && r.hand != nil {
		return r.hand(view)
	}
	return nil
}

// orderMoves orders legal moves as the arrow keys go through them: those
// whose first card is in hand, in the hand's order, first.
func orderMoves(legal []string, hand []card.Card) []string {
	if len(hand) == 0 {
		return legal
	}
	pos := map[card.Card]int{}
	for i, c := range hand {
		pos[c] = i
	}
	rank := func(l string) int {
		cs := game.CardWords(l)
		if len(cs) > 0 {
			if p, ok := pos[cs[0]]; ok {
				return p
			}
		}
		return len(hand)
	}
	out := slices.Clone(legal)
	slices.SortStableFunc(out, func(a, b string) int { return rank(a) - rank(b) })
	return out
}

// The screen's sizes: below the minimum it asks for a bigger terminal; a
// terminal this wide has the log beside the table instead of under it.
const (
	minWidth  = 50
	minHeight = 16
	wideWidth = 100
)

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = m.title()
	return v
}

// title is the terminal's title: it says when it is the viewer's turn.
func (m *Model) title() string {
	if len(m.snap.legal) > 0 {
		return "▶ Your turn · " + m.snap.title + " · Parlour"
	}
	return m.snap.title + " · Parlour"
}

// render draws the whole screen as text.
func (m *Model) render() string {
	if m.w < minWidth || m.h < minHeight {
		msg := fmt.Sprintf("The terminal is too small (%d×%d):\nmake it at least %d×%d.\n\nq quits.", m.w, m.h, minWidth, minHeight)
		return lipgloss.Place(max(m.w, 1), max(m.h, 1), lipgloss.Center, lipgloss.Center, msg)
	}
	header := m.header()
	bottom := m.bottom()
	wide := m.w >= wideWidth
	boardW := m.w
	sideW := 0
	if wide {
		sideW = min(48, m.w/3)
		boardW = m.w - sideW - 1
	}
	avail := m.h - lipgloss.Height(header) - lipgloss.Height(bottom)
	var under string
	if !wide {
		under = m.logPanel(m.w, min(6, max(2, avail/4)))
		avail -= lipgloss.Height(under)
	}
	var main string
	switch {
	case m.help:
		main = m.helpText(boardW)
	case m.over() && m.an != nil && m.an.shown:
		main = m.analysisView(boardW, avail)
	case m.dealEnd != nil:
		main = centreSections(m.dealEndView(boardW, avail), boardW)
	case m.over() && !m.final:
		main = m.summary(boardW, avail)
	default:
		main = centreSections(m.board(boardW, avail), boardW)
	}
	main = clip(main, boardW, avail)
	main = lipgloss.PlaceVertical(avail, lipgloss.Top, main)
	if wide {
		side := m.sidePanel(sideW, avail)
		bar := strings.TrimSuffix(strings.Repeat(m.st.muted.Render("│")+"\n", avail), "\n")
		main = lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.PlaceHorizontal(boardW, lipgloss.Left, main), bar, side)
	}
	parts := []string{header, main}
	if under != "" {
		parts = append(parts, under)
	}
	parts = append(parts, bottom)
	return clip(strings.Join(parts, "\n"), m.w, m.h)
}

// clip cuts text to w columns and h lines.
func clip(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

func (m *Model) header() string {
	left := m.st.title.Render(" " + m.snap.title)
	var info []string
	switch name := m.nameOf(m.snap.seat); {
	case m.snap.seat >= 0 && name == "You":
		info = append(info, fmt.Sprintf("you are at seat %d", m.snap.seat))
	case m.snap.seat >= 0:
		info = append(info, fmt.Sprintf("you are %s (seat %d)", name, m.snap.seat))
	default:
		info = append(info, "watching")
	}
	switch {
	case m.link != "":
		info = append(info, m.st.bad.Render(m.link))
	case m.snap.status == "waiting":
		info = append(info, m.st.muted.Render("waiting for players"))
	}
	right := m.st.muted.Render("? help  q quit ")
	mid := " · " + strings.Join(info, " · ")
	gap := m.w - lipgloss.Width(left) - lipgloss.Width(mid) - lipgloss.Width(right)
	return left + mid + strings.Repeat(" ", max(1, gap)) + right
}

// nameOf returns a seat's display name as the server or the table gives it.
func (m *Model) nameOf(seat int) string {
	if seat >= 0 && seat < len(m.snap.names) && m.snap.names[seat] != "" {
		return m.snap.names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// drawer makes the drawer of the board for width.
func (m *Model) drawer(width int, compact bool) *drawer { return m.drawerFor(&m.snap, width, compact) }

// drawerFor makes the drawer of snapshot snap's board for width: the
// chosen move and the picks are lit only on the current table.
func (m *Model) drawerFor(snap *snapshot, width int, compact bool) *drawer {
	d := &drawer{st: m.st, width: width, compact: compact, viewer: snap.seat, names: snap.names, labels: snap.labels, states: snap.states,
		toAct: snap.toAct, selCards: map[card.Card]bool{}, picked: map[card.Card]bool{}}
	if snap != &m.snap {
		return d
	}
	if len(m.snap.legal) > 0 {
		d.playable = map[card.Card]bool{}
		for _, l := range m.snap.legal {
			for _, c := range game.CardWords(l) {
				d.playable[c] = true
			}
		}
	}
	if m.pickVerb() != "" {
		for _, c := range m.picks {
			d.picked[c] = true
		}
		if pool := m.pickPool(); m.cursor < len(pool) {
			d.selCards[pool[m.cursor]] = true
		}
	} else if sel := m.selectedMove(); sel != "" {
		d.selected = sel
		for _, c := range game.CardWords(sel) {
			d.selCards[c] = true
		}
	}
	return d
}

// board draws the game's table, with box cards when there is room.
func (m *Model) board(width, height int) string { return m.boardOf(&m.snap, width, height) }

// boardOf draws snapshot snap's table in width and height: with box cards
// when they fit, else one-line cards, else without blank lines; a table
// taller still keeps its heading and its bottom, where the player's own
// cards are, and says how much of its top is hidden.
func (m *Model) boardOf(snap *snapshot, width, height int) string {
	if snap.view == nil {
		return m.st.muted.Render("Waiting for the table…")
	}
	r, ok := renderers[snap.name]
	if !ok {
		p := &Painter{Seat: snap.seat, Names: snap.names}
		return render(snap.name, snap.view, p)
	}
	b := r.board
	out := fitWidth(b(snap, m.drawerFor(snap, width, false)), width)
	if lipgloss.Height(out) <= height {
		return out
	}
	out = fitWidth(b(snap, m.drawerFor(snap, width, true)), width)
	if lipgloss.Height(out) <= height {
		return out
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(ansi.Strip(l)) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) <= height || height < 3 {
		return strings.Join(tail(lines, height), "\n")
	}
	hidden := len(lines) - height + 1
	note := fmt.Sprintf("▲ %s of the table above are hidden (other seats): make the terminal %d lines tall to see them",
		plural(hidden, "line"), m.h+hidden)
	if hidden == 1 {
		note = fmt.Sprintf("▲ 1 line of the table above is hidden (other seats): make the terminal %d lines tall to see it", m.h+1)
	}
	kept := append([]string{lines[0], m.st.bad.Render(ansi.Truncate(note, width, "…"))}, tail(lines[1:], height-2)...)
	return strings.Join(kept, "\n")
}

// fitWidth makes every line of a board at most width wide: a line of
// text is wrapped; a line that draws cards or boxes, which a wrap would
// break, is cut with "…".
func fitWidth(s string, width int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		switch {
		case ansi.StringWidth(l) <= width:
			out = append(out, l)
		case strings.ContainsAny(ansi.Strip(l), "│┃║╎╭╮╰╯┏┓┗┛╔╗╚╝┌┐└┘▒[]"):
			out = append(out, ansi.Truncate(l, width, "…"))
		default:
			out = append(out, strings.Split(ansi.Wrap(l, width, " "), "\n")...)
		}
	}
	return strings.Join(out, "\n")
}

// centreSections centres each section of a board (the lines between blank
// lines: the other seats, the middle of the table, the player's own
// cards) in width, each as a block that keeps its own alignment, so that
// a wide terminal shows the table in its middle.
func centreSections(s string, width int) string {
	lines := strings.Split(s, "\n")
	start := 0
	flush := func(end int) {
		w := 0
		for _, l := range lines[start:end] {
			w = max(w, ansi.StringWidth(l))
		}
		if pad := (width - w) / 2; pad > 0 {
			for i := start; i < end; i++ {
				if lines[i] != "" {
					lines[i] = strings.Repeat(" ", pad) + lines[i]
				}
			}
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(ansi.Strip(l)) == "" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return strings.Join(lines, "\n")
}

// bottom is the moves line, the input being typed, the notice and the keys.
func (m *Model) bottom() string {
	var lines []string
	if m.confirm {
		lines = append(lines, ansi.Wrap(m.st.bad.Render(m.drv.leaving()+" (y/n)"), m.w, " "))
		return strings.Join(lines, "\n")
	}
	if p := m.promptLine(); p != "" {
		lines = append(lines, p)
	}
	if l := m.movesLine(); l != "" {
		lines = append(lines, l)
	}
	switch m.focus {
	case focusMove:
		lines = append(lines, m.moveIn.View())
	case focusChat:
		lines = append(lines, m.chatIn.View())
	}
	if m.notice != "" {
		st := m.st.good
		if m.bad {
			st = m.st.bad
		}
		lines = append(lines, ansi.Wrap(st.Render(m.notice), m.w, " "))
	}
	lines = append(lines, m.keysLine())
	return strings.Join(lines, "\n")
}

// promptLine says what the viewer must do now, in the game's words (the
// view's prompt), wrapped to the terminal's width: "" when it is not the
// viewer's turn.
func (m *Model) promptLine() string {
	if len(m.snap.legal) == 0 || m.over() || m.link != "" || m.dealEnd != nil {
		return ""
	}
	p := promptOf(m.snap.name, m.snap.view)
	if p == "" {
		return ""
	}
	return ansi.Wrap(m.st.accent.Render("▶ "+p+"."), m.w, " ")
}

// movesLine shows the legal moves with the chosen one lit, scrolled so it
// shows; or whose turn it is; nothing once the match is over.
func (m *Model) movesLine() string {
	if e := m.dealEnd; e != nil && !m.over() {
		return m.st.accent.Render(fmt.Sprintf("End of %s %d.", dealWord(e.snap.name), e.deal)) + m.st.muted.Render(" Any key goes on to the next one.")
	}
	if m.over() {
		return "" // the log's last line says it, and who won
	}
	switch m.link {
	case "":
	case "closed":
		return m.st.bad.Render("The connection to the table is closed.")
	default:
		return m.st.bad.Render("Reconnecting to the table… Moves can be made again once it is back.")
	}
	if len(m.snap.legal) == 0 {
		var who []string
		for _, s := range m.snap.toAct {
			who = append(who, m.nameOf(s))
		}
		switch {
		case m.snap.status == "waiting":
			return m.st.muted.Render("Waiting for every seat to be taken…")
		case len(who) == 0:
			return ""
		}
		line := m.st.muted.Render("Waiting for " + strings.Join(who, " and ") + "…")
		for _, seat := range m.snap.toAct {
			line += m.clock(seat)
		}
		return line
	}
	if verb := m.pickVerb(); verb != "" {
		var picked []string
		for _, c := range m.picks {
			picked = append(picked, m.drawer(0, true).card(c))
		}
		line := m.st.accent.Render("Your move") + m.clock(m.snap.seat) + m.st.accent.Render(": ") +
			fmt.Sprintf("%d of %d cards picked to %s", len(m.picks), m.pickSize(), verb)
		if len(picked) == 0 {
			return line + m.st.muted.Render(" (space picks the card under the cursor)")
		}
		return line + ": " + strings.Join(picked, " ")
	}
	cs := m.choices()
	lead := m.st.accent.Render("Your move") + m.clock(m.snap.seat) + m.st.accent.Render(": ")
	if len(cs) == 0 {
		return lead + m.st.muted.Render("no legal move starts so")
	}
	items := make([]string, len(cs))
	for i, c := range cs {
		if i == m.cursor {
			items[i] = m.st.sel.Reverse(true).Render(" " + c + " ")
		} else {
			items[i] = " " + c + " "
		}
	}
	// Scroll so that the chosen move shows.
	room := m.w - lipgloss.Width(lead) - 4
	first := 0
	for {
		w := 0
		last := first
		for last < len(items) && w+lipgloss.Width(items[last]) <= room {
			w += lipgloss.Width(items[last])
			last++
		}
		if m.cursor < last || first >= m.cursor {
			line := lead
			if first > 0 {
				line += m.st.muted.Render("‹ ")
			}
			line += strings.Join(items[first:max(last, first+1)], "")
			if last < len(items) {
				line += m.st.muted.Render(" ›")
			}
			return line
		}
		first++
	}
}

// clock is seat's turn clock, " ⏱ 23s", when one runs.
func (m *Model) clock(seat int) string {
	end, ok := m.snap.clocks[seat]
	if !ok {
		return ""
	}
	left := max(0, end.Sub(m.now()).Round(time.Second))
	st := m.st.muted
	if left <= 10*time.Second {
		st = m.st.bad
	}
	return st.Render(fmt.Sprintf(" ⏱ %ds", int(left.Seconds())))
}

func (m *Model) keysLine() string {
	k := func(key, what string) string { return m.st.key.Render(key) + " " + m.st.muted.Render(what) }
	var parts []string
	switch m.focus {
	case focusMove:
		parts = []string{k("Tab", "complete"), k("↑/↓", "choose"), k("Enter", "play"), k("Esc", "back")}
	case focusChat:
		parts = []string{k("Enter", "send"), k("Esc", "back to the table")}
	default:
		if m.over() {
			keys := []string{k("t", "the final table / the scores")}
			if _, ok := m.drv.(analyser); ok {
				keys = append(keys, k("a", "analysis"))
			}
			return " " + strings.Join(append(keys, k("?", "help"), k("q", "quit")), "  ")
		}
		switch {
		case m.link != "":
			// No move can go: no keys to make one.
		case m.pickVerb() != "":
			parts = append(parts, k("←/→", "card"), k("space", "pick"), k("Enter", "play"))
		default:
			parts = append(parts, k("←/→", "choose"), k("Enter", "play"))
		}
		if m.link == "" {
			parts = append(parts, k(":", "type a move"))
		}
		if m.drv.canChat() {
			parts = append(parts, k("c/Tab", "chat"))
		}
		parts = append(parts, k("?", "help"), k("q", "quit"))
	}
	return " " + strings.Join(parts, "  ")
}

// logPanel is the live log's last lines (and the chat's, at a server).
func (m *Model) logPanel(width, height int) string {
	var lines []string
	lines = append(lines, m.st.muted.Render("── What happened "+strings.Repeat("─", max(0, width-18))))
	logH := height
	if m.drv.canChat() {
		logH = max(1, height*2/3)
	}
	lines = append(lines, tail(wrapAll(m.log, width), logH)...)
	if m.drv.canChat() {
		lines = append(lines, m.st.muted.Render("── Chat "+strings.Repeat("─", max(0, width-9))))
		lines = append(lines, tail(wrapAll(m.chats, width), max(1, height-logH))...)
	}
	return strings.Join(lines, "\n")
}

// sidePanel is the live log beside the table, and the chat under it.
func (m *Model) sidePanel(width, height int) string {
	w := width - 1
	logH := height - 1
	var chat []string
	if m.drv.canChat() {
		chatH := max(3, height/3)
		logH = height - chatH - 2
		chat = append(chat, m.st.title.Render("Chat"))
		chat = append(chat, padTop(tail(wrapAll(m.chats, w), chatH), chatH)...)
	}
	out := []string{m.st.title.Render("What happened")}
	out = append(out, padTop(tail(wrapAll(m.log, w), logH), logH)...)
	out = append(out, chat...)
	for i, l := range out {
		out[i] = " " + l
	}
	return strings.Join(out, "\n")
}

// wrapAll wraps each line to width, keeping every line's styles.
func wrapAll(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Wrap(l, max(8, width), " "), "\n")...)
	}
	return out
}

func tail(lines []string, n int) []string {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}

// padTop fills lines up to n with empty ones at the top (newest at the bottom).
func padTop(lines []string, n int) []string {
	for len(lines) < n {
		lines = append([]string{""}, lines...)
	}
	return lines
}

// helpText is the help shown on ?.
func (m *Model) helpText(width int) string {
	const keyW = 16
	k := func(key, what string) string {
		text := ansi.Wrap(what, max(20, width-keyW-2), " ")
		return lipgloss.JoinHorizontal(lipgloss.Top, "  "+lipgloss.PlaceHorizontal(keyW, lipgloss.Left, m.st.key.Render(key)), text)
	}
	para := func(text string) string {
		return lipgloss.NewStyle().PaddingLeft(2).Render(ansi.Wrap(text, max(20, width-2), " "))
	}
	lines := []string{
		m.st.title.Render("Keys"),
		"",
		k("← → ↑ ↓, hjkl", "go through the legal moves (the board lights the cards and places of the one chosen)"),
		k("1-9", "choose the first moves directly"),
		k("Enter", "play the chosen move"),
		k("space", "pick a card, for moves of several cards (passing, keeping)"),
	}
	if m.drv.canChat() {
		lines = append(lines,
			k(":", "type a move in notation; Tab completes it among the legal moves"),
			k("c or Tab", "write in the table chat; Enter sends, Esc or Tab goes back"))
	} else {
		lines = append(lines, k(": or Tab", "type a move in notation; Tab completes it among the legal moves"))
	}
	lines = append(lines,
		k("Esc", "back to the table"),
		k("any key", "at the end of a deal, shown as it ended: go on to the next"),
		k("t", "at the end: the final table, or the scores"),
		k("a", "at the end of a server's game: its analysis (each seat's costly decisions and the better moves)"),
		k("?", "this help (any key closes it)"),
		k("q, ctrl+c", "quit (asked first while the match goes on)"),
		"",
		m.st.title.Render("The table"),
		"",
		para("Your cards are at the bottom; the cards you may play are bright, the others dim."),
		para(m.st.sel.Render("┏━━━┓")+" is the chosen move's card or place, "+m.st.picked.Render("╔═══╗")+" a picked card, "+m.st.back.Render("▒▒▒")+" a card face down."),
		para(m.st.accent.Render("▶")+" marks whose turn it is. The log says what each seat did, as far as you may know."),
		"",
		m.st.title.Render("The rules"),
		"",
		para("parlour rules "+m.snap.name+" prints them in full."),
	)
	return strings.Join(lines, "\n")
}

// summary is the end of the match in height lines: the scores of the
// deals (the last ones, when they are more than fit), the totals, the
// winners.
func (m *Model) summary(width, height int) string {
	r := m.snap.result
	var b strings.Builder
	b.WriteString(m.st.title.Render("The match is over") + "\n\n")
	name := func(i int) string {
		if i == m.snap.seat {
			return "You"
		}
		return m.nameOf(i)
	}
	// The rows of the deals that fit: the rest of the screen is the
	// title, the table's words, head and totals, the winners, the footer.
	keep := max(3, height-16)
	b.WriteString(scoreTable(m.snap.name, m.snap.view, r, name, func(s string) string { return m.st.bold.Render(s) }, width, keep) + "\n")
	b.WriteString(m.st.accent.Render(winners(r, m.nameOf, m.snap.seat)) + "\n")
	if f := m.drv.footer(); f != "" {
		b.WriteString("\n" + wrapTo(f, width) + "\n")
	}
	b.WriteString("\n" + m.st.muted.Render("q quits."))
	return b.String()
}

// winners says who won.
func winners(r game.Result, name func(int) string, viewer int) string {
	if len(r.Winners) == 0 {
		return "Nobody won."
	}
	var names []string
	for _, w := range r.Winners {
		if w == viewer {
			names = append(names, "you")
		} else {
			names = append(names, name(w))
		}
	}
	verb := "wins"
	if len(names) > 1 || names[0] == "you" {
		verb = "win"
	}
	if len(names) > 1 {
		verb = "share the win"
	}
	return capitalise(strings.Join(names, " and ")) + " " + verb + "."
}

// capitalise upper-cases the first letter of s.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// dealLine is the log line of a deal's end: each seat's score for it.
func dealLine(name string, deal int, scores []int, seatName func(int) string) string {
	oneDeal := false
	if g, err := games.Lookup(name); err == nil {
		oneDeal = g.Info().OneDeal
	}
	var parts []string
	if name == "tractric" {
		// A hand scores the tricks each player took, not points.
		for i, s := range scores {
			parts = append(parts, fmt.Sprintf("%s %d", seatName(i), s))
		}
		return fmt.Sprintf("End of %s %d, tricks taken: %s.", dealWord(name), deal, strings.Join(parts, ", "))
	}
	for i, s := range scores {
		if oneDeal {
			parts = append(parts, fmt.Sprintf("%s %d", seatName(i), s))
		} else {
			parts = append(parts, fmt.Sprintf("%s %+d", seatName(i), s))
		}
	}
	if oneDeal {
		// The match is this one deal: its score is what the game counts
		// at the end (Damn: the cards still held), not points won.
		_, what, _ := scoreTerms(name, nil)
		return fmt.Sprintf("End of the %s, %s: %s.", dealWord(name), what, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("End of %s %d: %s.", dealWord(name), deal, strings.Join(parts, ", "))
}
