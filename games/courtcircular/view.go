package courtcircular

import (
	"math/bits"
	"strconv"

	"parlour/card"
	"parlour/game"
	"parlour/internal/jsonw"
)

// View is what one seat (or a spectator) sees of a Court Circular match.
// Card lists are in the game's order, lowest first (2 ... K A, S H D C).
type View struct {
	Seat    int    `json:"seat"` // -1 for a spectator
	Players int    `json:"players"`
	Edition string `json:"edition"`
	// Target is the 1860 game's target (0 in 1862).
	Target int    `json:"target,omitempty"`
	Deal   int    `json:"deal"` // 1-based
	Dealer int    `json:"dealer"`
	Phase  string `json:"phase"` // play, take, lead, over
	ToAct  []int  `json:"to_act"`
	// Prompt says what this seat must do now, in plain words; empty when
	// it has nothing to do (and for a spectator).
	Prompt string `json:"prompt"`
	// FirstHand is the trick's designated first-hand; Leader the seat that
	// played its first card (-1 before).
	FirstHand int `json:"first_hand"`
	Leader    int `json:"leader"`
	// Lead is the current Lead (while a trick's winner takes and chooses,
	// still the old one), null once the board is cleared or (1862) the old
	// Lead has been taken.
	Lead  card.Card `json:"lead"`
	Stock int       `json:"stock"`
	// Hand is this seat's hand (null for a spectator); HandSizes every
	// seat's number of cards.
	Hand      []card.Card `json:"hand"`
	HandSizes []int       `json:"hand_sizes"`
	// Played holds each seat's cards of this trick still on the table, in
	// the order played (in 1862 the cards the winner takes leave it); a
	// face-down No. 5 (1862) is null to everyone but its player.
	Played   [][]card.Card `json:"played"`
	Resigned []int         `json:"resigned"`
	// TrickWinner is the seat that won the trick being settled, or -1.
	TrickWinner int `json:"trick_winner"`
	// Lines names each seat's best line in the trick being settled.
	Lines []string `json:"lines"`
	// Take (1862) is how many cards the trick's winner takes.
	Take int `json:"take,omitempty"`
	// Shared are the three face-up cards of the 1862 last trick.
	Shared []card.Card `json:"shared,omitempty"`
	// WonUp and WonDown are the cards each seat has won this deal (1862:
	// all in WonUp); Marks their 1860 value.
	WonUp   [][]card.Card `json:"won_up"`
	WonDown [][]card.Card `json:"won_down"`
	Marks   []int         `json:"marks,omitempty"`
	// Tricks counts the tricks each seat has won this deal.
	Tricks []int `json:"tricks"`
	// SetAside (1862) are the cards put out of play this deal.
	SetAside []card.Card `json:"set_aside,omitempty"`
	// Hits (1862) counts each seat's Hits; two win the Rubber.
	Hits       []int   `json:"hits,omitempty"`
	DealScores [][]int `json:"deal_scores"`
	Totals     []int   `json:"totals"`
	Over       bool    `json:"over"`
	Winners    []int   `json:"winners"`

	mem *viewMem // the memory FillView built the view in; nil for View's
}

var phaseNames = [...]string{"play", "take", "lead", "over"}

// View returns what seat sees; game.Spectator for the public view. Its
// lists are its own (the caller may keep and change them).
func (s *State) View(seat int) any {
	room := new(viewRoom)
	r := s.Result()
	v, rows := s.view(seat, room, r.DealScores, r.Totals, r.Winners)
	v.Played, v.WonUp, v.WonDown = rows.played[:s.n], rows.wonUp[:s.n], rows.wonDown[:s.n]
	return v
}

// AppendView appends seat's view as encoding/json writes View(seat)
// (game.ViewAppender), with no allocation: the view's lists lie on the
// stack and the deals' scores are written straight from the state.
func (s *State) AppendView(b []byte, seat int) []byte {
	var room viewRoom
	v, rows := s.view(seat, &room, nil, s.totals[:s.n], s.winners(room.winners[:0]))
	v.Played, v.WonUp, v.WonDown = rows.played[:s.n], rows.wonUp[:s.n], rows.wonDown[:s.n]
	b = v.appendHead(b)
	b = jsonw.AppendRows(b, s.scores, s.n)
	return v.appendTail(b)
}

var _ game.ViewAppender = (*State)(nil)

// winners appends the match's winner, once it is over, to out (as Result
// lists it).
func (s *State) winners(out []int) []int {
	if s.phase == phaseOver && s.champ >= 0 {
		out = append(out, s.champ)
	}
	return out
}

// viewRoom holds a view's lists: on the heap for View (one allocation),
// on the stack for AppendView. It holds no pointer into itself (a store
// through a pointer would send the room to the heap): the lists of lists
// are viewRows, which view returns.
type viewRoom struct {
	toAct     [MaxPlayers]int
	handSizes [MaxPlayers]int
	played    [MaxPlayers][3]card.Card
	resigned  [MaxPlayers]int
	lines     [MaxPlayers]string
	shared    [3]card.Card
	marks     [MaxPlayers]int
	tricks    [MaxPlayers]int
	hits      [2]int
	winners   [1]int
	// cards holds the hand, won and set-aside lists, which share no card;
	// used is how much of it they take.
	cards [packSize]card.Card
	used  int
}

// cardList returns the cards of cs in the game's order (as canonical), in
// the room's cards while they last, capped so that appending to it leaves
// the next list alone.
func (r *viewRoom) cardList(cs card.Set) []card.Card {
	n := bits.OnesCount64(uint64(cs))
	var out []card.Card
	if end := r.used + n; end <= len(r.cards) {
		out = r.cards[r.used:r.used:end]
		r.used = end
	} else {
		out = make([]card.Card, 0, n)
	}
	return appendCanonical(out, cs)
}

// aces are the four Aces as card.Set bits (card values 4 to 7).
const aces = card.Set(0xF0)

// appendCanonical appends the cards of cs to out in canonical's order:
// ranks 2 to K and then the Aces, suits S H D C within a rank (which is
// card value order with the Aces moved to the end).
func appendCanonical(out []card.Card, cs card.Set) []card.Card {
	for x := uint64(cs &^ aces); x != 0; x &= x - 1 {
		out = append(out, card.Card(bits.TrailingZeros64(x)))
	}
	for x := uint64(cs & aces); x != 0; x &= x - 1 {
		out = append(out, card.Card(bits.TrailingZeros64(x)))
	}
	return out
}

// viewRows holds a view's lists of card lists, each seat's list of the
// room's cards.
type viewRows struct {
	played, wonUp, wonDown [MaxPlayers][]card.Card
}

// view returns seat's view with its lists in room and the result's deal
// scores, totals and winners as given, all but Played, WonUp and WonDown,
// whose seats' lists it returns in rows (for the caller to set, n of
// each).
func (s *State) view(seat int, room *viewRoom, dealScores [][]int, totals, winners []int) (v View, rows viewRows) {
	v = View{
		Seat: seat, Players: s.n, Edition: s.edition(), Target: s.cfg.target,
		Deal: s.deal + 1, Dealer: s.dealer, Phase: phaseNames[s.phase], ToAct: s.ToAct().AppendList(room.toAct[:0]), Prompt: s.prompt(seat),
		FirstHand: s.first, Leader: s.leader, Lead: s.shownLead(), Stock: s.nStock,
		Resigned: s.resigned.AppendList(room.resigned[:0]), TrickWinner: s.winner,
		DealScores: dealScores, Totals: totals, Over: s.phase == phaseOver, Winners: winners,
	}
	if seat >= 0 && seat < s.n {
		v.Hand = room.cardList(s.hands[seat])
	}
	v.HandSizes = room.handSizes[:s.n]
	v.Tricks = room.tricks[:s.n]
	if !s.cfg.e62 {
		v.Marks = room.marks[:s.n]
	}
	for p := 0; p < s.n; p++ {
		v.HandSizes[p] = s.hands[p].Len()
		played := room.played[p][:0]
		for i, c := range s.played[p][:s.nPlayed[p]] {
			switch {
			case s.hidden && p == s.leader && i == 2 && seat != p:
				played = append(played, card.None)
			case s.table.Has(c):
				played = append(played, c)
			}
		}
		rows.played[p] = played
		rows.wonUp[p] = room.cardList(s.wonUp[p])
		rows.wonDown[p] = room.cardList(s.wonDown[p])
		v.Tricks[p] = int(s.tricksWon[p])
		if v.Marks != nil {
			v.Marks[p] = Marks(s.wonUp[p], s.wonDown[p])
		}
	}
	if s.phase == phaseTake || s.phase == phaseLead {
		v.Lines = room.lines[:s.n]
		for p := range v.Lines {
			v.Lines[p] = s.lineName(p)
		}
	}
	if s.cfg.e62 {
		if s.phase == phaseTake {
			v.Take = s.takeN
		}
		if s.shared[0] != card.None {
			room.shared = s.shared
			v.Shared = room.shared[:]
		}
		v.SetAside = room.cardList(s.dead)
		room.hits = s.hits
		v.Hits = room.hits[:]
	}
	return v, rows
}

// takePrompts are the prompts of an 1862 trick's winner, by the number
// of cards she takes.
var takePrompts = func() (t [8]string) {
	for n := 1; n < len(t); n++ {
		t[n] = "Take " + game.CountWords(n, "card") + " of your choice from the table"
	}
	return t
}()

// prompt says what seat must do now, from its legal moves: "" when it
// may not act.
func (s *State) prompt(seat int) string {
	if s.phase == phaseOver || seat != s.turn {
		return ""
	}
	switch s.phase {
	case phaseTake:
		if s.takeN > 0 && s.takeN < len(takePrompts) {
			return takePrompts[s.takeN]
		}
		return "Take your cards from the table"
	case phaseLead:
		if !s.cfg.e62 {
			return "Choose the new Lead from the cards played in this trick; you take the others"
		}
		if seat != s.winner {
			return "Choose the next Lead from the cards on the table: only the winner made a line, so you choose"
		}
		return "Choose the next Lead from the cards on the table; the others are set aside"
	}
	if !s.cfg.e62 {
		switch {
		case s.leader < 0:
			return "Play a card to start the trick"
		case s.canResign():
			return "Play a card, or resign the trick"
		}
		return "Play a card"
	}
	no5 := s.leader == seat && s.nPlayed[seat] == 2
	switch {
	case s.shared[0] != card.None && no5:
		return "Play a card from your hand, or take a shared card and leave one of yours in its place: it is laid face down (No. 5)"
	case s.shared[0] != card.None:
		return "Play a card from your hand, or take a shared card and leave one of yours in its place"
	case no5:
		return "Play your third card: it is laid face down (No. 5)"
	case s.leader < 0:
		return "Play a card to start the trick"
	}
	return "Play a card"
}

// lineName names seat p's best line in the trick being settled, as the
// views list it.
func (s *State) lineName(p int) string {
	switch {
	case s.resigned.Has(p):
		return "resigned"
	case s.conceded:
		return "won by resignation"
	case s.cfg.e62:
		return lineNames62[s.keys[p]>>7&15]
	}
	return lineNames60[s.keys[p]>>7&63]
}

// lineNames60 and lineNames62 hold Line.Describe's words for every line
// key of the edition, indexed by the key's bits above the best card's
// strength (which Describe does not name), so that a view names lines
// without building strings.
var lineNames60, lineNames62 = func() (t60 [64]string, t62 [16]string) {
	for i := range t60 {
		if l := lineKey(i << 7).line60(); l.Kind <= Trio {
			t60[i] = l.Describe(Edition1860)
		}
	}
	for i := range t62 {
		if l := lineKey(i << 7).line62(); l.Kind <= Trio62 {
			t62[i] = l.Describe(Edition1862)
		}
	}
	return t60, t62
}()

func (s *State) edition() string {
	if s.cfg.e62 {
		return Edition1862
	}
	return Edition1860
}

// Hand returns seat's hand, for tests and tools that may see everything.
func (s *State) Hand(seat int) []card.Card { return canonical(s.hands[seat]) }

// Total returns seat's match total, Result().Totals[seat], without
// building the rest of the result.
func (s *State) Total(seat int) int { return s.totals[seat] }

// DealsPlayed returns the number of deals finished.
func (s *State) DealsPlayed() int { return len(s.scores) / s.n }

// Lead returns the current Lead (while a trick's winner takes and chooses,
// still the old one), or card.None.
func (s *State) Lead() card.Card { return s.lead }

// TrickLead returns the Lead the current (or, at a deal's end, the last)
// trick was played to, even once it has been taken.
func (s *State) TrickLead() card.Card { return s.trickLead }

// shownLead is the Lead as the views show it: while the next Lead is being
// chosen, still the old one, in 1862 too even once it has been taken; None
// once the board is cleared.
func (s *State) shownLead() card.Card {
	if s.phase == phaseLead {
		return s.trickLead
	}
	return s.lead
}

// TrickWinner returns the seat that won the trick being settled, or -1
// while it is played.
func (s *State) TrickWinner() int { return s.winner }

// Resigned returns the seats that have resigned the current trick.
func (s *State) Resigned() game.Seats { return s.resigned }

// Played returns the cards seat has played in the current trick, in order,
// a face-down No. 5 (1862) included. It is for tests and tools that may
// see everything.
func (s *State) Played(seat int) []card.Card {
	return append([]card.Card{}, s.played[seat][:s.nPlayed[seat]]...)
}

// Won returns the cards seat has won this deal, face up and face down
// (1862: all face up).
func (s *State) Won(seat int) (up, down card.Set) { return s.wonUp[seat], s.wonDown[seat] }

// Hits returns seat's Hits (1862; 0 in 1860).
func (s *State) Hits(seat int) int {
	if seat > 1 {
		return 0
	}
	return s.hits[seat]
}

// AppendJSON appends v as encoding/json writes it; AppendView writes the
// same with the deals' scores taken from the state. The view's edition,
// phase and line names are the package's own words, which need no
// escapes, and are appended as they are.
func (v View) AppendJSON(b []byte) []byte {
	b = v.appendHead(b)
	b = jsonw.AppendIntRows(b, v.DealScores)
	return v.appendTail(b)
}

// appendHead appends v's JSON up to the value of "deal_scores".
func (v *View) appendHead(b []byte) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(v.Seat), 10)
	b = append(b, `,"players":`...)
	b = strconv.AppendInt(b, int64(v.Players), 10)
	b = append(b, `,"edition":"`...)
	b = append(b, v.Edition...)
	b = append(b, '"')
	if v.Target != 0 {
		b = append(b, `,"target":`...)
		b = strconv.AppendInt(b, int64(v.Target), 10)
	}
	b = append(b, `,"deal":`...)
	b = strconv.AppendInt(b, int64(v.Deal), 10)
	b = append(b, `,"dealer":`...)
	b = strconv.AppendInt(b, int64(v.Dealer), 10)
	b = append(b, `,"phase":"`...)
	b = append(b, v.Phase...)
	b = append(b, `","to_act":`...)
	b = jsonw.AppendInts(b, v.ToAct)
	b = append(b, `,"prompt":"`...)
	b = append(b, v.Prompt...)
	b = append(b, `","first_hand":`...)
	b = strconv.AppendInt(b, int64(v.FirstHand), 10)
	b = append(b, `,"leader":`...)
	b = strconv.AppendInt(b, int64(v.Leader), 10)
	b = append(b, `,"lead":`...)
	b = v.Lead.AppendJSON(b)
	b = append(b, `,"stock":`...)
	b = strconv.AppendInt(b, int64(v.Stock), 10)
	b = append(b, `,"hand":`...)
	b = jsonw.AppendCards(b, v.Hand)
	b = append(b, `,"hand_sizes":`...)
	b = jsonw.AppendInts(b, v.HandSizes)
	b = append(b, `,"played":`...)
	b = jsonw.AppendList(b, v.Played, appendCardRow)
	b = append(b, `,"resigned":`...)
	b = jsonw.AppendInts(b, v.Resigned)
	b = append(b, `,"trick_winner":`...)
	b = strconv.AppendInt(b, int64(v.TrickWinner), 10)
	b = append(b, `,"lines":`...)
	b = jsonw.AppendList(b, v.Lines, appendWord)
	if v.Take != 0 {
		b = append(b, `,"take":`...)
		b = strconv.AppendInt(b, int64(v.Take), 10)
	}
	if len(v.Shared) > 0 {
		b = append(b, `,"shared":`...)
		b = jsonw.AppendCards(b, v.Shared)
	}
	b = append(b, `,"won_up":`...)
	b = jsonw.AppendList(b, v.WonUp, appendCardRow)
	b = append(b, `,"won_down":`...)
	b = jsonw.AppendList(b, v.WonDown, appendCardRow)
	if len(v.Marks) > 0 {
		b = append(b, `,"marks":`...)
		b = jsonw.AppendInts(b, v.Marks)
	}
	b = append(b, `,"tricks":`...)
	b = jsonw.AppendInts(b, v.Tricks)
	if len(v.SetAside) > 0 {
		b = append(b, `,"set_aside":`...)
		b = jsonw.AppendCards(b, v.SetAside)
	}
	if len(v.Hits) > 0 {
		b = append(b, `,"hits":`...)
		b = jsonw.AppendInts(b, v.Hits)
	}
	return append(b, `,"deal_scores":`...)
}

// appendTail appends v's JSON after the value of "deal_scores".
func (v *View) appendTail(b []byte) []byte {
	b = append(b, `,"totals":`...)
	b = jsonw.AppendInts(b, v.Totals)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, v.Over)
	b = append(b, `,"winners":`...)
	b = jsonw.AppendInts(b, v.Winners)
	return append(b, '}')
}

// appendCardRow appends one seat's list of cards (for jsonw.AppendList).
func appendCardRow(b []byte, cs *[]card.Card) []byte { return jsonw.AppendCards(b, *cs) }

// appendWord appends one of the package's own words as a JSON string: it
// needs no escapes (for jsonw.AppendList).
func appendWord(b []byte, w *string) []byte {
	b = append(b, '"')
	b = append(b, *w...)
	return append(b, '"')
}
