// Package analysis rates the decisions of a played game: for each decision
// of the seats asked for, the seat's chance of winning the match after the
// move it played, the best move a search finds and its chance, the loss
// between them and a label. The chance is estimated from what the seat
// knew at the time (determinisations of its own view), or in hindsight
// from every card. The report is the format of shared/spec/analysis.md.
package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/internal/script"
)

// Options says how to analyse.
type Options struct {
	Think     time.Duration         // search time per decision; 0 means 200ms
	Seats     []int                 // seats to analyse; nil means all
	Hindsight bool                  // the search sees every card
	Progress  func(done, total int) // called after each decision, may be nil
	// Iterations, if positive, fixes the search's iterations per decision
	// in place of Think's time budget (Think, if set, then caps them):
	// without a cap, two analyses of the same script are then the same,
	// to the last digit.
	Iterations int
	// Pace, if set, paces every search of the analysis, one at a time
	// (bot.Search.Pace): a server's, so that its tables go first.
	Pace bot.Pacer

	salt uint64 // varies the search's random draws (tests measure noise with it)
}

// DefaultThink is the search time per decision when Options.Think is 0.
const DefaultThink = 200 * time.Millisecond

// MaxAlternatives is the most alternatives a decision lists.
const MaxAlternatives = 8

// The labels of a decision, by its loss.
const (
	LabelBest       = "best"       // loss under 0.02
	LabelGood       = "good"       // under 0.05
	LabelInaccuracy = "inaccuracy" // under 0.10
	LabelMistake    = "mistake"    // under 0.20
	LabelBlunder    = "blunder"    // 0.20 or more
)

// Label returns the label of a decision that lost loss: best under 0.02,
// good under 0.05, inaccuracy under 0.10, mistake under 0.20, blunder
// from 0.20.
func Label(loss float64) string {
	switch {
	case loss < 0.02:
		return LabelBest
	case loss < 0.05:
		return LabelGood
	case loss < 0.10:
		return LabelInaccuracy
	case loss < 0.20:
		return LabelMistake
	}
	return LabelBlunder
}

// ErrBadOptions marks Options that cannot be used with the script (a
// seat the game does not have, a negative think).
var ErrBadOptions = errors.New("bad analysis options")

// Report is the analysis of one game, in the format of
// shared/spec/analysis.md.
type Report struct {
	Game      string        `json:"game"`
	Players   int           `json:"players"`
	Mode      string        `json:"mode"` // "information" or "hindsight"
	ThinkMS   int64         `json:"think_ms"`
	Decisions []Decision    `json:"decisions"`
	Seats     []SeatSummary `json:"seats"`
}

// Decision is one analysed decision: a move of the script by an analysed
// seat. A forced decision (one legal move) is not searched: it marshals
// with only n, seat, move and "forced": true.
type Decision struct {
	N            int           `json:"n"`    // the move's 1-based number in the script
	Seat         int           `json:"seat"` // the seat that made it
	Move         string        `json:"move"` // the move, in canonical notation
	Forced       bool          `json:"forced,omitempty"`
	Chance       float64       `json:"chance"`      // the seat's chance of winning the match after Move
	Best         string        `json:"best"`        // the move the search rates highest
	BestChance   float64       `json:"best_chance"` // its chance
	Loss         float64       `json:"loss"`        // BestChance - Chance, at least 0
	Label        string        `json:"label"`       // "best", "good", "inaccuracy", "mistake" or "blunder"
	Iterations   int           `json:"iterations"`  // the search iterations behind the figures
	Alternatives []Alternative `json:"alternatives"`
}

// MarshalJSON writes d as the report has it: a forced decision without
// the search's figures.
func (d Decision) MarshalJSON() ([]byte, error) {
	if d.Forced {
		return json.Marshal(struct {
			N      int    `json:"n"`
			Seat   int    `json:"seat"`
			Move   string `json:"move"`
			Forced bool   `json:"forced"`
		}{d.N, d.Seat, d.Move, true})
	}
	type plain Decision
	return json.Marshal(plain(d))
}

// Alternative is a legal move the search weighed at a decision.
type Alternative struct {
	Move   string  `json:"move"`
	Chance float64 `json:"chance"`
	Visits int     `json:"visits"`
}

// SeatSummary sums one analysed seat's decisions that were not forced.
type SeatSummary struct {
	Seat         int     `json:"seat"`
	Decisions    int     `json:"decisions"`
	MeanLoss     float64 `json:"mean_loss"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// Analyse replays s (seed from script.Parse) and analyses the decisions of
// opt.Seats. A refused move: the error matches game.ErrIllegalMove or
// game.ErrBadMove (nothing analysed); an unusable script: matches
// script.ErrUnusable; options that do not fit the script: ErrBadOptions.
// ctx cancels.
func Analyse(ctx context.Context, lookup script.Lookup, s *script.Script, seed uint64, opt Options) (*Report, error) {
	g, err := lookup(s.Game)
	if err != nil {
		return nil, unusable("%v", err)
	}
	opts, err := game.Resolve(g, s.Options)
	if err != nil {
		return nil, unusable("%v", err)
	}
	deals := s.Deals
	if s.Layout != nil {
		deals = []game.Layout{s.Layout}
	}
	st, err := g.New(opts, seed, deals)
	if err != nil {
		return nil, unusable("%v", err)
	}
	n := st.Players()
	analysed := make([]bool, n)
	if opt.Seats == nil {
		for i := range analysed {
			analysed[i] = true
		}
	}
	for _, seat := range opt.Seats {
		if seat < 0 || seat >= n {
			return nil, fmt.Errorf("%w: no seat %d (seats are 0-%d)", ErrBadOptions, seat, n-1)
		}
		analysed[seat] = true
	}
	if opt.Think < 0 || opt.Iterations < 0 {
		return nil, fmt.Errorf("%w: a negative think or iterations", ErrBadOptions)
	}
	// Every move is checked before any is analysed.
	type step struct {
		seat int
		m    game.Move
	}
	steps := make([]step, len(s.Moves))
	check := st.Clone()
	total := 0
	for i, text := range s.Moves {
		seat, m, err := game.ParseSeatMove(check, text)
		if err == nil {
			err = game.Apply(check, seat, m)
		}
		if err != nil {
			if errors.Is(err, game.ErrBadLayout) {
				return nil, unusable("move %d %q: %v", i+1, text, err)
			}
			return nil, &MoveError{N: i + 1, Text: text, Err: err}
		}
		steps[i] = step{seat, m}
		if analysed[seat] {
			total++
		}
	}
	an := NewAnalyser(g, opts, opt)
	rep := &Report{Game: g.Name(), Players: n, Mode: "information", ThinkMS: an.think.Milliseconds(), Decisions: []Decision{}}
	if opt.Hindsight {
		rep.Mode = "hindsight"
	}
	done := 0
	for i, sp := range steps {
		if analysed[sp.seat] {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d := an.Decide(st, sp.seat, sp.m, rand.New(rand.NewPCG(seed, uint64(i+1)^opt.salt<<32)))
			d.N = i + 1
			rep.Decisions = append(rep.Decisions, d)
			done++
			if opt.Progress != nil {
				opt.Progress(done, total)
			}
		}
		st.ApplyFast(sp.seat, sp.m)
	}
	rep.Seats = Summarise(rep.Decisions, analysedSeats(analysed))
	return rep, nil
}

func analysedSeats(analysed []bool) []int {
	var out []int
	for seat, ok := range analysed {
		if ok {
			out = append(out, seat)
		}
	}
	return out
}

// Summarise sums the decisions of each of seats that were not forced:
// their number, mean loss and bad labels.
func Summarise(ds []Decision, seats []int) []SeatSummary {
	out := make([]SeatSummary, len(seats))
	sum := make([]float64, len(seats))
	for k, seat := range seats {
		out[k].Seat = seat
	}
	for _, d := range ds {
		k := slices.Index(seats, d.Seat)
		if k < 0 || d.Forced {
			continue
		}
		out[k].Decisions++
		sum[k] += d.Loss
		switch d.Label {
		case LabelInaccuracy:
			out[k].Inaccuracies++
		case LabelMistake:
			out[k].Mistakes++
		case LabelBlunder:
			out[k].Blunders++
		}
	}
	for k := range out {
		if out[k].Decisions > 0 {
			out[k].MeanLoss = round(sum[k]/float64(out[k].Decisions), 4)
		}
	}
	return out
}

// MoveError is a move of the script that was refused: nothing is
// analysed. It matches what the move's refusal matches
// (game.ErrIllegalMove, game.ErrBadMove).
type MoveError struct {
	N    int    // the move's 1-based number in the script
	Text string // the move as the script has it
	Err  error  // why it was refused
}

// Error names the move and says why, as parlour script's report does.
func (e *MoveError) Error() string { return fmt.Sprintf("move %d %q: %v", e.N, e.Text, e.Err) }

// Unwrap returns the refusal.
func (e *MoveError) Unwrap() error { return e.Err }

type unusableError struct{ msg string }

func (e *unusableError) Error() string        { return e.msg }
func (e *unusableError) Is(target error) bool { return target == script.ErrUnusable }

func unusable(format string, args ...any) error {
	return &unusableError{fmt.Sprintf(format, args...)}
}

// round rounds x to d decimals.
func round(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// An Analyser rates the decisions of matches of one game under one set of
// options, as Analyse does. It is for one goroutine at a time.
type Analyser struct {
	search     bot.Search
	think      time.Duration
	iterations int
	hindsight  bool
	value      *valuer
}

// NewAnalyser returns an Analyser of g under opts (resolved), searching
// as opt says (its Seats and Progress are not used).
func NewAnalyser(g game.Game, opts game.Options, opt Options) *Analyser {
	hard, _ := bot.Level("hard")
	sr := hard.Settings(g)
	sr.Label, sr.Workers, sr.Pace = "analysis", 1, opt.Pace
	a := &Analyser{think: opt.Think, iterations: opt.Iterations, hindsight: opt.Hindsight, value: newValuer(g, opts)}
	if a.iterations > 0 {
		sr.Iterations, sr.Think = a.iterations, a.think
	} else {
		if a.think == 0 {
			a.think = DefaultThink
		}
		sr.Iterations, sr.Think = 0, a.think
	}
	a.search = sr
	return a
}

// open is a state whose determinisations are itself: a search on it sees
// every card (hindsight).
type open struct{ game.State }

func (o open) Determinize(int, *rand.Rand) game.State { return o.State.Clone() }

// maxWeighed is the most moves a decision with more than bot.MaxBranch
// legal moves weighs: the move played, the heuristic's and others drawn
// at random.
const maxWeighed = 32

// Decide rates seat's decision in st, where it played the move played
// (legal; seat is to act): a forced decision if it was the only legal
// move, else the chance after it, the best move and the loss, its N left
// 0. The search draws from rng.
func (a *Analyser) Decide(st game.State, seat int, played game.Move, rng *rand.Rand) Decision {
	legal := st.Legal(seat, nil)
	if len(legal) == 1 {
		return Decision{Seat: seat, Move: st.FormatMove(played), Forced: true}
	}
	return a.decide(st, seat, played, legal, rng)
}

// decide rates a decision that is not forced; legal are seat's legal
// moves. In information mode it reads st only as the search does (ToAct,
// Players, Game, FormatMove, Legal(seat), View(seat), Determinize(seat)):
// never a card seat could not see.
//
// It runs in two halves of the budget. The first searches every move
// (or, past bot.MaxBranch legal moves, a sample with the move played);
// its most visited move is the best. If that is not the move played, the
// second half is a duel: the best and the move played, each searched
// alone on a quarter of the budget, so that the loss, a difference of two
// means, rests on equal and many visits.
func (a *Analyser) decide(st game.State, seat int, played game.Move, legal []game.Move, rng *rand.Rand) Decision {
	var view game.State = st
	if a.hindsight {
		view = open{st}
	}
	w := bot.Weighing{Value: a.value.utility()}
	if len(legal) > bot.MaxBranch {
		w.Only = weighed(st, seat, played, legal, rng)
	}
	first := a.search
	if a.iterations > 0 {
		first.Iterations = max(1, a.iterations/2)
	}
	if a.think > 0 {
		first.Think = max(time.Millisecond, a.think/2)
	}
	res := first.AnalyseWith(view, seat, rng, w)
	stats := map[game.Move]*bot.MoveStat{}
	order := make([]game.Move, 0, len(res.Root))
	for i := range res.Root {
		ms := res.Root[i]
		stats[ms.Move] = &ms
		order = append(order, ms.Move)
	}
	// The most visited move is the search's choice.
	sort.SliceStable(order, func(i, j int) bool {
		x, y := stats[order[i]], stats[order[j]]
		if x.Visits != y.Visits {
			return x.Visits > y.Visits
		}
		return x.Reward*float64(y.Visits) > y.Reward*float64(x.Visits)
	})
	iters := res.Iterations
	d := Decision{Seat: seat, Move: st.FormatMove(played), Alternatives: []Alternative{}}
	if len(order) == 0 {
		// Nothing searched: the move played stands alone.
		d.Best, d.Label, d.Iterations = d.Move, LabelBest, iters
		return d
	}
	best := order[0]
	if best != played {
		duel := a.search
		if a.iterations > 0 {
			duel.Iterations = max(1, a.iterations/4)
		}
		if a.think > 0 {
			duel.Think = max(time.Millisecond, a.think/4)
		}
		for _, m := range []game.Move{best, played} {
			w.Only = []game.Move{m}
			more := duel.AnalyseWith(view, seat, rng, w)
			iters += more.Iterations
			for _, ms := range more.Root {
				if ps, ok := stats[ms.Move]; ok {
					ps.Visits += ms.Visits
					ps.Reward += ms.Reward
				} else {
					stats[ms.Move] = &ms
					order = append(order, ms.Move)
				}
			}
		}
	}
	mean := func(m game.Move) float64 {
		ms := stats[m]
		if ms == nil || ms.Visits == 0 {
			return 0
		}
		return ms.Reward / float64(ms.Visits)
	}
	d.Iterations = iters
	d.Chance = round(mean(played), 4)
	d.BestChance = round(mean(best), 4)
	if d.Chance >= d.BestChance {
		// The move played is rated at least as high: it is the best.
		best, d.BestChance = played, d.Chance
	}
	d.Best = st.FormatMove(best)
	d.Loss = max(0, round(d.BestChance-d.Chance, 4))
	d.Label = Label(d.Loss)
	order = slices.DeleteFunc(order, func(m game.Move) bool { return m == best })
	order = slices.Insert(order, 0, best)
	for _, m := range order {
		if len(d.Alternatives) == MaxAlternatives {
			break
		}
		if ms := stats[m]; ms != nil && ms.Visits > 0 {
			d.Alternatives = append(d.Alternatives, Alternative{Move: st.FormatMove(m), Chance: round(mean(m), 4), Visits: ms.Visits})
		}
	}
	return d
}

// weighed returns the moves a decision with very many legal moves weighs:
// the move played, the heuristic's choice, and others drawn at random, at
// most maxWeighed in all.
func weighed(st game.State, seat int, played game.Move, legal []game.Move, rng *rand.Rand) []game.Move {
	out := []game.Move{played}
	if h := (bot.Heuristic{}).Choose(st, seat, rng); h != played {
		out = append(out, h)
	}
	perm := rng.Perm(len(legal))
	for _, k := range perm {
		if len(out) == maxWeighed {
			break
		}
		if m := legal[k]; !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}
