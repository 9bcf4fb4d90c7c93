package courtcircular

import (
	_ "embed"

	"parlour/game"
)

//go:embed rules.txt
var rulesText string

// MaxPlayers is the largest table of the 1860 edition (Section II).
const MaxPlayers = 6

// The editions, as the option "edition" names them.
const (
	Edition1860 = "1860"
	Edition1862 = "1862"
)

// Game is the Court Circular rule set. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "court-circular".
func (Game) Name() string { return "court-circular" }

// Title returns "Court Circular".
func (Game) Title() string { return "Court Circular" }

// Summary describes the game in one sentence.
func (Game) Summary() string {
	return "Lewis Carroll's game of Lines: play three cards beside the shared Lead to make the best Line (a Trio, a Sequence, ...) and win the cards; his 1860 and 1862 rules."
}

// Rules returns the rules as implemented.
func (Game) Rules() string { return rulesText }

// Players returns 2 and 6 (the 1862 edition takes exactly 2).
func (Game) Players() (int, int) { return 2, MaxPlayers }

// unsetTarget is the default of the "target" option. It has its own type so
// that New can tell a target that was given (which the 1862 edition refuses)
// from the default; it prints and marshals as plain "50".
type unsetTarget string

const defaultTarget unsetTarget = "50"

// Options returns players (2-6, default 2), edition ("1860" or "1862",
// default "1860") and target (1860 only: "20" or "50", default 50).
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players (the 1862 edition takes 2)", Default: 2, Min: 2, Max: MaxPlayers},
		{Name: "edition", Doc: "which printed rules: 1860 (2-6 players) or 1862 (2 players)", Default: Edition1860,
			Choices: []string{Edition1860, Edition1862}},
		{Name: "target", Doc: "points that win the game (1860 edition only)", Default: defaultTarget,
			Choices: []string{"20", "50"}},
	}
}

// config is what New reads from the options.
type config struct {
	players int
	e62     bool
	target  int
	dealer  int
}

func readOptions(opts game.Options) (config, error) {
	bad := func(option, reason string) error {
		return &game.OptionError{Game: "court-circular", Option: option, Reason: reason}
	}
	c := config{players: opts.Players(), dealer: opts.Dealer(), target: 50}
	if c.players < 2 || c.players > MaxPlayers {
		return c, bad("players", "must be 2 to 6")
	}
	switch ed := opts.String("edition"); ed {
	case "", Edition1860:
	case Edition1862:
		c.e62 = true
	default:
		return c, bad("edition", "must be 1860 or 1862")
	}
	given := false
	switch t := opts["target"].(type) {
	case nil, unsetTarget:
	case string:
		given = true
		switch t {
		case "20":
			c.target = 20
		case "50":
		default:
			return c, bad("target", "must be 20 or 50")
		}
	case int:
		given = true
		if t != 20 && t != 50 {
			return c, bad("target", "must be 20 or 50")
		}
		c.target = t
	default:
		return c, bad("target", "must be 20 or 50")
	}
	if c.e62 {
		if c.players != 2 {
			return c, bad("players", "the 1862 edition is for 2 players")
		}
		if given {
			return c, bad("target", "the 1862 edition plays to two Hits (a Rubber); target is an 1860 option")
		}
		c.target = 0
	}
	if c.dealer != game.DealerRandom && (c.dealer < 0 || c.dealer >= c.players) {
		return c, bad("dealer", "out of range")
	}
	return c, nil
}
