package golf

import (
	"strconv"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// View is what one seat (or a spectator) sees of a Golf match.
type View struct {
	Seat    int `json:"seat"` // -1 for a spectator
	Players int `json:"players"`
	Hole    int `json:"hole"` // 1-based
	Holes   int `json:"holes"`
	// Target is the points total that ends the match early (0: off).
	Target int    `json:"target,omitempty"`
	Dealer int    `json:"dealer"`
	Phase  string `json:"phase"` // reveal, play, final, over
	ToAct  []int  `json:"to_act"`
	// Prompt says what this seat must do now, in plain words; empty when
	// it has nothing to do (and for a spectator).
	Prompt string `json:"prompt"`
	// Layouts holds each seat's six cards by position; null is face down.
	Layouts [][6]card.Card `json:"layouts"`
	// Chosen marks the seats that have picked their column in the reveal.
	Chosen []bool `json:"chosen"`
	// MyReveal is this seat's own pending column choice, or -1.
	MyReveal int       `json:"my_reveal"`
	Discard  card.Card `json:"discard"` // top of the discard pile
	Discards int       `json:"discards"`
	Stock    int       `json:"stock"`
	// Drawn is the card the seat to act holds, when this seat may see it.
	Drawn     card.Card `json:"drawn"`
	Holding   bool      `json:"holding"`    // the seat to act holds a drawn card
	DrawnFrom string    `json:"drawn_from"` // "stock" or "discard" while holding
	Out       int       `json:"out"`        // seat that went out, or -1
	Scores    [][]int   `json:"hole_scores"`
	Totals    []int     `json:"totals"`
	Over      bool      `json:"over"`
	Winners   []int     `json:"winners"`
	// Columns is, in a hole's end (DealEndView) only, each seat's three
	// column scores, left to right, which add up to its hole score.
	Columns [][3]int `json:"columns,omitempty"`

	mem *viewMem // the memory FillView built the view in; nil for View's
}

var phaseNames = [...]string{"reveal", "play", "play", "final", "final", "over"}

// View returns what seat sees; game.Spectator for the public view. Its
// lists are its own (the caller may keep and change them).
func (s *State) View(seat int) any {
	room := new(viewRoom)
	r := s.Result()
	return s.view(seat, room, r.DealScores, r.Totals, r.Winners)
}

// AppendView appends seat's view as encoding/json writes View(seat)
// (game.ViewAppender), with no allocation for up to maxRoomHoles holes.
func (s *State) AppendView(b []byte, seat int) []byte {
	var room viewRoom
	var rowRoom [maxRoomHoles][]int
	holes := len(s.scores) / s.n
	rows := rowRoom[:0]
	if holes > len(rowRoom) {
		rows = make([][]int, 0, holes)
	}
	for h := range holes {
		rows = append(rows, s.scores[h*s.n:(h+1)*s.n])
	}
	v := s.view(seat, &room, rows, s.totals[:s.n], s.winners(room.winners[:0]))
	return v.AppendJSON(b)
}

// maxRoomHoles is how many holes' scores AppendView lists without an
// allocation (a match has at most 99).
const maxRoomHoles = 32

// viewRoom holds a view's lists: on the heap for View (one allocation),
// on the stack for AppendView.
type viewRoom struct {
	toAct   [MaxPlayers]int
	layouts [MaxPlayers][6]card.Card
	chosen  [MaxPlayers]bool
	winners [MaxPlayers]int
}

// view returns seat's view with its lists in room and the result's
// scores, totals and winners as given.
func (s *State) view(seat int, room *viewRoom, scores [][]int, totals, winners []int) View {
	v := View{
		Seat: seat, Players: s.n, Hole: s.holeNumber(), Holes: s.holes, Target: s.target, Dealer: s.dealer,
		Phase: phaseNames[s.phase], ToAct: s.ToAct().AppendList(room.toAct[:0]), Prompt: s.prompt(seat), MyReveal: -1,
		Discard: card.None, Discards: s.nDiscard, Stock: s.nStock, Out: s.out,
		Scores: scores, Totals: totals, Over: s.phase == phaseOver, Winners: winners,
	}
	v.Layouts = room.layouts[:s.n]
	v.Chosen = room.chosen[:s.n]
	for i := 0; i < s.n; i++ {
		for p := range 6 {
			if s.faceUp[i]&(1<<p) != 0 {
				v.Layouts[i][p] = s.layout[i][p]
			}
		}
		v.Chosen[i] = s.phase == phaseReveal && s.chosen.Has(i)
	}
	if s.phase == phaseReveal && seat >= 0 && s.chosen.Has(seat) {
		v.MyReveal = int(s.choice[seat])
	}
	if s.nDiscard > 0 {
		v.Discard = s.discards[s.nDiscard-1]
	}
	if s.drawn != card.None {
		v.Holding = true
		v.DrawnFrom = "stock"
		if s.fromDis {
			v.DrawnFrom = "discard"
		}
		if s.fromDis || seat == s.turn {
			v.Drawn = s.drawn
		}
	}
	return v
}

// prompt says what seat must do now, exactly as the rules allow it: ""
// when it may not act.
func (s *State) prompt(seat int) string {
	if seat < 0 || !s.ToAct().Has(seat) {
		return ""
	}
	switch s.phase {
	case phaseReveal:
		return "Choose a column of your layout to turn face up"
	case phaseDraw:
		if !s.canDrawStock() {
			return "Take the top card of the discard pile (the stock is empty)"
		}
		return "Draw from the stock or take the top card of the discard pile"
	case phaseHolding:
		if s.fromDis {
			return "Swap the card you took into your layout: a card taken from the discard pile may not be thrown away"
		}
		return "Swap the drawn card into your layout, or throw it on the discard pile"
	case phaseFinalDraw:
		if !s.canDrawStock() {
			return "Your final turn: stop (the stock is empty)"
		}
		return "Your final turn: draw from the stock, or stop without drawing"
	case phaseFinalHolding:
		return "Your final turn: swap the drawn card into your layout, or throw it on the discard pile"
	}
	return ""
}

// Layout returns seat's six cards as they lie, face-down ones included. It
// is for tests and tools that may see everything.
func (s *State) Layout(seat int) [6]card.Card { return s.layout[seat] }

// Turn returns the seat whose turn it is (outside the reveal).
func (s *State) Turn() int { return s.turn }

// Total returns seat's match total, Result().Totals[seat], without
// building the rest of the result.
func (s *State) Total(seat int) int { return s.totals[seat] }

// DealsPlayed returns the number of holes finished.
func (s *State) DealsPlayed() int { return s.hole }

// Out returns the seat that went out in the current hole, or -1.
func (s *State) Out() int { return s.out }

var _ game.ViewAppender = (*State)(nil)

// AppendJSON appends v as encoding/json writes it (for AppendView). The
// view's strings are the package's own words, which need no escapes.
func (v View) AppendJSON(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"hole":`...)
	b = strconv.AppendInt(b, int64(v.Hole), 10)
	b = append(b, `,"holes":`...)
	b = strconv.AppendInt(b, int64(v.Holes), 10)
	if v.Target != 0 {
		b = append(b, `,"target":`...)
		b = strconv.AppendInt(b, int64(v.Target), 10)
	}
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"phase":"`...)
	b = append(b, v.Phase...)
	b = append(b, `","to_act":`...)
	b = jsonw.AppendInts(b, v.ToAct)
	b = append(b, `,"prompt":"`...)
	b = append(b, v.Prompt...)
	b = append(b, `","layouts":`...)
	b = jsonw.AppendList(b, v.Layouts, func(b []byte, l *[6]card.Card) []byte {
		return jsonw.AppendCards(b, l[:])
	})
	b = append(b, `,"chosen":`...)
	b = jsonw.AppendBools(b, v.Chosen)
	b = append(b, `,"my_reveal":`...)
	b = strconv.AppendInt(b, int64(v.MyReveal), 10)
	b = append(b, `,"discard":`...)
	b = v.Discard.AppendJSON(b)
	b = append(b, `,"discards":`...)
	b = strconv.AppendInt(b, int64(v.Discards), 10)
	b = append(b, `,"stock":`...)
	b = strconv.AppendInt(b, int64(v.Stock), 10)
	b = append(b, `,"drawn":`...)
	b = v.Drawn.AppendJSON(b)
	b = append(b, `,"holding":`...)
	b = strconv.AppendBool(b, v.Holding)
	b = append(b, `,"drawn_from":"`...)
	b = append(b, v.DrawnFrom...)
	b = append(b, `","out":`...)
	b = strconv.AppendInt(b, int64(v.Out), 10)
	b = append(b, `,"hole_scores":`...)
	b = jsonw.AppendIntRows(b, v.Scores)
	b = append(b, `,"totals":`...)
	b = jsonw.AppendInts(b, v.Totals)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, v.Winners)
	if len(v.Columns) > 0 {
		b = append(b, `,"columns":`...)
		b = jsonw.AppendList(b, v.Columns, func(b []byte, c *[3]int) []byte { return jsonw.AppendInts(b, c[:]) })
	}
	return append(b, '}')
}
