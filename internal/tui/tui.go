// Package tui plays a game in the terminal: one person against bots, or
// at a seat of a server's table (JoinConfig). Run and RunJoined draw the
// full-screen table (Bubble Tea): each game's layout with box cards, the
// legal moves chosen with the arrow keys or typed in notation, the live
// log in the game's own words, and the chat at a server. Play and
// PlayJoined are the line prompt, for pipes: the table drawn as text after
// every move, moves typed in notation or chosen by number.
package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"parlour/bot"
	"parlour/card"
	"parlour/game"
	"parlour/games"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// Config is one terminal game.
type Config struct {
	Game    game.Game
	Options game.Options
	Seed    uint64
	Seat    int       // the person's seat
	Bots    []bot.Bot // one per seat; the person's entry is ignored
	Colour  bool      // draw red suits in red (ANSI)

	// Name is the person's name on the full-screen table ("You" if empty).
	Name string
	// BotDelay is how long a bot's move takes to show on the full-screen
	// table at least (DefaultBotDelay is a good one; 0: at once).
	BotDelay time.Duration
	// Replay is the command that plays this match again, shown at its
	// end ("parlour play golf --seed 7 --players 8"); empty: the game and
	// the seed alone.
	Replay string
}

// Renderer draws a seat's view of a game as text.
type Renderer func(view any, p *Painter) string

// A renderer is how the terminal draws one game: the whole of what this
// package knows of it.
type renderer struct {
	// text draws the table for the line prompt (Play, PlayJoined).
	text Renderer
	// board draws the full-screen table (Run, RunJoined).
	board func(s *snapshot, d *drawer) string
	// decode reads a view a server sent (JSON) back into the game's own
	// view type, so a table at a server is drawn as a table here is.
	decode func(json.RawMessage) (any, error)
	// hand returns the viewer's hand in a view, which the arrow keys go
	// through first; nil for a game without hands (Golf).
	hand func(view any) []card.Card
	// prompt returns what the viewer must do now (the view's "prompt"),
	// "" when it has nothing to do.
	prompt func(view any) string
}

// renderers holds each game's renderer, by game.Game.Name: the one place a
// game joins the terminal. A game without one is drawn as its view's JSON
// (games/tables_test.go checks every registered game has its own).
var renderers = map[string]renderer{
	courtcircular.Game{}.Name(): {renderCourt, courtBoard, decodeAs[courtcircular.View],
		handIn(func(v courtcircular.View) []card.Card { return v.Hand }), promptIn(func(v courtcircular.View) string { return v.Prompt })},
	damn.Game{}.Name(): {renderDamn, damnBoard, decodeAs[damn.View],
		handIn(func(v damn.View) []card.Card { return v.Hand }), promptIn(func(v damn.View) string { return v.Prompt })},
	golf.Game{}.Name(): {renderGolf, golfBoard, decodeAs[golf.View], nil, promptIn(func(v golf.View) string { return v.Prompt })},
	parcellus.Game{}.Name(): {renderParcellus, parcellusBoard, decodeAs[parcellus.View],
		handIn(func(v parcellus.View) []card.Card { return v.Hand }), promptIn(func(v parcellus.View) string { return v.Prompt })},
	tractric.Game{}.Name(): {renderTractric, tractricBoard, decodeAs[tractric.View],
		handIn(tractricHand), promptIn(func(v tractric.View) string { return v.Prompt })},
}

// handIn makes a renderer's hand from a function of the game's view type.
func handIn[V any](f func(V) []card.Card) func(any) []card.Card {
	return func(view any) []card.Card {
		if v, ok := view.(V); ok {
			return f(v)
		}
		return nil
	}
}

// promptIn makes a renderer's prompt from a function of the game's view
// type.
func promptIn[V any](f func(V) string) func(any) string {
	return func(view any) string {
		if v, ok := view.(V); ok {
			return f(v)
		}
		return ""
	}
}

// promptOf returns what the viewer must do now in a view of game name
// ("" when nothing, or for a game this program does not know).
func promptOf(name string, view any) string {
	if r, ok := renderers[name]; ok && r.prompt != nil && view != nil {
		return r.prompt(view)
	}
	return ""
}

// HasRenderer reports whether g has a renderer of its own, for the line
// prompt and the full screen, reads its views from a server and shows
// their prompts.
func HasRenderer(g game.Game) bool {
	r, ok := renderers[g.Name()]
	return ok && r.text != nil && r.board != nil && r.decode != nil && r.prompt != nil
}

// dealWord is what game name calls a deal (game.Info), "deal" for a game
// this program does not know.
func dealWord(name string) string {
	if g, err := games.Lookup(name); err == nil && g.Info().Deal != "" {
		return g.Info().Deal
	}
	return "deal"
}

// sides lists, by side, the seats of each side at a table of players of a
// game whose seats play in partnerships there (game.Info.Sides); nil when
// every seat plays for itself.
func sides(info game.Info, players int) [][]int {
	of, ok := info.Sides[players]
	if !ok {
		return nil
	}
	var out [][]int
	for seat, side := range of {
		for len(out) <= side {
			out = append(out, nil)
		}
		out[side] = append(out[side], seat)
	}
	return out
}

// Painter formats cards and highlights for one terminal.
type Painter struct {
	Colour bool
	Seat   int      // the person's seat
	Names  []string // a name per seat
}

// Card returns a card with its suit symbol, red suits in red when colour is on.
func (p *Painter) Card(c fmt.Stringer) string {
	s := c.String()
	if s == "-" {
		return "  "
	}
	pretty := s
	red := false
	if len(s) >= 2 && s != "JK" {
		switch s[len(s)-1] {
		case 'S':
			pretty = s[:len(s)-1] + "♠"
		case 'H':
			pretty, red = s[:len(s)-1]+"♥", true
		case 'D':
			pretty, red = s[:len(s)-1]+"♦", true
		case 'C':
			pretty = s[:len(s)-1] + "♣"
		}
	}
	if red && p.Colour {
		return "\x1b[31m" + pretty + "\x1b[0m"
	}
	return pretty
}

// Bold emphasises s when colour is on.
func (p *Painter) Bold(s string) string {
	if p.Colour {
		return "\x1b[1m" + s + "\x1b[0m"
	}
	return s
}

// Name returns the display name of seat.
func (p *Painter) Name(seat int) string {
	if seat >= 0 && seat < len(p.Names) {
		return p.Names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

const help = `Type a move in notation (as listed), or its number from the list.
Other commands:
  help     this text
  rules    the rules of the game
  table    draw the table again
  scores   the scores so far
  quit     leave the game
`

// Play runs the game until it is over or the person quits. It reads the
// person's input from in and writes everything to out.
func Play(cfg Config, in io.Reader, out io.Writer) error {
	s, err := cfg.Game.New(cfg.Options, cfg.Seed, nil)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xb07))
	p := &Painter{Colour: cfg.Colour, Seat: cfg.Seat}
	for i := 0; i < s.Players(); i++ {
		if i == cfg.Seat {
			p.Names = append(p.Names, "You")
		} else {
			p.Names = append(p.Names, fmt.Sprintf("%s bot %d", cfg.Bots[i].Name(), i))
		}
	}
	// External bots (the bot protocol) follow the match seat by seat.
	table := bot.Sit("m1", s, cfg.Options, cfg.Bots)
	defer func() { table.End(s) }()
	// The end of each deal is shown as it was, before the next is dealt.
	var ended any
	s.WatchDeals(func(st game.State) { ended = game.DealEndView(st, cfg.Seat) })
	lines := bufio.NewScanner(in)
	fmt.Fprintf(out, "%s: you are seat %d against %s. Type \"help\" for help.\n", cfg.Game.Title(), cfg.Seat, plural(s.Players()-1, "bot"))
	deals := 0
	drawn := false
	for s.ToAct() != 0 {
		acts := s.ToAct()
		// Bots move first where several seats choose at once: their choices
		// stay hidden until everyone has chosen, so the order is fair.
		if seat := botToAct(acts, cfg.Seat); seat >= 0 {
			m := table.Bots[seat].Choose(s, seat, rng)
			text := s.FormatMove(m)
			if err := game.Apply(s, seat, m); err != nil {
				return fmt.Errorf("bot %d chose %q: %w", seat, text, err)
			}
			table.Moved(s, seat, m, acts.Len() > 1)
			if acts.Len() > 1 {
				fmt.Fprintf(out, "  %s has chosen.\n", p.Name(seat))
			} else {
				fmt.Fprintf(out, "  %s: %s\n", p.Name(seat), text)
			}
			drawn = false
		} else {
			if !drawn {
				fmt.Fprintln(out)
				fmt.Fprint(out, render(cfg.Game.Name(), s.View(cfg.Seat), p))
				drawn = true
			}
			legal := game.LegalText(s, cfg.Seat)
			fmt.Fprintln(out, yourMove(promptOf(cfg.Game.Name(), s.View(cfg.Seat))))
			for i, t := range legal {
				fmt.Fprintf(out, "  %2d) %s\n", i+1, t)
			}
			fmt.Fprint(out, "> ")
			if !lines.Scan() {
				fmt.Fprintln(out, "\nbye")
				return lines.Err()
			}
			input := strings.TrimSpace(lines.Text())
			switch strings.ToLower(input) {
			case "":
				continue
			case "help", "h", "?":
				fmt.Fprint(out, help)
				continue
			case "rules":
				fmt.Fprint(out, cfg.Game.Rules())
				continue
			case "table":
				drawn = false
				continue
			case "scores":
				fmt.Fprint(out, scores(cfg.Game.Name(), s.View(cfg.Seat), s.Result(), p))
				continue
			case "quit", "exit", "q":
				fmt.Fprintln(out, "You left the game.")
				return nil
			}
			text := input
			if n, err := strconv.Atoi(input); err == nil {
				if n < 1 || n > len(legal) {
					fmt.Fprintf(out, "No move %d: choose 1 to %d.\n", n, len(legal))
					continue
				}
				text = legal[n-1]
			}
			m, err := s.ParseMove(cfg.Seat, text)
			if err == nil {
				err = game.Apply(s, cfg.Seat, m)
			}
			if err != nil {
				fmt.Fprintf(out, "Not allowed: %v\n", err)
				continue
			}
			table.Moved(s, cfg.Seat, m, acts.Len() > 1)
			fmt.Fprintf(out, "  You: %s\n", s.FormatMove(m))
			drawn = false
		}
		if r := s.Result(); len(r.DealScores) > deals {
			deals = len(r.DealScores)
			fmt.Fprintf(out, "\n%s\n", p.Bold(fmt.Sprintf("End of %s %d.", dealWord(cfg.Game.Name()), deals)))
			if ended != nil && !r.Over {
				fmt.Fprint(out, render(cfg.Game.Name(), ended, p))
			}
			fmt.Fprint(out, scores(cfg.Game.Name(), s.View(cfg.Seat), r, p))
			ended = nil
		}
	}
	fmt.Fprintln(out)
	fmt.Fprint(out, render(cfg.Game.Name(), s.View(cfg.Seat), p))
	r := s.Result()
	fmt.Fprintln(out, p.Bold("The match is over."))
	fmt.Fprint(out, scores(cfg.Game.Name(), s.View(cfg.Seat), r, p))
	fmt.Fprintln(out, winners(r, p.Name, cfg.Seat))
	if cfg.Replay != "" {
		fmt.Fprintf(out, "%s replays this match.\n", cfg.Replay)
	}
	return nil
}

// yourMove is the line prompt's turn line: what to do, in the game's
// words, before the moves listed.
func yourMove(prompt string) string {
	if prompt == "" {
		return "Your move:"
	}
	return "Your move: " + prompt + "."
}

func botToAct(acts game.Seats, person int) int {
	return acts.Remove(person).First()
}

func render(name string, view any, p *Painter) string {
	if r, ok := renderers[name]; ok {
		return r.text(view, p)
	}
	b, _ := json.MarshalIndent(view, "", "  ")
	return string(b) + "\n"
}

// scores formats the deal scores and totals as a table, in the words of
// game name (view, the seat's, for what it adds).
func scores(name string, view any, r game.Result, p *Painter) string {
	return scoreTable(name, view, r, p.Name, p.Bold, 0, 0)
}
