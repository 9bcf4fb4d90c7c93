package tui

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"parlour/card"
	"parlour/internal/tui/client"
)

const joinHelp = `Type a move in notation (as listed), or its number from the list.
Other commands:
  say TEXT  write TEXT in the table chat (everyone at the table reads it)
  help      this text
  table     draw the table again
  scores    the scores so far
  quit      leave (your seat stays yours: --join again takes it back)
`

// PlayJoined plays a seat at a server's table in line mode: the table is
// drawn as text when it is the seat's turn, moves are typed (or their
// numbers), "say TEXT" writes in the chat, and the log and the chat are
// printed as they come. It returns when the match is over, the person
// quits or input ends (the seat stays theirs), or the connection closes
// for good.
func PlayJoined(cfg JoinConfig, in io.Reader, out io.Writer) error {
	p := &Painter{Colour: cfg.Colour, Seat: cfg.Seat.Seat}
	f := &feed{inv: cfg.Invite, viewer: cfg.Seat.Seat, drawCard: func(c card.Card) string { return p.Card(c) }}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var (
		legal   []string
		offered []string // the moves last offered ("Your move:")
		waiting bool
		queue   []string // moves typed, each waiting for the seat's turn
		sent    bool     // a move went; its answer has not come
		down    bool     // the connection dropped; no state has come since
		eof     bool     // input has ended
		waitsIn bool     // a prompt ("> ") is the last thing printed
	)
	// say prints lines of news: before the prompt if one waits for input,
	// which is then drawn again after them.
	say := func(lines ...string) {
		if len(lines) == 0 {
			return
		}
		if waitsIn {
			fmt.Fprintln(out)
		}
		for _, l := range lines {
			fmt.Fprintln(out, l)
		}
		if waitsIn {
			fmt.Fprint(out, "> ")
		}
	}
	ask := func() {
		fmt.Fprint(out, "> ")
		waitsIn = true
	}
	prompt := func(redraw bool) {
		if len(legal) == 0 {
			return
		}
		if redraw {
			p.Names = f.snap.labels
			fmt.Fprintln(out)
			fmt.Fprint(out, render(f.gameName, f.snap.view, p))
		}
		fmt.Fprintln(out, yourMove(promptOf(f.gameName, f.snap.view)))
		for i, t := range legal {
			fmt.Fprintf(out, "  %2d) %s\n", i+1, t)
		}
		ask()
	}
	leave := fmt.Sprintf("(your seat stays yours: parlour play --join %s takes it back)", cfg.Invite.Link())
	// next sends the first move waiting, when the seat may move; it
	// reports false when input has ended and a move is wanted.
	next := func() bool {
		for !sent && len(legal) > 0 && len(queue) > 0 {
			text := queue[0]
			queue = queue[1:]
			if n, err := strconv.Atoi(text); err == nil {
				if n < 1 || n > len(legal) {
					fmt.Fprintf(out, "No move %d: choose 1 to %d.\n", n, len(legal))
					ask()
					continue
				}
				text = legal[n-1]
			}
			if err := cfg.Conn.Move(text); err != nil {
				fmt.Fprintf(out, "Not sent: %v\n", err)
				ask()
				continue
			}
			sent = true
		}
		return !(eof && !sent && len(queue) == 0)
	}
	msgs := cfg.Conn.Messages()
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				return errors.New("the connection closed")
			}
			if s := m.Status; s != nil {
				switch s.State {
				case client.Reconnecting:
					sent, offered, legal, queue = false, nil, nil, nil // a move in flight is lost or made: the next state tells
					if !down {
						down = true
						say("The connection to the table was lost: reconnecting… Moves can be made again once it is back.")
					}
				case client.Closed:
					if s.Err == nil {
						return nil
					}
					return errors.New(strings.TrimSuffix(closedWhy(s.Err), "."))
				}
				continue
			}
			fr := m.Frame
			o := f.frame(fr, time.Now())
			var news []string
			if o.welcome {
				if f.has {
					news = append(news, "Connected again.")
				} else {
					news = append(news, fmt.Sprintf("%s at %s: you are seat %d. Type \"help\" for help.", fr.Title, cfg.Invite.Link(), fr.Seat))
				}
			}
			for _, l := range o.log {
				news = append(news, "  "+l.text)
			}
			for _, c := range o.chats {
				who := c.name
				if c.seat == f.viewer {
					who = "You"
				}
				mark := "chat"
				if c.old {
					mark = "chat, earlier"
				}
				news = append(news, fmt.Sprintf("[%s] %s: %s", mark, who, c.text))
			}
			if o.notice != "" {
				news = append(news, o.notice)
			}
			say(news...)
			if fr.Type == "error" && (fr.Move != "" || fr.Code == "not_your_turn" || fr.Code == "illegal_move" || fr.Code == "bad_move") {
				sent = false
				if len(legal) > 0 && !waitsIn {
					ask()
				}
			}
			if fr.Type == "state" && o.snap != nil {
				s := *o.snap
				down = false
				if e := o.dealEnd; e != nil {
					// The table as the deal left it, before the next one.
					p.Names = e.labels
					say("", p.Bold(fmt.Sprintf("End of %s %d:", dealWord(f.gameName), o.deal)),
						strings.TrimRight(render(f.gameName, e.view, p), "\n"))
				}
				for _, e := range fr.Events {
					if e.Kind == "move" && e.Seat == f.viewer {
						sent, offered = false, nil // the move went through: a new decision
					}
				}
				if s.status == "waiting" {
					if !waiting {
						waiting = true
						var open []string
						for i, st := range s.states {
							if st == "open" {
								open = append(open, strconv.Itoa(i))
							}
						}
						say(fmt.Sprintf("Waiting for players: %s open.", seatList(open)))
					}
					continue
				}
				if s.status == "over" || s.result.Over {
					p.Names = s.labels
					waitsIn = false
					fmt.Fprintln(out)
					fmt.Fprint(out, render(f.gameName, s.view, p))
					fmt.Fprintln(out, p.Bold("The match is over."))
					fmt.Fprint(out, scores(f.gameName, s.view, s.result, p))
					fmt.Fprintln(out, winners(s.result, func(i int) string { return p.Name(i) }, f.viewer))
					fmt.Fprintf(out, "Replay: %s\n", cfg.Invite.Replay())
					return nil
				}
				legal = s.legal
				// Offer the moves once a decision: the table changing while
				// the seat decides (another seat's hidden choice) does not
				// ask again.
				switch {
				case len(legal) == 0:
					offered = nil
				case !sent && !slices.Equal(legal, offered):
					offered = legal
					prompt(true)
				}
			}
			if !next() {
				fmt.Fprintln(out, "\nbye "+leave)
				return nil
			}
		case line, ok := <-lines:
			if !ok {
				lines = nil // a nil channel: never ready again
				eof = true
				if !next() {
					fmt.Fprintln(out, "\nbye "+leave)
					return nil
				}
				continue
			}
			waitsIn = false
			// reask shows the prompt again after a command, while the
			// seat's move is wanted.
			reask := func() {
				if len(legal) > 0 && !sent && !down {
					ask()
				}
			}
			input := strings.TrimSpace(line)
			lower := strings.ToLower(input)
			switch {
			case input == "":
				reask()
				continue
			case lower == "help" || lower == "h" || lower == "?":
				fmt.Fprint(out, joinHelp)
				reask()
				continue
			case lower == "table":
				if f.has {
					p.Names = f.snap.labels
					fmt.Fprint(out, render(f.gameName, f.snap.view, p))
				}
				prompt(false)
				continue
			case lower == "scores":
				p.Names = f.snap.labels
				fmt.Fprint(out, scores(f.gameName, f.snap.view, f.snap.result, p))
				reask()
				continue
			case lower == "quit" || lower == "exit" || lower == "q":
				fmt.Fprintln(out, "You left the table "+leave+".")
				return nil
			case lower == "say" || strings.HasPrefix(lower, "say "):
				text := strings.TrimSpace(input[3:])
				switch n := len([]rune(text)); {
				case text == "":
					fmt.Fprintln(out, "Say what? say TEXT writes TEXT in the chat.")
				case n > 500:
					fmt.Fprintf(out, "A chat message is at most 500 characters (this one has %d): not sent.\n", n)
				default:
					if err := cfg.Conn.Chat(text); err != nil {
						fmt.Fprintf(out, "Not sent: %v\n", err)
					}
				}
				reask()
				continue
			}
			if down {
				fmt.Fprintln(out, "Not connected: the move was not sent. Type it again once the table is back.")
				continue
			}
			if len(legal) == 0 && len(queue) == 0 && !sent {
				fmt.Fprintln(out, "It is not your turn: that move waits until it is.")
			}
			queue = append(queue, input)
			if !next() {
				fmt.Fprintln(out, "\nbye "+leave)
				return nil
			}
		}
	}
}
