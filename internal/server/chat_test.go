package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

func chat(cl *client, text string) {
	cl.send(map[string]any{"v": 1, "type": "chat", "text": text})
}

// nextChat reads cl's frames up to its next chat message (states and seats
// on the way are skipped; an error is not).
func nextChat(t *testing.T, cl *client) msg {
	t.Helper()
	return cl.waitFor("a chat message", 10*time.Second, func(m msg) bool {
		if m.Type == protocol.TypeError {
			t.Fatalf("%s: %s, waiting for a chat message", cl.name, m.raw)
		}
		return m.Type == protocol.TypeChat
	})
}

// twoPlayers seats Ann and Bob at a one-hole Golf table and connects them
// and a spectator, reading up to the game's start.
func twoPlayers(t *testing.T, e *env) (info protocol.TableInfo, ann, bob protocol.JoinResult, a, b, w *client) {
	t.Helper()
	info = golfTable(e, []string{"open", "open"}, nil)
	ann, bob = e.join(info.ID, 0, "Ann"), e.join(info.ID, 1, "Bob")
	a, b, w = e.dial(info.ID, ann.Token, "Ann"), e.dial(info.ID, bob.Token, "Bob"), e.dial(info.ID, "", "spectator")
	for _, cl := range []*client{a, b, w} {
		cl.waitFor("the game under way", 10*time.Second, func(m msg) bool {
			return m.Type == protocol.TypeState && m.Status == store.StatusPlaying
		})
	}
	return info, ann, bob, a, b, w
}

// TestChat has two seated players talk over real WebSockets: each message
// reaches both and a spectator, as text (markup and all), with the seat
// and its name. A spectator's message, an empty one, one of 501
// characters, one with a control character and a flood are each refused
// to their sender only, with a reason.
func TestChat(t *testing.T) {
	e := newEnv(t, envConfig{})
	_, _, _, a, b, w := twoPlayers(t, e)

	sent := map[string]string{"Ann": `<b>good</b> luck & "have fun" <script>alert(1)</script>`, "Bob": "thanks\n\tyou too 🂡"}
	for _, from := range []*client{a, b} {
		chat(from, "  "+sent[from.name]+"  ")
		for _, to := range []*client{a, b, w} {
			m := nextChat(t, to)
			if m.Seat != from.seat || m.Name != from.name || m.Text != sent[from.name] || m.Old || m.At.IsZero() {
				t.Errorf("%s got %s from %s", to.name, m.raw, from.name)
			}
		}
	}

	refuse := func(cl *client, text, code, what string) {
		t.Helper()
		cl.send(map[string]any{"v": 1, "type": "chat", "text": text, "id": "c9"})
		if m := expectError(t, cl, code, what); m.ID != "c9" {
			t.Errorf("%s: the refusal does not echo the id: %s", what, m.raw)
		}
	}
	refuse(w, "hello", protocol.CodeSpectator, "a spectator's chat")
	refuse(a, "", protocol.CodeBadChat, "an empty chat")
	refuse(a, "   ", protocol.CodeBadChat, "a chat of spaces")
	refuse(a, strings.Repeat("x", 501), protocol.CodeBadChat, "a chat of 501 characters")
	refuse(a, "bell\u0007", protocol.CodeBadChat, "a chat with a control character")
	a.send(map[string]any{"v": 1, "type": "chat"})
	expectError(t, a, protocol.CodeBadChat, "a chat with no text")
	// 500 characters are fine (here 500 code points of 2 bytes each).
	chat(a, strings.Repeat("é", 500))
	for _, to := range []*client{a, b, w} {
		if m := nextChat(t, to); len([]rune(m.Text)) != 500 {
			t.Errorf("%s got %d characters of 500", to.name, len([]rune(m.Text)))
		}
	}

	// Ann wrote twice: three more (a fourth if the test was slow enough
	// for her rate to let one more through), then the flood is refused.
	var relayed []string
	floods := 0
	for i := range 10 {
		chat(a, fmt.Sprint("flood ", i))
	}
	for range 10 {
		switch m := a.next(10 * time.Second); {
		case m.Type == protocol.TypeChat:
			relayed = append(relayed, m.Text)
		case m.Type == protocol.TypeError && m.Code == protocol.CodeChatFlood && m.Message != "":
			floods++
		default:
			t.Errorf("Ann got %s amid her flood", m.raw)
		}
	}
	if len(relayed) < 3 || len(relayed) > 4 || floods != 10-len(relayed) || !slices.Equal(relayed[:3], []string{"flood 0", "flood 1", "flood 2"}) {
		t.Errorf("a flood of 10: %q relayed, %d refused; want the first 3 relayed, the rest refused", relayed, floods)
	}

	// Nobody else heard of a refusal: what Bob and the spectator get is
	// the messages relayed, up to Bob's next one.
	chat(b, "still here")
	for _, to := range []*client{b, w} {
		var got []string
		for len(got) == 0 || got[len(got)-1] != "still here" {
			got = append(got, nextChat(t, to).Text)
		}
		if want := append(slices.Clone(relayed), "still here"); !slices.Equal(got, want) {
			t.Errorf("%s got %q, want %q", to.name, got, want)
		}
	}
	for _, cl := range []*client{b, w} {
		for _, m := range cl.all() {
			if m.Type == protocol.TypeError && cl == w && m.Code != protocol.CodeSpectator {
				t.Errorf("the spectator got someone else's refusal: %s", m.raw)
			}
			if m.Type == protocol.TypeError && cl == b {
				t.Errorf("Bob got a refusal: %s", m.raw)
			}
		}
	}
}

// TestChatFloodKeepsTheTablePlaying floods the chat around a move: the
// move is made and told at once, in its place among the flood's refusals
// (counted, frame by frame), and the others get the five messages
// allowed and the move, nothing else; the other seat's move comes right
// after.
func TestChatFloodKeepsTheTablePlaying(t *testing.T) {
	e := newEnv(t, envConfig{})
	_, _, _, a, b, w := twoPlayers(t, e)
	for i := range 20 {
		chat(a, fmt.Sprint("spam ", i))
	}
	a.move("reveal 0")
	for i := range 20 {
		chat(a, fmt.Sprint("spam ", 20+i))
	}
	// One frame for each chat (relayed or refused), the move's state in
	// its place: the 21st. Five are relayed (six, seven if the test was
	// slow enough for the rate to let more through).
	var got []string
	for len(got) < 20+1+20 {
		if m := a.next(10 * time.Second); m.Type != protocol.TypeSeats {
			got = append(got, m.Type+"/"+m.Code)
		}
	}
	relayed, refused := 0, 0
	for i, k := range got {
		switch {
		case i == 20 && k == "state/":
		case i != 20 && k == "chat/":
			relayed++
		case i != 20 && k == "error/"+protocol.CodeChatFlood:
			refused++
		default:
			t.Errorf("Ann's frame %d is %s", i, k)
		}
	}
	if relayed < 5 || relayed > 7 || relayed+refused != 40 || slices.Index(got, "error/"+protocol.CodeChatFlood) != 5 {
		t.Errorf("Ann's frames: %v; want 5 messages relayed, then the flood refused, the move's state 21st", got)
	}
	b.move("reveal 1")
	if m := a.next(10 * time.Second); m.Type != protocol.TypeState || m.Seq != 2 {
		t.Errorf("Ann's next frame after Bob's move: %s", m.raw)
	}
	for _, cl := range []*client{b, w} {
		var chats, states int
		for states < 2 {
			switch m := cl.next(10 * time.Second); m.Type {
			case protocol.TypeChat:
				chats++
			case protocol.TypeState:
				states++
			case protocol.TypeSeats:
			default:
				t.Errorf("%s got %s", cl.name, m.raw)
			}
		}
		if chats != relayed {
			t.Errorf("%s got %d messages of the %d relayed", cl.name, chats, relayed)
		}
	}
}

// TestChatHistory reconnects to a table where people talked: after the
// welcome and the state come the messages, oldest first, marked old; and
// so again after the server restarts on the same database. (That a table
// keeps only its last 50 is tested in internal/table and the store's
// contract, in fake time: the chat's rate would make it slow here.)
func TestChatHistory(t *testing.T) {
	e := newEnv(t, envConfig{})
	info, ann, _, a, b, _ := twoPlayers(t, e)
	var want []string
	for i := range 8 {
		from := a
		if i%2 == 1 {
			from = b
		}
		text := fmt.Sprintf("message %d from %s", i, from.name)
		chat(from, text)
		for _, to := range []*client{a, b} {
			if m := nextChat(t, to); m.Text != text {
				t.Fatalf("%s: %s, want %q", to.name, m.raw, text)
			}
		}
		want = append(want, text)
	}
	check := func(who string) {
		t.Helper()
		cl := e.dial(info.ID, ann.Token, who)
		defer cl.close()
		if st := cl.next(10 * time.Second); st.Type != protocol.TypeState {
			t.Fatalf("%s: after the welcome %s, want the state", who, st.raw)
		}
		var got []string
		for range want {
			m := cl.next(10 * time.Second)
			if m.Type != protocol.TypeChat || !m.Old || (m.Name == "Ann") != (m.Seat == 0) || m.At.IsZero() {
				t.Fatalf("%s: %s, want an old chat message", who, m.raw)
			}
			got = append(got, m.Text)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: history %q, want %q", who, got, want)
		}
		// The history is all sent before anything else: a sync's state
		// is the next frame.
		cl.send(map[string]any{"v": 1, "type": "sync"})
		if m := cl.next(10 * time.Second); m.Type != protocol.TypeState {
			t.Errorf("%s: %s after the history, want the sync's state", who, m.raw)
		}
	}
	check("Ann again")
	e.restart()
	check("Ann after a restart")
}
