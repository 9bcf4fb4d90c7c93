package table

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parlour/bot"
	"parlour/games"
	"parlour/internal/store"
)

// TestThink: a table's think time is checked, stored with its settings,
// shown in its Info, given to its search bots and stand-in with the
// manager's workers, and kept across a restart; a table created without
// one gets the server's default.
func TestThink(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg := Config{Store: st, Games: games.Registry, StandIn: "random", Grace: time.Minute, Think: 300 * time.Millisecond, Workers: 2}
	m := NewManager(cfg)
	defer func() { m.Close() }()

	for _, ms := range []float64{-1, MaxThinkMS + 1, math.NaN(), math.Inf(1)} {
		_, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"open", "hard"}, Think: &ms})
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), "think") {
			t.Errorf("think %v: %v, want ErrBadRequest naming think", ms, err)
		}
	}

	// budget returns the bot of seat and the stand-in of table id: the
	// bot must be a level.
	budget := func(m *Manager, id string, seat int) (own bot.Leveled, stand bot.Bot) {
		t.Helper()
		tb, err := m.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var b bot.Bot
		tb.call(ctx, func() { b, stand = tb.seats[seat].b, tb.stand })
		own, ok := b.(bot.Leveled)
		if !ok {
			t.Fatalf("table %s: seat %d's bot is a %T, want a level", id, seat, b)
		}
		return own, stand
	}

	ms := 250.0
	info, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"open", "hard"}, StandIn: "medium", Think: &ms})
	if err != nil {
		t.Fatal(err)
	}
	if info.Think != 250 {
		t.Errorf("info.Think = %d, want 250", info.Think)
	}
	own, stand := budget(m, info.ID, 1)
	if own.Think != 250*time.Millisecond || own.Workers != 2 {
		t.Errorf("think 250: the bot thinks %v on %d workers", own.Think, own.Workers)
	}
	if s, ok := stand.(bot.Leveled); !ok || s.Think != 250*time.Millisecond || s.Workers != 2 {
		t.Errorf("think 250: the stand-in is %+v", stand)
	}
	zero := 0.0
	own0, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"open", "easy"}, Think: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if own, _ := budget(m, own0.ID, 1); own0.Think != 0 || own.Think != 0 {
		t.Errorf("think 0: info %d, bot %v; want the level's own settings", own0.Think, own.Think)
	}
	def, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"open", "hard"}, StandIn: "hard"})
	if err != nil {
		t.Fatal(err)
	}
	if own, _ := budget(m, def.ID, 1); def.Think != 300 || own.Think != 300*time.Millisecond {
		t.Errorf("no think: info %d, bot %v; want the server's 300ms", def.Think, own.Think)
	}

	// A restart (with another default) keeps each table's own.
	m.Close()
	cfg.Think = 0
	m = NewManager(cfg)
	if _, err := m.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]time.Duration{info.ID: 250 * time.Millisecond, own0.ID: 0, def.ID: 300 * time.Millisecond} {
		if got, err := m.Info(ctx, id); err != nil || got.Think != want.Milliseconds() {
			t.Errorf("table %s after a restart: think %d (%v), want %d", id, got.Think, err, want.Milliseconds())
		}
		if own, _ := budget(m, id, 1); own.Think != want {
			t.Errorf("table %s after a restart: the bot thinks %v, want %v", id, own.Think, want)
		}
	}
}
