// Package client sits at a table of a Parlour server from outside, as a
// browser does: it reads an invite link, takes a seat through the lobby
// API, keeps the seat's token so that the same seat can be taken back
// later, and speaks the table protocol (docs/protocol.md) over a WebSocket
// that reconnects by itself when it drops.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Invite is a table of a server, as an invite link names it.
type Invite struct {
	Base  string // the server, "http://HOST:PORT" (or https)
	Table string // the table's id
}

// Link returns the invite link a browser opens: BASE/#/t/TABLE.
func (i Invite) Link() string { return i.Base + "/#/t/" + i.Table }

// Replay returns the link of the table's replay page.
func (i Invite) Replay() string { return i.Base + "/#/replay/" + i.Table }

// socket returns the table's WebSocket address.
func (i Invite) socket() string {
	u := "ws" + strings.TrimPrefix(i.Base, "http") + "/ws/tables/" + i.Table
	return u
}

// ErrBadInvite is matched by every error ParseInvite returns.
var ErrBadInvite = errors.New("not an invite link")

var tableID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ParseInvite reads an invite link: http://HOST:PORT/#/t/TABLE as a browser
// opens it, or .../t/TABLE, or the table's WebSocket address
// ws://HOST:PORT/ws/tables/TABLE (https and wss alike).
func ParseInvite(raw string) (Invite, error) {
	bad := func(why string) (Invite, error) {
		return Invite{}, fmt.Errorf("%w: %q %s (give the link a browser opens, such as http://127.0.0.1:8080/#/t/TABLE)", ErrBadInvite, raw, why)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return bad("does not parse as a URL")
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https":
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	case "":
		return bad("has no scheme")
	default:
		return bad("is not an http or ws address")
	}
	if u.Host == "" {
		return bad("names no server")
	}
	if u.User != nil {
		return bad("holds a user name")
	}
	// The table is in the fragment (#/t/ID) or in the path (/t/ID,
	// /ws/tables/ID).
	var parts []string
	for _, p := range []string{u.Fragment, u.Path} {
		parts = strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
		if len(parts) > 0 {
			break
		}
	}
	var id string
	switch {
	case len(parts) == 2 && parts[0] == "t":
		id = parts[1]
	case len(parts) == 3 && parts[0] == "ws" && parts[1] == "tables":
		id = parts[2]
	default:
		return bad("names no table (#/t/TABLE)")
	}
	if !tableID.MatchString(id) {
		return bad("names no table id")
	}
	return Invite{Base: scheme + "://" + u.Host, Table: id}, nil
}

// Seat is a seat held at a table: its number and its token.
type Seat struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
	Name  string `json:"name,omitempty"`
}

// APIError is a refusal of the lobby API.
type APIError struct {
	Status  int    // the HTTP status
	Code    string // "seat_taken", "not_found", ...
	Message string // the server's reason
}

// Error returns the server's reason.
func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("the server answered %d %s", e.Status, e.Code)
	}
	return e.Message
}

// httpClient is the lobby API's client: no request waits for ever.
var httpClient = &http.Client{Timeout: 15 * time.Second}

// Join takes the first open seat at the invite's table under name.
func Join(ctx context.Context, inv Invite, name string) (Seat, error) {
	body, _ := json.Marshal(map[string]any{"name": name})
	var res struct {
		Table string `json:"table"`
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if err := call(ctx, http.MethodPost, inv.Base+"/api/tables/"+inv.Table+"/join", body, &res); err != nil {
		return Seat{}, err
	}
	if res.Token == "" {
		return Seat{}, fmt.Errorf("the server gave no seat token")
	}
	return Seat{Seat: res.Seat, Token: res.Token, Name: name}, nil
}

// call makes one lobby API request and decodes its answer into out.
func call(ctx context.Context, method, u string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach the server: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("reading the server's answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		json.Unmarshal(data, &e)
		return &APIError{Status: resp.StatusCode, Code: e.Error.Code, Message: e.Error.Message}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the server's answer is not what a Parlour server says: %w", err)
	}
	return nil
}

// Sitting is a seat taken at a table by Sit, and its connection.
type Sitting struct {
	Seat Seat
	Conn *Conn
	// Reused reports that the seat was one the store held, taken back.
	Reused bool
	// Busy lists the seats the store holds at the table that another
	// process of this user plays now (another terminal): Sit left them to
	// it and joined as a new player.
	Busy []int
}

// Sit takes a seat at the invite's table and connects to it. A seat the
// store holds for that table is taken back with its token, unless another
// process plays it now (each seat is locked while played, see lockSeat):
// a second terminal of the same user does not take the first one's seat.
// Otherwise, or when the table no longer knows the token, Sit joins the
// first open seat under name and keeps its token in the store beside the
// others. Nothing is kept when joining fails. The seat stays locked until
// the connection is closed.
func Sit(ctx context.Context, inv Invite, name string, store Store) (Sitting, error) {
	held, err := store.All(inv)
	if err != nil {
		return Sitting{}, err
	}
	var busy []int
	for _, h := range held {
		release, ok, err := lockSeat(store, inv, h.Seat)
		if err != nil {
			return Sitting{}, err
		}
		if !ok {
			busy = append(busy, h.Seat)
			continue
		}
		conn, err := Dial(ctx, inv, h.Token)
		if err == nil {
			conn.release = release
			return Sitting{Seat: h, Conn: conn, Reused: true, Busy: busy}, nil
		}
		release()
		if !errors.Is(err, ErrBadToken) {
			return Sitting{}, err
		}
		if err := store.Remove(inv, h); err != nil {
			return Sitting{}, err
		}
	}
	seat, err := Join(ctx, inv, name)
	if err != nil {
		return Sitting{}, err
	}
	release, ok, err := lockSeat(store, inv, seat.Seat)
	if err != nil {
		return Sitting{}, err
	}
	if !ok {
		release = func() {}
	}
	if err := store.Add(inv, seat); err != nil {
		release()
		return Sitting{}, fmt.Errorf("keeping the seat's token: %w", err)
	}
	conn, err := Dial(ctx, inv, seat.Token)
	if err != nil {
		release()
		return Sitting{}, err
	}
	conn.release = release
	return Sitting{Seat: seat, Conn: conn, Busy: busy}, nil
}
