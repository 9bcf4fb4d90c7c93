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

// DefaultTarget is the points that win an 1860 game unless the target
// option says otherwise (Ruling 17).
const DefaultTarget = 50

// Options returns players (2-6, default 2), edition ("1860" or "1862",
// default "1860") and target (1860 only: 1 to 9999, default 50).
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Doc: "number of players (the 1862 edition takes 2)", Default: 2, Min: 2, Max: MaxPlayers},
		{Name: "edition", Doc: "which printed rules: 1860 (2-6 players) or 1862 (2 players)", Default: Edition1860,
			Choices: []string{Edition1860, Edition1862}},
		{Name: "target", Doc: "points that win the game (1860 edition only; the rules print 20 or 50)", Default: DefaultTarget,
			Min: 1, Max: 9999},
	}
}

// Info reports that the highest total wins, over several deals.
func (Game) Info() game.Info { return game.Info{Deal: "deal", Deals: "deals"} }

// CheckOptions refuses the 1862 edition with other than 2 players or with
// a target given (it plays to two Hits), and drops the target it does not
// use from its resolved options.
func (Game) CheckOptions(o game.Options, given game.Given) error {
	if o.String("edition") != Edition1862 {
		return nil
	}
	if o.Players() != 2 {
		return &game.OptionError{Game: "court-circular", Option: "players", Reason: "the 1862 edition is for 2 players"}
	}
	if given("target") {
		return &game.OptionError{Game: "court-circular", Option: "target",
			Reason: "the 1862 edition plays to two Hits (a Rubber); target is an 1860 option"}
	}
	delete(o, "target")
	return nil
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
	c := config{players: opts.Players(), dealer: opts.Dealer(), target: DefaultTarget}
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
	if c.e62 {
		if c.players != 2 {
			return c, bad("players", "the 1862 edition is for 2 players")
		}
		if _, ok := opts["target"]; ok {
			return c, bad("target", "the 1862 edition plays to two Hits (a Rubber); target is an 1860 option")
		}
		c.target = 0
	} else if t, ok := opts["target"].(int); ok {
		if t < 1 || t > 9999 {
			return c, bad("target", "must be 1 to 9999")
		}
		c.target = t
	}
	if c.dealer != game.DealerRandom && (c.dealer < 0 || c.dealer >= c.players) {
		return c, bad("dealer", "out of range")
	}
	return c, nil
}
