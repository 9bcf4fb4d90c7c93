// Package protocol is Parlour's wire format, version 1: every JSON value
// a table server and its clients exchange, as docs/protocol.md describes
// it.
//
//   - The table protocol (protocol.go): the messages a server sends on a
//     table's WebSocket (welcome, state, seats, chat, log, rematch,
//     error), the one message shape clients send, and the codes and kinds
//     those messages carry.
//   - The lobby API (lobby.go): the bodies the JSON API takes and
//     answers.
//   - Refusals (refusal.go): the one builder of an error frame, and of a
//     refused API request's body.
//
// internal/table produces the frames and fills in the lobby's answers;
// internal/server carries them. The browser's copy of these types,
// web/src/api.ts, is checked against them field by field (apits_test.go).
//
// # Units
//
// A moment is a time.Time, sent as RFC 3339 text. A duration is a whole
// number of milliseconds, in a field whose JSON name ends in "_ms"
// (Clock.RemainingMS, "remaining_ms"); a new field follows that
// convention, and none is a time.Duration (which encoding/json would send
// in nanoseconds). Three fields of the lobby API are older than the
// convention and keep their names and units: "clock" and "grace"
// (CreateTable, TableInfo) are seconds, a fraction allowed, and "think"
// (CreateTable, TableInfo) is milliseconds. units_test.go holds the types
// to this.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"parlour/game"
)

// Version is the version of the table protocol. Every message, both
// ways, carries it as "v"; docs/protocol.md describes version 1.
const Version = 1

// Message types the server sends.
const (
	TypeWelcome = "welcome" // once, after a hello is accepted
	TypeState   = "state"   // the seat's view, after every move and on request
	TypeSeats   = "seats"   // who sits where changed (joined, left, away, back)
	TypeRematch = "rematch" // a rematch table was started from this one
	TypeChat    = "chat"    // a chat message (the client's, relayed to the table)
	TypeLog     = "log"     // the table's recent past, once, as a connection connects
	TypeError   = "error"   // a refused message, to its sender only
)

// Error codes of TypeError messages (and of the lobby API's errors).
const (
	CodeBadMessage  = "bad_message"   // not JSON, unknown type, missing fields
	CodeBadVersion  = "bad_version"   // a "v" other than Version
	CodeBadToken    = "bad_token"     // no seat of this table has that token
	CodeSpectator   = "spectator"     // spectators may not move
	CodeNotYourSeat = "not_your_seat" // a move for a seat the token does not hold
	CodeNotStarted  = "not_started"   // seats are still open
	CodeOver        = "over"          // the game has ended
	CodeBadMove     = "bad_move"      // the text is not a move of the game
	CodeNotYourTurn = "not_your_turn" // the seat may not act now
	CodeIllegalMove = "illegal_move"  // the move is not legal now
	CodeTooLarge    = "too_large"     // a message or a move text over the limit
	CodeRateLimited = "rate_limited"  // too many messages; this one was dropped
	CodeUnavailable = "unavailable"   // the store failed; the move was not made
	CodeBadChat     = "bad_chat"      // a chat text empty, too long, or with control characters
	CodeChatFlood   = "chat_flood"    // over the seat's chat rate; this message was dropped
	CodeBusy        = "busy"          // the table has too much work waiting; this message was dropped
	CodeChatBacklog = "chat_backlog"  // the table's chat waits to be stored; this message was dropped
)

// Seat states in SeatInfo.
const (
	SeatOpen    = "open"    // nobody holds it (a stand-in plays it in a running game)
	SeatHere    = "here"    // its player is connected
	SeatAway    = "away"    // its player dropped; the grace period runs
	SeatStandIn = "standin" // its player is away past the grace period: a bot plays
	SeatBot     = "bot"     // a bot's seat
)

// Event kinds.
const (
	EventMove    = "move"
	EventStart   = "start"
	EventOver    = "over"
	EventJoin    = "join"
	EventLeave   = "leave"
	EventAway    = "away"
	EventBack    = "back"
	EventStandIn = "standin"
	EventDeal    = "deal" // a deal (hand, hole) ended: its number and scores
)

// Bot levels in SeatInfo.Level: how strong the bot playing a seat is. The
// searching bots' levels, "easy", "medium" and "hard", are their names.
const (
	LevelBeginner = "beginner" // the random bot
	LevelCasual   = "casual"   // the heuristic bot
)

// Welcome is the first message on a connection.
type Welcome struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Table   string `json:"table"`
	Game    string `json:"game"`
	Title   string `json:"title"`
	Seat    int    `json:"seat"` // -1 for a spectator
	Players int    `json:"players"`
}

// State is what one seat (or a spectator) sees of the table: sent after
// every move, on connecting, and when asked with "sync".
type State struct {
	V      int        `json:"v"`
	Type   string     `json:"type"`
	Table  string     `json:"table"`
	Seat   int        `json:"seat"`   // whose view this is; -1: a spectator's
	Seq    int        `json:"seq"`    // moves applied so far
	Status string     `json:"status"` // waiting, playing or over
	ToAct  []int      `json:"to_act"`
	Legal  []string   `json:"legal"` // this seat's legal moves, sorted; [] unless it may act
	View   any        `json:"view"`  // the game's view for this seat
	Result Result     `json:"result"`
	Seats  []SeatInfo `json:"seats"`
	Clocks []Clock    `json:"clocks"`
	Events []Event    `json:"events"` // what happened since the last state
	// DealEnd is, in the state sent after a move that ended a deal, that
	// deal's end as this seat sees it: by then the next deal is dealt,
	// which View shows. Absent from every other state.
	DealEnd *DealEnd `json:"deal_end,omitempty"`
}

// DealEnd is the end of a deal (hand, hole) as one seat (or a spectator)
// sees it, for a front end to show before the next deal: the deal's last
// position with every card the rules turn up at its end (the game's
// game.DealEndView), and what the deal scored.
type DealEnd struct {
	Deal   int   `json:"deal"`   // the 1-based number of the deal that ended
	Scores []int `json:"scores"` // each seat's score for that deal
	Totals []int `json:"totals"` // each seat's match total after it
	// View is the game's view of the deal's last position for this seat,
	// shaped as State.View (the same game's view type), with nobody to
	// act and no prompt.
	View json.RawMessage `json:"view"`
}

// Seats tells every connection that who sits where has changed.
type Seats struct {
	V      int        `json:"v"`
	Type   string     `json:"type"`
	Table  string     `json:"table"`
	Seq    int        `json:"seq"`
	Seats  []SeatInfo `json:"seats"`
	Events []Event    `json:"events"`
}

// Rematch tells every connection that a rematch table has been started.
type Rematch struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Table   string `json:"table"`
	Rematch string `json:"rematch"`
}

// Error is a refusal, sent to the connection whose message it refuses.
type Error struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	ID      string `json:"id,omitempty"`   // the refused message's id, if it had one
	Move    string `json:"move,omitempty"` // the refused move's text
}

// Log is the table's recent past as one connection may know it: the
// events of its last moves (at most LogMoves of them, before Seq), each
// told exactly as it was told live to a connection of the same seat (or
// a spectator's), with the deal ends, the start and the end of the match
// where they happened. It is sent once to each connection, after its
// welcome, its state and the kept chat, before anything else.
type Log struct {
	V      int     `json:"v"`
	Type   string  `json:"type"`
	Table  string  `json:"table"`
	Seq    int     `json:"seq"` // the moves made so far: the log ends with move Seq
	Events []Event `json:"events"`
}

// LogMoves is how many of a table's last moves a Log tells.
const LogMoves = 40

// Event is one thing that happened at the table. For a move, Move holds
// its notation when the receiving seat may know it; otherwise Hidden is
// set and the event says only that the seat moved (see docs/protocol.md).
// Text tells the move in the game's words, as far as the receiver may
// know it (a template: see game.Narrator). A deal event has Deal and
// Scores.
type Event struct {
	Kind   string    `json:"kind"`
	N      int       `json:"n,omitempty"` // the move's 1-based number
	Seat   int       `json:"seat"`
	Move   string    `json:"move,omitempty"`
	Hidden bool      `json:"hidden,omitempty"`
	Text   string    `json:"text,omitempty"`   // a move in words: "{2} drew [7H] from the discard pile"
	Deal   int       `json:"deal,omitempty"`   // a deal event: the 1-based number of the deal that ended
	Scores []int     `json:"scores,omitempty"` // a deal event: each seat's score for that deal
	By     string    `json:"by,omitempty"`     // "bot", "standin", "clock"; "" the seat's player
	At     time.Time `json:"at"`
}

// Clock is a running turn clock.
type Clock struct {
	Seat        int   `json:"seat"`
	RemainingMS int64 `json:"remaining_ms"` // the time left for the seat's decision, in milliseconds
}

// SeatInfo is one seat as the lobby and the table show it.
type SeatInfo struct {
	Seat  int    `json:"seat"`
	Kind  string `json:"kind"` // "human" or "bot"
	Bot   string `json:"bot,omitempty"`
	Name  string `json:"name,omitempty"` // a person's name, or a bot's friendly one ("Ada")
	State string `json:"state"`          // open, here, away, standin, bot
	// Level is how strong the bot that plays the seat is (LevelBeginner,
	// LevelCasual, "easy", "medium" or "hard"): a bot's seat, or a
	// person's seat while the stand-in plays it (standin, or open in a
	// running game). Empty otherwise.
	Level string `json:"level,omitempty"`
}

// Result is where the match stands.
type Result struct {
	Deal       int     `json:"deal"`
	DealScores [][]int `json:"deal_scores"`
	Totals     []int   `json:"totals"`
	Over       bool    `json:"over"`
	Winners    []int   `json:"winners"`
}

// ResultOf returns a game's result as the protocol sends it, with empty
// lists rather than nulls.
func ResultOf(r game.Result) Result {
	out := Result{Deal: r.Deal, DealScores: r.DealScores, Totals: r.Totals, Over: r.Over, Winners: r.Winners}
	if out.DealScores == nil {
		out.DealScores = [][]int{}
	}
	if out.Totals == nil {
		out.Totals = []int{}
	}
	if out.Winners == nil {
		out.Winners = []int{}
	}
	return out
}

// ClientMessage is what a client sends: a hello first, then moves,
// syncs and chat. Unknown fields are ignored.
type ClientMessage struct {
	V        int    `json:"v"`
	Type     string `json:"type"` // hello, move, sync, chat
	ID       string `json:"id,omitempty"`
	Token    string `json:"token,omitempty"`    // hello: the seat token
	Spectate bool   `json:"spectate,omitempty"` // hello: watch instead
	Move     string `json:"move,omitempty"`     // move: notation, optionally "SEAT: MOVE"
	Seat     *int   `json:"seat,omitempty"`     // move: the seat it is for, if given
	Text     string `json:"text,omitempty"`     // chat: the message
}

// ParseClient reads a client message (one JSON object, nothing after it)
// in this protocol's version, or returns the refusal to send (an Error
// with its code and reason, and the message's id when it has one).
func ParseClient(data []byte) (ClientMessage, *Error) {
	msg, ok := parseCompact(data)
	if !ok {
		// Its own variable: one whose address goes to Unmarshal is on the
		// heap, and msg need not be for the usual messages.
		var full ClientMessage
		if err := json.Unmarshal(data, &full); err != nil {
			e := Refusal(CodeBadMessage, "the message is not a JSON object: "+err.Error(), "")
			return ClientMessage{}, &e
		}
		msg = full
	}
	if msg.V != Version {
		e := Refusal(CodeBadVersion, fmt.Sprintf("protocol version %d is not spoken here (send \"v\": %d)", msg.V, Version), msg.ID)
		return msg, &e
	}
	return msg, nil
}

// Chat is a chat message, relayed to every connection of the table (and
// sent again, with Old set, to a connection as it connects).
type Chat struct {
	V    int       `json:"v"`
	Type string    `json:"type"`
	Seat int       `json:"seat"` // the writer's seat
	Name string    `json:"name"` // the seat's name when it was written ("" if its player gave none)
	Text string    `json:"text"` // plain text, never markup
	At   time.Time `json:"at"`
	Old  bool      `json:"old,omitempty"` // sent on connecting: written before
}

// Chat limits.
const (
	// MaxChatText is the most characters (Unicode code points) a chat
	// message holds, after trimming.
	MaxChatText = 500
	// ChatHistory is how many of its last chat messages a table keeps
	// and sends on connecting.
	ChatHistory = 50
	// ChatBurst and ChatWindow are a seat's chat rate: at most ChatBurst
	// messages in any ChatWindow (a token bucket of ChatBurst, refilled
	// at ChatBurst per ChatWindow).
	ChatBurst  = 5
	ChatWindow = 10 * time.Second
)

// CleanChat returns a chat text as it is relayed: spaces trimmed at both
// ends, line breaks as "\n". An error (its message the reason) if it is
// empty, over MaxChatText characters, not UTF-8, or holds control
// characters other than a tab or a line break (the bidirectional
// overrides and isolates count as such: they would turn the text around
// the message on the reader's screen).
func CleanChat(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", errors.New("a chat message is UTF-8 text")
	}
	if strings.ContainsRune(text, '\r') {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", errors.New("a chat message is empty")
	}
	if n := utf8.RuneCountInString(text); n > MaxChatText {
		return "", fmt.Errorf("a chat message has at most %d characters, not %d", MaxChatText, n)
	}
	for _, r := range text {
		if r == '\t' || r == '\n' {
			continue
		}
		if unicode.IsControl(r) || bidiControl(r) {
			return "", fmt.Errorf("a chat message may not hold control characters (U+%04X); tabs and line breaks may be", r)
		}
	}
	return text, nil
}

// bidiControl reports whether r is a bidirectional embedding, override or
// isolate.
func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
