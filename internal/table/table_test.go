package table_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/games/golf"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"parlour/internal/table"
)

// flaky is a store whose AppendMove fails while broken is set.
type flaky struct {
	store.Store
	broken atomic.Bool
}

func (f *flaky) AppendMove(ctx context.Context, id string, m store.Move) error {
	if f.broken.Load() {
		return errors.New("disk on fire")
	}
	return f.Store.AppendMove(ctx, id, m)
}

func newManager(t *testing.T, queue int) (*table.Manager, *flaky) {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := &flaky{Store: st}
	m := table.NewManager(table.Config{Store: f, Games: games.Registry, StandIn: "random", Queue: queue, Grace: time.Minute})
	t.Cleanup(func() {
		m.Close()
		st.Close()
	})
	return m, f
}

type frame struct {
	Type   string           `json:"type"`
	Seq    int              `json:"seq"`
	Status string           `json:"status"`
	ToAct  []int            `json:"to_act"`
	Legal  []string         `json:"legal"`
	Code   string           `json:"code"`
	Msg    string           `json:"message"`
	Events []protocol.Event `json:"events"`
}

// nextState reads sub's frames up to the next state or error.
func nextState(t *testing.T, sub *table.Sub) frame {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case b, ok := <-sub.C():
			if !ok {
				t.Fatalf("the sub was closed: %v", sub.Err())
			}
			var f frame
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			if f.Type == protocol.TypeState || f.Type == protocol.TypeError {
				return f
			}
		case <-timeout:
			t.Fatal("no state within 5s")
		}
	}
}

// TestSlowSubscriberIsDropped checks that a connection that does not keep
// up is dropped rather than waited for, and play goes on.
func TestSlowSubscriberIsDropped(t *testing.T) {
	m, _ := newManager(t, 4)
	ctx := context.Background()
	info, err := m.Create(ctx, table.CreateRequest{Game: "golf", Options: map[string]any{"holes": 1}, Seats: []string{"open", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	j, err := m.Join(ctx, info.ID, 0, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	_, slow, err := m.Attach(ctx, info.ID, "", true)
	if err != nil {
		t.Fatal(err)
	}
	tb, ann, err := m.Attach(ctx, info.ID, j.Token, false)
	if err != nil {
		t.Fatal(err)
	}
	st := nextState(t, ann)
	for st.Status != store.StatusOver {
		if len(st.Legal) > 0 {
			if err := tb.Move(ctx, ann, st.Legal[0], nil, ""); err != nil {
				t.Fatal(err)
			}
		}
		st = nextState(t, ann)
		if st.Type == protocol.TypeError {
			t.Fatalf("a legal move refused: %+v", st)
		}
	}
	n := 0
	for range slow.C() {
		n++
	}
	if n > 4 || !errors.Is(slow.Err(), table.ErrSlow) {
		t.Errorf("the slow sub got %d frames and ended with %v; want at most 4 and ErrSlow", n, slow.Err())
	}
	if got, _ := m.Info(ctx, info.ID); got.Spectators != 0 {
		t.Errorf("%d spectators left", got.Spectators)
	}
}

// TestStoreFailureChangesNothing refuses a move the store cannot keep, and
// leaves the game as it was.
func TestStoreFailureChangesNothing(t *testing.T) {
	m, f := newManager(t, 0)
	ctx := context.Background()
	info, err := m.Create(ctx, table.CreateRequest{Game: "golf", Options: map[string]any{"holes": 1}, Seats: []string{"open", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.Join(ctx, info.ID, 0, "Ann")
	if _, err := m.Join(ctx, info.ID, 1, "Bob"); err != nil {
		t.Fatal(err)
	}
	tb, ann, err := m.Attach(ctx, info.ID, a.Token, false)
	if err != nil {
		t.Fatal(err)
	}
	st := nextState(t, ann)
	f.broken.Store(true)
	tb.Move(ctx, ann, "reveal 0", nil, "")
	if got := nextState(t, ann); got.Type != protocol.TypeError || got.Code != protocol.CodeUnavailable {
		t.Fatalf("a move the store refused: %+v", got)
	}
	tb.Sync(ctx, ann)
	if got := nextState(t, ann); got.Seq != 0 || len(got.Legal) != len(st.Legal) {
		t.Errorf("after the failure: %+v, before %+v", got, st)
	}
	f.broken.Store(false)
	tb.Move(ctx, ann, "reveal 0", nil, "")
	if got := nextState(t, ann); got.Seq != 1 || len(got.Events) != 1 || got.Events[0].Move != "reveal 0" {
		t.Errorf("after the store came back: %+v", got)
	}
}

// TestCreateRefusals checks table creation's validation.
func TestCreateRefusals(t *testing.T) {
	m, _ := newManager(t, 0)
	g := 5.0
	for _, req := range []table.CreateRequest{
		{Game: "nonesuch"},
		{Game: "golf", Options: map[string]any{"players": 99}},
		{Game: "golf", Seats: []string{"open"}},
		{Game: "golf", Seats: []string{"open", "nobody"}},
		{Game: "golf", Clock: -2},
		{Game: "golf", Grace: func() *float64 { x := -g; return &x }()},
		{Game: "golf", StandIn: "nobody"},
	} {
		if _, err := m.Create(context.Background(), req); !errors.Is(err, table.ErrBadRequest) {
			t.Errorf("%+v: %v, want ErrBadRequest", req, err)
		}
	}
	info, err := m.Create(context.Background(), table.CreateRequest{Game: "golf", Seats: []string{"open", "random", "open"}, Grace: &g})
	if err != nil {
		t.Fatal(err)
	}
	if info.Options["players"] != 3 || info.Grace != 5 || len(info.Open) != 2 || info.Status != store.StatusWaiting {
		t.Errorf("created: %+v", info)
	}
	if _, ok := info.Options["dealer"]; ok {
		t.Errorf("the dealer drawn with the seed shows in the options: %v", info.Options)
	}
}

// boomGame is Golf whose states panic on the move text "boom".
type boomGame struct{ golf.Game }

func (g boomGame) Name() string { return "boom-golf" }

func (g boomGame) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	st, err := g.Game.New(opts, seed, deals)
	return boomState{st}, err
}

type boomState struct{ game.State }

func (s boomState) ParseMove(seat int, text string) (game.Move, error) {
	if strings.TrimSpace(text) == "boom" {
		panic("boom")
	}
	return s.State.ParseMove(seat, text)
}

func (s boomState) Clone() game.State { return boomState{s.State.Clone()} }

// TestPanicStopsOnlyItsTable checks that a panic in one table's game closes
// that table's connections, leaves the server running, and that the table
// comes back from the store with every move.
func TestPanicStopsOnlyItsTable(t *testing.T) {
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := table.NewManager(table.Config{Store: st, Games: game.NewRegistry(boomGame{}, golf.Game{}), StandIn: "random", Grace: time.Minute})
	defer m.Close()
	ctx := context.Background()
	info, err := m.Create(ctx, table.CreateRequest{Game: "boom-golf", Options: map[string]any{"holes": 1}, Seats: []string{"open", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.Create(ctx, table.CreateRequest{Game: "golf", Options: map[string]any{"holes": 1}, Seats: []string{"random", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := m.Join(ctx, info.ID, 0, "Ann")
	m.Join(ctx, info.ID, 1, "Bob")
	tb, ann, err := m.Attach(ctx, info.ID, a.Token, false)
	if err != nil {
		t.Fatal(err)
	}
	nextState(t, ann)
	tb.Move(ctx, ann, "reveal 1", nil, "")
	if got := nextState(t, ann); got.Seq != 1 {
		t.Fatalf("after a move: %+v", got)
	}
	tb.Move(ctx, ann, "boom", nil, "")
	for range ann.C() {
	}
	if !errors.Is(ann.Err(), table.ErrClosed) {
		t.Errorf("after the panic the sub ended with %v, want ErrClosed", ann.Err())
	}
	// The table comes back from the store; the other table played on.
	_, again, err := m.Attach(ctx, info.ID, a.Token, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := nextState(t, again); got.Seq != 1 {
		t.Errorf("rebuilt at move %d, want 1", got.Seq)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if oi, _ := m.Info(ctx, other.ID); oi.Status == store.StatusOver {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other table did not finish")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
