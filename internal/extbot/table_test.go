package extbot_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parlour/bot"
	"parlour/games"
	"parlour/internal/extbot"
	"parlour/internal/store"
	"parlour/internal/table"
)

// serverTables runs a table manager (the server's, on SQLite) in which
// the example Go bot is the seat kind "ext", limited to maxProcs
// processes, and plays a one-hole Golf table whose seats are all "ext"
// to its end. It returns the engine and its log.
func serverTables(t *testing.T, players, maxProcs int) (*extbot.Engine, *logBuffer) {
	t.Helper()
	log := &logBuffer{}
	e := extbot.New("ext", gobot, extbot.Config{Timeout: patient, StopAfterMatch: true, MaxProcs: maxProcs,
		Logger: slog.New(slog.NewTextHandler(log, nil))})
	t.Cleanup(e.Close)
	ctx := context.Background()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "parlour.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	find := func(name string) (bot.Bot, bool) {
		if name == "ext" {
			return e, true
		}
		return bot.ByName(name)
	}
	m := table.NewManager(table.Config{Store: st, Games: games.Registry, Bots: find,
		BotNames: append(bot.Names(), "ext"), StandIn: "random"})
	t.Cleanup(m.Close)
	seats := make([]string, players)
	for i := range seats {
		seats[i] = "ext"
	}
	info, err := m.Create(ctx, table.CreateRequest{Game: "golf", Options: map[string]any{"holes": 1}, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got, err := m.Info(ctx, info.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status == store.StatusOver {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table is not over after a minute: %d moves\nlog:\n%s", got.Moves, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The seats' processes stop once the table has ended.
	for e.Running() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes still run after the table ended", e.Running())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return e, log
}

func TestServerTableSeatsHaveTheirOwnProcesses(t *testing.T) {
	_, log := serverTables(t, 3, 8)
	if strings.Contains(log.String(), "bot fault") {
		t.Fatalf("faults at a table of well-behaved bots:\n%s", log.String())
	}
	// Each seat's process says "gobot: match ..." on its standard error
	// when it starts a match: three seats, three processes.
	if n := strings.Count(log.String(), "gobot: match"); n != 3 {
		t.Errorf("%d matches started by the bot processes, want 3 (one per seat):\n%s", n, log.String())
	}
}

func TestServerProcessLimit(t *testing.T) {
	_, log := serverTables(t, 3, 1)
	if n := strings.Count(log.String(), "processes are running, the limit"); n != 2 {
		t.Errorf("%d seats refused a process past the limit of 1, want 2:\n%s", n, log.String())
	}
}
