package table_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"parlour/games"
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
	woken := make(chan struct{}, 1)
	sub.SetWake(func() {
		select {
		case woken <- struct{}{}:
		default:
		}
	})
	for {
		fr, open := sub.Next()
		if !open {
			t.Fatalf("the sub was closed: %v", sub.Err())
		}
		if fr == nil {
			select {
			case <-woken:
			case <-timeout:
				t.Fatal("no state within 5s")
			}
			continue
		}
		var f frame
		if err := json.Unmarshal(fr.Data, &f); err != nil {
			t.Fatal(err)
		}
		if f.Type == protocol.TypeState || f.Type == protocol.TypeError {
			return f
		}
	}
}

// TestStoreFailureChangesNothing refuses a move the store cannot keep, and
// leaves the game as it was.
func TestStoreFailureChangesNothing(t *testing.T) {
	m, f := newManager(t, 0)
	ctx := context.Background()
	tb, ann := annAndBob(t, m)
	st := nextState(t, ann)
	f.broken.Store(true)
	move := []byte(`{"v":1,"type":"move","move":"reveal 0"}`)
	if err := tb.Handle(ctx, ann, move); err != nil {
		t.Fatal(err)
	}
	if got := nextState(t, ann); got.Type != protocol.TypeError || got.Code != protocol.CodeUnavailable {
		t.Fatalf("a move the store refused: %+v", got)
	}
	if err := tb.Handle(ctx, ann, []byte(`{"v":1,"type":"sync"}`)); err != nil {
		t.Fatal(err)
	}
	if got := nextState(t, ann); got.Seq != 0 || len(got.Legal) != len(st.Legal) {
		t.Errorf("after the failure: %+v, before %+v", got, st)
	}
	f.broken.Store(false)
	if err := tb.Handle(ctx, ann, move); err != nil {
		t.Fatal(err)
	}
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

// TestHandleOneAtATime checks Handle's messages: each is read in order
// though Handle returns before it is, the buffer of one is not reused
// until the table has read it (two moves sent back to back both count),
// and once the table is closed Handle says so.
func TestHandleOneAtATime(t *testing.T) {
	m, _ := newManager(t, 0)
	ctx := context.Background()
	tb, ann := annAndBob(t, m)
	nextState(t, ann)
	buf := []byte(`{"v":1,"type":"move","move":"reveal 0","id":"m1"}`)
	if err := tb.Handle(ctx, ann, buf); err != nil {
		t.Fatal(err)
	}
	// The caller's buffer is its own again at once: Handle copied it.
	copy(buf, `{"v":1,"type":"sync","id":"s1"}                  `)
	if err := tb.Handle(ctx, ann, []byte(`{"v":1,"type":"sync","id":"s1"}`)); err != nil {
		t.Fatal(err)
	}
	if got := nextState(t, ann); got.Seq != 1 || len(got.Events) != 1 || got.Events[0].Move != "reveal 0" {
		t.Fatalf("after the move: %+v", got)
	}
	if got := nextState(t, ann); got.Seq != 1 || len(got.Events) != 0 {
		t.Fatalf("after the sync: %+v", got)
	}
	m.Close()
	err := tb.Handle(ctx, ann, []byte(`{"v":1,"type":"sync"}`))
	if err == nil {
		err = tb.Handle(ctx, ann, []byte(`{"v":1,"type":"sync"}`))
	}
	if !errors.Is(err, table.ErrClosed) {
		t.Errorf("Handle on a closed table: %v, want ErrClosed", err)
	}
}

// annAndBob seats Ann and Bob at a new one-hole Golf table of m and
// attaches Ann: the table and her sub.
func annAndBob(t *testing.T, m *table.Manager) (*table.Table, *table.Sub) {
	t.Helper()
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
	return tb, ann
}
