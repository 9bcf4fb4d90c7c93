package table

import (
	"context"
	"errors"
	"fmt"
	"parlour/card"
	"parlour/game"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

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
func (m *Manager) Replay(ctx context.Context, id string) (*protocol.Replay, error) {
	rec, moves, err := m.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := m.build(rec, nil)
	if err != nil {
		return nil, err
	}
	// The moves are made again to tell each in the game's words, as the
	// live log told them to a seat that could see everything.
	st := t.st
	narrator, _ := st.(game.Narrator)
	out := &protocol.Replay{ID: id, Game: t.g.Name(), Title: t.g.Title(), Options: t.opts,
		Seed: fmt.Sprint(rec.Seed), Players: st.Players(), Seats: t.seatInfos(), Moves: []protocol.ReplayMove{}}
	for _, mv := range moves {
		x, err := st.ParseMove(mv.Seat, mv.Text)
		if err != nil {
			return nil, fmt.Errorf("table %s: stored move %d (seat %d: %s) does not replay: %w", id, mv.N+1, mv.Seat, mv.Text, err)
		}
		text, _ := t.narrateWith(narrator, mv.Seat, x)
		if err := game.Apply(st, mv.Seat, x); err != nil {
			return nil, fmt.Errorf("table %s: stored move %d (seat %d: %s) does not replay: %w", id, mv.N+1, mv.Seat, mv.Text, err)
		}
		out.Moves = append(out.Moves, protocol.ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, Text: text, By: mv.By, At: mv.At})
	}
	out.Result = protocol.ResultOf(st.Result())
	return out, nil
}

// ReplayAt returns finished table id after its first k moves.
func (m *Manager) ReplayAt(ctx context.Context, id string, k int) (*protocol.ReplayStep, error) {
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
	out := &protocol.ReplayStep{Table: id, K: k, Moves: len(moves), ToAct: st.ToAct().List(), Legal: map[string][]string{},
		Public: st.View(game.Spectator), Result: protocol.ResultOf(st.Result())}
	for _, s := range out.ToAct {
		out.Legal[fmt.Sprint(s)] = game.LegalText(st, s)
	}
	for s := range st.Players() {
		out.Views = append(out.Views, st.View(s))
	}
	out.Places = []protocol.PlaceInfo{}
	for _, p := range st.Places() {
		pi := protocol.PlaceInfo{Name: p.Name, Cards: append([]card.Card{}, p.Cards...), Seats: p.Visible.List(), Public: p.Public}
		if pi.Seats == nil {
			pi.Seats = []int{}
		}
		out.Places = append(out.Places, pi)
	}
	if k > 0 {
		mv := moves[k-1]
		out.Last = &protocol.ReplayMove{N: mv.N + 1, Seat: mv.Seat, Move: mv.Text, By: mv.By, At: mv.At}
	}
	return out, nil
}
