// Package arena plays seeded matches between bots and sums up how each
// bot did: matches won with a confidence interval, mean score, thinking
// time. Seats rotate over the same deals so that seat luck cancels, and the
// matches run in parallel; a run is reproducible from its seed whatever the
// number of workers, unless a bot thinks against the clock (a search with a
// time budget, or a level whose cap, bot.LevelCap, cuts a decision short).
package arena

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"parlour/analysis"
	"parlour/bot"
	"parlour/game"
	"parlour/internal/runner"
)

// MaxMoves bounds a match: a match that has not ended after so many moves
// is an error (a game that does not end, or a bot that loops).
const MaxMoves = 1_000_000

// Config is a tournament.
type Config struct {
	Game    game.Game
	Options game.Options
	// Bots holds one bot per seat, as named at the start of the rotation.
	// Bots with the same name are pooled in the report.
	Bots []bot.Bot
	// Matches is the number of matches. Match i deals with seed Seed+i/n
	// (n players) and seats bot (j+i) mod n at seat j, so every n matches
	// play the same deal with every bot in every seat. A multiple of n
	// cancels seat luck fully.
	Matches int
	Seed    uint64
	// Workers is the number of matches played at once (0: one per core).
	Workers int
	// Progress, if set, is called after each match with the number done,
	// never concurrently.
	Progress func(done, total int)
	// Analyse, if positive, is how many decisions of each seat in each
	// match are analysed (package analysis), drawn at random among its
	// decisions between more than one legal move; the report then gives
	// each bot's mean loss and mistakes per game. Analysis is how the
	// analysis searches (its Seats and Progress are not used): with fixed
	// Iterations and no Think the figures are reproducible.
	Analyse  int
	Analysis analysis.Options
}

// Standing is how one bot did, pooled over the seats it held.
type Standing struct {
	Name string `json:"name"`
	// Seats is how many seats of the table the bot held.
	Seats int `json:"seats"`
	// Matches counts the bot's seat-matches: matches times seats held.
	Matches int `json:"matches"`
	// Wins counts matches won, a win shared by k seats as 1/k.
	Wins    float64 `json:"wins"`
	WinRate float64 `json:"win_rate"`
	// CI95 is the 95% Wilson score interval of WinRate.
	CI95 [2]float64 `json:"ci95"`
	// MeanScore is the mean final total (Result().Totals) of the bot's seats.
	MeanScore float64 `json:"mean_score"`
	// Moves and MsPerMove are the bot's decisions and its mean thinking
	// time per decision.
	Moves     int64   `json:"moves"`
	MsPerMove float64 `json:"ms_per_move"`
	// Faults counts the bot's moves that were faults, made by the random
	// bot instead (an external bot's bad or late answer; 0 for built-in
	// bots).
	Faults int `json:"faults"`
	// Choices counts the bot's decisions between more than one legal
	// move; ThinkMsMean and ThinkMsMax are the mean and the longest
	// wall-clock time its Choose took on them, in milliseconds: what a
	// person at the table would wait.
	Choices     int64   `json:"choices"`
	ThinkMsMean float64 `json:"think_ms_mean"`
	ThinkMsMax  float64 `json:"think_ms_max"`
	// Analysed counts the bot's decisions analysed (Config.Analyse).
	// MeanLoss is its mean loss per decision (shared/spec/analysis.md)
	// and MistakesPerGame its decisions per match that lose 0.10 or more
	// (labelled mistake or blunder), both estimated from the sample:
	// each seat's sample in a match stands for all its decisions between
	// more than one move in that match. The three are left out without
	// analysis.
	Analysed        int      `json:"analysed,omitempty"`
	MeanLoss        *float64 `json:"mean_loss,omitempty"`
	MistakesPerGame *float64 `json:"mistakes_per_game,omitempty"`
}

// Report is the outcome of a tournament, in the shape of shared/spec/cli.md.
type Report struct {
	Game      string     `json:"game"`
	Players   int        `json:"players"`
	Matches   int        `json:"matches"`
	Seed      uint64     `json:"seed"`
	Seconds   float64    `json:"seconds"`
	GamesPerS float64    `json:"games_per_s"`
	Bots      []Standing `json:"bots"`
	// Unresolved counts matches that ended without a winner.
	Unresolved int `json:"unresolved"`
}

// Outcome is one match's result, per seat of the table.
type Outcome struct {
	Wins   []float64       // 1/k for each of k winners
	Totals []int           // Result().Totals at the end
	Moves  []int64         // decisions made
	Think  []time.Duration // time spent choosing them
	Faults []int           // moves that were faults (external bots)
	// Choices, ChoiceThink and MaxThink are the decisions between more
	// than one legal move, the time spent on them, and the longest.
	Choices     []int64
	ChoiceThink []time.Duration
	MaxThink    []time.Duration
	// Analysed, Loss and Mistakes are the decisions analysed
	// (Config.Analyse), the sum of their losses, and how many lost 0.10
	// or more; nil without analysis.
	Analysed []int
	Loss     []float64
	Mistakes []int
	Err      error // why the match could not be played out
}

// Run plays the tournament. It stops early with ctx's error if ctx ends.
func Run(ctx context.Context, cfg Config) (Report, error) {
	n := cfg.Options.Players()
	if len(cfg.Bots) != n {
		return Report{}, fmt.Errorf("%d bots for %d seats: name one bot per seat", len(cfg.Bots), n)
	}
	if cfg.Matches <= 0 {
		return Report{}, fmt.Errorf("no matches to play")
	}
	start := time.Now()
	out := make([]Outcome, cfg.Matches)
	// An analyser per worker: one is for one goroutine at a time.
	analysers := make([]*analysis.Analyser, runner.Workers(cfg.Workers, cfg.Matches))
	err := runner.Run(ctx, cfg.Matches, cfg.Workers, cfg.Progress, func(w, i int) error {
		if cfg.Analyse <= 0 {
			out[i] = Play(cfg.Game, cfg.Options, cfg.Bots, i, cfg.Seed)
			return nil
		}
		var moves []analysis.Played
		out[i] = play(cfg.Game, cfg.Options, cfg.Bots, i, cfg.Seed, &moves)
		if out[i].Err == nil {
			if analysers[w] == nil {
				analysers[w] = analysis.NewAnalyser(cfg.Game, cfg.Options, cfg.Analysis)
			}
			out[i].Err = analyse(analysers[w], cfg, i, moves, &out[i])
		}
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	elapsed := time.Since(start)
	rep := Report{Game: cfg.Game.Name(), Players: n, Matches: cfg.Matches, Seed: cfg.Seed, Seconds: elapsed.Seconds()}
	rep.GamesPerS = float64(cfg.Matches) / rep.Seconds
	index := map[string]int{}
	var scoreSum, lossSum, mistakes []float64
	var think, choiceThink []time.Duration
	for _, b := range cfg.Bots {
		if _, ok := index[b.Name()]; !ok {
			index[b.Name()] = len(rep.Bots)
			rep.Bots = append(rep.Bots, Standing{Name: b.Name()})
			scoreSum = append(scoreSum, 0)
			lossSum = append(lossSum, 0)
			mistakes = append(mistakes, 0)
			think = append(think, 0)
			choiceThink = append(choiceThink, 0)
		}
		rep.Bots[index[b.Name()]].Seats++
	}
	for i, o := range out {
		if o.Err != nil {
			return rep, fmt.Errorf("match %d (seed %d): %w", i+1, cfg.Seed+uint64(i/n), o.Err)
		}
		won := false
		for seat := range n {
			k := index[cfg.Bots[botAt(seat, i, n)].Name()]
			st := &rep.Bots[k]
			st.Matches++
			st.Wins += o.Wins[seat]
			won = won || o.Wins[seat] > 0
			scoreSum[k] += float64(o.Totals[seat])
			st.Moves += o.Moves[seat]
			st.Faults += o.Faults[seat]
			think[k] += o.Think[seat]
			st.Choices += o.Choices[seat]
			choiceThink[k] += o.ChoiceThink[seat]
			st.ThinkMsMax = max(st.ThinkMsMax, ms(o.MaxThink[seat]))
			if o.Analysed != nil && o.Analysed[seat] > 0 {
				// The sample stands for all the seat's decisions.
				w := float64(o.Choices[seat]) / float64(o.Analysed[seat])
				st.Analysed += o.Analysed[seat]
				lossSum[k] += w * o.Loss[seat]
				mistakes[k] += w * float64(o.Mistakes[seat])
			}
		}
		if !won {
			rep.Unresolved++
		}
	}
	for k := range rep.Bots {
		st := &rep.Bots[k]
		st.WinRate = st.Wins / float64(st.Matches)
		st.CI95 = Wilson(st.Wins, st.Matches)
		st.MeanScore = scoreSum[k] / float64(st.Matches)
		if st.Moves > 0 {
			st.MsPerMove = ms(think[k]) / float64(st.Moves)
		}
		if st.Choices > 0 {
			st.ThinkMsMean = ms(choiceThink[k]) / float64(st.Choices)
		}
		if cfg.Analyse > 0 {
			loss, perGame := 0.0, mistakes[k]/float64(st.Matches)
			if st.Choices > 0 {
				loss = lossSum[k] / float64(st.Choices)
			}
			st.MeanLoss, st.MistakesPerGame = &loss, &perGame
		}
	}
	return rep, nil
}

// ms returns d in milliseconds.
func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// botAt returns the index in the bot list of the bot at seat in match i.
func botAt(seat, i, n int) int { return (seat + i%n) % n }

// Play plays match i of a tournament whose first deal seed is seed (see
// Config.Matches) and returns its outcome. Every move goes through the
// validated path: a bot's illegal move is an error.
func Play(g game.Game, opts game.Options, bots []bot.Bot, i int, seed uint64) Outcome {
	return play(g, opts, bots, i, seed, nil)
}

// play is Play, appending the moves made to *record unless nil.
func play(g game.Game, opts game.Options, bots []bot.Bot, i int, seed uint64, record *[]analysis.Played) Outcome {
	n := len(bots)
	o := Outcome{Wins: make([]float64, n), Totals: make([]int, n), Moves: make([]int64, n), Think: make([]time.Duration, n),
		Faults: make([]int, n), Choices: make([]int64, n), ChoiceThink: make([]time.Duration, n), MaxThink: make([]time.Duration, n)}
	dealSeed := seed + uint64(i/n)
	s, err := g.New(opts, dealSeed, nil)
	if err != nil {
		o.Err = err
		return o
	}
	seated := make([]bot.Bot, n)
	rngs := make([]*rand.Rand, n)
	for j := range n {
		seated[j] = bots[botAt(j, i, n)]
		rngs[j] = rand.New(rand.NewPCG(dealSeed, uint64(i%n)<<8|uint64(j)))
	}
	table := bot.Sit(fmt.Sprintf("m%d", i+1), s, opts, seated)
	seats := table.Bots
	var legal []game.Move
	for moves := 0; ; moves++ {
		acts := s.ToAct()
		if acts == 0 {
			break
		}
		if moves >= MaxMoves {
			o.Err = fmt.Errorf("no end after %d moves", moves)
			return o
		}
		q := acts.First()
		legal = s.Legal(q, legal[:0])
		t0 := time.Now()
		m := seats[q].Choose(s, q, rngs[q])
		el := time.Since(t0)
		o.Think[q] += el
		o.Moves[q]++
		if len(legal) > 1 {
			o.Choices[q]++
			o.ChoiceThink[q] += el
			o.MaxThink[q] = max(o.MaxThink[q], el)
		}
		if err := game.Apply(s, q, m); err != nil {
			table.End(s)
			o.Err = fmt.Errorf("%s at seat %d: %w", seats[q].Name(), q, err)
			return o
		}
		table.Moved(s, q, m, acts.Len() > 1)
		if record != nil {
			*record = append(*record, analysis.Played{Seat: q, Move: m})
		}
	}
	copy(o.Faults, table.End(s))
	r := s.Result()
	copy(o.Totals, r.Totals)
	for _, w := range r.Winners {
		o.Wins[w] += 1 / float64(len(r.Winners))
	}
	return o
}

// analyse rates cfg.Analyse decisions of each seat of match i, whose
// moves were moves, drawn at random with a source seeded by the match,
// and sums them into o.
func analyse(an *analysis.Analyser, cfg Config, i int, moves []analysis.Played, o *Outcome) error {
	n := len(cfg.Bots)
	dealSeed := cfg.Seed + uint64(i/n)
	o.Analysed, o.Loss, o.Mistakes = make([]int, n), make([]float64, n), make([]int, n)
	rng := rand.New(rand.NewPCG(dealSeed, uint64(i%n)<<8|0xa5))
	at := map[int]bool{}
	for seat := range n {
		idx, err := analysis.Sampled(cfg.Game, cfg.Options, dealSeed, moves, seat, cfg.Analyse, rng)
		if err != nil {
			return err
		}
		for _, k := range idx {
			at[k] = true
		}
	}
	s, err := cfg.Game.New(cfg.Options, dealSeed, nil)
	if err != nil {
		return err
	}
	for k, p := range moves {
		if at[k] {
			d := an.Decide(s, p.Seat, p.Move, rand.New(rand.NewPCG(dealSeed, uint64(i%n)<<32|uint64(k))))
			o.Analysed[p.Seat]++
			o.Loss[p.Seat] += d.Loss
			if d.Loss >= 0.10 {
				o.Mistakes[p.Seat]++
			}
		}
		s.ApplyFast(p.Seat, p.Move)
	}
	return nil
}

// Wilson returns the 95% Wilson score interval of a proportion of wins out
// of n.
func Wilson(wins float64, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p := wins / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return [2]float64{max(0, mid-half), min(1, mid+half)}
}
