package table

// Chat, the live log's words and deal events, and bot names, tested in
// synctest bubbles (see clock_test.go): the chat's rate is exact in fake
// time.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/games/golf"
	"parlour/internal/protocol"
	"parlour/internal/store"
)

// anyFrame is any frame a table sends, decoded loosely.
type anyFrame struct {
	Type    string              `json:"type"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	ID      string              `json:"id"`
	Seat    int                 `json:"seat"`
	Seq     int                 `json:"seq"`
	Status  string              `json:"status"`
	Name    string              `json:"name"`
	Text    string              `json:"text"`
	At      time.Time           `json:"at"`
	Old     bool                `json:"old"`
	Legal   []string            `json:"legal"`
	Seats   []protocol.SeatInfo `json:"seats"`
	Events  []protocol.Event    `json:"events"`
	Result  protocol.Result     `json:"result"`
	raw     string
}

// drain returns every frame queued for sub (all of them, after
// synctest.Wait).
func drain(t *testing.T, sub *Sub) []anyFrame {
	t.Helper()
	var out []anyFrame
	for {
		fr, _ := sub.Next()
		if fr == nil {
			return out
		}
		var f anyFrame
		if err := json.Unmarshal(fr.Data, &f); err != nil {
			t.Fatalf("frame %s: %v", fr.Data, err)
		}
		f.raw = string(fr.Data)
		out = append(out, f)
	}
}

func ofType(frames []anyFrame, typ string) []anyFrame {
	var out []anyFrame
	for _, f := range frames {
		if f.Type == typ {
			out = append(out, f)
		}
	}
	return out
}

func chatTexts(frames []anyFrame) []string {
	var out []string
	for _, f := range ofType(frames, protocol.TypeChat) {
		out = append(out, f.Text)
	}
	return out
}

// seated creates a Golf table of two open seats, seats Ann and Bob, and
// attaches them and a spectator; their first frames are read.
func seated(t *testing.T, m *Manager, holes int) (tb *Table, ann, bob, spec *Sub) {
	t.Helper()
	ctx := context.Background()
	info := golfTable(t, m, CreateRequest{Seats: []string{"open", "open"}, Options: map[string]any{"holes": holes}})
	a, err := m.Join(ctx, info.ID, 0, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Join(ctx, info.ID, 1, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	tb, ann, err = m.Attach(ctx, info.ID, a.Token, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, bob, err = m.Attach(ctx, info.ID, b.Token, false); err != nil {
		t.Fatal(err)
	}
	if _, spec, err = m.Attach(ctx, info.ID, "", true); err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	drain(t, ann)
	drain(t, bob)
	drain(t, spec)
	return tb, ann, bob, spec
}

// TestChat relays a seated player's message to every connection of the
// table, the writer's and a spectator's included, with the seat's name;
// refuses, to the sender only, a spectator's message, bad texts and a
// flood; and lets a flooding seat write again as its rate allows.
func TestChat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, mem := bubbleManager(t, Config{Grace: time.Hour})
		tb, ann, bob, spec := seated(t, m, 1)

		sendChat(tb, ann, "  good luck\r\n  have fun\t ", "c1")
		synctest.Wait()
		for name, sub := range map[string]*Sub{"Ann": ann, "Bob": bob, "the spectator": spec} {
			got := drain(t, sub)
			if len(got) != 1 || got[0].Type != protocol.TypeChat {
				t.Fatalf("%s got %+v, want one chat frame", name, got)
			}
			c := got[0]
			if c.Seat != 0 || c.Name != "Ann" || c.Text != "good luck\n  have fun" || c.Old || c.At.IsZero() {
				t.Errorf("%s got %s", name, c.raw)
			}
		}

		refused := func(sub *Sub, text, code string) {
			t.Helper()
			sendChat(tb, sub, text, "r")
			synctest.Wait()
			got := drain(t, sub)
			if len(got) != 1 || got[0].Type != protocol.TypeError || got[0].Code != code || got[0].ID != "r" || got[0].Message == "" {
				t.Errorf("chat %.20q: %+v, want a %s refusal echoing its id", text, got, code)
			}
			for name, other := range map[string]*Sub{"Ann": ann, "Bob": bob, "the spectator": spec} {
				if other != sub {
					if got := drain(t, other); len(got) > 0 {
						t.Errorf("%s was told of a refused chat: %+v", name, got)
					}
				}
			}
		}
		refused(spec, "hello", protocol.CodeSpectator)
		refused(bob, "", protocol.CodeBadChat)
		refused(bob, " \n\t ", protocol.CodeBadChat)
		refused(bob, strings.Repeat("é", protocol.MaxChatText+1), protocol.CodeBadChat)
		refused(bob, "ring\a", protocol.CodeBadChat)
		refused(bob, "abc\u202edcba", protocol.CodeBadChat)
		sendChat(tb, bob, strings.Repeat("é", protocol.MaxChatText), "")
		synctest.Wait()
		if got := chatTexts(drain(t, spec)); len(got) != 1 || len([]rune(got[0])) != protocol.MaxChatText {
			t.Errorf("a message of %d characters: %d relayed", protocol.MaxChatText, len(got))
		}
		drain(t, ann)
		drain(t, bob)

		// Ann wrote once: four more now, then she is over her rate.
		for i := range 4 {
			sendChat(tb, ann, fmt.Sprint("msg ", i), "")
		}
		synctest.Wait()
		if got := chatTexts(drain(t, bob)); len(got) != 4 {
			t.Errorf("Bob got %v, want Ann's 4 messages", got)
		}
		drain(t, ann)
		drain(t, spec)
		refused(ann, "too many", protocol.CodeChatFlood)
		step(time.Second) // half a message's worth
		refused(ann, "still too many", protocol.CodeChatFlood)
		step(time.Second) // one message's worth
		sendChat(tb, ann, "again", "")
		synctest.Wait()
		if got := chatTexts(drain(t, spec)); !slices.Equal(got, []string{"again"}) {
			t.Errorf("after 2 s: %v, want Ann's message", got)
		}
		drain(t, ann)
		drain(t, bob)
		refused(ann, "and again", protocol.CodeChatFlood)
		// Bob's rate is his own.
		sendChat(tb, bob, "me too", "")
		synctest.Wait()
		if got := chatTexts(drain(t, spec)); !slices.Equal(got, []string{"me too"}) {
			t.Errorf("Bob while Ann floods: %v", got)
		}

		// Stored in order, as relayed.
		m.chatWriters.Wait()
		stored, err := mem.Chat(context.Background(), tb.ID(), 0)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, c := range stored {
			texts = append(texts, c.Text)
		}
		want := []string{"good luck\n  have fun", strings.Repeat("é", protocol.MaxChatText), "msg 0", "msg 1", "msg 2", "msg 3", "again", "me too"}
		if !slices.Equal(texts, want) {
			t.Errorf("stored %q, want %q", texts, want)
		}
	})
}

// TestChatFloodDoesNotSlowTheTable floods the chat while the seats move:
// every move is made and told in the order sent, with the flood's
// refusals, counted, before and after it.
func TestChatFloodDoesNotSlowTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, _ := bubbleManager(t, Config{Grace: time.Hour})
		tb, ann, bob, spec := seated(t, m, 1)
		for i := range 20 {
			sendChat(tb, ann, fmt.Sprint("spam ", i), "")
		}
		if err := sendMove(tb, ann, "reveal 0"); err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			sendChat(tb, ann, fmt.Sprint("spam ", 20+i), "")
		}
		if err := sendMove(tb, bob, "reveal 1"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		got := drain(t, ann)
		var kinds []string
		for _, f := range got {
			kinds = append(kinds, f.Type+"/"+f.Code)
		}
		want := slices.Repeat([]string{"chat/"}, 5)
		want = append(want, slices.Repeat([]string{"error/chat_flood"}, 15)...)
		want = append(want, "state/")
		want = append(want, slices.Repeat([]string{"error/chat_flood"}, 20)...)
		want = append(want, "state/")
		if !slices.Equal(kinds, want) {
			t.Errorf("Ann's frames: %v\nwant %v", kinds, want)
		}
		if st := ofType(drain(t, spec), protocol.TypeState); len(st) != 2 || st[1].Seq != 2 {
			t.Errorf("the spectator saw %d states, want both moves", len(st))
		}
	})
}

// TestChatHistory keeps a table's last 50 messages: a connection gets
// them after its welcome and state, oldest first and marked old (and the
// log of the recent past after them), and so
// does one to the same table rebuilt by another manager on the store.
func TestChatHistory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, mem := bubbleManager(t, Config{Grace: time.Hour})
		tb, ann, bob, _ := seated(t, m, 1)
		for i := range 55 {
			sub := ann
			if i%2 == 1 {
				sub = bob
			}
			sendChat(tb, sub, fmt.Sprint("message ", i), "")
			step(2 * time.Second)
		}
		var want []string
		for i := 5; i < 55; i++ {
			want = append(want, fmt.Sprint("message ", i))
		}
		check := func(m *Manager, who string) {
			t.Helper()
			_, sub, err := m.Attach(context.Background(), tb.ID(), "", true)
			if err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			got := drain(t, sub)
			if len(got) < 2 || got[0].Type != protocol.TypeWelcome || got[1].Type != protocol.TypeState {
				t.Fatalf("%s: first frames %+v, want a welcome and a state", who, got[:min(2, len(got))])
			}
			// Then the log of the recent past, last.
			if last := got[len(got)-1]; last.Type != protocol.TypeLog {
				t.Errorf("%s: the last frame on connecting %s, want the log", who, last.raw)
			}
			old := got[2 : len(got)-1]
			if !slices.Equal(chatTexts(old), want) || len(old) != len(want) {
				t.Errorf("%s: history %q, want %q", who, chatTexts(old), want)
			}
			for i, c := range old {
				if !c.Old || c.Seat != i%2^1 || (c.Seat == 0) != (c.Name == "Ann") {
					t.Errorf("%s: old message %s", who, c.raw)
					break
				}
			}
		}
		check(m, "a new connection")

		// Another manager on the same store (a restart) reads them back.
		m.Close()
		m2 := NewManager(Config{Store: mem, Games: games.Registry, StandIn: "random", Queue: 4096, Grace: time.Hour})
		t.Cleanup(m2.Close)
		check(m2, "after a restart")
	})
}

// toldGolf is Golf whose states tell their moves (game.Narrator) with
// test words, counting the calls and any made on a state where the move
// is not legal for its seat (Narrate is called before the move is
// applied).
type toldGolf struct {
	golf.Game
	calls, late *atomic.Int64
}

func (g toldGolf) Name() string { return "told-golf" }

func (g toldGolf) New(opts game.Options, seed uint64, deals []game.Layout) (game.State, error) {
	st, err := g.Game.New(opts, seed, deals)
	if err != nil {
		return nil, err
	}
	return &toldState{State: st, g: g}, nil
}

type toldState struct {
	game.State
	g toldGolf
}

func (s *toldState) Clone() game.State { return &toldState{State: s.State.Clone(), g: s.g} }

func (s *toldState) Narrate(seat int, m game.Move) (full, blind string) {
	s.g.calls.Add(1)
	if !slices.Contains(s.Legal(seat, nil), m) {
		s.g.late.Add(1)
	}
	return fmt.Sprintf("{%d} did %s", seat, s.FormatMove(m)), fmt.Sprintf("{%d} did something", seat)
}

// TestMoveWords checks the words of moves: the game's full words to those
// who may read the move (the mover always), the blind ones to the others,
// told before the move is applied, and not asked for at a table nobody
// watches.
func TestMoveWords(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := toldGolf{calls: new(atomic.Int64), late: new(atomic.Int64)}
		m, _ := bubbleManager(t, Config{Games: game.NewRegistry(g), Grace: time.Hour})
		ctx := context.Background()
		seed := uint64(7)

		// Nobody watches: a whole game of bots, no words.
		info, err := m.Create(ctx, CreateRequest{Game: "told-golf", Seats: []string{"random", "random"}, Options: map[string]any{"holes": 1}, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		step(time.Minute)
		if in, _ := m.Info(ctx, info.ID); in.Status != store.StatusOver || in.Moves == 0 {
			t.Fatalf("the bots' game: %+v", in)
		}
		if n := g.calls.Load(); n != 0 {
			t.Errorf("Narrate was called %d times at a table nobody watches", n)
		}

		info, err = m.Create(ctx, CreateRequest{Game: "told-golf", Seats: []string{"open", "open"}, Options: map[string]any{"holes": 1}, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.Join(ctx, info.ID, 0, "Ann")
		b, _ := m.Join(ctx, info.ID, 1, "Bob")
		tb, ann, _ := m.Attach(ctx, info.ID, a.Token, false)
		_, bob, _ := m.Attach(ctx, info.ID, b.Token, false)
		_, spec, _ := m.Attach(ctx, info.ID, "", true)
		synctest.Wait()
		drain(t, ann)
		drain(t, bob)
		drain(t, spec)
		moveEvent := func(sub *Sub) protocol.Event {
			t.Helper()
			for _, f := range drain(t, sub) {
				for _, ev := range f.Events {
					if ev.Kind == protocol.EventMove {
						return ev
					}
				}
			}
			t.Fatal("no move event")
			return protocol.Event{}
		}
		// The opening reveals are chosen together: hidden from the others.
		if err := sendMove(tb, ann, "reveal 0"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if ev := moveEvent(ann); ev.Move != "reveal 0" || ev.Text != "{0} did reveal 0" {
			t.Errorf("the mover's event: %+v", ev)
		}
		for name, sub := range map[string]*Sub{"Bob": bob, "the spectator": spec} {
			if ev := moveEvent(sub); !ev.Hidden || ev.Move != "" || ev.Text != "{0} did something" {
				t.Errorf("%s's event of a hidden move: %+v", name, ev)
			}
		}
		// The last reveal is the only choice left: everyone reads it.
		if err := sendMove(tb, bob, "reveal 1"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		for name, sub := range map[string]*Sub{"Ann": ann, "Bob": bob, "the spectator": spec} {
			if ev := moveEvent(sub); ev.Hidden || ev.Move != "reveal 1" || ev.Text != "{1} did reveal 1" {
				t.Errorf("%s's event of a move all may read: %+v", name, ev)
			}
		}
		if n := g.calls.Load(); n != 2 {
			t.Errorf("Narrate was called %d times for 2 moves", n)
		}
		if n := g.late.Load(); n != 0 {
			t.Errorf("Narrate was called %d times after its move was applied", n)
		}
	})
}

// TestDealEvents plays a two-hole match of bots before a spectator: the
// move that ends each hole is followed, in the same frame, by the hole's
// scores, and the last by the match's end.
func TestDealEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		frames := twoHolesWatched(t)
		last := frames[len(frames)-1]
		if last.Status != store.StatusOver || len(last.Result.DealScores) != 2 {
			t.Fatalf("the match did not end: %s", last.raw)
		}
		var deals []anyFrame
		for _, f := range frames {
			for i, ev := range f.Events {
				if ev.Kind != protocol.EventDeal {
					continue
				}
				deals = append(deals, f)
				if i != 1 || f.Events[0].Kind != protocol.EventMove {
					t.Errorf("a deal event is not right after its move: %s", f.raw)
				}
				if ev.Deal != len(deals) || !slices.Equal(ev.Scores, f.Result.DealScores[ev.Deal-1]) || ev.Seat != -1 {
					t.Errorf("deal event %+v, the frame's result %+v", ev, f.Result)
				}
			}
		}
		if len(deals) != 2 {
			t.Fatalf("%d deal events in a two-hole match", len(deals))
		}
		if evs := deals[1].Events; len(evs) != 3 || evs[2].Kind != protocol.EventOver || deals[1].Status != store.StatusOver {
			t.Errorf("the last hole's frame: %s, want move, deal, over", deals[1].raw)
		}
		if deals[0].Status != store.StatusPlaying || len(deals[0].Events) != 2 {
			t.Errorf("the first hole's frame: %s, want move, deal", deals[0].raw)
		}
	})
}

func seatNames(seats []protocol.SeatInfo) (names, levels []string) {
	for _, s := range seats {
		names = append(names, s.Name)
		levels = append(levels, s.Level)
	}
	return names, levels
}

// TestBotNames names bots by seat, with their levels; a person who takes
// a bot's name keeps it and the bot goes by another until the person
// leaves; a stand-in shows its level; a table stored before bots had
// names gets them when loaded.
func TestBotNames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m, mem := bubbleManager(t, Config{StandIn: "heuristic", Grace: time.Second, BotDelay: time.Second})
		ctx := context.Background()
		info, err := m.Create(ctx, CreateRequest{Game: "golf", Seats: []string{"open", "random", "heuristic", "hard", "medium", "easy"}})
		if err != nil {
			t.Fatal(err)
		}
		names, levels := seatNames(info.Seats)
		if want := []string{"", "Ben", "Cleo", "Dev", "Eve", "Finn"}; !slices.Equal(names, want) {
			t.Errorf("names %q, want %q", names, want)
		}
		if want := []string{"", "beginner", "casual", "hard", "medium", "easy"}; !slices.Equal(levels, want) {
			t.Errorf("levels %q, want %q", levels, want)
		}
		if rec, _ := mem.Table(ctx, info.ID); rec.Seats[3].Name != "Dev" || rec.Seats[3].Bot != "hard" {
			t.Errorf("stored seat 3: %+v", rec.Seats[3])
		}

		j, err := m.Join(ctx, info.ID, 0, "cLEO")
		if err != nil {
			t.Fatalf("a person named as a bot: %v", err)
		}
		in, _ := m.Info(ctx, info.ID)
		if names, _ := seatNames(in.Seats); !slices.Equal(names, []string{"cLEO", "Ben", "Gus", "Dev", "Eve", "Finn"}) {
			t.Errorf("names after cLEO joined: %q", names)
		}
		if rec, _ := mem.Table(ctx, info.ID); rec.Seats[2].Name != "Gus" {
			t.Errorf("stored seat 2 after cLEO joined: %+v", rec.Seats[2])
		}
		// The game runs: away past the grace period, the stand-in plays
		// seat 0 and shows its level.
		step(2 * time.Second)
		in, _ = m.Info(ctx, info.ID)
		if s := in.Seats[0]; s.State != protocol.SeatStandIn || s.Level != protocol.LevelCasual || s.Name != "cLEO" {
			t.Errorf("seat 0 with its stand-in: %+v", s)
		}
		if err := m.Leave(ctx, info.ID, j.Token); err != nil {
			t.Fatal(err)
		}
		in, _ = m.Info(ctx, info.ID)
		if names, _ := seatNames(in.Seats); !slices.Equal(names, []string{"", "Ben", "Cleo", "Dev", "Eve", "Finn"}) {
			t.Errorf("names after cLEO left: %q", names)
		}
		if s := in.Seats[0]; s.State != protocol.SeatOpen || s.Level != protocol.LevelCasual {
			t.Errorf("an open seat the stand-in plays: %+v", s)
		}

		// A table stored before bots had names: its bot seats were named
		// after their bot.
		old := &store.Table{ID: "old", Game: "golf", Options: map[string]any{"players": 3, "holes": 1}, Seed: 1,
			Settings: json.RawMessage(`{}`), Status: store.StatusWaiting, CreatedAt: time.Now(),
			Seats: []store.Seat{{Kind: store.KindBot, Bot: "random", Name: "random"}, {Kind: store.KindHuman, Name: "Ada", TokenHash: "ab"},
				{Kind: store.KindBot, Bot: "heuristic", Name: "heuristic"}}}
		if err := mem.CreateTable(ctx, old); err != nil {
			t.Fatal(err)
		}
		in, err = m.Info(ctx, "old")
		if err != nil {
			t.Fatal(err)
		}
		if names, levels := seatNames(in.Seats); !slices.Equal(names, []string{"Dev", "Ada", "Cleo"}) || !slices.Equal(levels, []string{"beginner", "", "casual"}) {
			t.Errorf("an old table's seats: %q %q", names, levels)
		}
	})
}

// TestNameBots checks the naming rule alone: deterministic by seat,
// never a person's name (in any case), never twice at a table.
func TestNameBots(t *testing.T) {
	bot := store.Seat{Kind: store.KindBot, Bot: "random"}
	person := func(name string) store.Seat { return store.Seat{Kind: store.KindHuman, Name: name} }
	for _, c := range []struct {
		seats []store.Seat
		want  []string
	}{
		{[]store.Seat{bot, bot}, []string{"Ada", "Ben"}},
		{[]store.Seat{person("ben"), bot}, []string{"ben", "Cleo"}},
		{[]store.Seat{person("CLEO"), bot, bot}, []string{"CLEO", "Ben", "Dev"}},
		{[]store.Seat{person("Dev"), bot, person("Cleo")}, []string{"Dev", "Ben", "Cleo"}},
		{[]store.Seat{bot, person("Ada"), person("Dev")}, []string{"Eve", "Ada", "Dev"}},
		{slices.Repeat([]store.Seat{bot}, 8), botNames[:8]},
	} {
		seats := slices.Clone(c.seats)
		nameBots(seats)
		var got []string
		for _, s := range seats {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("nameBots(%+v) = %q, want %q", c.seats, got, c.want)
		}
	}
	// Every name taken: a number.
	seats := []store.Seat{bot}
	for _, n := range botNames {
		seats = append(seats, person(n))
	}
	nameBots(seats)
	if seats[0].Name != "Bot 1" {
		t.Errorf("with every name taken: %q", seats[0].Name)
	}
}

// TestChatMovesWithTheTable runs two nodes of a cluster: the chat written
// at the table's first node is there, in order, when the other node takes
// the table over, and the chat goes on there.
func TestChatMovesWithTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const ttl = 4 * time.Second
		ctx := context.Background()
		mem := newMemStore()
		a := node(t, "a", mem, ttl)
		b := node(t, "b", mem, ttl)
		info := golfTable(t, a, CreateRequest{Seats: []string{"open", "random"}})
		j, err := a.Join(ctx, info.ID, 0, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		tb, ann, err := a.Attach(ctx, info.ID, j.Token, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"one", "two", "three"} {
			sendChat(tb, ann, text, "")
		}
		synctest.Wait()
		if got := chatTexts(drain(t, ann)); !slices.Equal(got, []string{"one", "two", "three"}) {
			t.Fatalf("node a relayed %q", got)
		}
		a.Close()
		for b.Live() == 0 {
			step(ttl / 16)
		}
		tb2, ann2, err := b.Attach(ctx, info.ID, j.Token, false)
		if err != nil {
			t.Fatal(err)
		}
		sendChat(tb2, ann2, "four", "")
		synctest.Wait()
		got := drain(t, ann2)
		if len(got) < 2 || got[0].Type != protocol.TypeWelcome || got[1].Type != protocol.TypeState {
			t.Fatalf("node b's first frames: %+v", got)
		}
		var old []bool
		for _, f := range ofType(got, protocol.TypeChat) {
			old = append(old, f.Old)
		}
		if texts := chatTexts(got); !slices.Equal(texts, []string{"one", "two", "three", "four"}) || !slices.Equal(old, []bool{true, true, true, false}) {
			t.Errorf("node b's chat: %q, old %v", texts, old)
		}
	})
}

// chatReads is a memStore that counts its reads of chat.
type chatReads struct {
	*memStore
	n atomic.Int64
}

func (s *chatReads) Chat(ctx context.Context, tableID string, limit int) ([]store.ChatMessage, error) {
	s.n.Add(1)
	return s.memStore.Chat(ctx, tableID, limit)
}

// TestNewTableReadsNoChat checks that a table this node made starts with
// no chat to read from the store (none can be stored yet), and that a
// table loaded from the store reads its chat once, for its first
// connection.
func TestNewTableReadsNoChat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := &chatReads{memStore: newMemStore()}
		cfg := Config{Store: st, Games: games.Registry, StandIn: "random", Queue: 4096, Grace: time.Hour}
		m := NewManager(cfg)
		tb, ann, _, _ := seated(t, m, 1)
		sendChat(tb, ann, "hello", "")
		synctest.Wait()
		if n := st.n.Load(); n != 0 {
			t.Errorf("a new table read its chat %d times, want none", n)
		}
		m.Close()

		before := st.n.Load()
		m2 := NewManager(cfg) // a restart: the table is loaded from the store
		t.Cleanup(m2.Close)
		for range 2 {
			_, sub, err := m2.Attach(context.Background(), tb.ID(), "", true)
			if err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if got := chatTexts(drain(t, sub)); !slices.Equal(got, []string{"hello"}) {
				t.Errorf("after a restart the chat is %q, want [hello]", got)
			}
		}
		if n := st.n.Load() - before; n != 1 {
			t.Errorf("a loaded table read its chat %d times for two connections, want once", n)
		}
	})
}
