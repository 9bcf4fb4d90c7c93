// Package sim is Parlour's designer's lab: it plays many seeded matches of
// a game between bots, on every core, and measures the rule set: how each
// seat does (seat advantage), scores, how long matches and deals last, how
// often the lead changes and the last deal decides, and each game's own
// figures, every one with a 95% confidence interval. Two variants of the
// options (A and B) play the same seeded deals, so that the report can give
// the paired difference of every figure with its interval.
//
// A run is reproducible: the same configuration and seed give the same
// report, whatever the number of workers.
package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"parlour/bot"
	"parlour/game"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
	"parlour/internal/arena"
	"parlour/internal/runner"
)

// Variant is one set of rules to measure: resolved options and a bot per
// seat.
type Variant struct {
	// Label names the variant in the report, e.g. "holes=5" ("A" or "B"
	// when empty).
	Label   string
	Options game.Options
	Bots    []bot.Bot
}

// Config is a run of the lab.
type Config struct {
	Game game.Game
	// A is the variant measured; B, if it has options, is compared with it
	// on the same seeded deals.
	A, B Variant
	// Matches is the number of matches each variant plays. Match i is
	// dealt with seed Seed+i in both variants, and the bot at seat j draws
	// its chances from a generator seeded with (Seed+i, j).
	Matches int
	Seed    uint64
	// Workers is the number of matches played at once (0: one per core).
	Workers int
	// Progress, if set, is called after each match (of both variants) with
	// the number done, never concurrently.
	Progress func(done, total int)
}

// Observer follows matches move by move and records a game's own
// figures. The lab makes one per worker and calls it from that worker's
// goroutine, one match after another: it may read the whole state (it is a
// trusted tool), through the game's exported accessors.
type Observer interface {
	// Start is called with a new match before its first move, and the
	// record its figures go to.
	Start(s game.State, r *Record)
	// Observe is called after every move, with the state after it.
	Observe(s game.State, seat int, m game.Move)
	// DealEnd is called inside the move that ends a deal, after the deal
	// is scored and before the next is dealt, with the deal's last
	// position in place (game.State.WatchDeals); Observe follows it.
	DealEnd(s game.State)
	// Finish is called once the match is over.
	Finish(s game.State)
}

// Figures is what the lab knows of one game beyond the contract: its own
// figures and how to read them.
type Figures interface {
	// Specs declares the game's own figures for the given options.
	Specs(o game.Options) []Spec
	// NewObserver returns an observer for matches with options o, or nil.
	NewObserver(o game.Options) Observer
}

// Standinger is implemented by Figures whose match standing is not
// Result().Totals (Court Circular's 1862 Hits): Standing fills out with
// each seat's standing, higher leading (after game.Info's LowWins), and Score with
// each seat's final score.
type Standinger interface {
	Standing(s game.State, out []int)
	Score(s game.State, out []int)
}

// figures holds each game's own Figures, by game.Game.Name (a test checks
// that every registered game has an entry).
var figures = map[string]Figures{
	courtcircular.Game{}.Name(): ccFigures{},
	damn.Game{}.Name():          damnFigures{},
	golf.Game{}.Name():          golfFigures{},
	parcellus.Game{}.Name():     parcellusFigures{},
	tractric.Game{}.Name():      tractricFigures{},
}

// FiguresFor returns the Figures of a game: its own, or the plain ones
// (no figures of its own).
func FiguresFor(g game.Game) Figures {
	if f, ok := figures[g.Name()]; ok {
		return f
	}
	return plain{}
}

// HasFigures reports whether g has figures of its own.
func HasFigures(g game.Game) bool {
	_, ok := figures[g.Name()]
	return ok
}

type plain struct{}

func (plain) Specs(game.Options) []Spec         { return nil }
func (plain) NewObserver(game.Options) Observer { return nil }

// winScale is the scale of shared wins: a win shared by k seats (k up to
// 8) counts 840/k exactly.
const winScale = 840

// Specs returns every figure a variant's matches record, the generic ones
// first.
func Specs(g game.Game, o game.Options) []Spec {
	f := FiguresFor(g)
	n := o.Players()
	var specs []Spec
	for i := range n {
		specs = append(specs, Spec{Key: winKeys[i], Group: "Seats", Label: fmt.Sprintf("wins, seat %d", i),
			Kind: Proportion, Seat: i, Scale: winScale, Share: true})
	}
	for i := range n {
		specs = append(specs, Spec{Key: scoreKeys[i], Group: "Seats", Label: fmt.Sprintf("final score, seat %d", i),
			Kind: Mean, Seat: i, Hist: true})
	}
	specs = append(specs,
		Spec{Key: "unresolved", Group: "Seats", Label: "matches without a winner", Kind: Proportion, Seat: -1, Share: true},
		Spec{Key: "moves", Group: "Length", Label: "moves per match", Kind: Mean, Seat: -1, Hist: true})
	if !g.Info().OneDeal {
		specs = append(specs,
			Spec{Key: "deals", Group: "Length", Label: "deals per match", Kind: Mean, Seat: -1, Hist: true},
			Spec{Key: "deal_moves", Group: "Length", Label: "moves per deal", Kind: Rate, Seat: -1, Hist: true},
			Spec{Key: "lead_changes", Group: "Tension", Label: "lead changes per match (sole leader after a deal)", Kind: Mean, Seat: -1, Hist: true},
			Spec{Key: "last_deal", Group: "Tension", Label: "last deal decides the match (winners were not the leaders before it)", Kind: Proportion, Seat: -1, Share: true})
	}
	specs = append(specs, f.Specs(o)...)
	return specs
}

// arm is one variant ready to play.
type arm struct {
	opts    game.Options
	bots    []bot.Bot
	random  []bool // the seat's bot is the random bot: the fast path
	seated  bool   // some bot is a bot.Seater (an external program)
	specs   []Spec
	index   map[string]int
	figs    Figures
	low     bool
	single  bool
	stander Standinger
}

func newArm(g game.Game, v Variant) (*arm, error) {
	n := v.Options.Players()
	if len(v.Bots) != n {
		return nil, fmt.Errorf("%d bots for %d seats: name one bot per seat", len(v.Bots), n)
	}
	a := &arm{opts: v.Options, bots: v.Bots, specs: Specs(g, v.Options), index: map[string]int{}, figs: FiguresFor(g)}
	for i, s := range a.specs {
		if _, dup := a.index[s.Key]; dup {
			return nil, fmt.Errorf("figure %q declared twice", s.Key)
		}
		a.index[s.Key] = i
	}
	for _, b := range v.Bots {
		_, r := b.(bot.Random)
		a.random = append(a.random, r)
		_, seater := b.(bot.Seater)
		a.seated = a.seated || seater
	}
	a.low = g.Info().LowWins
	a.single = g.Info().OneDeal
	a.stander, _ = a.figs.(Standinger)
	return a, nil
}

// Run plays the matches and returns the report. It stops early with ctx's
// error if ctx ends.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Matches <= 0 {
		return nil, fmt.Errorf("no matches to play")
	}
	// Check that both variants can start before spending any time.
	for _, v := range []Variant{cfg.A, cfg.B} {
		if v.Options == nil {
			continue
		}
		if _, err := cfg.Game.New(v.Options, cfg.Seed, nil); err != nil {
			return nil, err
		}
	}
	a, err := newArm(cfg.Game, cfg.A)
	if err != nil {
		return nil, err
	}
	var b *arm
	if cfg.B.Options != nil {
		if b, err = newArm(cfg.Game, cfg.B); err != nil {
			return nil, err
		}
	}
	var bspecs []Spec
	if b != nil {
		bspecs = b.specs
	}
	all, mapA, mapB := unionSpecs(a.specs, bspecs)

	// Each worker plays with players and a tally of its own.
	type worker struct {
		a, b *player
		t    *tally
	}
	ws := make([]worker, runner.Workers(cfg.Workers, cfg.Matches))
	for w := range ws {
		ws[w] = worker{a: newPlayer(cfg.Game, a), t: newTally(len(all), mapA, mapB)}
		if b != nil {
			ws[w].b = newPlayer(cfg.Game, b)
		}
	}
	err = runner.Run(ctx, cfg.Matches, len(ws), cfg.Progress, func(w, i int) error {
		wk := &ws[w]
		seed := cfg.Seed + uint64(i)
		if err := wk.a.play(seed); err != nil {
			return fmt.Errorf("match %d (seed %d): %w", i+1, seed, err)
		}
		var rb *Record
		if wk.b != nil {
			if err := wk.b.play(seed); err != nil {
				return fmt.Errorf("variant B, match %d (seed %d): %w", i+1, seed, err)
			}
			rb = wk.b.rec
		}
		wk.t.add(wk.a.rec, rb)
		return nil
	})
	if err != nil {
		return nil, err
	}
	total := ws[0].t
	for _, wk := range ws[1:] {
		total.merge(wk.t)
	}
	return buildReport(cfg, all, total), nil
}

// player plays the matches of one variant on one worker, reusing its
// buffers.
type player struct {
	g     game.Game
	arm   *arm
	rec   *Record
	buf   []game.Move
	rngs  []*rand.Rand
	pcgs  []*rand.PCG
	stand []int
	score []int
	obs   Observer
	st    game.State // the match, reset for each seed
}

func newPlayer(g game.Game, a *arm) *player {
	n := a.opts.Players()
	p := &player{g: g, arm: a, rec: newRecord(a.specs, a.index), buf: make([]game.Move, 0, 256),
		stand: make([]int, n), score: make([]int, n), obs: a.figs.NewObserver(a.opts)}
	for range n {
		pcg := rand.NewPCG(0, 0)
		p.pcgs = append(p.pcgs, pcg)
		p.rngs = append(p.rngs, rand.New(pcg))
	}
	return p
}

// totaler is implemented by states that give a seat's Result().Totals
// entry cheaply; others are asked Result() after every deal.
type totaler interface {
	Total(seat int) int
}

// play plays one match with the given seed into p.rec.
func (p *player) play(seed uint64) error {
	a := p.arm
	n := len(a.bots)
	s := p.st
	if s == nil {
		var err error
		if s, err = p.g.New(a.opts, seed, nil); err != nil {
			return err
		}
		if p.obs != nil {
			s.WatchDeals(p.obs.DealEnd)
		}
		p.st = s
	} else {
		s.Reset(seed)
	}
	for j := range n {
		p.pcgs[j].Seed(seed, uint64(j))
	}
	rec := p.rec
	rec.reset()
	obs := p.obs
	if obs != nil {
		obs.Start(s, rec)
	}
	// External bots (the bot protocol) follow the match seat by seat.
	var table *bot.Table
	if a.seated {
		table = bot.Sit(fmt.Sprintf("m%d", seed), s, a.opts, a.bots)
		defer func() { table.End(s) }()
	}
	deals := 0
	movesInDeal := int64(0)
	moves := 0
	leadChanges := int64(0)
	sole := -1
	var leaders, before game.Seats // after the last deal, and the deal before it
	for {
		acts := s.ToAct()
		if acts == 0 {
			break
		}
		if moves >= arena.MaxMoves {
			return fmt.Errorf("no end after %d moves", moves)
		}
		seat := acts.First()
		var m game.Move
		if a.random[seat] {
			p.buf = s.Legal(seat, p.buf[:0])
			if len(p.buf) == 0 {
				return fmt.Errorf("seat %d is to act but has no legal move", seat)
			}
			m = p.buf[p.rngs[seat].IntN(len(p.buf))]
			s.ApplyFast(seat, m)
		} else {
			b := a.bots[seat]
			if table != nil {
				b = table.Bots[seat]
			}
			m = b.Choose(s, seat, p.rngs[seat])
			if err := game.Apply(s, seat, m); err != nil {
				return fmt.Errorf("%s at seat %d: %w", b.Name(), seat, err)
			}
		}
		if table != nil {
			table.Moved(s, seat, m, acts.Len() > 1)
		}
		moves++
		movesInDeal++
		if obs != nil {
			obs.Observe(s, seat, m)
		}
		if d := s.DealsPlayed(); d != deals {
			if !a.single {
				rec.Add("deal_moves", movesInDeal, int64(d-deals))
				rec.Observe("deal_moves", movesInDeal)
				before, leaders = leaders, p.leaders(s)
				if leaders.Len() == 1 {
					if l := leaders.First(); l != sole {
						if sole >= 0 {
							leadChanges++
						}
						sole = l
					}
				}
			}
			deals, movesInDeal = d, 0
		}
	}
	r := s.Result()
	var winners game.Seats
	for _, w := range r.Winners {
		winners = winners.Add(w)
	}
	for _, w := range r.Winners {
		rec.Set(winKeys[w], winScale/int64(len(r.Winners)), 1)
	}
	for i := range n {
		if !winners.Has(i) {
			rec.Set(winKeys[i], 0, 1)
		}
	}
	if a.stander != nil {
		a.stander.Score(s, p.score)
	} else {
		copy(p.score, r.Totals)
	}
	for i := range n {
		rec.Set(scoreKeys[i], int64(p.score[i]), 1)
	}
	rec.Set("unresolved", b2i(len(r.Winners) == 0), 1)
	rec.Set("moves", int64(moves), 1)
	if !a.single {
		rec.Set("deals", int64(deals), 1)
		rec.Set("lead_changes", leadChanges, 1)
		decided := int64(0)
		if deals >= 2 && len(r.Winners) > 0 {
			decided = 1
		}
		rec.Set("last_deal", b2i(winners != before)*decided, decided)
	}
	if obs != nil {
		obs.Finish(s)
	}
	return nil
}

// leaders returns the seats with the best standing now.
func (p *player) leaders(s game.State) game.Seats {
	switch t, ok := s.(totaler); {
	case p.arm.stander != nil:
		p.arm.stander.Standing(s, p.stand)
	case ok:
		for i := range p.stand {
			p.stand[i] = t.Total(i)
		}
	default:
		copy(p.stand, s.Result().Totals)
	}
	if p.arm.stander == nil && p.arm.low {
		for i := range p.stand {
			p.stand[i] = -p.stand[i]
		}
	}
	best := slices.Max(p.stand)
	var l game.Seats
	for i, v := range p.stand {
		if v == best {
			l = l.Add(i)
		}
	}
	return l
}

var (
	winKeys   = seatKeyList("win", 16)
	scoreKeys = seatKeyList("score", 16)
)

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
