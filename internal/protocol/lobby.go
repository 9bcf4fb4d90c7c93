package protocol

import (
	"encoding/json"
	"time"

	"parlour/card"
)

// The lobby API's bodies (docs/protocol.md, "Lobby API"): what the
// server's JSON API takes and answers. internal/table fills in the
// answers; internal/server decodes the requests and writes the answers.

// GameInfo is one game as GET /api/games lists it.
type GameInfo struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Summary    string `json:"summary"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	// Deal and Deals are what the game calls a deal (game.Info), for the
	// front ends' scores and logs: "hole" and "holes" in Golf.
	Deal  string `json:"deal"`
	Deals string `json:"deals"`
	// LowWins, OneDeal: the lowest total wins; a match is one deal.
	LowWins bool `json:"low_wins"`
	OneDeal bool `json:"one_deal"`
	// Sides: by number of players, the side each seat plays for where
	// seats play in partnerships ({"4": [0, 1, 0, 1]} in Tractric); empty
	// when every seat plays for itself.
	Sides   map[int][]int `json:"sides"`
	Options []OptionInfo  `json:"options"`
	// Rules is the rules' text; left out of GET /api/games?rules=0.
	Rules string `json:"rules,omitempty"`
}

// OptionInfo is one option of a game: a number from Min to Max, or one
// of Choices.
type OptionInfo struct {
	Name    string   `json:"name"`
	Doc     string   `json:"doc"`
	Default any      `json:"default"`
	Min     *int     `json:"min,omitempty"`
	Max     *int     `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
}

// CreateTable is the body of POST /api/tables, which creates a table.
type CreateTable struct {
	Game    string         `json:"game"`
	Options map[string]any `json:"options"`
	// Seats has one entry per seat: "open" (for a person) or a bot's
	// name. Empty: every seat open.
	Seats []string `json:"seats"`
	// Clock is the time a person has per decision, in seconds (a
	// fraction allowed); 0: no clock.
	Clock float64 `json:"clock"`
	// Grace is how long a dropped player's seat waits before its
	// stand-in plays, in seconds; nil: the server's default.
	Grace *float64 `json:"grace"`
	// StandIn names the stand-in bot; "": the server's default.
	StandIn string `json:"standin"`
	// Seed fixes the game's seed: an unsigned 64-bit integer, as a
	// number or a decimal string; nil: random.
	Seed *json.Number `json:"seed"`
	// Think is the time the table's search bots think per move, in
	// milliseconds (not seconds, unlike Clock and Grace); nil: the
	// server's default.
	Think *float64 `json:"think"`
}

// TableInfo is a table as the lobby shows it: the answer of POST
// /api/tables and GET /api/tables/{id}, and each entry of GET
// /api/tables.
type TableInfo struct {
	ID      string         `json:"id"`
	Game    string         `json:"game"`
	Title   string         `json:"title"`
	Options map[string]any `json:"options"`
	// Clock is the time a person has per decision, in seconds; 0: none.
	Clock float64 `json:"clock"`
	// Grace is how long a dropped player's seat waits for them, in
	// seconds, before the stand-in plays it.
	Grace   float64 `json:"grace"`
	StandIn string  `json:"standin"`
	// Think is the time a search bot thinks per move, in milliseconds
	// (not seconds, unlike Clock and Grace); 0: its level's own
	// settings.
	Think      int64      `json:"think"`
	Status     string     `json:"status"` // waiting, playing or over
	Seats      []SeatInfo `json:"seats"`
	Open       []int      `json:"open"` // seats one may join
	Moves      int        `json:"moves"`
	Spectators int        `json:"spectators"`
	Result     *Result    `json:"result,omitempty"` // once over
	RematchOf  string     `json:"rematch_of,omitempty"`
	Rematch    string     `json:"rematch,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
}

// LobbyTables is the data of a tables event of GET /api/lobby/events:
// the three lists GET /api/tables answers, by status.
type LobbyTables struct {
	Open []TableInfo `json:"open"`
	Live []TableInfo `json:"live"`
	Over []TableInfo `json:"over"`
}

// JoinTable is the body of POST /api/tables/{id}/join.
type JoinTable struct {
	Seat *int   `json:"seat"` // nil: the first open seat
	Name string `json:"name"`
}

// JoinResult is a seat taken at a table: the answer of POST
// /api/tables/{id}/join and of POST /api/tables/{id}/rematch.
type JoinResult struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	// Token is the seat's secret: 128 random bits in hex. It is shown
	// once; every move and every reconnection needs it.
	Token string `json:"token"`
}

// LeaveTable is the body of POST /api/tables/{id}/leave (the token may
// come in an Authorization header instead).
type LeaveTable struct {
	Token string `json:"token"`
}

// RematchTable is the body of POST /api/tables/{id}/rematch (the token
// may come in an Authorization header instead).
type RematchTable struct {
	Token string `json:"token"`
	Name  string `json:"name"`
}

// OK is the answer of a request that answers nothing else (POST
// /api/tables/{id}/leave).
type OK struct {
	OK bool `json:"ok"`
}

// PublicView is the answer of GET /api/tables/{id}/public: what a
// spectator sees, after Seq moves.
type PublicView struct {
	Seq   int    `json:"seq"`
	Table string `json:"table"`
	View  any    `json:"view"`
}

// Replay is a finished game, whole: everything needed to replay it (GET
// /api/tables/{id}/replay).
type Replay struct {
	ID      string         `json:"id"`
	Game    string         `json:"game"`
	Title   string         `json:"title"`
	Options map[string]any `json:"options"`
	// Seed is the game's seed, as a decimal string (it may not fit a
	// JSON number exactly).
	Seed    string       `json:"seed"`
	Players int          `json:"players"`
	Seats   []SeatInfo   `json:"seats"`
	Moves   []ReplayMove `json:"moves"`
	Result  Result       `json:"result"`
}

// ReplayMove is one move of a replay.
type ReplayMove struct {
	N    int    `json:"n"` // 1-based
	Seat int    `json:"seat"`
	Move string `json:"move"`
	// Text is the move in the game's words, as the live log tells it (a
	// template: {N} a seat, [C] a card); left out where the game has none
	// (and in a step's "last").
	Text string    `json:"text,omitempty"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at"`
}

// ReplayStep is a finished game after its first K moves, with every
// seat's view (GET /api/tables/{id}/replay/{k}): the game is over, so
// nothing is hidden any more.
type ReplayStep struct {
	Table  string              `json:"table"`
	K      int                 `json:"k"`
	Moves  int                 `json:"moves"` // in the whole game
	ToAct  []int               `json:"to_act"`
	Legal  map[string][]string `json:"legal"`
	Public any                 `json:"public"`
	Views  []any               `json:"views"` // one per seat
	Result Result              `json:"result"`
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
