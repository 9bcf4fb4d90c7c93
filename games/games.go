// Package games is the registry of every game Parlour plays.
package games

import (
	"parlour/game"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// Registry holds every game, found by name with Registry.Lookup.
var Registry = game.NewRegistry(
	courtcircular.Game{},
	golf.Game{},
	damn.Game{},
	tractric.Game{},
	parcellus.Game{},
)

// Lookup returns the game called name; the error matches game.ErrUnknownGame.
func Lookup(name string) (game.Game, error) { return Registry.Lookup(name) }
