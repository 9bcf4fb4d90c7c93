package bot

import "parlour/game"

// Seater is a bot that keeps something for each seat it plays through a
// match, such as an external program (the bot protocol): whoever runs a
// match calls Sit for each of its seats at the start, then for every move
// made at the table Moved on every seat, and End once the match is over.
// The Seat's Choose answers for its seat.
type Seater interface {
	Bot
	// Sit takes seat in the match s (before its first move), played with
	// the resolved options opts; match names the match.
	Sit(match string, s game.State, opts game.Options, seat int) Seat
}

// Seat is one seat of one match played by a Seater.
type Seat interface {
	Bot
	// Moved tells the seat that mover made move m, which s shows applied;
	// simultaneous says that several seats were to act when it was made.
	Moved(s game.State, mover int, m game.Move, simultaneous bool)
	// End tells the seat the match is over, as s shows.
	End(s game.State)
	// Faults returns how many of the seat's moves were faults (a stand-in
	// made them).
	Faults() int
}

// Table is the seats of one match, each a plain bot or a Seater's Seat: it
// runs the calls Seater asks for.
type Table struct {
	Bots  []Bot  // by seat: the bot that chooses the seat's moves
	seats []Seat // by seat: its Seat, or nil for a plain bot
}

// Sit seats bots (one per seat) at the match s called match, played with
// the resolved options opts.
func Sit(match string, s game.State, opts game.Options, bots []Bot) *Table {
	t := &Table{Bots: make([]Bot, len(bots)), seats: make([]Seat, len(bots))}
	for i, b := range bots {
		t.Bots[i] = b
		if sb, ok := b.(Seater); ok {
			t.seats[i] = sb.Sit(match, s, opts, i)
			t.Bots[i] = t.seats[i]
		}
	}
	return t
}

// Moved tells every Seat of the table about a move (see Seat.Moved).
func (t *Table) Moved(s game.State, mover int, m game.Move, simultaneous bool) {
	for _, st := range t.seats {
		if st != nil {
			st.Moved(s, mover, m, simultaneous)
		}
	}
}

// End ends the match for every Seat, and returns each seat's faults.
func (t *Table) End(s game.State) []int {
	faults := make([]int, len(t.seats))
	for i, st := range t.seats {
		if st != nil {
			st.End(s)
			faults[i] = st.Faults()
		}
	}
	return faults
}
