// Package game is the contract every Parlour game implements, and what the
// rest of Parlour (scripts, bots, the table server, the lab) relies on.
//
// A Game is a rule set with a name and options. New makes a State: a whole
// match (deals, holes, games are events inside it) that answers who may act,
// which moves are legal, applies moves, and shows each seat only what it may
// see. Moves are opaque numbers with a canonical text notation that the game
// formats and parses.
//
// Chance is explicit: every shuffle draws from the state's own RNG, seeded at
// creation, so a seed and the list of moves replay a match exactly.
//
// The contract, in one place:
//
//   - Game: Name, Title, Summary, Rules, Players, Options (checked and
//     filled in by Resolve, with OptionChecker for options that depend on
//     each other), Info (how a match is scored and how long it is, what
//     a deal is called, how seats pair up), New (every fixed deal checked
//     before any move).
//   - State: ToAct (a set of seats), Legal (into the caller's buffer),
//     ApplyFast (unchecked), Clone, View (per seat, or Spectator), Result,
//     DealsPlayed, WatchDeals (see each deal's last position), Reset (the
//     same match again from a new seed, no allocation), Determinize,
//     FormatMove, ParseMove, Places (where every card is, who may see it).
//   - Apply is the one checked path, for every game: the seat must be to
//     act and the move among its legal moves; a refusal matches
//     ErrIllegalMove, says why (through the state's Explainer, if any) and
//     changes nothing. Guard lets a game refuse a legal move that leads
//     into a fixed deal the rules cannot use.
//   - Text: FormatMove and ParseMove per game; ParseSeatMove, FormatSeatMove
//     and LegalText for "SEAT: MOVE" lines and sorted legal moves.
//   - Optional: Reporter (a script report's "public"); Encoder (a
//     fixed-size observation vector of what a seat knows, and a fixed
//     action space, for learning programs); Narrator (a move in words)
//     and Revealer (the cards a move shows face up only for a moment);
//     DealEndViewer (what a seat sees of a deal's end, before the next
//     deal is dealt, checked by the conformance kit);
//     and the parts that spare allocations, each checked by the
//     conformance kit: for a table server telling moves, ViewAppender (a
//     view's JSON), VisibleAppender (what each seat sees) and Copier (a
//     copy in memory already held, for OutcomeOf); for the bots,
//     ViewFiller (a view built in memory already held) and Resampler (a
//     determinisation in memory already held); for both, ResultFiller (a
//     result in memory already held).
package game

import (
	"math/rand/v2"

	"parlour/card"
)

// Move is one decision of one seat, encoded by the game. Only the game that
// made it can read it; its text form comes from State.FormatMove.
type Move uint64

// Spectator is the seat number that asks for the public view.
const Spectator = -1

// Game is a rule set: the factory for its states.
type Game interface {
	// Name is the game's id, as in scripts and URLs: "golf".
	Name() string
	// Title is the game's display name: "Golf".
	Title() string
	// Summary is one sentence about the game.
	Summary() string
	// Rules is the rules in plain words, as this package implements them.
	Rules() string
	// Players returns the smallest and largest number of players.
	Players() (min, max int)
	// Options lists the game's own options (players and dealer are common
	// to all games and not listed).
	Options() []OptionSpec
	// Info tells how the game's matches are scored and how long they
	// are, what a deal is called and how seats pair up.
	Info() Info
	// New starts a match. The options must come from Resolve for this game;
	// deals, if not empty, fix the cards of the first deals (nil entries are
	// shuffled). Every fixed deal is checked before New returns; any error
	// matches ErrBadLayout or ErrBadOption.
	New(opts Options, seed uint64, deals []Layout) (State, error)
}

// Info is what bots, the lab, the table and the front ends need to know of
// a game beyond its moves: how its matches are scored and how long they
// are, what a deal is called, and how seats pair up. The table server
// sends it to the front ends in GET /api/games.
type Info struct {
	// LowWins reports that the lowest total leads and wins (Golf, Damn),
	// as opposed to the highest.
	LowWins bool
	// OneDeal reports that a match is a single deal (Damn): nothing
	// carries over between deals, and figures about deals do not apply.
	OneDeal bool
	// Deal is what the game's rules call a deal, in lower case, and Deals
	// its plural: "hole" (Golf), "hand" (Tractric), "game" (Damn, whose
	// match is one deal), "deal". The front ends number deals with it in
	// the scores and the log ("Hole 3", "End of hand 2").
	Deal, Deals string
	// Sides tells, by number of players, the side each seat plays for
	// where seats play in partnerships: Tractric's Sides[4] is
	// {0, 1, 0, 1}, seats 0 and 2 against seats 1 and 3. A number of
	// players it does not list: every seat plays for itself. Side reads
	// it; callers must not change it.
	Sides map[int][]int
}

// Side returns the side seat plays for at a table of players: its
// partnership's number from Sides, or else the seat itself.
func (i Info) Side(players, seat int) int {
	if s, ok := i.Sides[players]; ok && seat >= 0 && seat < len(s) {
		return s[seat]
	}
	return seat
}

// State is a whole match in progress. Methods that take a seat expect
// 0 <= seat < Players(), or Spectator where stated.
type State interface {
	// Game returns the rule set this state plays.
	Game() Game
	// Players returns the number of seats.
	Players() int
	// ToAct returns the seats that may act now: one seat, several when the
	// rules have seats choose at the same time, none when the match is over.
	ToAct() Seats
	// Legal appends the legal moves of seat to buf and returns it. It is
	// empty when seat may not act.
	Legal(seat int, buf []Move) []Move
	// ApplyFast applies a move known to be legal, without checks. Applying
	// an illegal move leaves the state undefined; Apply (the function) is
	// the checked path.
	ApplyFast(seat int, m Move)
	// Clone returns an independent copy.
	Clone() State
	// View returns what seat sees (Spectator: the public view). The value is
	// game-specific and marshals to JSON; cards in it are cards the seat may see.
	View(seat int) any
	// Result returns the scores and, once over, the winners.
	Result() Result
	// DealsPlayed returns the number of deals (hands, holes) finished, the
	// current one included once it is scored. It is cheap: a playout may
	// ask after every move.
	DealsPlayed() int
	// WatchDeals sets f (nil: none) to be called with the state each time a
	// deal ends, inside the move that ends it: after the deal is scored
	// (Result and DealsPlayed count it), before the next deal is dealt,
	// while the deal's last position (final layouts, the last trick) is
	// still in place. f must not change the state. Clone and Determinize
	// do not carry the watcher over; Reset keeps it.
	WatchDeals(f func(State))
	// Reset starts the same match again (the same options and fixed deals)
	// from seed, reusing the state's memory: New followed by Reset(seed)
	// is the same as New with seed. It does not allocate.
	Reset(seed uint64)
	// Determinize returns a full state sampled from what seat knows: every
	// card the seat cannot see is redealt at random among the places it
	// could be, consistent with everything the seat has seen, and choices of
	// others the seat has not seen yet are resampled.
	Determinize(seat int, rng *rand.Rand) State
	// FormatMove returns the canonical notation of m.
	FormatMove(m Move) string
	// ParseMove reads a move of seat in notation. An error matches
	// ErrBadMove and names what is wrong; parsing does not check legality.
	ParseMove(seat int, text string) (Move, error)
	// Places lists where every card is and who may see it there. It is the
	// ground truth the conformance kit checks views and conservation against.
	Places() []Place
}

// ViewAppender is implemented by a state that writes its views' JSON
// itself. AppendView appends View(seat) (seat may be Spectator) exactly
// as encoding/json marshals it, without building the view on the heap. A
// table server encodes a view for every seat after every move; it uses
// AppendView when the state has it, and encoding/json on View otherwise.
// The conformance kit checks that both give the same bytes in every
// position it visits. Every game of the registry implements it.
type ViewAppender interface {
	AppendView(b []byte, seat int) []byte
}

// ViewFiller is implemented by a state whose views can be built in memory
// the caller holds, for a caller that builds many: a heuristic bot reads a
// view for every decision, and a search's playouts for every move they
// play. FillView returns View(seat) as a pointer to the game's view type
// (*View for a View struct), built in dst: nil, or what an earlier
// FillView of a state of the same game returned, which it overwrites. A
// caller that passes back what it got allocates nothing after the first
// call. The conformance kit checks that the view filled marshals as View's
// does in every position it visits.
type ViewFiller interface {
	FillView(dst any, seat int) any
}

// Resampler is implemented by a state that determinizes into memory the
// caller holds. DeterminizeTo makes dst what Determinize(seat, rng) would
// return, drawing the same numbers from rng, and dst then shares no memory
// with the state. dst must be a state of the same game: from New, Clone, or
// an earlier CopyTo or DeterminizeTo. A search samples a determinisation
// for each of its thousands of iterations a second; with DeterminizeTo it
// allocates none. The conformance kit checks that both give the same state
// in every position it visits. Every game of the registry implements it.
type Resampler interface {
	DeterminizeTo(dst State, seat int, rng *rand.Rand)
}

// Resample returns what s.DeterminizeTo makes in a clone of s: the
// Determinize of a Resampler.
func Resample(s interface {
	State
	Resampler
}, seat int, rng *rand.Rand) State {
	d := s.Clone()
	s.DeterminizeTo(d, seat, rng)
	return d
}

// Reporter is implemented by a state whose script report shows, as its
// "public", a summary other than the spectator's view (shared/spec/script.md
// fixes the keys).
type Reporter interface {
	Report() any
}

// Place is a group of cards in one location, with who may see them.
type Place struct {
	Name    string // e.g. "seat 2 face-down", "stock"
	Cards   []card.Card
	Visible Seats // seats that may see these cards
	Public  bool  // spectators may see them too
}

// Result is where a match stands.
type Result struct {
	// Deal is the 1-based number of the current deal (hand, hole); after
	// the last, the last.
	Deal int
	// DealScores holds one row per finished deal, one number per seat.
	DealScores [][]int
	// Totals is the running match total per seat.
	Totals []int
	// Over reports whether the match has ended.
	Over bool
	// Winners are the seats that won, ascending; several on a shared win,
	// none while not over or when the match ended unresolved.
	Winners []int

	// nums is the memory of DealScores and Totals that FillResultRows
	// made, for the next FillResultRows to use again.
	nums []int
}

// ResultFiller is implemented by a state whose Result can be made in
// memory the caller holds. FillResult makes *r what Result returns,
// overwriting every field, in the memory of r's lists as an earlier
// FillResult (of a state of any game) left them: a caller that passes the
// same r back allocates nothing once its lists have room. A search scores
// thousands of playouts a second, and a table server reads a state's
// result for every frame it sends. What r holds is the caller's, sharing no
// memory with the state. The conformance kit checks that FillResult agrees
// with Result in every position it visits. Every game of the registry
// implements it.
type ResultFiller interface {
	FillResult(r *Result)
}

// FillResult makes *r the result of s: with FillResult when s is a
// ResultFiller, else Result's.
func FillResult(s State, r *Result) {
	if f, ok := s.(ResultFiller); ok {
		f.FillResult(r)
		return
	}
	*r = s.Result()
}

// FillResultRows is ResultRows in r's memory, for a FillResult: it sets
// r.DealScores and r.Totals as ResultRows makes them, and r.Winners to
// an empty list for the caller to append to, reusing the memory an
// earlier FillResultRows left in r.
func FillResultRows[T ~int | ~int8](r *Result, scores []T, deals, n int) {
	r.DealScores, r.nums = AppendResultRows(r.DealScores[:0], r.nums[:0], scores, deals, n)
	r.Totals = r.nums[deals*n:]
	r.Winners = r.Winners[:0]
	if r.Winners == nil {
		r.Winners = []int{}
	}
}

// ResultRows returns a Result's DealScores and Totals made in one block:
// the first deals*n of scores as deals rows of n, and a row of n totals,
// zero, for the caller to fill. Each row is capped at its length, so
// appending to one never writes into the next. A table server asks for a
// state's result after every move; with ResultRows, Result allocates the
// same twice however many deals were played.
func ResultRows[T ~int | ~int8](scores []T, deals, n int) (rows [][]int, totals []int) {
	rows, nums := AppendResultRows(make([][]int, 0, deals), make([]int, 0, deals*n+n), scores, deals, n)
	return rows, nums[deals*n:]
}

// AppendResultRows is ResultRows in memory the caller holds: it appends
// the first deals*n of scores, and a row of n zero totals, to nums, and
// the deals rows of n over them to rows (never nil), and returns both. A
// caller that passes back what it got allocates nothing once they have
// room.
func AppendResultRows[T ~int | ~int8](rows [][]int, nums []int, scores []T, deals, n int) ([][]int, []int) {
	start := len(nums)
	for _, x := range scores[:deals*n] {
		nums = append(nums, int(x))
	}
	nums = append(nums, make([]int, n)...)
	if rows == nil {
		rows = [][]int{}
	}
	for d := range deals {
		at := start + d*n
		rows = append(rows, nums[at:at+n:at+n])
	}
	return rows, nums
}
