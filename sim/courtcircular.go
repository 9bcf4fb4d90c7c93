package sim

import (
	"parlour/game"
	"parlour/games/courtcircular"
)

// ccFigures measures Court Circular: the Lines that win tricks, by kind;
// resignations; and (1860) marks from cards won face up and face down.
type ccFigures struct{}

func edition(o game.Options) string {
	if o.String("edition") == courtcircular.Edition1862 {
		return courtcircular.Edition1862
	}
	return courtcircular.Edition1860
}

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
	tricks  int64 // this deal
	resigns int64 // this deal
	// prevWinner is the trick's winner before the move.
	prevWinner int
	// ended is set by DealEnd for the move being observed.
	ended bool

	lineIndex map[string]int // by the Line's name
	lineKeys  []string
	lines     []int64 // tricks won by each Line this match
}

func (o *ccObserver) Start(s game.State, r *Record) {
	o.r, o.tricks, o.resigns, o.ended = r, 0, 0, false
	clear(o.lines)
	o.prevWinner = s.(*courtcircular.State).TrickWinner()
}

// DealEnd reads a deal's last trick in place. In 1860 it is decided,
// cleared and scored in the move that ends the deal, so its Line and the
// deal's marks are read here; in 1862 the last trick was decided a move
// before (the winner's take ends the deal) and counted then.
func (o *ccObserver) DealEnd(s game.State) {
	st := s.(*courtcircular.State)
	o.ended = true
	if o.ed != courtcircular.Edition1860 {
		return
	}
	o.tricks++
	w := st.TrickWinner()
	o.line(courtcircular.BestLine(o.ed, st.Played(w), st.TrickLead()).Describe(o.ed))
	var up, down int64
	for p := range st.Players() {
		u, d := st.Won(p)
		up += int64(courtcircular.Marks(u, 0))
		down += int64(courtcircular.Marks(0, d))
	}
	o.r.Add("cc/marks_up", up, 1)
	o.r.Add("cc/marks_down", down, 1)
	o.r.Add("cc/marks_up_share", up, up+down)
}

func (o *ccObserver) Observe(s game.State, seat int, m game.Move) {
	st := s.(*courtcircular.State)
	if m == courtcircular.Resign {
		o.resigns++
	}
	if !o.ended && st.TrickWinner() >= 0 && o.prevWinner < 0 {
		// A trick was decided and is being settled.
		o.tricks++
		if m == courtcircular.Resign {
			o.line(ccResigned)
		} else {
			w := st.TrickWinner()
			o.line(courtcircular.BestLine(o.ed, st.Played(w), st.Lead()).Describe(o.ed))
		}
	}
	if o.ended {
		o.ended = false
		o.r.Add("cc/tricks", o.tricks, 1)
		o.r.Observe("cc/tricks", o.tricks)
		o.r.Add("cc/resigns", o.resigns, 1)
		o.r.Observe("cc/resigns", o.resigns)
		o.tricks, o.resigns = 0, 0
	}
	o.prevWinner = st.TrickWinner()
}

func (o *ccObserver) line(name string) {
	i, ok := o.lineIndex[name]
	if !ok {
		panic("sim: unknown Court Circular line " + name)
	}
	o.lines[i]++
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
