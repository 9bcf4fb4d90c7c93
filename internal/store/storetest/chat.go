package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"parlour/internal/store"
)

// RunChat runs the contract of store.Chats (a table's chat) against the
// databases newDB makes, as Run does.
func RunChat(t *testing.T, newDB func(t *testing.T) Opener) {
	tests := []struct {
		name string
		run  func(t *testing.T, db Opener)
	}{
		{"InOrder", testChatOrder},
		{"KeepsTheLast", testChatKeep},
		{"MissingTable", testChatMissing},
		{"SurvivesReopen", testChatReopen},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newDB(t)) })
	}
}

// chatAt is a message's time as the stores keep it (microseconds, UTC).
var chatAt = time.Date(2026, 11, 25, 10, 0, 0, 123456000, time.UTC)

func chatMsg(i int) store.ChatMessage {
	return store.ChatMessage{Seat: i % 3, Name: fmt.Sprintf("P%d", i%3), Text: fmt.Sprintf("message %d", i),
		At: chatAt.Add(time.Duration(i) * time.Second)}
}

func sameChat(t *testing.T, got []store.ChatMessage, want []store.ChatMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d: %+v", len(got), len(want), got)
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Seat != w.Seat || g.Name != w.Name || g.Text != w.Text || !g.At.Equal(w.At) || g.At.Location() != time.UTC {
			t.Errorf("message %d = %+v, want %+v", i, g, w)
		}
	}
}

func testChatOrder(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	for _, id := range []string{"t1", "t2"} {
		if err := s.CreateTable(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Chat(ctx, "t1", 0)
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("the chat of a new table: %+v, %v; want an empty list", got, err)
	}
	var want []store.ChatMessage
	// Written a second apart but listed by when they were stored: the
	// times run backwards here, the order must not.
	for i := range 5 {
		m := chatMsg(10 - i)
		if i == 2 {
			m.Text = "tabs\tand\nlines, <b>markup</b> and \"quotes\" kept as they are: ünïcödé 🂡"
		}
		if err := s.AppendChat(ctx, "t1", m, 50); err != nil {
			t.Fatal(err)
		}
		want = append(want, m)
	}
	if err := s.AppendChat(ctx, "t2", chatMsg(99), 50); err != nil {
		t.Fatal(err)
	}
	got, err = s.Chat(ctx, "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want)
	got, err = s.Chat(ctx, "t1", 2)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want[3:])
	got, err = s.Chat(ctx, "t2", 50)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, []store.ChatMessage{chatMsg(99)})
}

func testChatKeep(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	var want []store.ChatMessage
	for i := range 60 {
		if err := s.AppendChat(ctx, "t1", chatMsg(i), 50); err != nil {
			t.Fatal(err)
		}
		want = append(want, chatMsg(i))
	}
	got, err := s.Chat(ctx, "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want[10:]) // all it keeps: the last 50
	got, err = s.Chat(ctx, "t1", 100)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want[10:])
	// keep 0 forgets nothing.
	if err := s.AppendChat(ctx, "t1", chatMsg(60), 0); err != nil {
		t.Fatal(err)
	}
	want = append(want, chatMsg(60))
	got, err = s.Chat(ctx, "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want[10:])
}

func testChatMissing(t *testing.T, db Opener) {
	s := db.open(t)
	ctx := context.Background()
	if err := s.AppendChat(ctx, "nope", chatMsg(1), 50); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendChat to a missing table: %v, want ErrNotFound", err)
	}
	if got, err := s.Chat(ctx, "nope", 50); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Chat of a missing table: %+v, %v, want ErrNotFound", got, err)
	}
}

func testChatReopen(t *testing.T, db Opener) {
	ctx := context.Background()
	s := db(t)
	if err := s.CreateTable(ctx, sample("t1")); err != nil {
		t.Fatal(err)
	}
	want := []store.ChatMessage{chatMsg(1), chatMsg(2)}
	for _, m := range want {
		if err := s.AppendChat(ctx, "t1", m, 50); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := db.open(t)
	got, err := s2.Chat(ctx, "t1", 50)
	if err != nil {
		t.Fatal(err)
	}
	sameChat(t, got, want)
	if err := s2.AppendChat(ctx, "t1", chatMsg(3), 50); err != nil {
		t.Fatalf("appending after reopening: %v", err)
	}
}
