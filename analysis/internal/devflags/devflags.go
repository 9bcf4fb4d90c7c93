// Package devflags reads, from the flags of package analysis's own
// commands (calibrate, ladder), the game they run on and its options.
package devflags

import (
	"flag"
	"strings"

	"parlour/game"
	"parlour/games"
)

// GameFlags are the -game, -players and -set flags of a command.
type GameFlags struct {
	name    *string
	players *int
	set     *string
}

// AddGame adds -game, -players and -set to fs.
func AddGame(fs *flag.FlagSet) GameFlags {
	return GameFlags{
		name:    fs.String("game", "golf", "game"),
		players: fs.Int("players", 0, "players (default: the game's)"),
		set:     fs.String("set", "", "other options, key=value,..."),
	}
}

// Resolve looks the game up and resolves its options: those of -set,
// then more's (options a command takes by flags of its own), then
// -players when not 0. It returns the game's error for an unknown game
// or a bad option.
func (f GameFlags) Resolve(more map[string]any) (game.Game, game.Options, error) {
	g, err := games.Lookup(*f.name)
	if err != nil {
		return nil, nil, err
	}
	given := map[string]any{}
	if *f.set != "" {
		for _, kv := range strings.Split(*f.set, ",") {
			k, v, _ := strings.Cut(kv, "=")
			given[k] = v // Resolve reads numbers from text
		}
	}
	for k, v := range more {
		given[k] = v
	}
	if *f.players > 0 {
		given["players"] = *f.players
	}
	opts, err := game.Resolve(g, given)
	if err != nil {
		return nil, nil, err
	}
	return g, opts, nil
}
