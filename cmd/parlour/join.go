package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"unicode"
	"unicode/utf8"

	"parlour/internal/tui"
	"parlour/internal/tui/client"
)

// maxName is the longest name a server's table takes.
const maxName = 32

// runJoin sits at the table of an invite link and plays the seat: on the
// full-screen table, or in line mode (pipes, --plain).
func runJoin(e *env, link, name string, fullScreen, colour bool) int {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "parlour play: "+format+"\n", args...)
		return code
	}
	inv, err := client.ParseInvite(link)
	if err != nil {
		return fail(2, "--join: %v", err)
	}
	if name == "" {
		name = defaultName()
	}
	if err := checkName(name); err != nil {
		return fail(2, "--name: %v", err)
	}
	store, err := client.DefaultStore()
	if err != nil {
		return fail(1, "%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sat, err := client.Sit(ctx, inv, name, store)
	if err != nil {
		var api *client.APIError
		if errors.As(err, &api) {
			return fail(1, "cannot sit at %s: %s", inv.Link(), api.Message)
		}
		return fail(1, "cannot sit at %s: %v", inv.Link(), err)
	}
	seat, conn := sat.Seat, sat.Conn
	defer conn.Close()
	for _, b := range sat.Busy {
		fmt.Fprintf(e.stdout, "(seat %d at %s is yours but played in another terminal: this one joins as another player)\n", b, inv.Link())
	}
	if sat.Reused {
		fmt.Fprintf(e.stdout, "(taking back seat %d at %s)\n", seat.Seat, inv.Link())
	}
	cfg := tui.JoinConfig{Invite: inv, Seat: seat, Conn: conn, Colour: colour}
	play := tui.PlayJoined
	if fullScreen {
		stop() // the full-screen table reads ctrl+c itself
		play = tui.RunJoined
	}
	if err := play(cfg, e.stdin, e.stdout); err != nil {
		return fail(1, "%v", err)
	}
	return 0
}

// defaultName is the user's login name, or "player".
func defaultName() string {
	for _, v := range []string{"USER", "LOGNAME", "USERNAME"} {
		if n := strings.TrimSpace(os.Getenv(v)); n != "" && checkName(n) == nil {
			return n
		}
	}
	return "player"
}

// checkName refuses a name a server's table would refuse.
func checkName(name string) error {
	if n := utf8.RuneCountInString(name); n > maxName {
		return fmt.Errorf("%q has %d characters; a name has at most %d", name, n, maxName)
	}
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("a name may not be blank")
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%q holds a character that does not print (%U)", name, r)
		}
	}
	return nil
}
