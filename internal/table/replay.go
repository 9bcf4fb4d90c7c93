package table

import (
	"context"
	"errors"
	"fmt"
	"parlour/card"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
	"time"
)

// Replay is a finished game, whole: everything needed to replay it.
type Replay struct {
	ID      string         `json:"id"`
	Game    string         `json:"game"`
	Title   string         `json:"title"`
	Options map[string]any `json:"options"`
	// Seed is the game's seed, as a decimal string (it may not fit a
	// JSON number exactly).
	Seed    string              `json:"seed"`
	Players int                 `json:"players"`
	Seats   []protocol.SeatInfo `json:"seats"`
	Moves   []ReplayMove        `json:"moves"`
	Result  protocol.Result     `json:"result"`
}

// ReplayMove is one move of a replay.
type ReplayMove struct {
	N    int       `json:"n"` // 1-based
	Seat int       `json:"seat"`
	Move string    `json:"move"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at"`
}

// ReplayStep is a finished game after its first K moves, with every
// seat's view: the game is over, so nothing is hidden any more.
type ReplayStep struct {
	Table  string              `json:"table"`
	K      int                 `json:"k"`
	Moves  int                 `json:"moves"` // in the whole game
	ToAct  []int               `json:"to_act"`
	Legal  map[string][]string `json:"legal"`
	Public any                 `json:"public"`
	Views  []any               `json:"views"` // one per seat
	Result protocol.Result     `json:"result"`
	Last   *ReplayMove         `json:"last"` // move K, null for K = 0
	// Places lists where every card is, face-down and unseen cards
	// included (the game is over).
	Places []PlaceInfo `json:"places"`
}

// PlaceInfo is one group of cards of a replayed game (game.Place): where
// they are, the seats that may see them there, and whether spectators may.
type PlaceInfo struct {
	Name   string      `json:"name"`
	Cards  []card.Card `json:"cards"`
	Seats  []int       `json:"seats"`
	Public bool        `json:"public"`
}

// finished returns a finished table's record and moves.
func (m *Manager) finished(ctx context.Context, id string) (*store.Table, []store.Move, error) {
	ctx, cancel := m.storeCtx(ctx)
	defer cancel()
	rec, err := m.cfg.Store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if rec.Status != store.StatusOver {
		return nil, nil, fmt.Errorf("%w: a replay shows every card, so it waits for the end of the game", ErrNotOver)
	}
	moves, err := m.cfg.Store.Moves(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return rec, moves, nil
}

// Replay returns finished table id's game: seed, options and moves.
func (m *Manager) Replay(ctx context.Context, id string) (*Replay, error) {
	rec, moves, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := m.build(rec, moves)
	if err != nil {
		return nil, err
	}
	out := &Replay{ID: id, Game: t.g.Name(), Title: t.g.Title(), Options: t.opts,
		Seed: fmt.Sprint(rec.Seed), Players: t.st.Players(), Seats: t.seatInfos(),
		Moves: []ReplayMove{}, Result: protocol.ResultOf(t.st.Result())}
	for _, mv := range moves {
		out.Moves = append(out.Moves, ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, By: mv.By, At: mv.At})
	}
	return out, nil
}

// ReplayAt returns finished table id after its first k moves.
func (m *Manager) ReplayAt(ctx context.Context, id string, k int) (*ReplayStep, error) {
	rec, moves, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	if k < 0 || k > len(moves) {
		return nil, badRequest("no step %d (steps are 0-%d)", k, len(moves))
	}
	t, err := m.build(rec, moves[:k])
	if err != nil {
		return nil, err
	}
	st := t.st
	out := &ReplayStep{Table: id, K: k, Moves: len(moves), ToAct: st.ToAct().List(), Legal: map[string][]string{},
		Public: st.View(game.Spectator), Result: protocol.ResultOf(st.Result())}
	for _, s := range out.ToAct {
		out.Legal[fmt.Sprint(s)] = game.LegalText(st, s)
	}
	for s := range st.Players() {
		out.Views = append(out.Views, st.View(s))
	}
	out.Places = []PlaceInfo{}
	for _, p := range st.Places() {
		pi := PlaceInfo{Name: p.Name, Cards: append([]card.Card{}, p.Cards...), Seats: p.Visible.List(), Public: p.Public}
		if pi.Seats == nil {
			pi.Seats = []int{}
		}
		out.Places = append(out.Places, pi)
	}
	if k > 0 {
		mv := moves[k-1]
		out.Last = &ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, By: mv.By, At: mv.At}
	}
	return out, nil
}
