package sim

import (
	"parlour/card"
	"parlour/game"
	"parlour/games/courtcircular"
)

func init() { figures["court-circular"] = ccFigures{} }

// ccFigures measures Court Circular: the Lines that win tricks, by kind;
// resignations; and (1860) marks from cards won face up and face down.
type ccFigures struct{}

func edition(o game.Options) string {
	if o.String("edition") == courtcircular.Edition1862 {
		return courtcircular.Edition1862
	}
	return courtcircular.Edition1860
}

func (ccFigures) LowWins(game.Options) bool    { return false }
func (ccFigures) SingleDeal(game.Options) bool { return false }

// lineNames lists the Lines of an edition, best first, as the rules name
// them, then "no line".
func lineNames(ed string) []string {
	var ls []courtcircular.Line
	if ed == courtcircular.Edition1862 {
		for _, k := range []courtcircular.Kind{courtcircular.Trio62, courtcircular.Sequence62, courtcircular.Suit} {
			ls = append(ls, courtcircular.Line{Class: 2, Kind: k}, courtcircular.Line{Class: 1, Kind: k})
		}
	} else {
		kinds := []courtcircular.Kind{courtcircular.Trio, courtcircular.Sequence, courtcircular.Sympathy, courtcircular.Court}
		for _, k := range kinds {
			ls = append(ls, courtcircular.Line{Class: courtcircular.ClassA, Kind: k, Long: true},
				courtcircular.Line{Class: courtcircular.ClassA, Kind: k})
		}
		for _, k := range kinds {
			ls = append(ls, courtcircular.Line{Class: courtcircular.ClassB, Kind: k})
		}
		for _, k := range []courtcircular.Kind{courtcircular.Pair, courtcircular.Valentine, courtcircular.Etiquette} {
			ls = append(ls, courtcircular.Line{Class: courtcircular.ClassC, Kind: k})
		}
	}
	var names []string
	for _, l := range ls {
		names = append(names, l.Describe(ed))
	}
	return append(names, courtcircular.Line{}.Describe(ed))
}

const ccResigned = "resignation"

func (ccFigures) Specs(o game.Options) []Spec {
	ed := edition(o)
	specs := []Spec{
		{Key: "cc/tricks", Group: "Court Circular", Label: "tricks per deal", Kind: Rate, Seat: -1, Hist: true},
		{Key: "cc/resigns", Group: "Court Circular", Label: "resigns per deal", Kind: Rate, Seat: -1, Hist: true},
	}
	if ed == courtcircular.Edition1860 {
		specs = append(specs,
			Spec{Key: "cc/marks_up", Group: "Court Circular", Label: "marks from cards won face up, per deal (all players)", Kind: Rate, Seat: -1},
			Spec{Key: "cc/marks_down", Group: "Court Circular", Label: "marks from cards won face down, per deal (all players)", Kind: Rate, Seat: -1},
			Spec{Key: "cc/marks_up_share", Group: "Court Circular", Label: "share of marks won face up", Kind: Rate, Seat: -1, Share: true})
	}
	names := lineNames(ed)
	if ed == courtcircular.Edition1860 {
		names = append(names, ccResigned)
	}
	for _, name := range names {
		label := name
		switch name {
		case ccResigned:
			label = "the others resign"
		case "no line":
			label = "no line: the best card"
		}
		specs = append(specs, Spec{Key: "cc/line/" + name, Group: "Court Circular: what wins the tricks",
			Label: label + " (share of tricks)", Kind: Rate, Seat: -1, Share: true})
	}
	return specs
}

// Standing is the totals, and in 1862 five points more for each Hit
// (points go back to 0 on a Hit; there are no Hits in 1860).
func (ccFigures) Standing(s game.State, out []int) {
	st := s.(*courtcircular.State)
	for i := range out {
		out[i] = st.Total(i) + 5*st.Hits(i)
	}
}

// Score is the totals in 1860 and the Hits in 1862 (where the totals go
// back to 0 on the Hit that wins the Rubber).
func (ccFigures) Score(s game.State, out []int) {
	st := s.(*courtcircular.State)
	if st.Hits(0)+st.Hits(1) > 0 {
		for i := range out {
			out[i] = st.Hits(i)
		}
		return
	}
	copy(out, s.Result().Totals)
}

func (ccFigures) NewObserver(o game.Options) Observer {
	ed := edition(o)
	obs := &ccObserver{n: o.Players(), ed: ed, lineIndex: map[string]int{}}
	names := lineNames(ed)
	if ed == courtcircular.Edition1860 {
		names = append(names, ccResigned)
	}
	for i, name := range names {
		obs.lineIndex[name] = i
		obs.lineKeys = append(obs.lineKeys, "cc/line/"+name)
	}
	obs.lines = make([]int64, len(names))
	return obs
}

type ccObserver struct {
	n       int
	ed      string
	r       *Record
	deals   int
	tricks  int64               // this deal
	resigns int64               // this deal
	prev    courtcircular.State // the state before the move, once the stock is out
	kept    bool
	// prevWinner is the trick's winner before the move.
	prevWinner int

	lineIndex map[string]int // by the Line's name
	lineKeys  []string
	lines     []int64 // tricks won by each Line this match
}

func (o *ccObserver) Start(s game.State, r *Record) {
	o.r, o.deals, o.tricks, o.resigns = r, 0, 0, 0
	clear(o.lines)
	o.keep(s.(*courtcircular.State))
}

// keep remembers what the next move needs of the state before it: the
// trick's winner, and the whole state once the stock is out (the deal's
// last trick is decided and scored in one move).
func (o *ccObserver) keep(st *courtcircular.State) {
	o.prevWinner = st.TrickWinner()
	if st.Stock() == 0 {
		o.prev = *st
		o.kept = true
	} else {
		o.kept = false
	}
}

func (o *ccObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*courtcircular.State)
	if m == courtcircular.Resign {
		o.resigns++
	}
	d := st.DealsPlayed()
	switch {
	case d != o.deals && o.prevWinner < 0:
		// The last trick of an 1860 deal: decided, cleared and scored in
		// one move (which may end the match). Read it from the state before.
		o.tricks++
		if !o.kept {
			panic("sim: a Court Circular deal ended with cards in the stock")
		}
		w, line, own := lastTrick(&o.prev, o.ed, seat)
		o.line(line.Describe(o.ed))
		if o.ed == courtcircular.Edition1860 {
			o.marks(w, seat, own)
		}
	case st.TrickWinner() >= 0 && o.prevWinner < 0:
		// A trick was decided and is being settled.
		o.tricks++
		if m == courtcircular.Resign {
			o.line(ccResigned)
			break
		}
		w := st.TrickWinner()
		o.line(courtcircular.BestLine(o.ed, st.Played(w), st.Lead()).Describe(o.ed))
	}
	if d != o.deals {
		o.deals = d
		o.r.Add("cc/tricks", o.tricks, 1)
		o.r.Observe("cc/tricks", o.tricks)
		o.r.Add("cc/resigns", o.resigns, 1)
		o.r.Observe("cc/resigns", o.resigns)
		o.tricks, o.resigns = 0, 0
	}
	o.keep(st)
}

func (o *ccObserver) line(name string) {
	i, ok := o.lineIndex[name]
	if !ok {
		panic("sim: unknown Court Circular line " + name)
	}
	o.lines[i]++
}

// lastTrick decides the last trick of an 1860 deal from the state before
// its last card, which seat plays (her last card): the winner, her Line and
// the cards on the table, which she clears.
func lastTrick(prev *courtcircular.State, ed string, seat int) (w int, best courtcircular.Line, table card.Set) {
	own := func(p int) []card.Card {
		cs := prev.Played(p)
		if p == seat {
			cs = append(cs, prev.Hand(p)...)
		}
		table |= card.SetOf(cs...)
		return cs
	}
	w, best = decideTrick(ed, prev.Players(), own, prev.Resigned(), prev.Lead())
	if prev.Lead() != card.None {
		table = table.Add(prev.Lead())
	}
	return w, best, table
}

// decideTrick returns the winner of a trick and her Line: the best Line
// among the seats still in it (ties to the first seat), as the 1860 rules
// rank them.
func decideTrick(ed string, n int, own func(p int) []card.Card, resigned game.Seats, lead card.Card) (w int, best courtcircular.Line) {
	w = -1
	for p := range n {
		cs := own(p)
		if resigned.Has(p) {
			continue
		}
		l := courtcircular.BestLine(ed, cs, lead)
		if w < 0 || betterLine(ed, l, best) {
			w, best = p, l
		}
	}
	return w, best
}

// betterLine reports whether a beats b by the 1860 order: class, kind,
// length (class A), then the better own card.
func betterLine(ed string, a, b courtcircular.Line) bool {
	switch {
	case a.Class != b.Class:
		return a.Class > b.Class
	case a.Kind != b.Kind:
		return a.Kind > b.Kind
	case a.Long != b.Long:
		return a.Long
	}
	return courtcircular.Better(ed, a.Best, b.Best)
}

// marks records an 1860 deal's marks from cards won face up and face
// down.
func (o *ccObserver) marks(w, seat int, table card.Set) {
	_, up, down := dealMarks(&o.prev, w, seat, table)
	o.r.Add("cc/marks_up", up, 1)
	o.r.Add("cc/marks_down", down, 1)
	o.r.Add("cc/marks_up_share", up, up+down)
}

// dealMarks counts an 1860 deal's marks from the state before its last
// card, which seat plays: the last trick's table goes to its winner w, face
// up if she played the trick's first card. It returns each seat's marks and
// the marks from cards won face up and face down, all seats together.
func dealMarks(prev *courtcircular.State, w, seat int, table card.Set) (marks [courtcircular.MaxPlayers]int, up, down int64) {
	leader := prev.Leader()
	if leader < 0 {
		leader = seat
	}
	for p := range prev.Players() {
		u, d := prev.Won(p)
		if p == w {
			if w == leader {
				u |= table
			} else {
				d |= table
			}
		}
		marks[p] = courtcircular.Marks(u, d)
		up += int64(courtcircular.Marks(u, 0))
		down += int64(courtcircular.Marks(0, d))
	}
	return marks, up, down
}

func (o *ccObserver) Finish(game.State) {
	var tricks int64
	for _, k := range o.lines {
		tricks += k
	}
	for i, k := range o.lines {
		o.r.Add(o.lineKeys[i], k, tricks)
	}
}
