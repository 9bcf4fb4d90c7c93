package gametest_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"parlour/card"
	"parlour/game"
	"parlour/gametest"
	"parlour/internal/jsonw"
)

// toy is a tiny game for testing the kit: two seats hold three cards each
// from a 6-card pack, seat to act plays one face up, the higher card of
// each pair scores a point. Its bug field plants one fault the kit must find.
type toy struct{ bug string }

func (g toy) Name() string        { return "toy" }
func (g toy) Title() string       { return "Toy" }
func (g toy) Summary() string     { return "a toy" }
func (g toy) Rules() string       { return "" }
func (g toy) Players() (int, int) { return 2, 2 }
func (g toy) Options() []game.OptionSpec {
	return []game.OptionSpec{{Name: "players", Default: 2, Min: 2, Max: 2}}
}

var toyPack = card.Pack{card.MustParse("2S"), card.MustParse("3S"), card.MustParse("4S"), card.MustParse("5S"), card.MustParse("6S"), card.MustParse("7S")}

type toyState struct {
	g      toy
	hands  [2][]card.Card
	played []card.Card
	turn   int
	score  [2]int
	rng    game.RNG
	watch  func(game.State)
}

func (g toy) Info() game.Info { return game.Info{} }

func (g toy) New(opts game.Options, seed uint64, _ []game.Layout) (game.State, error) {
	s := &toyState{g: g}
	s.Reset(seed)
	return s, nil
}

// Reset deals the toy's one deal from seed.
func (s *toyState) Reset(seed uint64) {
	if s.g.bug != "reset" || s.played == nil {
		s.rng = game.NewRNG(seed) // the "reset" fault keeps the old RNG
	}
	s.turn, s.score, s.played = 0, [2]int{}, []card.Card{}
	p := append(card.Pack{}, toyPack...)
	if s.g.bug == "global-rng" {
		rand.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	} else {
		game.Shuffle(&s.rng, p)
	}
	s.hands[0], s.hands[1] = append([]card.Card{}, p[:3]...), append([]card.Card{}, p[3:]...)
}

// DealsPlayed is 1 once the toy's one deal is over.
func (s *toyState) DealsPlayed() int {
	if s.g.bug == "deals" || s.ToAct() != 0 {
		return 0
	}
	return 1
}

func (s *toyState) WatchDeals(f func(game.State)) { s.watch = f }

// Guard refuses the last card under the "guard" fault.
func (s *toyState) Guard(seat int, m game.Move) error {
	if s.g.bug == "guard" && len(s.hands[seat]) == 1 {
		return game.Illegal(s, seat, m, "no last card")
	}
	return nil
}

func (s *toyState) Game() game.Game { return s.g }
func (s *toyState) Players() int    { return 2 }
func (s *toyState) ToAct() game.Seats {
	if len(s.hands[s.turn]) == 0 {
		return 0
	}
	return game.SeatsOf(s.turn)
}
func (s *toyState) Legal(seat int, buf []game.Move) []game.Move {
	if !s.ToAct().Has(seat) {
		return buf
	}
	for _, c := range s.hands[seat] {
		buf = append(buf, game.Move(c))
	}
	if s.g.bug == "extra-legal" && len(s.hands[seat]) == 1 {
		buf = append(buf, game.Move(card.MustParse("AS")))
	}
	return buf
}
func (s *toyState) ApplyFast(seat int, m game.Move) {
	c := card.Card(m)
	h := s.hands[seat]
	for i, x := range h {
		if x == c {
			copy(h[i:], h[i+1:]) // in place, so a shallow clone would see it
			s.hands[seat] = h[:len(h)-1]
			break
		}
	}
	if s.g.bug != "lose-card" || len(s.played) > 0 {
		s.played = append(s.played, c)
	}
	if n := len(s.played); n%2 == 0 && n > 0 {
		if s.played[n-1] > s.played[n-2] {
			s.score[seat]++
		} else {
			s.score[1-seat]++
		}
	}
	s.turn = 1 - s.turn
	if s.ToAct() == 0 && s.watch != nil && s.g.bug != "watch" {
		s.watch(s)
	}
}
func (s *toyState) Clone() game.State {
	c := *s
	if s.g.bug != "shallow-clone" {
		c.hands[0] = slices.Clone(s.hands[0])
		c.hands[1] = slices.Clone(s.hands[1])
		c.played = slices.Clone(s.played)
	}
	if s.g.bug != "clone-watch" {
		c.watch = nil
	}
	return &c
}

// CopyTo reuses dst's slices; the "shallow-copy" fault shares s's.
func (s *toyState) CopyTo(dst game.State) {
	d := dst.(*toyState)
	h0, h1, played := d.hands[0][:0], d.hands[1][:0], d.played[:0]
	*d = *s
	if s.g.bug != "shallow-copy" {
		d.hands[0] = append(h0, s.hands[0]...)
		d.hands[1] = append(h1, s.hands[1]...)
		d.played = append(played, s.played...)
	}
	d.watch = nil
}

type toyView struct {
	Prompt string      `json:"prompt"`
	Hand   []card.Card `json:"hand"`
	Other  []card.Card `json:"other,omitempty"`
	Played []card.Card `json:"played"`
}

// prompt says what seat must do; the "no-prompt" fault says nothing to the
// seat to act on its last card, the "other-prompt" fault prompts the seat
// that waits too.
func (s *toyState) prompt(seat int) string {
	switch {
	case seat < 0:
		return ""
	case s.ToAct().Has(seat) && !(s.g.bug == "no-prompt" && len(s.hands[seat]) == 1):
		return "Play a card"
	case s.g.bug == "other-prompt" && s.ToAct() != 0:
		return "Play a card"
	}
	return ""
}

func (s *toyState) View(seat int) any {
	v := toyView{Prompt: s.prompt(seat), Played: append([]card.Card{}, s.played...)}
	if seat >= 0 {
		v.Hand = append([]card.Card{}, s.hands[seat]...)
		if s.g.bug == "leak" {
			v.Other = append([]card.Card{}, s.hands[1-seat]...)
		}
	}
	return v
}

// DealEndView is the view at the toy's one deal's end; the
// "deal-end-prompt" fault prompts seat 0 there.
func (s *toyState) DealEndView(seat int) any {
	v := s.View(seat).(toyView)
	if s.g.bug == "deal-end-prompt" && seat == 0 {
		v.Prompt = "Play a card"
	}
	return v
}

// FillView fills the view in dst's lists; the "fill-view" fault leaves
// the last view's played cards in place.
func (s *toyState) FillView(dst any, seat int) any {
	v, _ := dst.(*toyView)
	if v == nil {
		v = &toyView{Hand: []card.Card{}, Played: []card.Card{}}
	}
	if s.g.bug != "fill-view" || len(v.Played) == 0 {
		v.Played = append(v.Played[:0], s.played...)
	}
	v.Prompt = s.prompt(seat)
	hand := v.Hand
	if hand == nil {
		hand = []card.Card{}
	}
	v.Hand = nil
	if seat >= 0 {
		v.Hand = append(hand[:0], s.hands[seat]...)
		if s.g.bug == "leak" {
			v.Other = append(v.Other[:0], s.hands[1-seat]...)
		}
	}
	return v
}

// AppendView appends the view's JSON by hand; the "append-view" fault
// leaves the played cards out.
func (s *toyState) AppendView(b []byte, seat int) []byte {
	list := func(b []byte, cs []card.Card) []byte {
		return jsonw.AppendList(b, cs, func(b []byte, c *card.Card) []byte { return jsonw.AppendString(b, c.String()) })
	}
	v := s.View(seat).(toyView)
	b = append(b, `{"prompt":`...)
	b = jsonw.AppendString(b, v.Prompt)
	b = append(b, `,"hand":`...)
	b = list(b, v.Hand)
	if len(v.Other) > 0 {
		b = append(b, `,"other":`...)
		b = list(b, v.Other)
	}
	b = append(b, `,"played":`...)
	if s.g.bug == "append-view" && len(v.Played) > 0 {
		v.Played = v.Played[1:]
	}
	b = list(b, v.Played)
	return append(b, '}')
}

// FillResult fills r's lists; the "fill-result" fault leaves the deal
// scores of the last fill, and the "shared-result" fault hands out the
// state's own scores.
func (s *toyState) FillResult(r *game.Result) {
	want := s.Result()
	r.Deal, r.Over = want.Deal, want.Over
	r.Totals = append(r.Totals[:0], want.Totals...)
	if s.g.bug == "shared-result" {
		r.Totals = s.score[:]
	}
	r.Winners = append(r.Winners[:0], want.Winners...)
	if r.Winners == nil {
		r.Winners = []int{}
	}
	if s.g.bug != "fill-result" || r.DealScores == nil {
		r.DealScores = append(r.DealScores[:0], want.DealScores...)
		if r.DealScores == nil {
			r.DealScores = [][]int{}
		}
	}
}

func (s *toyState) Result() game.Result {
	r := game.Result{Deal: 1, DealScores: [][]int{}, Totals: []int{s.score[0], s.score[1]}, Winners: []int{}}
	if s.ToAct() == 0 {
		r.Over = true
		r.DealScores = [][]int{{s.score[0], s.score[1]}}
		r.Winners = []int{0}
		if s.score[1] > s.score[0] {
			r.Winners = []int{1}
		}
	}
	return r
}
func (s *toyState) Determinize(seat int, rng *rand.Rand) game.State {
	d := s.Clone().(*toyState)
	s.redeal(d, seat, rng)
	return d
}

// DeterminizeTo redeals in dst's memory; the "resample-draw" fault draws
// a number more, and the "shallow-resample" fault shares s's lists.
func (s *toyState) DeterminizeTo(dst game.State, seat int, rng *rand.Rand) {
	d := dst.(*toyState)
	if s.g.bug == "shallow-resample" {
		*d = *s
		d.watch = nil
	} else {
		s.CopyTo(d)
	}
	if s.g.bug == "resample-draw" {
		rng.Uint64()
	}
	s.redeal(d, seat, rng)
}

// redeal makes d, a copy of s, a sample of what seat knows: the other
// hand's cards are known (all not seen elsewhere), their order is not.
func (s *toyState) redeal(d *toyState, seat int, rng *rand.Rand) {
	o := d.hands[1-seat]
	rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	if s.g.bug == "bad-determinize" {
		d.hands[seat], d.hands[1-seat] = d.hands[1-seat], d.hands[seat]
	}
}
func (s *toyState) FormatMove(m game.Move) string { return "play " + card.Card(m).String() }
func (s *toyState) ParseMove(seat int, text string) (game.Move, error) {
	f := strings.Fields(text)
	if len(f) != 2 || !strings.EqualFold(f[0], "play") {
		return 0, game.BadMove(text, "not a toy move")
	}
	c, err := card.Parse(f[1])
	if err != nil {
		return 0, game.BadMove(text, "%v", err)
	}
	return game.Move(c), nil
}
func (s *toyState) Places() []game.Place {
	return []game.Place{
		{Name: "hand 0", Cards: append([]card.Card{}, s.hands[0]...), Visible: game.SeatsOf(0)},
		{Name: "hand 1", Cards: append([]card.Card{}, s.hands[1]...), Visible: game.SeatsOf(1)},
		{Name: "played", Cards: append([]card.Card{}, s.played...), Visible: game.AllSeats(2), Public: true},
	}
}

// AppendVisible tells what each receiver sees; the "append-visible"
// fault lets spectators see seat 0's hand.
func (s *toyState) AppendVisible(dst []card.Set) []card.Set {
	dst, v := game.AppendSight(dst, 2)
	v.Seat(0, card.SetOf(s.hands[0]...))
	v.Seat(1, card.SetOf(s.hands[1]...))
	v.Public(card.SetOf(s.played...))
	if s.g.bug == "append-visible" {
		v[0] |= card.SetOf(s.hands[0]...)
	}
	return dst
}

// Encoding: the seat's hand and the played cards as one-hots over the
// pack, whose turn, and the scores; an action is a card's place in the
// pack.
func (s *toyState) Encoding() game.Encoding {
	e := game.NewEncoding(
		game.Field{Name: "hand", Size: len(toyPack), Doc: "1 for each card in the seat's hand"},
		game.Field{Name: "played", Size: len(toyPack), Doc: "1 for each card played"},
		game.Field{Name: "turn", Size: 1, Doc: "1 when the seat is to act"},
		game.Field{Name: "scores", Size: 2, Doc: "the seat's score, the other's"},
	)
	e.Actions, e.ActionDoc = len(toyPack), "the card's place in the pack"
	return e
}

func (s *toyState) Observe(seat int, obs []float32) {
	clear(obs)
	for _, c := range s.hands[seat] {
		obs[slices.Index(toyPack, c)] = 1
	}
	for _, c := range s.played {
		obs[len(toyPack)+slices.Index(toyPack, c)] = 1
	}
	if s.ToAct().Has(seat) {
		obs[12] = 1
	}
	obs[13], obs[14] = float32(s.score[seat]), float32(s.score[1-seat])
	switch s.g.bug {
	case "encode-leak":
		if o := s.hands[1-seat]; len(o) > 0 {
			obs[12] = float32(o[0]) // the other hand's first card
		}
	case "encode-unset":
		obs[14] = -12345
	}
}

func (s *toyState) ActionID(seat int, m game.Move) int {
	if s.g.bug == "encode-action" {
		return 0
	}
	return slices.Index(toyPack, card.Card(m))
}

var _ game.Encoder = (*toyState)(nil)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); runtime.Goexit() }
func (r *recorder) FailNow()                          { runtime.Goexit() }

func runKit(t *testing.T, g game.Game) []string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		gametest.Run(rec, g, gametest.Config{Matches: 200, Deep: 50, Pack: toyPack})
	}()
	<-done
	return rec.errors
}

func TestKitPassesSoundGame(t *testing.T) {
	if errs := runKit(t, toy{}); len(errs) > 0 {
		t.Fatalf("the kit failed a sound game: %v", errs)
	}
}

// TestKitCatchesFaults plants one fault at a time and checks that the kit
// reports it with the right diagnosis.
func TestKitCatchesFaults(t *testing.T) {
	for _, c := range []struct{ bug, want string }{
		{"leak", "shows"},
		{"lose-card", "cards appeared or vanished"},
		{"shallow-clone", "clone"},
		{"extra-legal", "AS"}, // its action index, or its cards, give it away
		{"guard", "refuse"},
		{"reset", "Reset"},
		{"deals", "deals played"},
		{"watch", "watcher was called 0 times"},
		{"clone-watch", "carried it over"},
		{"bad-determinize", "determinisation"},
		{"global-rng", "replaying"},
		{"encode-leak", "encodes differently"},
		{"encode-unset", "unset"},
		{"encode-action", "share action index"},
		{"append-view", "AppendView differs"},
		{"shallow-copy", "shares memory"},
		{"fill-result", "FillResult differs from Result"},
		{"shared-result", "it shares memory with the state"},
		{"resample-draw", "DeterminizeTo for seat"},
		{"shallow-resample", "DeterminizeTo, or a move made on its state, changed the original"},
		{"append-visible", "AppendVisible differs"},
		{"fill-view", "FillView differs"},
		{"no-prompt", "is to act but its view's prompt is empty"},
		{"other-prompt", "is not to act but its view's prompt"},
		{"deal-end-prompt", "deal-end view of seat 0 has the prompt"},
	} {
		t.Run(c.bug, func(t *testing.T) {
			errs := runKit(t, toy{bug: c.bug})
			if len(errs) == 0 {
				t.Fatalf("the kit missed the fault %q", c.bug)
			}
			if !strings.Contains(strings.Join(errs, "\n"), c.want) {
				t.Fatalf("fault %q reported as %v, want a message with %q", c.bug, errs, c.want)
			}
		})
	}
}

// TestAssertNoAllocsCatchesAllocations: the toy allocates a hand and the
// played cards each match, which AssertNoAllocs must report.
func TestAssertNoAllocsCatchesAllocations(t *testing.T) {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		gametest.AssertNoAllocs(rec, toy{}, nil)
	}()
	<-done
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "allocations per match") {
		t.Fatalf("AssertNoAllocs on an allocating game reported %v", rec.errors)
	}
}
